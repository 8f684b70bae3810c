"""Suggestions on DynamoDB Local: of 50 concurrent approvals exactly one applies (20 times over), and the
control without the conditions shows the test can fail; stale patches, viewers and denials."""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.proposals import DynamoProposalStore
from tripagent.adapters.dynamodb.sessions import DynamoSessionStore
from tripagent.adapters.dynamodb.trips import DynamoTripRepository, claim_update
from tripagent.adapters.system import SystemClock, new_id
from tripagent.application.ports import ProposalClaim
from tripagent.application.proposals import ProposalDecider
from tripagent.application.suggestions import Suggestions
from tripagent.application.trips import TripWorkspace
from tripagent.domain.proposal import ClaimOutcome
from tripagent.domain.trip import Trip
from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import (
    AlreadyDecided,
    Forbidden,
    NotFound,
    StalePatch,
    SuggestionExpired,
    VersionConflict,
)
from tripagent_local.stack import LocalStack

from tests.fixtures.review import FailingCommit, suggested_trip

APPROVERS = 50


class RacingRepository(DynamoTripRepository):
    """Every approver reads the trip and the suggestion before anyone commits: the race at its widest."""

    barrier: threading.Barrier | None = None
    _first = threading.local()

    def commit(self, trip: Trip, **kwargs: Any) -> None:
        if self.barrier is not None and not getattr(self._first, "done", False):
            self._first.done = True
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait(timeout=10)
        super().commit(trip, **kwargs)


class UnconditionalRepository(RacingRepository):
    """The control's commit: the same writes without the version condition and the claim's condition."""

    def _version_condition(self, expected_version: int) -> dict[str, Any]:
        return {}

    def _claim_update(self, claim: ProposalClaim) -> Any:
        update = claim_update(self._table, claim)
        update.pop("ConditionExpression")
        for name in (":claimed", ":by"):
            update["ExpressionAttributeValues"].pop(name)
        return update


class RacingStore(DynamoProposalStore):
    """Every approver has passed the role check before anyone claims the suggestion."""

    barrier: threading.Barrier | None = None
    _first = threading.local()

    def claim(self, trip_id: str, suggestion_id: str, by: str, at: str, kind: Any) -> ClaimOutcome | None:
        if self.barrier is not None and not getattr(self._first, "done", False):
            self._first.done = True
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait(timeout=10)
        return super().claim(trip_id, suggestion_id, by, at, kind)


class UnconditionalStore(RacingStore):
    """The control's claim: everyone who read "pending" thinks they won."""

    def claim(self, trip_id: str, suggestion_id: str, by: str, at: str, kind: Any) -> ClaimOutcome | None:
        if self.barrier is not None and not getattr(self._first, "done", False):
            self._first.done = True
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait(timeout=10)
        claimed = self._db.update_item(
            TableName=self._table,
            Key=self._key(trip_id, suggestion_id),
            UpdateExpression="SET #status = :claimed, decidedBy = :by, decidedAt = :at",
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues={":claimed": {"S": "claimed"}, ":by": {"S": by}, ":at": {"S": at}},
            ReturnValues="ALL_NEW",
        )
        return ClaimOutcome(won=True, proposal=self.read_item(claimed["Attributes"]))


def world(
    stack: LocalStack,
    repository: type[DynamoTripRepository] = RacingRepository,
    suggestion_store: type[DynamoProposalStore] = DynamoProposalStore,
) -> Any:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    table = next(iter(stack.table_names.values()))
    repo = repository(client, table)
    workspace = TripWorkspace(trips=repo, clock=SystemClock(), new_id=new_id)
    store = suggestion_store(client, table)
    sessions = DynamoSessionStore(client, table, retention_s=86400)
    suggestions = Suggestions(
        store, ProposalDecider(store, workspace, SystemClock()), sessions, SystemClock()
    )
    return repo, workspace, store, suggestions, client, table


def outbox_count(client: Any, table: str, trip_id: str) -> int:
    response = client.query(
        TableName=table,
        KeyConditionExpression="PK = :pk AND begins_with(SK, :o)",
        ExpressionAttributeValues={":pk": {"S": f"TRIP#{trip_id}"}, ":o": {"S": "OUTBOX#"}},
        Select="COUNT",
    )
    return int(response["Count"])


def approve_all_at_once(
    stack: LocalStack,
    repository: type[DynamoTripRepository] = DynamoTripRepository,
    suggestion_store: type[RacingStore] | None = None,
) -> tuple[Counter[str], int, int]:
    repo, workspace, store, suggestions, client, table = world(
        stack, repository, suggestion_store or RacingStore
    )
    trip_id, suggestion_id = suggested_trip(workspace, store, members=APPROVERS)
    version = workspace.get_trip("ana", trip_id).version
    events = outbox_count(client, table, trip_id)
    store.barrier = threading.Barrier(APPROVERS)
    if isinstance(repo, RacingRepository):
        repo.barrier = threading.Barrier(APPROVERS)

    def approve(i: int) -> str:
        try:
            suggestions.answer(f"m{i}", trip_id, suggestion_id, answer_id=suggestion_id, approved=True)
        except AlreadyDecided:
            return "already_decided"
        except (StalePatch, VersionConflict) as exc:
            return exc.code
        return "applied"

    with ThreadPoolExecutor(max_workers=APPROVERS) as pool:
        answers = Counter(pool.map(approve, range(APPROVERS)))
    return (
        answers,
        workspace.get_trip("ana", trip_id).version - version,
        outbox_count(client, table, trip_id) - events,
    )


@pytest.mark.parametrize("repetition", range(20))
def test_fifty_concurrent_approvals_apply_exactly_once(local_stack: LocalStack, repetition: int) -> None:
    answers, version_delta, new_events = approve_all_at_once(local_stack)
    assert answers == Counter({"applied": 1, "already_decided": APPROVERS - 1})
    assert version_delta == 1
    assert new_events == 1


def test_the_control_without_the_conditions_applies_more_than_once(local_stack: LocalStack) -> None:
    answers, _, new_events = approve_all_at_once(local_stack, UnconditionalRepository, UnconditionalStore)
    assert answers["applied"] > 1  # the test above would have caught this
    assert new_events > 1


def test_a_later_approval_learns_who_decided_and_when(local_stack: LocalStack) -> None:
    _, workspace, store, suggestions, *_ = world(local_stack)
    trip_id, sid = suggested_trip(workspace, store, members=2)
    applied = suggestions.answer("m0", trip_id, sid, answer_id=sid, approved=True)
    assert applied.status == "applied"
    with pytest.raises(AlreadyDecided) as raised:
        suggestions.answer("m1", trip_id, sid, answer_id=sid, approved=True)
    assert raised.value.extra["decidedBy"] == "m0"
    assert raised.value.extra["decidedAt"] == applied.decidedAt
    assert workspace.get_trip("ana", trip_id).days[0].city == "Canillo"


def test_a_stale_patch_is_refused_and_the_trip_left_alone(local_stack: LocalStack) -> None:
    _, workspace, store, suggestions, *_ = world(local_stack)
    trip_id, sid = suggested_trip(workspace, store, members=1)
    workspace.run_operation("ana", trip_id, "edit_day", {"dayIndex": 0, "city": "Encamp"})
    before = workspace.get_trip("ana", trip_id)
    with pytest.raises(StalePatch) as raised:
        suggestions.answer("m0", trip_id, sid, answer_id=sid, approved=True)
    assert status_of(raised.value) == 409
    assert workspace.get_trip("ana", trip_id) == before
    assert store.get(trip_id, sid).status == "stale"  # type: ignore[union-attr]


def test_a_viewer_gets_403_and_a_deny_hides_it_for_the_denier_only(local_stack: LocalStack) -> None:
    _, workspace, store, suggestions, *_ = world(local_stack)
    trip_id, sid = suggested_trip(workspace, store, members=2)
    with pytest.raises(Forbidden):
        suggestions.answer("vic", trip_id, sid, answer_id=sid, approved=True)
    suggestions.answer("m0", trip_id, sid, answer_id=sid, approved=False)
    assert suggestions.visible("m0", trip_id) == []
    assert [s.suggestionId for s in suggestions.visible("m1", trip_id)] == [sid]
    assert [s.suggestionId for s in suggestions.visible("vic", trip_id)] == [sid]
    with pytest.raises(NotFound) as hidden:
        suggestions.visible("eve", trip_id)  # not a member: the missing-trip answer
    with pytest.raises(NotFound) as missing:
        suggestions.visible("eve", "trp_nothing")
    assert hidden.value.body() == missing.value.body()


def test_the_sweep_expires_only_open_suggestions_past_their_expiry(local_stack: LocalStack) -> None:
    from tripagent.application.proposals import expire_due

    _, workspace, store, suggestions, *_ = world(local_stack)
    trip_id, applied = suggested_trip(workspace, store, members=1)
    suggestions.answer("m0", trip_id, applied, answer_id=applied, approved=True)  # decided: leaves the index
    _, open_one = suggested_trip(workspace, store, members=1)
    later = "2099-01-01T00:00:01.000Z"  # past both expiries (2099-01-01T00:00:00)
    expired = expire_due(store, later)
    assert open_one in expired
    assert applied not in expired
    assert store.get(trip_id, applied).status == "applied"  # type: ignore[union-attr]
    assert open_one not in expire_due(store, later)  # expired ones leave the index too


class Year2100:
    def now_iso(self) -> str:
        return "2100-01-01T00:00:00.000Z"


def test_the_claim_itself_refuses_an_expired_suggestion_and_settles_it(local_stack: LocalStack) -> None:
    _, workspace, store, _, client, table = world(local_stack)
    trip_id, sid = suggested_trip(workspace, store, members=1)  # expires 2099-01-01
    sessions = DynamoSessionStore(client, table, retention_s=86400)
    later = Suggestions(store, ProposalDecider(store, workspace, Year2100()), sessions, Year2100())
    version = workspace.get_trip("ana", trip_id).version
    with pytest.raises(SuggestionExpired):
        later.answer("m0", trip_id, sid, answer_id=sid, approved=True)
    settled = store.get(trip_id, sid)
    assert settled is not None
    assert (settled.status, settled.decidedBy) == ("expired", "system")
    assert workspace.get_trip("ana", trip_id).version == version


def test_a_claim_whose_holder_died_is_expired_with_its_suggestion(local_stack: LocalStack) -> None:
    from tripagent.application.proposals import expire_due

    _, workspace, store, _, client, table = world(local_stack)
    trip_id, sid = suggested_trip(workspace, store, members=1)
    claim = store.claim(trip_id, sid, "m0", "2098-12-31T23:59:59.000Z", "suggestion")  # 1 s before it expires
    assert claim is not None
    assert claim.won
    later = "2099-01-01T00:00:01.000Z"
    assert sid not in expire_due(store, later)  # a live claim: its approver decides
    client.update_item(  # the approver's function died: its claim outlives the lease
        TableName=table,
        Key={"PK": {"S": f"SESSION#{trip_id}"}, "SK": {"S": f"PROPOSAL#{sid}"}},
        UpdateExpression="SET claimedAt = :long_ago",
        ExpressionAttributeValues={":long_ago": {"N": "0"}},
    )
    assert sid in expire_due(store, later)
    settled = store.get(trip_id, sid)
    assert settled is not None
    assert (settled.status, settled.decidedBy) == ("expired", "system")


def test_a_stranger_approving_gets_the_missing_trip_answer(local_stack: LocalStack) -> None:
    _, workspace, store, suggestions, *_ = world(local_stack)
    trip_id, sid = suggested_trip(workspace, store, members=1)
    with pytest.raises(NotFound) as stranger:
        suggestions.answer("eve", trip_id, sid, answer_id=sid, approved=True)
    with pytest.raises(NotFound) as missing:
        suggestions.answer("eve", "trp_nothing", sid, answer_id=sid, approved=True)
    assert stranger.value.body() == missing.value.body()
    with pytest.raises(NotFound, match="Suggestion not found"):
        suggestions.answer("m0", trip_id, "sug_nothing", answer_id="sug_nothing", approved=False)
    assert store.get(trip_id, sid).status == "pending"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "fault", [RuntimeError("the function crashed"), ConnectionError("table unreachable")]
)
def test_a_fault_after_the_claim_leaves_the_suggestion_pending_and_listed(
    local_stack: LocalStack, fault: Exception
) -> None:
    repo, workspace, store, suggestions, *_ = world(local_stack, FailingCommit)
    trip_id, sid = suggested_trip(workspace, store, members=2)
    before = workspace.get_trip("ana", trip_id)
    repo.fault = fault
    with pytest.raises(type(fault)):
        suggestions.answer("m0", trip_id, sid, answer_id=sid, approved=True)
    assert workspace.get_trip("ana", trip_id) == before
    reloaded = suggestions.visible("m1", trip_id)  # what a reloaded page lists: still to answer
    assert [(s.suggestionId, s.status, s.decidedBy) for s in reloaded] == [(sid, "pending", None)]
    repo.fault = None
    applied = suggestions.answer("m1", trip_id, sid, answer_id=sid, approved=True)
    assert (applied.status, applied.decidedBy) == ("applied", "m1")
    assert workspace.get_trip("ana", trip_id).days[0].city == "Canillo"
