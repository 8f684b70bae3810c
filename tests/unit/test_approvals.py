"""Approvals are decided on the server's record: replayed, expired, altered or unknown ones change nothing;
the approval that wins and its change commit together, or neither shows."""

from __future__ import annotations

from typing import Any

import pytest
from tripagent.application.approvals import Approvals
from tripagent.application.llm import ToolCall
from tripagent.application.proposals import ProposalDecider
from tripagent.application.trips import TripWorkspace

from tests.fixtures.fakes import FakeClock, FakeProposalStore, FakeTripRepository, SequentialIds

ARGS: dict[str, Any] = {"dayIndex": 0, "name": "Lunch in Canillo", "kind": "food"}


class World:
    def __init__(self) -> None:
        self.store = FakeProposalStore()
        self.clock = FakeClock()
        self.repo = FakeTripRepository(claims=self.store.commit_claim)
        self.workspace = TripWorkspace(self.repo, self.clock, SequentialIds())
        trip = self.workspace.create_trip("ana", title="Andorra")
        self.trip_id = trip.tripId
        self.workspace.run_operation("ana", trip.tripId, "add_member", {"userId": "ben", "role": "editor"})
        self.workspace.run_operation("ana", trip.tripId, "add_member", {"userId": "vic", "role": "viewer"})
        self.workspace.run_operation("ana", trip.tripId, "add_day", {})
        self.approvals = Approvals(ProposalDecider(self.store, self.workspace, self.clock))
        current = self.workspace.get_trip("ana", trip.tripId)
        call = ToolCall("c1", "add_stop", ARGS)
        self.approval_id = self.approvals.propose(
            current, call, requested_by="ana", message_id="m1"
        ).proposalId

    def answer(
        self, who: str, *, approval_id: str | None = None, call_id: str = "c1", args: Any = ARGS
    ) -> Any:
        return self.approvals.answer(who, self.trip_id, approval_id or self.approval_id, call_id, args, True)

    def stops(self) -> int:
        return len(self.workspace.get_trip("ana", self.trip_id).stops)

    def status(self) -> str:
        return self.store.items[self.approval_id].status


@pytest.fixture
def world() -> World:
    return World()


def test_an_editors_approval_applies_once_and_a_replay_is_told_it_was_applied(world: World) -> None:
    first, again = world.answer("ben"), world.answer("ana")
    assert (first.result, again.result) == ("applied", "applied")
    assert (again.detail["alreadyDecided"], again.detail["approvedBy"]) == (True, "ben")
    assert (world.stops(), world.status()) == (1, "applied")


@pytest.mark.parametrize(
    ("approver", "approval_id", "call_id", "arguments", "delay", "expected"),
    [
        ("vic", None, "c1", ARGS, 0, "denied"),  # a viewer's approval counts as a denial
        ("ben", "apr_forged", "c1", ARGS, 0, "refused"),  # an id we did not issue
        ("ben", None, "c1", {**ARGS, "name": "Spa"}, 0, "refused"),  # an input that differs
        ("ben", None, "c9", ARGS, 0, "refused"),  # another tool call
        ("ben", None, "c1", ARGS, 3600, "refused"),  # expired
        ("eve", None, "c1", ARGS, 0, "refused"),  # not a member
    ],
)
def test_nothing_changes_unless_the_stored_approval_is_answered_properly(
    world: World,
    approver: str,
    approval_id: str | None,
    call_id: str,
    arguments: Any,
    delay: int,
    expected: str,
) -> None:
    world.clock.advance(delay)
    outcome = world.answer(approver, approval_id=approval_id, call_id=call_id, args=arguments)
    assert outcome.result == expected
    assert world.stops() == 0
    assert world.status() in ("pending", "denied", "expired")


def test_a_change_made_meanwhile_makes_the_proposal_stale_not_applied(world: World) -> None:
    version = world.workspace.get_trip("ana", world.trip_id).version
    world.workspace.run_operation("ana", world.trip_id, "add_day", {}, expected_version=version)
    outcome = world.answer("ben")
    assert (outcome.result, outcome.detail["error"]) == ("failed", "stale_patch")
    assert (world.stops(), world.status()) == (0, "stale")  # a reloaded page shows it, not "applied"


def test_a_change_the_trip_refuses_leaves_the_proposal_failed(world: World) -> None:
    world.store.items[world.approval_id].patch.args["dayIndex"] = 7  # type: ignore[union-attr]  # no such day
    outcome = world.answer("ben", args={**ARGS, "dayIndex": 7})
    assert outcome.result == "failed"
    assert (world.stops(), world.status()) == (0, "failed")
    assert world.store.items[world.approval_id].failure == outcome.detail["error"]


@pytest.mark.parametrize("fault", [RuntimeError("the process died"), ConnectionError("table unreachable")])
def test_a_fault_between_the_claim_and_the_commit_gives_the_claim_back(
    world: World, fault: Exception
) -> None:
    commit = world.repo.commit

    def failing_commit(*args: Any, **kwargs: Any) -> None:
        raise fault

    world.repo.commit = failing_commit  # type: ignore[method-assign]
    with pytest.raises(type(fault)):
        world.answer("ben")
    assert (world.stops(), world.status()) == (0, "pending")  # never "applied" (nor "approved") without it
    world.repo.commit = commit  # type: ignore[method-assign]
    assert (world.answer("ana").result, world.stops(), world.status()) == ("applied", 1, "applied")


def test_a_claim_whose_holder_died_is_taken_over_after_its_lease(world: World) -> None:
    proposal = world.store.items[world.approval_id]
    assert world.store.claim(world.trip_id, world.approval_id, "ben", world.clock.now_iso(), "approval")
    assert world.store.items[world.approval_id].client_status == "pending"  # a claim is not a decision
    assert world.answer("ana").result == "refused"  # ben's claim is live: someone else is approving
    world.clock.advance(301)  # past the lease; ben's run never came back
    assert world.answer("ana").result == "applied"
    assert (world.stops(), world.status(), proposal.proposalId) == (1, "applied", world.approval_id)
