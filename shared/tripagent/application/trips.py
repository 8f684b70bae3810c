"""Use cases of the trip workspace. Authorization lives here, in every use case, not in the model."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from tripagent.application.ports import Clock, IdGenerator, ProposalClaim, TripRepository, TripSummary
from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.ops import REGISTRY, Operation
from tripagent.domain.trip import Change, Day, Member, Role, Route, Trip
from tripagent.errors import Forbidden, NotFound, ValidationFailed, VersionConflict

TRIP_NOT_FOUND = "Trip not found."  # the same words for a missing trip and a trip the caller cannot see


@dataclass(frozen=True)
class TripWorkspace:
    """The trip workspace's use cases with their ports."""

    trips: TripRepository
    clock: Clock
    new_id: IdGenerator

    def create_trip(
        self,
        caller: str,
        *,
        title: str,
        start_date: dt.date | None = None,
        profile: str | None = None,
        days: list[Day] | None = None,
        route: Route | None = None,
    ) -> Trip:
        now = self.clock.now_iso()
        trip = Trip(
            tripId=self.new_id("trp"),
            title=title,
            profile=profile,
            startDate=start_date,
            members=[Member(userId=caller, role=Role.owner)],
            days=days or [],
            route=route,
            createdAt=now,
            updatedAt=now,
        )
        self.trips.create(trip)
        return trip

    def get_trip(self, caller: str, trip_id: str) -> Trip:
        trip = self.trips.get(trip_id)
        if trip is None or trip.role_of(caller) is None:
            raise NotFound(TRIP_NOT_FOUND)
        return trip

    def list_trips(self, caller: str) -> list[TripSummary]:
        return self.trips.list_for_user(caller)

    def run_operation(
        self,
        caller: str,
        trip_id: str,
        op_name: str,
        raw_args: Any,
        *,
        expected_version: int | None = None,
        metadata: dict[str, Any] | None = None,
        claim: ProposalClaim | None = None,
    ) -> OperationOutcome:
        """Authorize, validate and apply one operation, then commit it under the version condition.

        ``expected_version=None`` means "the version just read" (member endpoints); the commit is still
        conditional, so a concurrent change is a ``VersionConflict``, never a lost update.
        """
        trip = self.get_trip(caller, trip_id)
        return self.apply_operation(
            caller, trip, op_name, raw_args, expected_version=expected_version, metadata=metadata, claim=claim
        )

    def apply_operation(
        self,
        caller: str,
        trip: Trip,
        op_name: str,
        raw_args: Any,
        *,
        expected_version: int | None = None,
        metadata: dict[str, Any] | None = None,
        claim: ProposalClaim | None = None,
    ) -> OperationOutcome:
        """``run_operation`` on a trip the caller already loaded (and may see): one read fewer. The
        trip is changed in place; the commit's condition is the version it was read at."""
        operation = operation_named(op_name)
        role = trip.role_of(caller)
        assert role is not None
        if not role.allows(operation.required_role):
            raise Forbidden(f"{operation.name} needs the {operation.required_role.value} role.")
        args = parse_args(operation, raw_args)
        if expected_version is not None and expected_version != trip.version:
            raise VersionConflict(trip.version)
        read_version = trip.version
        diff = operation.apply(trip, args, self.new_id)
        if not diff:
            return OperationOutcome(trip=trip, diff=[], event=None)
        now = self.clock.now_iso()
        trip.version = read_version + 1
        trip.updatedAt = now
        event = None
        if operation.high_risk:
            event = TripOperationCommitted(
                operationId=self.new_id("op"),
                tripId=trip.tripId,
                tripVersion=trip.version,
                actor=caller,
                at=now,
                op=operation.name,
                args=args.model_dump(mode="json", exclude_unset=True),
                diff=diff,
                metadata=metadata or {},
            )
        membership = {c["id"] for c in diff if c["entity"] == "member"}
        self.trips.commit(
            trip, expected_version=read_version, membership_changed=membership, event=event, claim=claim
        )
        return OperationOutcome(trip=trip, diff=diff, event=event)


@dataclass(frozen=True)
class OperationOutcome:
    trip: Trip
    diff: list[Change] = field(default_factory=list)
    event: TripOperationCommitted | None = None


def operation_named(name: str) -> Operation[Any]:
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValidationFailed(
            f"Unknown operation {name!r}.", details=[{"loc": ["op"], "msg": "known: " + ", ".join(REGISTRY)}]
        ) from None


def parse_args(operation: Operation[Any], raw: Any) -> Any:
    try:
        return operation.parse(raw)
    except ValidationError as exc:
        details = [
            {"loc": ["args", *map(str, e["loc"])], "msg": e["msg"], "type": e["type"]} for e in exc.errors()
        ]
        raise ValidationFailed(f"Invalid arguments for {operation.name}.", details=details) from exc
