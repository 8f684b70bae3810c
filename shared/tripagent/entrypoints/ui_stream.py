"""The Vercel AI SDK UI message stream, as its clients (``ai`` 6 and 7) parse it.

Server-Sent Events, one JSON chunk per event, ``data: [DONE]`` at the end, and only documented fields:
older clients reject unknown ones (``../shared/reference/ai-sdk-ui-stream.md``).
"""

from __future__ import annotations

import json
from typing import Any

HEADERS: dict[str, str] = {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "connection": "keep-alive",
    "x-vercel-ai-ui-message-stream": "v1",
    "x-accel-buffering": "no",
}
DONE = b"data: [DONE]\n\n"


def sse(chunk: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(chunk, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


def start(message_id: str | None = None, metadata: dict[str, Any] | None = None) -> bytes:
    chunk: dict[str, Any] = {"type": "start"}
    if message_id:
        chunk["messageId"] = message_id
    if metadata:
        chunk["messageMetadata"] = metadata
    return sse(chunk)


def start_step() -> bytes:
    return sse({"type": "start-step"})


def finish_step() -> bytes:
    return sse({"type": "finish-step"})


def text_start(part_id: str) -> bytes:
    return sse({"type": "text-start", "id": part_id})


def text_delta(part_id: str, delta: str) -> bytes:
    return sse({"type": "text-delta", "id": part_id, "delta": delta})


def text_end(part_id: str) -> bytes:
    return sse({"type": "text-end", "id": part_id})


def data_part(name: str, data: Any, part_id: str | None = None) -> bytes:
    chunk: dict[str, Any] = {"type": f"data-{name}", "data": data}
    if part_id:
        chunk["id"] = part_id
    return sse(chunk)


def finish(reason: str = "stop", metadata: dict[str, Any] | None = None) -> bytes:
    chunk: dict[str, Any] = {"type": "finish", "finishReason": reason}
    if metadata:
        chunk["messageMetadata"] = metadata
    return sse(chunk)


def error(code: str, message: str) -> bytes:
    """The error chunk's text is the API's error body as JSON (``{"error": code, "message": …}``): a
    client reads a failed stream and a failed request alike, by their stable code."""
    text = json.dumps({"error": code, "message": message}, ensure_ascii=False)
    return sse({"type": "error", "errorText": text})


def tool_input_start(call_id: str, name: str) -> bytes:
    return sse({"type": "tool-input-start", "toolCallId": call_id, "toolName": name})


def tool_input_available(call_id: str, name: str, arguments: dict[str, Any]) -> bytes:
    return sse({"type": "tool-input-available", "toolCallId": call_id, "toolName": name, "input": arguments})


def tool_output_available(call_id: str, output: Any) -> bytes:
    return sse({"type": "tool-output-available", "toolCallId": call_id, "output": output})


def tool_approval_request(approval_id: str, call_id: str) -> bytes:
    return sse({"type": "tool-approval-request", "approvalId": approval_id, "toolCallId": call_id})


def tool_output_denied(call_id: str) -> bytes:
    return sse({"type": "tool-output-denied", "toolCallId": call_id})


def tool_output_error(call_id: str, text: str) -> bytes:
    return sse({"type": "tool-output-error", "toolCallId": call_id, "errorText": text})
