"""Use cases on the trip's shared agent session."""

from __future__ import annotations

from typing import Protocol

from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.session import Turn, operation_turn


class SessionStore(Protocol):
    def append(self, trip_id: str, turn: Turn, *, dedupe_key: str | None = None) -> int | None:
        """Store ``turn`` under the next sequence number and return it; ``None`` when ``dedupe_key`` was
        already recorded (the turn is a duplicate and nothing is written)."""
        ...

    def turns(self, trip_id: str, *, after: int = 0, limit: int = 200) -> list[Turn]: ...


def record_operation(store: SessionStore, event: TripOperationCommitted) -> int | None:
    """Record a committed operation in its trip's session, once per ``operationId`` however often the
    event is delivered."""
    return store.append(event.tripId, operation_turn(event), dedupe_key=f"op:{event.operationId}")
