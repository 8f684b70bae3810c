"""The agent's HTTP shapes: what AI SDK UI's transport sends, the history it restores, a mention."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class UIPart(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: str
    text: str | None = None


class UIMessage(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str = ""
    role: str
    parts: list[UIPart] = Field(default_factory=list)
    metadata: dict[str, Any] | None = None


class ChatRequestBody(BaseModel):
    """What AI SDK UI's DefaultChatTransport sends. Only the last user message is read: the history
    comes from the store, so forged assistant turns or tool results change nothing."""

    model_config = ConfigDict(extra="allow")

    id: str | None = None
    messages: list[UIMessage] = Field(min_length=1)
    trigger: str | None = None
    messageId: str | None = None


class HistoryMessage(BaseModel):
    """A UI message as ``useChat`` restores it: text, tool parts in their current state, data parts."""

    id: str
    role: str
    parts: list[dict[str, Any]]
    metadata: dict[str, Any]


class MessagesResponse(BaseModel):
    messages: list[HistoryMessage]


class MentionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=4000, description="The message that mentions @agent.")


class MentionAccepted(BaseModel):
    accepted: bool = True
    seq: int = Field(description="The sequence number of the agent's reply in the shared session.")


class TurnStopped(BaseModel):
    turnId: str = Field(description="The turn's stream id (its assistant message's id).")
    status: str = Field(
        description="active (it stops at the model's next word), finished, stopped, failed or lost"
    )
    stopRequestedBy: str | None = Field(None, description="The member whose stop ends it, if any.")
