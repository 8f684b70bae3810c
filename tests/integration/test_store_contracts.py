"""One set of cases for each port, run against the in-memory fake the unit tests use and the DynamoDB
adapter on DynamoDB Local, so the fakes cannot drift from what the real stores do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.proposals import DynamoProposalStore
from tripagent.adapters.dynamodb.sessions import DynamoSessionStore
from tripagent.adapters.dynamodb.trips import DynamoTripRepository
from tripagent.adapters.system import new_id
from tripagent.application.ports import ProposalClaim
from tripagent.domain.proposal import Proposal, approver_role_for
from tripagent.domain.review import PendingPatch
from tripagent.domain.session import Turn, TurnMetadata
from tripagent.domain.trip import Member, Role, Trip
from tripagent.errors import ClaimLost, VersionConflict
from tripagent_local.stack import LocalStack

from tests.fixtures.fakes import FakeProposalStore, FakeSessionStore, FakeTripRepository

T0 = "2027-06-01T10:00:00.000Z"
LATER = "2027-06-01T10:06:00.000Z"  # past a claim's 300 s lease
EXPIRES = "2027-06-01T11:00:00.000Z"
AFTER_EXPIRY = "2027-06-01T12:00:00.000Z"


def _client(stack: LocalStack) -> tuple[Any, str]:
    return (
        dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}"),
        next(iter(stack.table_names.values())),
    )


@pytest.fixture(params=["fake", "dynamodb"])
def stores(request: pytest.FixtureRequest, local_stack: LocalStack) -> tuple[Any, Any]:
    """(proposal store, trip repository) sharing one claim: the fake's half of it, or the transaction."""
    if request.param == "fake":
        proposals = FakeProposalStore()
        return proposals, FakeTripRepository(claims=proposals.commit_claim)
    client, table = _client(local_stack)
    return DynamoProposalStore(client, table), DynamoTripRepository(client, table)


def proposal(kind: str = "suggestion", **fields: Any) -> Proposal:
    patch = PendingPatch(op="edit_day", args={"dayIndex": 0, "city": "Canillo"}, expectedVersion=1)
    return Proposal.model_validate(
        {
            "proposalId": new_id("prp"),
            "tripId": new_id("trp"),
            "kind": kind,
            "patch": patch,
            "approverRole": approver_role_for(patch),
            "proposedBy": "ana",
            "createdAt": T0,
            "expiresAt": EXPIRES,
        }
        | fields
    )


# ---------------------------------------------------------------------------- proposals
def test_a_proposal_is_created_once_and_read_back(stores: tuple[Any, Any]) -> None:
    store, _ = stores
    made = proposal()
    assert store.create(made)
    assert not store.create(made)
    assert store.get(made.tripId, made.proposalId) == made
    assert store.get(made.tripId, "prp_none") is None


def test_the_first_claim_wins_and_a_later_one_learns_who_holds_it(stores: tuple[Any, Any]) -> None:
    store, _ = stores
    made = proposal()
    store.create(made)
    first = store.claim(made.tripId, made.proposalId, "ben", T0, "suggestion")
    second = store.claim(made.tripId, made.proposalId, "cat", T0, "suggestion")
    assert (first.won, first.proposal.status, first.proposal.decidedBy) == (True, "claimed", "ben")
    assert (second.won, second.proposal.status, second.proposal.decidedBy) == (False, "claimed", "ben")
    assert store.claim(made.tripId, "prp_none", "cat", T0, "suggestion") is None
    assert store.claim(made.tripId, made.proposalId, "cat", T0, "approval") is None  # not of that kind


def test_a_claim_given_back_can_be_won_again_and_a_lapsed_one_taken_over(stores: tuple[Any, Any]) -> None:
    store, _ = stores
    made = proposal()
    store.create(made)
    store.claim(made.tripId, made.proposalId, "ben", T0, "suggestion")
    store.finish(made.tripId, made.proposalId, "ben", "pending", T0)
    given_back = store.get(made.tripId, made.proposalId)
    assert (given_back.status, given_back.decidedBy) == ("pending", None)
    assert store.claim(made.tripId, made.proposalId, "cat", T0, "suggestion").won
    assert not store.claim(made.tripId, made.proposalId, "dan", T0, "suggestion").won  # live
    assert store.claim(made.tripId, made.proposalId, "dan", LATER, "suggestion").won  # past its lease


def test_finishing_someone_elses_claim_changes_nothing(stores: tuple[Any, Any]) -> None:
    store, _ = stores
    made = proposal()
    store.create(made)
    store.claim(made.tripId, made.proposalId, "ben", T0, "suggestion")
    store.finish(made.tripId, made.proposalId, "cat", "failed", T0, failure="validation_error")
    assert store.get(made.tripId, made.proposalId).status == "claimed"
    store.finish(made.tripId, made.proposalId, "ben", "failed", T0, failure="validation_error")
    failed = store.get(made.tripId, made.proposalId)
    assert (failed.status, failed.failure, failed.client_status) == ("failed", "validation_error", "failed")


def test_an_expired_proposal_cannot_be_claimed_and_the_sweep_finds_only_open_ones(
    stores: tuple[Any, Any],
) -> None:
    store, _ = stores
    open_one, decided = proposal(), proposal()
    store.create(open_one)
    store.create(decided)
    assert store.settle(decided.tripId, decided.proposalId, "denied", "ben", T0)
    assert not store.settle(decided.tripId, decided.proposalId, "expired", "system", T0)  # decided once
    assert not store.claim(open_one.tripId, open_one.proposalId, "ben", AFTER_EXPIRY, "suggestion").won
    due = store.due(AFTER_EXPIRY)
    assert (open_one.tripId, open_one.proposalId) in due
    assert (decided.tripId, decided.proposalId) not in due


def test_hiding_is_for_one_member_and_only_for_suggestions(stores: tuple[Any, Any]) -> None:
    store, _ = stores
    trip_id = new_id("trp")
    older = proposal(tripId=trip_id, createdAt="2027-06-01T09:00:00.000Z")
    newer = proposal(tripId=trip_id)
    approval = proposal("approval", tripId=trip_id)
    for made in (older, newer, approval):
        store.create(made)
    assert store.hide(trip_id, older.proposalId, "ben") is not None
    assert store.hide(trip_id, approval.proposalId, "ben") is None
    assert [p.proposalId for p in store.visible(trip_id, "ben", T0)] == [newer.proposalId]
    assert [p.proposalId for p in store.visible(trip_id, "cat", T0)] == [newer.proposalId, older.proposalId]
    assert store.visible(trip_id, "cat", AFTER_EXPIRY) == []
    assert set(store.of_trip(trip_id, "approval")) == {approval.proposalId}


# ---------------------------------------------------------------------------- trips, with a claim
def _trip(repo: Any) -> Trip:
    trip = Trip(
        tripId=new_id("trp"),
        title="Contract",
        members=[Member(userId="ana", role=Role.owner), Member(userId="ben", role=Role.editor)],
        createdAt=T0,
        updatedAt=T0,
    )
    repo.create(trip)
    return trip


def test_a_commit_on_a_stale_version_is_refused_with_the_current_one(stores: tuple[Any, Any]) -> None:
    _, repo = stores
    trip = _trip(repo)
    assert repo.role_of(trip.tripId, "ben") == Role.editor
    assert repo.role_of(trip.tripId, "eve") is None
    assert repo.member_ids(trip.tripId) == {"ana", "ben"}
    trip.version = 2
    repo.commit(trip, expected_version=1, membership_changed=set(), event=None)
    with pytest.raises(VersionConflict) as lost:
        repo.commit(trip, expected_version=1, membership_changed=set(), event=None)
    assert lost.value.current_version == 2
    assert repo.get(trip.tripId).version == 2


def test_a_claim_commits_with_the_trip_or_nothing_is_written(stores: tuple[Any, Any]) -> None:
    store, repo = stores
    trip = _trip(repo)
    made = proposal(tripId=trip.tripId)
    store.create(made)
    store.claim(trip.tripId, made.proposalId, "ben", T0, "suggestion")
    trip.version, trip.title = 2, "Changed by cat"
    with pytest.raises(ClaimLost):  # cat holds no claim: neither the trip nor the proposal moves
        repo.commit(
            trip, expected_version=1, membership_changed=set(), event=None,
            claim=ProposalClaim(trip.tripId, made.proposalId, "cat", T0),
        )  # fmt: skip
    assert (repo.get(trip.tripId).version, store.get(trip.tripId, made.proposalId).status) == (1, "claimed")
    trip.title = "Changed by ben"
    repo.commit(
        trip, expected_version=1, membership_changed=set(), event=None,
        claim=ProposalClaim(trip.tripId, made.proposalId, "ben", T0),
    )  # fmt: skip
    assert (repo.get(trip.tripId).title, store.get(trip.tripId, made.proposalId).status) == (
        "Changed by ben",
        "applied",
    )


# ---------------------------------------------------------------------------- sessions
@pytest.fixture(params=["fake", "dynamodb"])
def sessions(request: pytest.FixtureRequest, local_stack: LocalStack) -> Any:
    if request.param == "fake":
        return FakeSessionStore()
    client, table = _client(local_stack)
    return DynamoSessionStore(client, table, retention_s=86400)


def _turn(text: str) -> Turn:
    return Turn(role="user", kind="chat", text=text, metadata=TurnMetadata(actor="ana", at=T0, source="chat"))


def test_turns_are_numbered_from_one_and_a_duplicate_is_not_written(sessions: Any) -> None:
    trip_id = new_id("trp")
    assert [sessions.append(trip_id, _turn(t)) for t in ("a", "b")] == [1, 2]
    assert sessions.append(trip_id, _turn("c"), dedupe_key="op:1") == 3
    assert sessions.append(trip_id, _turn("c again"), dedupe_key="op:1") is None
    assert [(t.seq, t.text) for t in sessions.turns(trip_id, after=1)] == [(2, "b"), (3, "c")]
    assert [t.text for t in sessions.recent(trip_id, limit=2)] == ["b", "c"]


def test_a_summary_never_goes_back_and_an_intent_is_taken_once(sessions: Any) -> None:
    trip_id = new_id("trp")
    sessions.append(trip_id, _turn("a"))
    sessions.save_summary(trip_id, "up to 5", 5)
    sessions.save_summary(trip_id, "up to 3", 3)  # a slower fold: ignored
    assert (sessions.state(trip_id).summary, sessions.state(trip_id).summary_up_to) == ("up to 5", 5)
    intent: dict[str, Any] = {"type": "choose_stop", "question": "Which?"}
    sessions.set_pending_intent(trip_id, intent)
    take: Callable[[], bool] = lambda: sessions.take_pending_intent(trip_id, intent)  # noqa: E731
    assert (take(), take()) == (True, False)
    assert sessions.state(trip_id).pending_intent is None
