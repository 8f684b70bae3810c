"""The model port: one small interface every AI feature talks to, whatever the provider.

A request carries the model, a system prompt, the turns (user, assistant with tool calls, tool results),
tool definitions as JSON Schema, and options in which the output budget is always set. A provider answers
with text, tool calls, a finish reason, the model id and token usage — at once (``chat``) or as events as
they arrive (``stream``, its events in ``llm_stream``). Provider failures are typed (``tripagent.errors``:
``AiUnavailable``, ``AiBadResponse``, ``AiAuthFailed``, ``AiTimeout``, ``AiRateLimited``). The deployment's
limits on every call are ``llm_limits``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:  # (a function that never streams does not load the events)
    from tripagent.application.llm_stream import StreamEvent

Role = Literal["user", "assistant", "tool"]
FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "error", "other"]


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None  # for role "tool": the call this result answers


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON Schema of the arguments


@dataclass(frozen=True, slots=True)
class ChatOptions:
    max_output_tokens: int
    temperature: float | None = None
    timeout_s: float = 30.0
    # What the call is for (brief_chat, spec_extraction, agent, review): providers backed by a model ignore
    # it; the offline ``rules`` provider uses it to pick the rule engine that answers.
    task: str | None = None


@dataclass(frozen=True, slots=True)
class ResponseFormat:
    """An answer that must be one JSON object of this schema: a provider with structured output uses its
    own (OpenAI ``response_format``, Anthropic and Bedrock a forced tool) and answers the object as its
    text; one without it is told in the prompt, and the caller parses leniently either way."""

    name: str
    description: str
    schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ChatRequest:
    model: str
    system: str
    messages: tuple[Message, ...]
    options: ChatOptions
    tools: tuple[ToolSpec, ...] = ()
    context: dict[str, Any] = field(default_factory=dict)  # structured facts for the rules provider
    response_format: ResponseFormat | None = None  # the answer is one JSON object of this schema

    def __post_init__(self) -> None:
        # The model port carries data: what an engine needs besides (a place index, a client) is given
        # to it where it is built, so that no live object crosses a provider, local or remote.
        try:
            json.dumps(self.context)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"ChatRequest.context must be JSON data, not live objects: {exc}") from None


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True, slots=True)
class ChatResult:
    text: str
    tool_calls: tuple[ToolCall, ...]
    finish_reason: FinishReason
    model: str
    usage: Usage


class ModelProvider(Protocol):
    name: str

    def chat(self, request: ChatRequest) -> ChatResult: ...

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]: ...


RULES_MODEL = "rules"


def rules_answer(text: str) -> ChatResult:
    """An answer of the offline ``rules`` provider: no model ran, so no tokens were used."""
    return ChatResult(text=text, tool_calls=(), finish_reason="stop", model=RULES_MODEL, usage=Usage())
