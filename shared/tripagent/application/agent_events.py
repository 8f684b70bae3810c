"""What one turn of the trip agent says, in order, for the HTTP edge to stream (``entrypoints/ui_stream``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tripagent.application.llm import ToolCall, Usage


@dataclass(frozen=True, slots=True)
class AgentText:
    delta: str


@dataclass(frozen=True, slots=True)
class AgentDone:
    seq: int
    model: str
    usage: Usage
    finish_reason: str = "stop"
    stopped: str | None = None  # cut short: "stop" (a member asked), "timeout", "length"


@dataclass(frozen=True, slots=True)
class AgentFailed:
    message: str
    code: str = "ai_unavailable"  # the API's stable error code


@dataclass(frozen=True, slots=True)
class AgentStep:
    """The model is called again (after tool results): a new step of the same message."""


@dataclass(frozen=True, slots=True)
class AgentToolCall:
    call: ToolCall


@dataclass(frozen=True, slots=True)
class AgentToolResult:
    call_id: str
    output: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AgentApprovalRequest:
    call_id: str
    approval_id: str


@dataclass(frozen=True, slots=True)
class AgentClarify:
    """A numbered question: the UI renders it from the ``data-clarify`` part."""

    data: dict[str, Any]


AgentEvent = (
    AgentText
    | AgentDone
    | AgentFailed
    | AgentStep
    | AgentToolCall
    | AgentToolResult
    | AgentApprovalRequest
    | AgentClarify
)
