"""Amazon Bedrock through the Converse and ConverseStream APIs (boto3), with native tool use."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError, ReadTimeoutError

from tripagent.adapters.llm.arguments import tool_arguments
from tripagent.adapters.llm.structured_output import forced_tool_answer, or_without_it
from tripagent.adapters.retries import full_jitter, retrying
from tripagent.application.llm import ChatRequest, ChatResult, FinishReason, Message, ToolCall, Usage
from tripagent.application.llm_stream import (
    StreamEvent,
    StreamFinished,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallReady,
    ToolCallStarted,
)
from tripagent.errors import AiAuthFailed, AiBadResponse, AiRateLimited, AiTimeout, AiUnavailable

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

_FINISH: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "content_filtered": "content_filter",
    "guardrail_intervened": "content_filter",
}


def _worth_another_attempt(exc: BaseException) -> bool:
    """Throttling and unavailability; not a refusal or a slow model (trying again won't help)."""
    return isinstance(exc, AiRateLimited | AiUnavailable) and not isinstance(exc, AiBadResponse | AiTimeout)


class BedrockProvider:
    """Retries are ours, not boto3's (build the client with one attempt: ``adapters.aws``): throttling and
    unavailability are retried with full-jitter backoff only while the call's deadline allows, as the
    HTTP providers do, so that a slow model ends as ``ai_timeout`` inside the function's own timeout."""

    name = "bedrock"

    def __init__(
        self, client: BedrockRuntimeClient, *, max_attempts: int = 3, backoff_s: float = 0.5
    ) -> None:
        self._client = client
        self._max_attempts = max_attempts
        self._backoff_s = backoff_s

    def _call(self, operation: Callable[..., Any], request: ChatRequest) -> Any:
        for attempt in retrying(
            attempts=self._max_attempts,
            wait=full_jitter(self._backoff_s),
            retry_on=_worth_another_attempt,
            deadline=time.monotonic() + request.options.timeout_s,
        ):
            with attempt, _bedrock_errors():
                return operation(**self._kwargs(request))
        raise AssertionError("unreachable")  # retrying raises the last failure

    def _kwargs(self, request: ChatRequest) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "modelId": request.model,
            "messages": _messages(request.messages),
            "inferenceConfig": {"maxTokens": request.options.max_output_tokens},
        }
        if request.options.temperature is not None:
            kwargs["inferenceConfig"]["temperature"] = request.options.temperature
        if request.system:
            kwargs["system"] = [{"text": request.system}]
        if request.tools:
            kwargs["toolConfig"] = {
                "tools": [
                    {
                        "toolSpec": {
                            "name": t.name,
                            "description": t.description,
                            "inputSchema": {"json": t.parameters},
                        }
                    }
                    for t in request.tools
                ]
            }
        if (shape := request.response_format) is not None:  # structured output: one forced tool
            config = kwargs.setdefault("toolConfig", {"tools": []})
            config["tools"].append(
                {
                    "toolSpec": {
                        "name": shape.name,
                        "description": shape.description,
                        "inputSchema": {"json": shape.schema},
                    }
                }
            )
            config["toolChoice"] = {"tool": {"name": shape.name}}
        return kwargs

    def chat(self, request: ChatRequest) -> ChatResult:
        # Forcing a tool is Anthropic's and Nova's on Bedrock: another model refuses it as invalid.
        return or_without_it(self._chat, request, lambda exc: "(ValidationException)" in str(exc))

    def _chat(self, request: ChatRequest) -> ChatResult:
        response: Any = self._call(self._client.converse, request)
        try:
            content = response["output"]["message"]["content"]
            text = "".join(block["text"] for block in content if "text" in block)
            calls = tuple(
                ToolCall(b["toolUse"]["toolUseId"], b["toolUse"]["name"], dict(b["toolUse"]["input"]))
                for b in content
                if "toolUse" in b
            )
            usage = response.get("usage") or {}
            text, calls = forced_tool_answer(request, text, calls)
            return ChatResult(
                text,
                calls,
                _FINISH.get(response.get("stopReason", ""), "other"),
                request.model,
                Usage(int(usage.get("inputTokens", 0)), int(usage.get("outputTokens", 0))),
            )
        except (KeyError, TypeError) as exc:
            raise AiBadResponse("Bedrock's reply has an unexpected shape.") from exc

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        finish: FinishReason = "other"
        usage = Usage()
        tools: dict[int, dict[str, Any]] = {}
        response: Any = self._call(self._client.converse_stream, request)
        with _bedrock_errors():
            for event in response["stream"]:
                if "contentBlockStart" in event:
                    start = event["contentBlockStart"]
                    tool = (start.get("start") or {}).get("toolUse")
                    if tool:
                        tools[start["contentBlockIndex"]] = {**tool, "args": ""}
                        yield ToolCallStarted(tool["toolUseId"], tool["name"])
                elif "contentBlockDelta" in event:
                    block = event["contentBlockDelta"]
                    delta = block.get("delta") or {}
                    if "text" in delta:
                        yield TextDelta(delta["text"])
                    elif "toolUse" in delta:
                        slot = tools[block["contentBlockIndex"]]
                        slot["args"] += delta["toolUse"].get("input", "")
                        yield ToolCallArgumentsDelta(slot["toolUseId"], delta["toolUse"].get("input", ""))
                elif "contentBlockStop" in event:
                    slot = tools.pop(event["contentBlockStop"]["contentBlockIndex"], {})
                    if slot:
                        arguments = tool_arguments(slot["args"])
                        yield ToolCallReady(ToolCall(slot["toolUseId"], slot["name"], arguments))
                elif "messageStop" in event:
                    finish = _FINISH.get(event["messageStop"].get("stopReason", ""), "other")
                elif "metadata" in event:
                    raw = event["metadata"].get("usage") or {}
                    usage = Usage(int(raw.get("inputTokens", 0)), int(raw.get("outputTokens", 0)))
                else:
                    _raise_stream_error(event)
        yield StreamFinished(finish, request.model, usage)


@contextmanager
def _bedrock_errors() -> Iterator[None]:
    """Translate boto3's failures into the port's typed errors."""
    try:
        yield
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "")
        if code == "ThrottlingException":
            raise AiRateLimited("Bedrock is throttling requests.", retry_after_s=10) from exc
        if code in ("AccessDeniedException", "UnrecognizedClientException", "ExpiredTokenException"):
            raise AiAuthFailed("Bedrock refused the credentials.") from exc
        if code == "ModelTimeoutException":
            raise AiTimeout("The model did not answer in time.") from exc
        if code in ("ServiceUnavailableException", "InternalServerException", "ModelNotReadyException"):
            raise AiUnavailable(f"Bedrock is unavailable ({code}).") from exc
        raise AiBadResponse(f"Bedrock rejected the request ({code}).") from exc
    except ReadTimeoutError as exc:
        raise AiTimeout("The model did not answer in time.") from exc
    except BotoCoreError as exc:
        raise AiUnavailable(f"Bedrock is unreachable ({type(exc).__name__}).") from exc


def _raise_stream_error(event: dict[str, Any]) -> None:
    for name in (
        "throttlingException",
        "serviceUnavailableException",
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
    ):
        if name in event:
            if name == "throttlingException":
                raise AiRateLimited("Bedrock is throttling requests.", retry_after_s=10)
            if name == "validationException":
                raise AiBadResponse("Bedrock rejected the request mid-stream.")
            raise AiUnavailable(f"Bedrock failed mid-stream ({name}).")


def _messages(messages: tuple[Message, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "tool":
            block = {
                "toolResult": {"toolUseId": message.tool_call_id, "content": [{"text": message.content}]}
            }
            if out and out[-1]["role"] == "user" and "toolResult" in out[-1]["content"][0]:
                out[-1]["content"].append(block)
            else:
                out.append({"role": "user", "content": [block]})
        else:
            content: list[dict[str, Any]] = [{"text": message.content}] if message.content else []
            content += [
                {"toolUse": {"toolUseId": c.id, "name": c.name, "input": c.arguments}}
                for c in message.tool_calls
            ]
            out.append({"role": message.role, "content": content})
    return out
