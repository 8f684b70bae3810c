"""Anthropic's Messages API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx

from tripagent.adapters.llm.arguments import tool_arguments
from tripagent.adapters.llm.http import HttpModelClient, json_or_bad_response, sse_events
from tripagent.adapters.llm.structured_output import forced_tool_answer
from tripagent.application.llm import ChatRequest, ChatResult, FinishReason, Message, ToolCall, Usage
from tripagent.application.llm_stream import (
    StreamEvent,
    StreamFinished,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallReady,
    ToolCallStarted,
)
from tripagent.errors import AiBadResponse, AiUnavailable

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
_FINISH: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "refusal": "content_filter",
}


class AnthropicProvider:
    name = "anthropic"

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None = None,
        transport: httpx.BaseTransport | None = None,
        backoff_s: float = 0.5,
    ) -> None:
        headers = {"x-api-key": api_key, "anthropic-version": API_VERSION, "content-type": "application/json"}
        self._http = HttpModelClient(
            base_url or DEFAULT_BASE_URL, headers, transport=transport, backoff_s=backoff_s
        )

    def _body(self, request: ChatRequest, *, stream: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": request.model,
            "max_tokens": request.options.max_output_tokens,
            "messages": _messages(request.messages),
            "stream": stream,
        }
        if request.system:
            body["system"] = request.system
        if request.options.temperature is not None:
            body["temperature"] = request.options.temperature
        if request.tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in request.tools
            ]
        if (shape := request.response_format) is not None:  # structured output: one forced tool
            body["tools"] = [
                *body.get("tools", []),
                {"name": shape.name, "description": shape.description, "input_schema": shape.schema},
            ]
            body["tool_choice"] = {"type": "tool", "name": shape.name}
        return body

    def chat(self, request: ChatRequest) -> ChatResult:
        with self._http.post(
            "/v1/messages", self._body(request, stream=False), timeout_s=request.options.timeout_s
        ) as response:
            payload = json_or_bad_response(response.text)
        try:
            text = "".join(b["text"] for b in payload["content"] if b["type"] == "text")
            calls = tuple(
                ToolCall(b["id"], b["name"], dict(b.get("input") or {}))
                for b in payload["content"]
                if b["type"] == "tool_use"
            )
            usage = payload.get("usage") or {}
            text, calls = forced_tool_answer(request, text, calls)
            return ChatResult(
                text,
                calls,
                _FINISH.get(payload.get("stop_reason") or "", "other"),
                payload.get("model") or request.model,
                Usage(int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))),
            )
        except (KeyError, TypeError) as exc:
            raise AiBadResponse("The model provider's reply has an unexpected shape.") from exc

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        model, finish = request.model, "other"
        input_tokens = output_tokens = 0
        blocks: dict[int, dict[str, Any]] = {}
        with self._http.post(
            "/v1/messages", self._body(request, stream=True), timeout_s=request.options.timeout_s, stream=True
        ) as response:
            for event, data in sse_events(response):
                payload = json_or_bad_response(data)
                kind = event or payload.get("type")
                if kind == "message_start":
                    message = payload.get("message") or {}
                    model = message.get("model") or model
                    input_tokens = int((message.get("usage") or {}).get("input_tokens", 0))
                elif kind == "content_block_start":
                    block = payload.get("content_block") or {}
                    blocks[payload.get("index", 0)] = {**block, "args": ""}
                    if block.get("type") == "tool_use":
                        yield ToolCallStarted(block["id"], block["name"])
                elif kind == "content_block_delta":
                    delta = payload.get("delta") or {}
                    slot = blocks.get(payload.get("index", 0), {})
                    if delta.get("type") == "text_delta":
                        yield TextDelta(delta.get("text", ""))
                    elif delta.get("type") == "input_json_delta":
                        slot["args"] = slot.get("args", "") + delta.get("partial_json", "")
                        yield ToolCallArgumentsDelta(slot.get("id", ""), delta.get("partial_json", ""))
                elif kind == "content_block_stop":
                    slot = blocks.get(payload.get("index", 0), {})
                    if slot.get("type") == "tool_use":
                        yield ToolCallReady(ToolCall(slot["id"], slot["name"], tool_arguments(slot["args"])))
                elif kind == "message_delta":
                    finish = _FINISH.get((payload.get("delta") or {}).get("stop_reason") or "", "other")
                    output_tokens = int((payload.get("usage") or {}).get("output_tokens", output_tokens))
                elif kind == "error":
                    raise AiUnavailable(
                        f"The model provider failed mid-stream: {(payload.get('error') or {}).get('type')}"
                    )
                elif kind == "message_stop":
                    break
        yield StreamFinished(finish, model, Usage(input_tokens, output_tokens))  # type: ignore[arg-type]


def _messages(messages: tuple[Message, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "tool":
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": message.tool_call_id,
                "content": message.content,
            }
            if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list):
                out[-1]["content"].append(block)  # consecutive tool results travel in one user turn
            else:
                out.append({"role": "user", "content": [block]})
        elif message.tool_calls:
            content: list[dict[str, Any]] = (
                [{"type": "text", "text": message.content}] if message.content else []
            )
            content += [
                {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
                for c in message.tool_calls
            ]
            out.append({"role": "assistant", "content": content})
        else:
            out.append({"role": message.role, "content": message.content})
    return out
