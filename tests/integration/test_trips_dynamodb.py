"""The trip repository on DynamoDB Local: optimistic concurrency, the member index, the outbox."""

from __future__ import annotations

import contextlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.trips import DynamoTripRepository
from tripagent.adapters.system import SystemClock, new_id
from tripagent.application.trips import TripWorkspace
from tripagent.errors import VersionConflict, WriteConflict
from tripagent_local.stack import LocalStack


class RacingRepository(DynamoTripRepository):
    """Every contender has read the trip before anyone commits: the race at its widest, every time."""

    barrier: threading.Barrier | None = None

    def commit(self, trip: Any, **kwargs: Any) -> None:
        if self.barrier is not None:
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait(timeout=10)
        super().commit(trip, **kwargs)


class UnconditionalRepository(RacingRepository):
    """The control: the same writes without the version condition."""

    def _version_condition(self, expected_version: int) -> dict[str, Any]:
        return {}


def workspace(
    stack: LocalStack, repository_class: type[DynamoTripRepository] = RacingRepository
) -> TripWorkspace:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    table = next(iter(stack.table_names.values()))
    return TripWorkspace(trips=repository_class(client, table), clock=SystemClock(), new_id=new_id)


def race(ws: TripWorkspace, contenders: int = 20) -> tuple[int, int, str]:
    trip = ws.create_trip("alice", title="Race")
    ws.run_operation("alice", trip.tripId, "add_day", {"city": "Ordino"}, expected_version=1)

    def attempt(i: int) -> bool:
        try:
            ws.run_operation(
                "alice",
                trip.tripId,
                "add_stop",
                {"dayIndex": 0, "name": f"Stop {i}", "kind": "poi"},
                expected_version=2,
            )
        except (VersionConflict, WriteConflict):  # refused: the version moved, or a write was in flight
            return False
        return True

    repo = ws.trips
    if isinstance(repo, RacingRepository):
        repo.barrier = threading.Barrier(contenders)
    try:
        with ThreadPoolExecutor(max_workers=contenders) as pool:
            wins = sum(pool.map(attempt, range(contenders)))
    finally:
        if isinstance(repo, RacingRepository):
            repo.barrier = None
    return wins, len(ws.get_trip("alice", trip.tripId).stops), trip.tripId


@pytest.mark.parametrize("repetition", range(20))
def test_twenty_concurrent_ops_on_one_version_apply_exactly_once(
    local_stack: LocalStack, repetition: int
) -> None:
    ws = workspace(local_stack)
    wins, stops, trip_id = race(ws)
    assert (wins, stops) == (1, 1)
    assert ws.get_trip("alice", trip_id).version == 3


def test_a_commit_that_lost_the_race_reports_the_version_that_won(local_stack: LocalStack) -> None:
    ws = workspace(local_stack)
    trip = ws.create_trip("alice", title="Stale")
    stale = ws.get_trip("alice", trip.tripId)  # read at version 1
    ws.run_operation("alice", trip.tripId, "add_day", {})  # version 2
    ws.run_operation("alice", trip.tripId, "add_day", {})  # version 3
    with pytest.raises(VersionConflict) as lost:
        ws.apply_operation("alice", stale, "add_day", {})
    assert lost.value.current_version == 3


def test_the_control_without_the_version_condition_loses_updates(local_stack: LocalStack) -> None:
    # Several writers believe they applied their stop, yet only one stop survives: lost updates, which is
    # what the version condition prevents. If this ever applied exactly once, the race test above would
    # prove nothing.
    ws = workspace(local_stack, UnconditionalRepository)
    wins, stops, _ = race(ws)  # with the barrier every contender overlaps
    assert wins > stops, (wins, stops)


def test_a_users_trips_come_from_the_member_index(local_stack: LocalStack) -> None:
    ws = workspace(local_stack)
    trip = ws.create_trip("olga", title="Index")
    ws.run_operation("olga", trip.tripId, "add_member", {"userId": "pere", "role": "viewer"})
    assert [(s.tripId, s.role) for s in ws.list_trips("pere")] == [(trip.tripId, "viewer")]
    assert ws.trips.member_ids(trip.tripId) == {"olga", "pere"}
    assert ws.trips.role_of(trip.tripId, "pere") == "viewer"
    ws.run_operation("olga", trip.tripId, "remove_member", {"userId": "pere"})
    assert ws.list_trips("pere") == []
    assert ws.trips.member_ids(trip.tripId) == {"olga"}
    assert ws.trips.role_of(trip.tripId, "pere") is None
    assert ws.trips.member_ids("trp_none") == set()
    assert [s.tripId for s in ws.list_trips("olga")] == [trip.tripId]


def _events_for(
    stack: LocalStack, trip_id: str, wait_s: float = 8.0, expect: int | None = None
) -> list[dict[str, Any]]:
    deadline = time.monotonic() + wait_s
    while True:
        events = [e for e in stack.bus.events if e["detail"].get("tripId") == trip_id]
        if (expect is not None and len(events) >= expect) or time.monotonic() > deadline:
            return events
        time.sleep(0.1)


def test_committed_whitelisted_ops_reach_the_bus_once_through_the_outbox(local_stack: LocalStack) -> None:
    ws = workspace(local_stack)
    trip = ws.create_trip("alice", title="Outbox")
    ws.run_operation(
        "alice", trip.tripId, "add_day", {"city": "Encamp"}, expected_version=1
    )  # not whitelisted
    added = ws.run_operation(
        "alice",
        trip.tripId,
        "add_stop",
        {"dayIndex": 0, "name": "Caldea", "kind": "activity"},
        expected_version=2,
    )
    ws.run_operation(
        "alice", trip.tripId, "edit_day", {"dayIndex": 0, "city": "Escaldes"}, expected_version=3
    )
    with pytest.raises(VersionConflict):  # rejected: no event
        ws.run_operation(
            "alice", trip.tripId, "edit_day", {"dayIndex": 0, "city": "La Massana"}, expected_version=3
        )
    _events_for(local_stack, trip.tripId, expect=2)
    assert (
        local_stack.wait_idle()
    )  # the outbox and bus have nothing left in flight: more would be a duplicate
    events = _events_for(local_stack, trip.tripId, wait_s=0)
    assert [(e["detail"]["op"], e["detail"]["tripVersion"]) for e in events] == [
        ("add_stop", 3),
        ("edit_day", 4),
    ]
    first = events[0]
    assert first["source"] == "tripagent.trips"
    assert first["detail-type"] == "TripOperationCommitted"
    assert first["detail"]["operationId"] == added.event.operationId if added.event else False
    assert first["detail"]["diff"][0]["after"]["name"] == "Caldea"


def test_waiting_until_the_stack_is_idle_sees_the_outbox_relayed(local_stack: LocalStack) -> None:
    ws = workspace(local_stack)
    trip = ws.create_trip("alice", title="Idle")
    ws.run_operation("alice", trip.tripId, "add_day", {}, expected_version=1)
    ws.run_operation("alice", trip.tripId, "add_stop", {"dayIndex": 0, "name": "Caldea", "kind": "activity"})
    assert local_stack.wait_idle()  # no polling after it: the stream, relay and bus are done
    assert [
        e["detail"]["op"] for e in local_stack.bus.events if e["detail"].get("tripId") == trip.tripId
    ] == ["add_stop"]
