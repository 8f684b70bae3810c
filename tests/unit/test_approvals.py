"""Approvals are decided on the server's record: replayed, expired, altered or unknown ones change nothing."""

from __future__ import annotations

import time
from typing import Any

import pytest
from tripagent.application.approvals import Approvals, PendingApproval, digest
from tripagent.application.trips import TripWorkspace

from tests.fixtures.fakes import FakeApprovalStore, FakeClock, FakeTripRepository, SequentialIds

ARGS: dict[str, Any] = {"dayIndex": 0, "name": "Lunch in Canillo", "kind": "food"}


@pytest.fixture
def world() -> tuple[Approvals, FakeApprovalStore, TripWorkspace, str]:
    workspace = TripWorkspace(FakeTripRepository(), FakeClock(), SequentialIds())
    trip = workspace.create_trip("ana", title="Andorra")
    workspace.run_operation("ana", trip.tripId, "add_member", {"userId": "ben", "role": "editor"})
    workspace.run_operation("ana", trip.tripId, "add_member", {"userId": "vic", "role": "viewer"})
    workspace.run_operation("ana", trip.tripId, "add_day", {})
    store = FakeApprovalStore()
    version = workspace.get_trip("ana", trip.tripId).version
    store.put(
        PendingApproval(
            approvalId="apr_1",
            tripId=trip.tripId,
            toolCallId="c1",
            toolName="add_stop",
            input=ARGS,
            digest=digest(ARGS),
            tripVersion=version,
            expiresAt=int(time.time()) + 600,
            requestedBy="ana",
            messageId="m1",
        )
    )
    return Approvals(store, workspace), store, workspace, trip.tripId


def stops(workspace: TripWorkspace, trip_id: str) -> int:
    return len(workspace.get_trip("ana", trip_id).stops)


def test_an_editors_approval_applies_once_and_a_replay_is_refused(world: Any) -> None:
    approvals, _, workspace, trip_id = world
    first = approvals.answer("ben", trip_id, "apr_1", "c1", ARGS, True, now=time.time())
    again = approvals.answer("ben", trip_id, "apr_1", "c1", ARGS, True, now=time.time())
    assert (first.result, again.result) == ("applied", "refused")
    assert stops(workspace, trip_id) == 1


@pytest.mark.parametrize(
    ("approver", "approval_id", "call_id", "arguments", "delay", "expected"),
    [
        ("vic", "apr_1", "c1", ARGS, 0, "denied"),  # a viewer's approval counts as a denial
        ("ben", "apr_forged", "c1", ARGS, 0, "refused"),  # an id we did not issue
        ("ben", "apr_1", "c1", {**ARGS, "name": "Spa"}, 0, "refused"),  # an input that differs
        ("ben", "apr_1", "c9", ARGS, 0, "refused"),  # another tool call
        ("ben", "apr_1", "c1", ARGS, 3600, "refused"),  # expired
    ],
)
def test_nothing_changes_unless_the_stored_approval_is_answered_properly(
    world: Any,
    approver: str,
    approval_id: str,
    call_id: str,
    arguments: dict[str, Any],
    delay: int,
    expected: str,
) -> None:
    approvals, _, workspace, trip_id = world
    outcome = approvals.answer(
        approver, trip_id, approval_id, call_id, arguments, True, now=time.time() + delay
    )
    assert outcome.result == expected
    assert stops(workspace, trip_id) == 0


def test_a_change_made_meanwhile_makes_the_proposal_stale(world: Any) -> None:
    approvals, store, workspace, trip_id = world
    version = workspace.get_trip("ana", trip_id).version
    workspace.run_operation("ana", trip_id, "add_day", {}, expected_version=version)
    outcome = approvals.answer("ben", trip_id, "apr_1", "c1", ARGS, True, now=time.time())
    assert outcome.result == "failed"
    assert outcome.detail["error"] == "version_conflict"
    assert stops(workspace, trip_id) == 0
    assert store.items["apr_1"][1] == "failed"  # a reloaded page shows it failed, not applied
