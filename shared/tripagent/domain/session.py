"""The trip's shared agent session: one per trip, a strictly increasing sequence of turns.

Turns are what members said, what the agent answered, and what happened to the trip (operation events,
approvals, decisions), each with who, when, from where (``source``) and against which trip version.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tripagent.domain.events import TripOperationCommitted

TurnRole = Literal["user", "assistant", "event"]
TurnSource = Literal["chat", "mention", "operation", "threshold"]


class TurnMetadata(BaseModel):
    model_config = ConfigDict(extra="forbid")

    actor: str
    at: str
    source: TurnSource
    tripVersion: int | None = None


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seq: int = 0  # assigned by the store
    role: TurnRole
    kind: str = Field(description="chat, operation, clarification, approval, decision, ...")
    text: str
    metadata: TurnMetadata
    data: dict[str, Any] = Field(default_factory=dict)
    model: str | None = None
    usage: dict[str, int] | None = None


def describe_operation(event: TripOperationCommitted) -> str:
    """A one-line account of an operation for people and for the model's context."""
    parts = []
    for change in event.diff:
        entity = str(change.get("entity"))
        before, after = change.get("before"), change.get("after")
        label = (
            (after or before or {}).get("name") or (after or before or {}).get("label") or change.get("id")
        )
        if before is None:
            parts.append(f"added {entity} {label!r}")
        elif after is None:
            parts.append(f"removed {entity} {label!r}")
        else:
            fields = ", ".join(f"{k}: {before.get(k)!r} → {v!r}" for k, v in after.items())
            parts.append(f"changed {entity} {change.get('id')} ({fields})")
    return f"{event.actor} {'; '.join(parts) or event.op} [{event.op}, trip version {event.tripVersion}]"


def operation_turn(event: TripOperationCommitted) -> Turn:
    return Turn(
        role="event",
        kind="operation",
        text=describe_operation(event),
        metadata=TurnMetadata(
            actor=event.actor, at=event.at, source="operation", tripVersion=event.tripVersion
        ),
        data={"operationId": event.operationId, "op": event.op, "args": event.args, "diff": event.diff},
    )
