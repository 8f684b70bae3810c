"""The model port: one small interface every AI feature talks to, whatever the provider.

A request carries the model, a system prompt, the turns (user, assistant with tool calls, tool results),
tool definitions as JSON Schema, and options in which the output budget is always set. A provider answers
with text, tool calls, a finish reason, the model id and token usage — at once (``chat``) or as events as
they arrive (``stream``). Provider failures are typed (``tripagent.errors``: ``AiUnavailable``,
``AiBadResponse``, ``AiAuthFailed``, ``AiTimeout``, ``AiRateLimited``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

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


# ---------------------------------------------------------------------------- streaming events
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


class ModelProvider(Protocol):
    name: str

    def chat(self, request: ChatRequest) -> ChatResult: ...

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]: ...


@dataclass(frozen=True, slots=True)
class CallLimits:
    """The deployment's ceiling on every model call (``AI_TIMEOUT_S``, ``AI_MAX_OUTPUT_TOKENS``): a
    feature asks for what it needs, and gets at most this."""

    timeout_s: float
    max_output_tokens: int


class LimitedProvider:
    """A provider whose requests are held to the deployment's ``CallLimits``. The timeout matters most:
    a call must end inside the function's own timeout (29 s behind the HTTP API) so that the caller gets
    a typed ``ai_timeout``, not a gateway 503."""

    def __init__(self, inner: ModelProvider, limits: CallLimits) -> None:
        self._inner = inner
        self._limits = limits
        self.name = inner.name

    def chat(self, request: ChatRequest) -> ChatResult:
        return self._inner.chat(self._limited(request))

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        return self._inner.stream(self._limited(request))

    def _limited(self, request: ChatRequest) -> ChatRequest:
        asked = request.options
        options = replace(
            asked,
            timeout_s=min(asked.timeout_s, self._limits.timeout_s),
            max_output_tokens=min(asked.max_output_tokens, self._limits.max_output_tokens),
        )
        return request if options == asked else replace(request, options=options)


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


RULES_MODEL = "rules"


def rules_answer(text: str) -> ChatResult:
    """An answer of the offline ``rules`` provider: no model ran, so no tokens were used."""
    return ChatResult(text=text, tool_calls=(), finish_reason="stop", model=RULES_MODEL, usage=Usage())
