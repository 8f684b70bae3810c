"""The trip workspace's use cases with in-memory ports: authorization, the registry, versions, events."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tripagent.application.trips import TRIP_NOT_FOUND, TripWorkspace
from tripagent.domain.ops import REGISTRY
from tripagent.domain.trip import Role
from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import Forbidden, NotFound, ValidationFailed, VersionConflict

from tests.fixtures.fakes import FakeClock, FakeTripRepository, SequentialIds


@pytest.fixture
def repo() -> FakeTripRepository:
    return FakeTripRepository()


@pytest.fixture
def ws(repo: FakeTripRepository) -> TripWorkspace:
    return TripWorkspace(trips=repo, clock=FakeClock(), new_id=SequentialIds())


@pytest.fixture
def trip_id(ws: TripWorkspace) -> str:
    """A trip owned by alice, with bob as editor, vera as viewer, and two days."""
    trip = ws.create_trip("alice", title="Pyrenees", start_date=dt.date(2027, 6, 12))
    ws.run_operation("alice", trip.tripId, "add_member", {"userId": "bob", "role": "editor"})
    ws.run_operation("alice", trip.tripId, "add_member", {"userId": "vera", "role": "viewer"})
    ws.run_operation("bob", trip.tripId, "add_day", {"city": "Sant Julià de Lòria"})
    ws.run_operation("bob", trip.tripId, "add_day", {"city": "Canillo"})
    return trip.tripId


def op(ws: TripWorkspace, who: str, trip_id: str, name: str, args: dict[str, Any]) -> Any:
    version = ws.get_trip(who, trip_id).version
    return ws.run_operation(who, trip_id, name, args, expected_version=version)


def test_the_creator_is_the_owner_and_the_first_version_is_1(ws: TripWorkspace) -> None:
    trip = ws.create_trip("alice", title="Andorra")
    assert [(m.userId, m.role) for m in trip.members] == [("alice", Role.owner)]
    assert trip.version == 1


def test_a_non_member_gets_exactly_the_missing_trip_answer(ws: TripWorkspace, trip_id: str) -> None:
    with pytest.raises(NotFound) as hidden:
        ws.get_trip("mallory", trip_id)
    with pytest.raises(NotFound) as missing:
        ws.get_trip("alice", "trp_nope")
    assert (
        hidden.value.body()
        == missing.value.body()
        == {"error": "not_found", "message": TRIP_NOT_FOUND, "details": []}
    )
    with pytest.raises(NotFound):
        ws.run_operation("mallory", trip_id, "add_stop", {"dayIndex": 0, "name": "x", "kind": "poi"})


def test_every_change_bumps_the_version_once(ws: TripWorkspace, trip_id: str) -> None:
    before = ws.get_trip("bob", trip_id).version
    outcome = op(ws, "bob", trip_id, "add_stop", {"dayIndex": 0, "name": "Museu", "kind": "activity"})
    assert outcome.trip.version == before + 1
    assert ws.get_trip("bob", trip_id).version == before + 1


def test_a_stale_expected_version_is_a_conflict_with_the_current_version(
    ws: TripWorkspace, trip_id: str
) -> None:
    current = ws.get_trip("bob", trip_id).version
    with pytest.raises(VersionConflict) as conflict:
        ws.run_operation("bob", trip_id, "add_day", {}, expected_version=current - 1)
    assert conflict.value.body()["currentVersion"] == current
    assert status_of(conflict.value) == 409


def test_viewers_cannot_write_and_editors_cannot_manage_members(ws: TripWorkspace, trip_id: str) -> None:
    with pytest.raises(Forbidden):
        op(ws, "vera", trip_id, "add_stop", {"dayIndex": 0, "name": "x", "kind": "poi"})
    with pytest.raises(Forbidden):
        op(ws, "bob", trip_id, "add_member", {"userId": "eve", "role": "viewer"})
    assert (
        op(ws, "alice", trip_id, "change_role", {"userId": "vera", "role": "editor"}).trip.role_of("vera")
        == "editor"
    )


@pytest.mark.parametrize(
    "smuggled", [{"version": 99}, {"members": []}, {"ownerId": "mallory"}, {"tripId": "x"}]
)
def test_mass_assignment_is_rejected(ws: TripWorkspace, trip_id: str, smuggled: dict[str, Any]) -> None:
    before = ws.get_trip("alice", trip_id)
    with pytest.raises(ValidationFailed) as refused:
        op(ws, "alice", trip_id, "edit_day", {"dayIndex": 0, "city": "Ordino", **smuggled})
    assert any(d["type"] == "extra_forbidden" for d in refused.value.details)
    assert ws.get_trip("alice", trip_id) == before


def test_an_unknown_operation_is_422_naming_the_known_ones(ws: TripWorkspace, trip_id: str) -> None:
    with pytest.raises(ValidationFailed) as refused:
        op(ws, "alice", trip_id, "drop_table", {})
    assert "add_stop" in refused.value.details[0]["msg"]


def test_whitelisted_operations_emit_exactly_one_event_and_others_none(
    ws: TripWorkspace, repo: FakeTripRepository, trip_id: str
) -> None:
    repo.outbox.clear()
    added = op(ws, "bob", trip_id, "add_stop", {"dayIndex": 1, "name": "Lunch", "kind": "food"})
    stop_id = added.trip.stops[-1].stopId
    op(ws, "bob", trip_id, "remove_day", {"dayIndex": 0})  # not whitelisted
    assert [e.op for e in repo.outbox] == ["add_stop"]
    event = repo.outbox[0]
    assert event.actor == "bob"
    assert event.tripId == trip_id
    assert event.tripVersion == added.trip.version
    assert event.diff == [
        {
            "entity": "stop",
            "id": stop_id,
            "before": None,
            "after": added.trip.stops[-1].model_dump(mode="json", by_alias=True),
        }
    ]


def test_a_rejected_operation_changes_nothing_and_emits_nothing(
    ws: TripWorkspace, repo: FakeTripRepository, trip_id: str
) -> None:
    repo.outbox.clear()
    before = ws.get_trip("alice", trip_id)
    with pytest.raises(ValidationFailed):
        op(
            ws,
            "bob",
            trip_id,
            "add_expense",
            {"label": "Hotel", "amount": "120.00", "payer": "mallory", "participants": ["bob"]},
        )
    assert ws.get_trip("alice", trip_id) == before
    assert repo.outbox == []


def test_a_change_that_changes_nothing_is_not_a_new_version(ws: TripWorkspace, trip_id: str) -> None:
    before = ws.get_trip("alice", trip_id).version
    assert op(ws, "alice", trip_id, "edit_day", {"dayIndex": 1, "city": "Canillo"}).diff == []
    assert ws.get_trip("alice", trip_id).version == before


def test_stop_orders_stay_dense_through_moves_and_removals(ws: TripWorkspace, trip_id: str) -> None:
    for name in ("A", "B", "C"):
        op(ws, "bob", trip_id, "add_stop", {"dayIndex": 0, "name": name, "kind": "poi"})
    trip = ws.get_trip("bob", trip_id)
    a, b, _c = (s.stopId for s in trip.stops_on(0))
    op(ws, "bob", trip_id, "move_stop", {"stopId": b, "dayIndex": 1})
    op(ws, "bob", trip_id, "add_stop", {"dayIndex": 1, "name": "D", "kind": "poi", "position": 0})
    op(ws, "bob", trip_id, "remove_stop", {"stopId": a})
    trip = ws.get_trip("bob", trip_id)
    assert [(s.name, s.order) for s in trip.stops_on(0)] == [("C", 0)]
    assert [(s.name, s.order) for s in trip.stops_on(1)] == [("D", 0), ("B", 1)]
    with pytest.raises(ValidationFailed):
        op(ws, "bob", trip_id, "reorder_stops", {"dayIndex": 1, "stopIds": [b]})  # must list all


def test_a_stop_needs_an_existing_day(ws: TripWorkspace, trip_id: str) -> None:
    with pytest.raises(ValidationFailed, match="Day 5 does not exist"):
        op(ws, "bob", trip_id, "add_stop", {"dayIndex": 5, "name": "x", "kind": "poi"})


def test_reordering_days_moves_plans_and_keeps_dates(ws: TripWorkspace, trip_id: str) -> None:
    op(ws, "bob", trip_id, "add_stop", {"dayIndex": 0, "name": "Start", "kind": "poi"})
    outcome = op(ws, "bob", trip_id, "reorder_days", {"order": [1, 0]})
    trip = outcome.trip
    assert [d.city for d in trip.days] == ["Canillo", "Sant Julià de Lòria"]
    assert [d.date for d in trip.days] == [dt.date(2027, 6, 12), dt.date(2027, 6, 13)]
    assert trip.stops[0].dayIndex == 1


def test_expenses_need_members_as_payer_and_participants(ws: TripWorkspace, trip_id: str) -> None:
    good = {"label": "Hotel", "amount": "120.50", "payer": "bob", "participants": ["bob", "alice"]}
    trip = op(ws, "bob", trip_id, "add_expense", good).trip
    assert str(trip.expenses[0].amount) == "120.50"
    with pytest.raises(ValidationFailed):
        op(
            ws,
            "bob",
            trip_id,
            "edit_expense",
            {"expenseId": trip.expenses[0].expenseId, "participants": ["zed"]},
        )
    with pytest.raises(ValidationFailed):
        op(ws, "alice", trip_id, "remove_member", {"userId": "bob"})  # bob pays an expense


def test_a_trip_keeps_an_owner(ws: TripWorkspace, trip_id: str) -> None:
    with pytest.raises(ValidationFailed, match="at least one owner"):
        op(ws, "alice", trip_id, "change_role", {"userId": "alice", "role": "editor"})
    op(ws, "alice", trip_id, "change_role", {"userId": "bob", "role": "owner"})
    assert op(ws, "alice", trip_id, "remove_member", {"userId": "alice"}).trip.role_of("alice") is None


def test_the_registry_covers_the_issue_and_forbids_extra_fields() -> None:
    expected = {
        "add_stop",
        "edit_stop",
        "remove_stop",
        "move_stop",
        "reorder_stops",
        "add_day",
        "remove_day",
        "reorder_days",
        "edit_day",
        "add_expense",
        "edit_expense",
        "remove_expense",
        "add_member",
        "change_role",
        "remove_member",
    }
    assert expected <= set(REGISTRY)
    for operation in REGISTRY.values():
        assert operation.json_schema()["additionalProperties"] is False, operation.name


def test_a_trip_with_a_stage_serializes_its_from_field() -> None:
    from tripagent.domain.trip import Stage

    stage = Stage.model_validate({"from": "Ordino", "to": "Canillo", "distanceKm": 12, "durationMin": 50})
    assert stage.model_dump(mode="json", by_alias=True)["from"] == "Ordino"


def _sample_args(trip: Any) -> dict[str, dict[str, Any]]:
    """Valid arguments for every whitelisted operation against the ``trip_id`` fixture plus one stop."""
    stop = trip.stops[0].stopId
    expense = trip.expenses[0].expenseId
    return {
        "add_stop": {"dayIndex": 0, "name": "Caldea", "kind": "activity", "outdoor": False},
        "edit_stop": {"stopId": stop, "startTime": "10:00"},
        "move_stop": {"stopId": stop, "dayIndex": 1},
        "reorder_stops": {"dayIndex": 0, "stopIds": [s.stopId for s in reversed(trip.stops_on(0))]},
        "reorder_days": {"order": [1, 0]},
        "edit_day": {"dayIndex": 0, "city": "Ordino"},
        "add_expense": {"label": "Dinner", "amount": "40", "payer": "alice", "participants": ["alice"]},
        "edit_expense": {"expenseId": expense, "amount": "99.90"},
    }


@pytest.mark.parametrize("name", sorted(n for n, o in REGISTRY.items() if o.high_risk))
def test_every_whitelisted_operation_emits_exactly_one_event(
    ws: TripWorkspace, repo: FakeTripRepository, trip_id: str, name: str
) -> None:
    op(ws, "bob", trip_id, "add_stop", {"dayIndex": 0, "name": "A", "kind": "poi"})
    op(ws, "bob", trip_id, "add_stop", {"dayIndex": 0, "name": "B", "kind": "poi"})
    op(
        ws,
        "bob",
        trip_id,
        "add_expense",
        {"label": "Hotel", "amount": "80", "payer": "bob", "participants": ["bob"]},
    )
    samples = _sample_args(ws.get_trip("bob", trip_id))
    assert name in samples, f"add sample arguments for the whitelisted operation {name}"
    repo.outbox.clear()
    outcome = op(ws, "bob", trip_id, name, samples[name])
    assert [e.op for e in repo.outbox] == [name]
    assert repo.outbox[0].tripVersion == outcome.trip.version
    assert repo.outbox[0].diff == outcome.diff != []
