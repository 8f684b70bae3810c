"""Use cases on the trip's shared agent session."""

from __future__ import annotations

import datetime as dt
from typing import Protocol

from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.session import Turn, operation_turn


class SessionStore(Protocol):
    def append(self, trip_id: str, turn: Turn, *, dedupe_key: str | None = None) -> int | None:
        """Store ``turn`` under the next sequence number and return it; ``None`` when ``dedupe_key`` was
        already recorded (the turn is a duplicate and nothing is written)."""
        ...

    def turns(self, trip_id: str, *, after: int = 0, limit: int = 200) -> list[Turn]: ...


class SessionPurger(Protocol):
    def purge_idle(self, idle_before: str) -> list[str]: ...


def record_operation(store: SessionStore, event: TripOperationCommitted) -> int | None:
    """Record a committed operation in its trip's session, once per ``operationId`` however often the
    event is delivered."""
    return store.append(event.tripId, operation_turn(event), dedupe_key=f"op:{event.operationId}")


def purge_idle_sessions(store: SessionPurger, *, now: dt.datetime, idle_days: int) -> list[str]:
    """Retention by inactivity: delete the sessions idle for more than ``idle_days``, with their turns."""
    cutoff = (now - dt.timedelta(days=idle_days)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return store.purge_idle(cutoff)
