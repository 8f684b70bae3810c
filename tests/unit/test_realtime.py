"""The realtime channel's rules: members only, pushes to followers, a deny to the denier alone, gone
connections forgotten, stream records read as the changes they are, toasts ready to render."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from tripagent.adapters.dynamodb.changes import decode_change
from tripagent.application.realtime import (
    TOAST_ACTIONS,
    Realtime,
    SuggestionChanged,
    TripChanged,
    TurnAdded,
    toast,
)
from tripagent.application.trips import TripWorkspace
from tripagent.domain.proposal import Proposal, SuggestionView
from tripagent.domain.review import PendingPatch
from tripagent.errors import NotFound
from tripagent_local.paths import REPO_ROOT

from tests.fixtures.fakes import FakeClock, FakeTripRepository, SequentialIds
from tests.fixtures.review import a_suggestion


@dataclass
class MemoryConnections:
    users: dict[str, str] = field(default_factory=dict)
    follows: dict[str, set[str]] = field(default_factory=dict)  # trip → connections

    def connect(self, connection_id: str, user_id: str, expires_at: int) -> None:
        self.users[connection_id] = user_id

    def user_of(self, connection_id: str) -> str | None:
        return self.users.get(connection_id)

    def subscribe(self, connection_id: str, user_id: str, trip_id: str, expires_at: int) -> bool:
        if connection_id not in self.users:
            return False
        self.follows.setdefault(trip_id, set()).add(connection_id)
        return True

    def unsubscribe(self, connection_id: str, trip_id: str) -> None:
        self.follows.get(trip_id, set()).discard(connection_id)

    def disconnect(self, connection_id: str) -> None:
        self.users.pop(connection_id, None)
        for followers in self.follows.values():
            followers.discard(connection_id)

    def subscribers(self, trip_id: str) -> list[tuple[str, str]]:
        return sorted((c, self.users[c]) for c in self.follows.get(trip_id, set()))


@dataclass
class MemoryPusher:
    gone: set[str] = field(default_factory=set)
    sent: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def push(self, connection_id: str, message: dict[str, Any]) -> bool:
        if connection_id in self.gone:
            return False
        self.sent.append((connection_id, message))
        return True

    def to(self, connection_id: str) -> list[dict[str, Any]]:
        return [m for c, m in self.sent if c == connection_id]


@pytest.fixture
def world() -> tuple[Realtime, MemoryConnections, MemoryPusher, str]:
    workspace = TripWorkspace(FakeTripRepository(), FakeClock(), SequentialIds())
    trip = workspace.create_trip("ana", title="Andorra")
    workspace.run_operation("ana", trip.tripId, "add_member", {"userId": "ben", "role": "editor"})
    workspace.run_operation("ana", trip.tripId, "add_member", {"userId": "vic", "role": "viewer"})
    connections, pusher = MemoryConnections(), MemoryPusher()
    realtime = Realtime(connections, workspace, pusher, now=lambda: 1_800_000_000.0)
    for connection, user in [("c-ana", "ana"), ("c-ben", "ben"), ("c-vic", "vic"), ("c-eve", "eve")]:
        realtime.connect(user, connection)
    return realtime, connections, pusher, trip.tripId


def _suggestion(trip_id: str, status: str = "pending", decided_by: str | None = None) -> Proposal:
    return a_suggestion(
        trip_id,
        PendingPatch(op="remove_stop", args={"stopId": "stp_2"}, expectedVersion=4),
        proposalId="sug_1",
        status=status,
        reason="Night 1 is booked twice.",
        suggestion="Remove the second booking.",
        decidedBy=decided_by,
    )


def test_members_subscribe_and_a_stranger_cannot_tell_the_trip_exists(world: Any) -> None:
    realtime, _, _, trip_id = world
    assert realtime.subscribe("c-vic", trip_id)["role"] == "viewer"
    with pytest.raises(NotFound) as hidden:
        realtime.subscribe("c-eve", trip_id)
    with pytest.raises(NotFound) as missing:
        realtime.subscribe("c-eve", "trp_nothing")
    assert hidden.value.body() == missing.value.body()


def test_every_follower_hears_a_suggestion_and_only_the_denier_hears_the_deny(world: Any) -> None:
    realtime, _, pusher, trip_id = world
    for connection in ("c-ana", "c-ben", "c-vic"):
        realtime.subscribe(connection, trip_id)
    assert realtime.notify(SuggestionChanged(_suggestion(trip_id), created=True, status_changed=False)) == 3
    created = pusher.to("c-vic")[0]
    assert created["type"] == "suggestion.created"
    assert [a["labelKey"] for a in created["toast"]["actions"]] == [
        "agent.toast.approve",
        "agent.toast.discuss",
        "agent.toast.deny",
    ]
    assert created["toast"]["patch"] == "Remove a stop."
    realtime.notify(
        SuggestionChanged(_suggestion(trip_id), created=False, status_changed=False, new_deniers=("ana",))
    )
    assert pusher.to("c-ana")[-1]["hidden"] is True
    assert len(pusher.to("c-ben")) == 1  # nothing about ana's deny
    realtime.notify(
        SuggestionChanged(_suggestion(trip_id, "applied", "ben"), created=False, status_changed=True)
    )
    update = pusher.to("c-ana")[-1]
    assert (update["type"], update["status"], update["decidedBy"]) == ("suggestion.updated", "applied", "ben")


def test_a_gone_connection_is_forgotten_on_the_first_failed_push(world: Any) -> None:
    realtime, connections, pusher, trip_id = world
    realtime.subscribe("c-ana", trip_id)
    realtime.subscribe("c-ben", trip_id)
    pusher.gone.add("c-ben")
    assert realtime.notify(TripChanged(trip_id, 7, "2027-06-01T10:00:00.000Z")) == 1
    assert connections.user_of("c-ben") is None
    assert connections.subscribers(trip_id) == [("c-ana", "ana")]


def test_stream_records_are_read_as_changes() -> None:
    from tripagent.domain.session import Turn, TurnMetadata

    trip = {"PK": {"S": "TRIP#t1"}, "SK": {"S": "META"}, "type": {"S": "trip"}, "version": {"N": "5"}}
    same = {"eventName": "MODIFY", "dynamodb": {"NewImage": trip, "OldImage": trip}}
    assert decode_change(same) is None  # no new version: nothing to say
    bumped = {
        "eventName": "MODIFY",
        "dynamodb": {"NewImage": trip, "OldImage": {**trip, "version": {"N": "4"}}},
    }
    assert decode_change(bumped) == TripChanged("t1", 5, None)
    turn = Turn(
        role="user", kind="chat", text="hi", metadata=TurnMetadata(actor="ana", at="x", source="chat"), seq=3
    )
    record = {
        "eventName": "INSERT",
        "dynamodb": {
            "NewImage": {
                "PK": {"S": "SESSION#t1"},
                "type": {"S": "turn"},
                "doc": {"S": turn.model_dump_json()},
            }
        },
    }
    change = decode_change(record)
    assert isinstance(change, TurnAdded)
    assert change.turn.seq == 3
    doc = _suggestion("t1").model_dump(mode="json", exclude={"status", "decidedBy", "decidedAt", "failure"})
    item = {
        "PK": {"S": "SESSION#t1"},
        "type": {"S": "suggestion"},
        "status": {"S": "pending"},
        "doc": {"S": json.dumps(doc)},
    }
    denied = {**item, "deniedBy": {"SS": ["ana", "ben"]}}
    change = decode_change(
        {
            "eventName": "MODIFY",
            "dynamodb": {"NewImage": denied, "OldImage": {**item, "deniedBy": {"SS": ["ben"]}}},
        }
    )
    assert isinstance(change, SuggestionChanged)
    assert change.new_deniers == ("ana",)
    assert change.status_changed is False


def test_the_label_catalogs_cover_every_toast_action() -> None:
    labels = REPO_ROOT / "shared" / "tripagent" / "data" / "labels"
    en = json.loads((labels / "en.json").read_text())
    zh = json.loads((labels / "zh-Hans.json").read_text())
    keys = {a["labelKey"] for a in toast(SuggestionView.of(_suggestion("t1")))["actions"]}
    assert keys == {f"agent.toast.{a}" for a in TOAST_ACTIONS} == set(en) == set(zh)
    assert [en[f"agent.toast.{a}"] for a in TOAST_ACTIONS] == ["Approve", "Discuss", "Deny"]
    assert [zh[f"agent.toast.{a}"] for a in TOAST_ACTIONS] == ["批准", "讨论", "拒绝"]


def test_a_member_who_leaves_stops_hearing_about_the_trip(world: Any) -> None:
    realtime, connections, pusher, trip_id = world
    realtime.subscribe("c-ana", trip_id)
    realtime.subscribe("c-ben", trip_id)
    realtime.workspace.run_operation("ana", trip_id, "remove_member", {"userId": "ben"})
    assert realtime.notify(TripChanged(trip_id, 9, None)) == 1
    assert pusher.to("c-ben") == []
    assert connections.subscribers(trip_id) == [("c-ana", "ana")]


def test_every_member_hears_a_reply_begin_and_end_and_a_stranger_nothing(world: Any) -> None:
    realtime, _, pusher, trip_id = world
    for connection in ("c-ana", "c-ben", "c-vic"):
        realtime.subscribe(connection, trip_id)
    meta = {
        "PK": {"S": f"AGENTSTREAM#{trip_id}"},
        "type": {"S": "agentturn"},
        "tripId": {"S": trip_id},
        "streamId": {"S": "msg_1"},
        "by": {"S": "ana"},
        "status": {"S": "active"},
        "asked": {"S": "Is day 2 hard?"},
    }
    started = decode_change({"eventName": "INSERT", "dynamodb": {"NewImage": meta}})
    assert started is not None
    assert realtime.notify(started) == 3
    assert pusher.to("c-vic")[-1] == {
        "type": "agent.turn.started",
        "tripId": trip_id,
        "turnId": "msg_1",
        "by": "ana",
        "asked": "Is day 2 hard?",
    }
    assert pusher.to("c-eve") == []
    same = {"eventName": "MODIFY", "dynamodb": {"NewImage": meta, "OldImage": meta}}
    assert decode_change(same) is None  # nothing new to say
    ended = decode_change(
        {
            "eventName": "MODIFY",
            "dynamodb": {"NewImage": {**meta, "status": {"S": "stopped"}}, "OldImage": meta},
        }
    )
    assert ended is not None
    realtime.notify(ended)
    assert pusher.to("c-ben")[-1]["type"] == "agent.turn.ended"
    assert pusher.to("c-ben")[-1]["status"] == "stopped"
