"""Use cases on the trip's shared agent session."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Protocol

from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.session import Turn, operation_turn
from tripagent.domain.times import iso


@dataclass(frozen=True, slots=True)
class SessionState:
    """What the session keeps besides its turns: the rolling summary of the turns older than
    ``summary_up_to`` (inclusive), and the pending intent of an open clarification."""

    summary: str = ""
    summary_up_to: int = 0
    pending_intent: dict[str, Any] | None = None


class SessionStore(Protocol):
    def append(self, trip_id: str, turn: Turn, *, dedupe_key: str | None = None) -> int | None:
        """Store ``turn`` under the next sequence number and return it; ``None`` when ``dedupe_key`` was
        already recorded (the turn is a duplicate and nothing is written)."""
        ...

    def turns(self, trip_id: str, *, after: int = 0, limit: int = 200) -> list[Turn]: ...

    def recent(self, trip_id: str, *, limit: int) -> list[Turn]:
        """The newest ``limit`` turns, oldest first."""
        ...

    def state(self, trip_id: str) -> SessionState: ...

    def save_summary(self, trip_id: str, summary: str, up_to: int) -> None:
        """Keep the summary unless a newer one (a larger ``up_to``) is already stored."""
        ...

    def set_pending_intent(self, trip_id: str, intent: dict[str, Any]) -> None: ...

    def take_pending_intent(self, trip_id: str, intent: dict[str, Any]) -> bool:
        """Clear ``intent`` if it is still the stored one; ``False`` when another reply took it first."""
        ...


class SessionPurger(Protocol):
    def purge_idle(self, idle_before: str) -> list[str]: ...


def record_operation(store: SessionStore, event: TripOperationCommitted) -> int | None:
    """Record a committed operation in its trip's session, once per ``operationId`` however often the
    event is delivered."""
    return store.append(event.tripId, operation_turn(event), dedupe_key=f"op:{event.operationId}")


def purge_idle_sessions(store: SessionPurger, *, now: dt.datetime, idle_days: int) -> list[str]:
    """Retention by inactivity: delete the sessions idle for more than ``idle_days``, with their turns."""
    return store.purge_idle(iso(now - dt.timedelta(days=idle_days)))
