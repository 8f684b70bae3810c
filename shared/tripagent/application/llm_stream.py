"""The model port's streamed answer: the events a provider yields as they arrive, and their fold into the
result ``chat`` would have returned."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tripagent.application.llm import ChatResult, FinishReason, ToolCall, Usage


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCallStarted:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class ToolCallArgumentsDelta:
    id: str
    delta: str


@dataclass(frozen=True, slots=True)
class ToolCallReady:
    call: ToolCall


@dataclass(frozen=True, slots=True)
class StreamFinished:
    finish_reason: FinishReason
    model: str
    usage: Usage


StreamEvent = TextDelta | ToolCallStarted | ToolCallArgumentsDelta | ToolCallReady | StreamFinished


def collect(events: Iterator[StreamEvent]) -> ChatResult:
    """Fold a stream into the result ``chat`` would have returned."""
    text: list[str] = []
    calls: list[ToolCall] = []
    for event in events:
        if isinstance(event, TextDelta):
            text.append(event.text)
        elif isinstance(event, ToolCallReady):
            calls.append(event.call)
        elif isinstance(event, StreamFinished):
            return ChatResult("".join(text), tuple(calls), event.finish_reason, event.model, event.usage)
    return ChatResult("".join(text), tuple(calls), "other", "", Usage())
