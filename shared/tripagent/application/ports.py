"""Ports of the trip workspace use cases."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Protocol

from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.health import ProbeResult
from tripagent.domain.trip import Role, Trip


@dataclass(frozen=True, slots=True)
class TripSummary:
    tripId: str
    title: str
    role: Role
    startDate: str | None
    version: int
    updatedAt: str


class HealthProbe(Protocol):
    """One dependency the system needs to serve requests (a table, the router, the event bus)."""

    name: str

    def check(self) -> ProbeResult: ...


@dataclass(frozen=True, slots=True)
class ProposalClaim:
    """The approver's claim on a proposal (``claimed`` by ``by``), moved to ``applied`` in the same atomic
    write as the trip it changes: if the claim is no longer theirs, nothing is written."""

    trip_id: str
    proposal_id: str
    by: str
    at: str


class TripRepository(Protocol):
    def get(self, trip_id: str) -> Trip | None: ...

    def role_of(self, trip_id: str, user_id: str) -> Role | None:
        """The user's role on the trip (``None``: not a member, or no such trip), without loading it."""
        ...

    def member_ids(self, trip_id: str) -> set[str]:
        """Who is a member of the trip now (nobody, for no such trip), without loading it."""
        ...

    def create(self, trip: Trip) -> None: ...

    def commit(
        self,
        trip: Trip,
        *,
        expected_version: int,
        membership_changed: set[str],
        event: TripOperationCommitted | None,
        claim: ProposalClaim | None = None,
    ) -> None:
        """Write ``trip`` if it is still at ``expected_version``, its member index entries for the users in
        ``membership_changed``, ``event`` and the ``claim`` in the same transaction; raise ``ClaimLost``
        when the claim is no longer the committer's, ``VersionConflict`` on a stale version, and
        ``WriteConflict`` when another transaction on the same items was in flight."""
        ...

    def list_for_user(self, user_id: str) -> list[TripSummary]: ...


class RateLimiter(Protocol):
    def hit(self, key: str, *, limit: int, window_s: int) -> int | None:
        """Count one hit on ``key``; the seconds to wait when past ``limit`` in ``window_s``, else None."""
        ...


class TokenBudget(Protocol):
    def spent(self, key: str) -> int: ...

    def spend(self, key: str, tokens: int) -> None: ...


class Clock(Protocol):
    def now_iso(self) -> str: ...


class IdGenerator(Protocol):
    def __call__(self, prefix: str) -> str: ...


class EventPublisher(Protocol):
    def publish(self, events: list[TripOperationCommitted]) -> list[str | None]:
        """Publish; return, per event, ``None`` when it was accepted or the reason it was not."""
        ...


class Router(Protocol):
    """Routes between points (Valhalla): a distance, a duration, a shape, and heights along it if asked."""

    def route(
        self,
        points: list[tuple[float, float]],
        *,
        costing: str = "bicycle",
        options: dict[str, Any] | None = None,
        height_interval_m: int | None = None,
    ) -> Any: ...


class Weather(Protocol):
    def daily(self, lat: float, lon: float, day: dt.date) -> dict[str, Any] | None:
        """The day's forecast at a point, or ``None`` outside the forecast's range."""
        ...
