"""Any OpenAI-compatible ``/chat/completions`` endpoint (OpenAI, Ollama, vLLM, LM Studio, OpenRouter)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx

from tripagent.adapters.llm.arguments import tool_arguments
from tripagent.adapters.llm.http import HttpModelClient, json_or_bad_response, sse_events
from tripagent.adapters.llm.structured_output import or_without_it
from tripagent.application.llm import ChatRequest, ChatResult, FinishReason, ToolCall, Usage
from tripagent.application.llm_stream import (
    StreamEvent,
    StreamFinished,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallReady,
    ToolCallStarted,
)
from tripagent.errors import AiAuthFailed, AiBadResponse

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def _refused_the_field(exc: AiBadResponse) -> bool:
    return not isinstance(exc, AiAuthFailed) and any(f"(HTTP {s})" in str(exc) for s in (400, 422))


_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
}


class OpenAICompatibleProvider:
    name = "openai"

    def __init__(
        self,
        *,
        api_key: str | None,
        base_url: str | None = None,
        transport: httpx.BaseTransport | None = None,
        backoff_s: float = 0.5,
    ) -> None:
        headers = {"content-type": "application/json"}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        self._http = HttpModelClient(
            base_url or DEFAULT_BASE_URL, headers, transport=transport, backoff_s=backoff_s
        )

    def _body(self, request: ChatRequest, *, stream: bool) -> dict[str, Any]:
        messages: list[dict[str, Any]] = (
            [{"role": "system", "content": request.system}] if request.system else []
        )
        for message in request.messages:
            if message.role == "tool":
                messages.append(
                    {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
                )
            elif message.tool_calls:
                messages.append(
                    {
                        "role": "assistant",
                        "content": message.content or None,
                        "tool_calls": [
                            {
                                "id": c.id,
                                "type": "function",
                                "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                            }
                            for c in message.tool_calls
                        ],
                    }
                )
            else:
                messages.append({"role": message.role, "content": message.content})
        body: dict[str, Any] = {
            "model": request.model,
            "messages": messages,
            "max_tokens": request.options.max_output_tokens,
            "stream": stream,
        }
        if request.options.temperature is not None:
            body["temperature"] = request.options.temperature
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
                }
                for t in request.tools
            ]
        if request.response_format is not None:  # structured output: the answer is the object
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": request.response_format.name,
                    "description": request.response_format.description,
                    "schema": request.response_format.schema,
                },
            }
        if stream:
            body["stream_options"] = {"include_usage": True}
        return body

    def chat(self, request: ChatRequest) -> ChatResult:
        # A server without structured output (an older local one) refuses the field with a 400 or 422.
        return or_without_it(self._chat, request, _refused_the_field)

    def _chat(self, request: ChatRequest) -> ChatResult:
        with self._http.post(
            "/chat/completions", self._body(request, stream=False), timeout_s=request.options.timeout_s
        ) as response:
            payload = json_or_bad_response(response.text)
        try:
            choice = payload["choices"][0]
            message = choice["message"]
            calls = tuple(
                ToolCall(c["id"], c["function"]["name"], tool_arguments(c["function"].get("arguments")))
                for c in message.get("tool_calls") or []
            )
            usage = payload.get("usage") or {}
            return ChatResult(
                text=message.get("content") or "",
                tool_calls=calls,
                finish_reason=_FINISH.get(choice.get("finish_reason") or "", "other"),
                model=payload.get("model") or request.model,
                usage=Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))),
            )
        except (KeyError, IndexError, TypeError) as exc:
            raise AiBadResponse("The model provider's reply has an unexpected shape.") from exc

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        finish: FinishReason = "other"
        usage = Usage()
        model = request.model
        calls: dict[int, dict[str, Any]] = {}
        with self._http.post(
            "/chat/completions",
            self._body(request, stream=True),
            timeout_s=request.options.timeout_s,
            stream=True,
        ) as response:
            for _, data in sse_events(response):
                if data == "[DONE]":
                    break
                chunk = json_or_bad_response(data)
                model = chunk.get("model") or model
                if chunk.get("usage"):
                    usage = Usage(
                        int(chunk["usage"].get("prompt_tokens", 0)),
                        int(chunk["usage"].get("completion_tokens", 0)),
                    )
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    if delta.get("content"):
                        yield TextDelta(delta["content"])
                    for part in delta.get("tool_calls") or []:
                        slot = calls.setdefault(part.get("index", 0), {"id": "", "name": "", "args": ""})
                        function = part.get("function") or {}
                        if part.get("id"):
                            slot["id"] = part["id"]
                        if function.get("name"):
                            slot["name"] = function["name"]
                            yield ToolCallStarted(slot["id"], slot["name"])
                        if function.get("arguments"):
                            slot["args"] += function["arguments"]
                            yield ToolCallArgumentsDelta(slot["id"], function["arguments"])
                    if choice.get("finish_reason"):
                        finish = _FINISH.get(choice["finish_reason"], "other")
        for slot in calls.values():
            yield ToolCallReady(ToolCall(slot["id"], slot["name"], tool_arguments(slot["args"])))
        yield StreamFinished(finish, model, usage)
