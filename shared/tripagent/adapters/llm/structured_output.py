"""Structured output, the providers' ways alike: the answer of a forced tool is the object, as text; a
provider or model that refuses structured output is asked again without it (the prompt asks for the same
JSON, and the caller reads it leniently)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from tripagent.application.llm import ChatRequest, ChatResult, ToolCall
from tripagent.errors import AiBadResponse


def forced_tool_answer(
    request: ChatRequest, text: str, calls: tuple[ToolCall, ...]
) -> tuple[str, tuple[ToolCall, ...]]:
    """The text and tool calls of a reply, the forced tool's input being the answer's text."""
    shape = request.response_format
    answer = [c for c in calls if shape is not None and c.name == shape.name]
    return (json.dumps(answer[0].arguments), ()) if answer else (text, calls)


def or_without_it(
    chat: Callable[[ChatRequest], ChatResult], request: ChatRequest, refused: Callable[[AiBadResponse], bool]
) -> ChatResult:
    """``chat(request)``; asked again without structured output when the provider ``refused`` it."""
    try:
        return chat(request)
    except AiBadResponse as exc:
        if request.response_format is None or not refused(exc):
            raise
        return chat(replace(request, response_format=None))
