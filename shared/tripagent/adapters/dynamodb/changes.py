"""The table's stream, read as changes members should hear about: a trip's new version, a new turn of
its agent session, a reply that began or ended being written, a suggestion created, decided or denied."""

from __future__ import annotations

from typing import Any

from tripagent.adapters.dynamodb.keys import session_pk, trip_pk
from tripagent.adapters.dynamodb.proposals import DynamoProposalStore
from tripagent.application.realtime import (
    AgentTurnChanged,
    Change,
    SuggestionChanged,
    TripChanged,
    TurnAdded,
)
from tripagent.domain.session import Turn


def decode_change(record: dict[str, Any]) -> Change | None:
    """A DynamoDB stream record (NEW_AND_OLD_IMAGES) → the change it is, if any."""
    data = record.get("dynamodb") or {}
    new: dict[str, Any] = data.get("NewImage") or {}
    old: dict[str, Any] = data.get("OldImage") or {}
    kind = new.get("type", {}).get("S")
    pk = new.get("PK", {}).get("S", "")
    if kind == "trip":
        version = int(new["version"]["N"])
        if old and int(old.get("version", {}).get("N", "-1")) == version:
            return None
        return TripChanged(pk.removeprefix(trip_pk("")), version, new.get("updatedAt", {}).get("S"))
    if kind == "turn" and record.get("eventName") == "INSERT":
        return TurnAdded(pk.removeprefix(session_pk("")), Turn.model_validate_json(new["doc"]["S"]))
    if kind == "agentturn":
        status = new["status"]["S"]
        if old and old.get("status", {}).get("S") == status:
            return None
        return AgentTurnChanged(
            new["tripId"]["S"],
            new["streamId"]["S"],
            new["by"]["S"],
            status,
            new.get("asked", {}).get("S", ""),
        )
    if kind == "suggestion":
        suggestion = DynamoProposalStore.read_item(new)
        before = set(old.get("deniedBy", {}).get("SS", []))
        deniers = tuple(sorted(set(new.get("deniedBy", {}).get("SS", [])) - before))
        # A claim is an approver's work in progress, not news: members hear the decision it ends in.
        status_changed = bool(old) and _heard(old) != _heard(new)
        if not old or status_changed or deniers:
            return SuggestionChanged(
                suggestion, created=not old, status_changed=status_changed, new_deniers=deniers
            )
    return None


def _heard(image: dict[str, Any]) -> str | None:
    status = image.get("status", {}).get("S")
    return "pending" if status == "claimed" else status
