"""The agent's approvals on DynamoDB Local, as one proposal model with the suggestions: of 50 concurrent
approvals exactly one applies (and the control without the conditions applies more); a fault between the
claim and the commit (an exception, or a run that dies) never leaves the approval applied without its
change, and the history a reloaded page reads shows the true state after each fault."""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.proposals import DynamoProposalStore
from tripagent.adapters.dynamodb.trips import DynamoTripRepository
from tripagent.adapters.system import SystemClock, new_id
from tripagent.application.approvals import Approvals
from tripagent.application.llm import ToolCall
from tripagent.application.proposals import ProposalDecider
from tripagent.application.trips import TripWorkspace
from tripagent.domain.proposal import ClaimOutcome
from tripagent.domain.trip import Member, Role, Trip
from tripagent.entrypoints.http.agent_messages import tool_part
from tripagent_local.stack import LocalStack

from tests.fixtures.review import FailingCommit
from tests.integration.test_suggestions_dynamodb import UnconditionalRepository

APPROVERS = 50
ARGS: dict[str, Any] = {"dayIndex": 0, "name": "Lunch in Canillo", "kind": "food"}


class RacingStore(DynamoProposalStore):
    """Every approver has read the approval as pending before anyone claims it."""

    barrier: threading.Barrier | None = None

    def claim(self, trip_id: str, proposal_id: str, by: str, at: str, kind: Any) -> ClaimOutcome | None:
        if self.barrier is not None:
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait(timeout=10)
        return super().claim(trip_id, proposal_id, by, at, kind)


class UnconditionalStore(RacingStore):
    """The control's claim: everyone who read "pending" thinks they won."""

    def claim(self, trip_id: str, proposal_id: str, by: str, at: str, kind: Any) -> ClaimOutcome | None:
        if self.barrier is not None:
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait(timeout=10)
        claimed = self._db.update_item(
            TableName=self._table,
            Key=self._key(trip_id, proposal_id),
            UpdateExpression="SET #status = :claimed, decidedBy = :by, decidedAt = :at",
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues={":claimed": {"S": "claimed"}, ":by": {"S": by}, ":at": {"S": at}},
            ReturnValues="ALL_NEW",
        )
        return ClaimOutcome(won=True, proposal=self.read_item(claimed["Attributes"]))


class World:
    def __init__(
        self,
        stack: LocalStack,
        repository: type[DynamoTripRepository] = DynamoTripRepository,
        store: type[DynamoProposalStore] = RacingStore,
    ) -> None:
        client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
        table = next(iter(stack.table_names.values()))
        self.repo = repository(client, table)
        self.store = store(client, table)
        self.workspace = TripWorkspace(self.repo, SystemClock(), new_id)
        self.approvals = Approvals(ProposalDecider(self.store, self.workspace, SystemClock()))
        trip = self.workspace.create_trip("ana", title="Approvals")
        trip.members += [Member(userId=f"m{i}", role=Role.editor) for i in range(APPROVERS)]
        trip.members.append(Member(userId="vic", role=Role.viewer))
        self.repo.commit(
            trip,
            expected_version=trip.version,
            membership_changed={m.userId for m in trip.members},
            event=None,
        )
        self.trip_id = trip.tripId
        self.workspace.run_operation("ana", trip.tripId, "add_day", {})
        current = self.workspace.get_trip("ana", trip.tripId)
        call = ToolCall("call_1", "add_stop", ARGS)
        self.approval_id = self.approvals.propose(
            current, call, requested_by="ana", message_id="msg_1"
        ).proposalId

    def answer(self, who: str) -> str:
        return self.approvals.answer(who, self.trip_id, self.approval_id, "call_1", ARGS, True).result

    def trip(self) -> Trip:
        return self.workspace.get_trip("ana", self.trip_id)

    def reloaded_state(self) -> str:
        """What GET .../agent/messages shows for the call after a reload."""
        call = {"toolCallId": "call_1", "toolName": "add_stop", "input": ARGS, "approvalId": self.approval_id}
        proposal = self.store.of_trip(self.trip_id, "approval").get(self.approval_id)
        return str(tool_part(call, proposal, SystemClock().now_iso())["state"])


def race(world: World) -> tuple[Counter[str], int]:
    version = world.trip().version
    assert isinstance(world.store, RacingStore)
    world.store.barrier = threading.Barrier(APPROVERS)
    with ThreadPoolExecutor(max_workers=APPROVERS) as pool:
        answers = Counter(pool.map(world.answer, [f"m{i}" for i in range(APPROVERS)]))
    return answers, world.trip().version - version


@pytest.mark.parametrize("repetition", range(5))
def test_fifty_concurrent_approvals_of_an_agent_call_apply_exactly_once(
    local_stack: LocalStack, repetition: int
) -> None:
    world = World(local_stack)
    answers, version_delta = race(world)
    assert answers == Counter({"applied": 1, "refused": APPROVERS - 1})
    assert version_delta == 1
    assert len(world.trip().stops) == 1
    assert world.reloaded_state() == "output-available"


def test_the_control_without_the_conditions_applies_more_than_once(local_stack: LocalStack) -> None:
    answers, _ = race(World(local_stack, UnconditionalRepository, UnconditionalStore))
    assert answers["applied"] > 1  # the test above would have caught this


@pytest.mark.parametrize(
    "fault", [RuntimeError("the function crashed"), ConnectionError("table unreachable")]
)
def test_an_exception_after_the_claim_leaves_the_approval_pending_and_the_trip_unchanged(
    local_stack: LocalStack, fault: Exception
) -> None:
    world = World(local_stack, FailingCommit)
    assert isinstance(world.repo, FailingCommit)
    world.repo.fault = fault
    before = world.trip()
    with pytest.raises(type(fault)):
        world.answer("m0")
    assert world.trip() == before
    assert world.store.get(world.trip_id, world.approval_id).status == "pending"  # type: ignore[union-attr]
    assert world.reloaded_state() == "approval-requested"  # reload: still to answer, not "applied"
    world.repo.fault = None
    assert world.answer("m1") == "applied"
    assert (len(world.trip().stops), world.reloaded_state()) == (1, "output-available")


def test_a_run_killed_after_its_claim_shows_pending_until_its_lease_then_another_applies(
    local_stack: LocalStack,
) -> None:
    world = World(local_stack)
    killed = threading.Thread(  # the claim is taken and then nothing more: the run died there
        target=world.store.claim,
        args=(world.trip_id, world.approval_id, "m0", SystemClock().now_iso(), "approval"),
    )
    killed.start()
    killed.join()
    assert world.store.get(world.trip_id, world.approval_id).status == "claimed"  # type: ignore[union-attr]
    assert world.reloaded_state() == "approval-requested"  # a claim is not a decision: nothing changed
    assert world.answer("m1") == "refused"  # the live claim still belongs to m0
    assert world.trip().stops == []
    world.store._db.update_item(  # the lease runs out (the dead run never comes back)
        TableName=world.store._table,
        Key=world.store._key(world.trip_id, world.approval_id),
        UpdateExpression="SET claimedAt = :long_ago",
        ExpressionAttributeValues={":long_ago": {"N": "0"}},
    )
    assert world.answer("m1") == "applied"
    assert (len(world.trip().stops), world.reloaded_state()) == (1, "output-available")


def test_an_approval_after_the_trip_moved_on_is_stale_on_reload_not_applied(local_stack: LocalStack) -> None:
    world = World(local_stack)
    world.workspace.run_operation("ana", world.trip_id, "remove_day", {"dayIndex": 0})  # the day is gone
    result = world.answer("m0")
    assert result == "failed"
    assert world.reloaded_state() == "output-error"
    assert world.store.get(world.trip_id, world.approval_id).status == "stale"  # type: ignore[union-attr]
