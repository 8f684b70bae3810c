"""Realtime on the local stack, with a real WebSocket client: two members and a viewer follow a trip, an
operation raises a suggestion that all three receive, the viewer cannot approve, the winner's approval
reaches the others, a stranger learns nothing, and dropped connections are cleaned up."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.connections import DynamoConnectionStore
from tripagent_local import devauth
from tripagent_local.stack import LocalStack
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect


def token(stack: LocalStack, user: str) -> str:
    return devauth.mint_token(user, state_dir=stack.config.state_dir)


def ws_url(stack: LocalStack) -> str:
    assert stack.websocket is not None
    return stack.url.replace("http://", "ws://") + stack.websocket.path


@contextmanager
def member(stack: LocalStack, user: str, *, subprotocol: bool = False) -> Iterator[ClientConnection]:
    if subprotocol:
        conn = connect(ws_url(stack), subprotocols=["tripagent", token(stack, user)], proxy=None)  # type: ignore[list-item]
    else:
        conn = connect(f"{ws_url(stack)}?token={token(stack, user)}", proxy=None)
    try:
        yield conn
    finally:
        conn.close()


def ask(conn: ClientConnection, action: str, trip_id: str) -> dict[str, Any]:
    conn.send(json.dumps({"action": action, "tripId": trip_id}))
    return json.loads(conn.recv(timeout=10))


def next_of(conn: ClientConnection, kind: str, timeout_s: float = 20, **match: Any) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        message = json.loads(conn.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message
    raise AssertionError(f"no {kind} {match} within {timeout_s} s")


def next_of_message(conn: ClientConnection, timeout_s: float = 20, **match: Any) -> dict[str, Any]:
    """The next ``agent.message`` whose turn has the ``match``ed fields (kind, role, ...)."""
    deadline = time.monotonic() + timeout_s
    while (left := deadline - time.monotonic()) > 0:
        turn = next_of(conn, "agent.message", timeout_s=left)["message"]
        if all(turn.get(k) == v for k, v in match.items()):
            return dict(turn)
    raise AssertionError(f"no agent.message {match} within {timeout_s} s")


def http(stack: LocalStack, user: str) -> httpx.Client:
    return httpx.Client(
        base_url=stack.url, headers={"Authorization": f"Bearer {token(stack, user)}"}, timeout=30
    )


@pytest.fixture
def trip_id(local_stack: LocalStack) -> str:
    with http(local_stack, "ana") as ana:
        trip = ana.post("/trips", json={"title": "Live"}).json()
        version = trip["version"]
        for op, args in [
            ("add_member", {"userId": "ben", "role": "editor"}),
            ("add_member", {"userId": "vic", "role": "viewer"}),
            ("add_day", {}),
        ]:
            response = ana.post(
                f"/trips/{trip['tripId']}/ops", json={"op": op, "args": args, "expectedVersion": version}
            )
            version = response.json()["trip"]["version"]
    return str(trip["tripId"])


def test_connect_refuses_anyone_without_a_valid_token(local_stack: LocalStack) -> None:
    for url in (ws_url(local_stack), f"{ws_url(local_stack)}?token=garbage"):
        with pytest.raises(InvalidStatus) as refused:
            connect(url, proxy=None)
        assert refused.value.response.status_code == 401


def test_a_suggestion_reaches_every_member_and_the_first_approval_reaches_the_others(
    local_stack: LocalStack, trip_id: str
) -> None:
    with (
        member(local_stack, "ana") as ana,
        member(local_stack, "ben", subprotocol=True) as ben,
        member(local_stack, "vic") as vic,
    ):
        assert ben.subprotocol == "tripagent"
        for conn in (ana, ben, vic):
            assert ask(conn, "subscribe", trip_id)["type"] == "subscribed"
        with http(local_stack, "ana") as client:
            version = client.get(f"/trips/{trip_id}").json()["version"]
            for name in ("Hotel A", "Hotel B"):
                response = client.post(
                    f"/trips/{trip_id}/ops",
                    json={
                        "op": "add_stop",
                        "args": {"dayIndex": 0, "name": name, "kind": "lodging"},
                        "expectedVersion": version,
                    },
                )
                version = response.json()["trip"]["version"]
        assert next_of(ana, "trip.updated", version=version)["tripId"] == trip_id
        created = [next_of(conn, "suggestion.created") for conn in (ana, ben, vic)]
        assert {c["suggestion"]["suggestionId"] for c in created} == {
            created[0]["suggestion"]["suggestionId"]
        }
        toast = created[2]["toast"]
        assert toast["severity"] == "warning"
        assert "booked twice" in toast["reason"]
        assert toast["patch"] == "Remove a stop."
        assert [a["labelKey"] for a in toast["actions"]] == [
            "agent.toast.approve",
            "agent.toast.discuss",
            "agent.toast.deny",
        ]
        sid = created[0]["suggestion"]["suggestionId"]
        approve = {"id": sid, "approved": True}
        with http(local_stack, "vic") as viewer:
            assert (
                viewer.post(f"/trips/{trip_id}/agent/suggestions/{sid}/approve", json=approve).status_code
                == 403
            )
        with http(local_stack, "ben") as editor:
            assert (
                editor.post(f"/trips/{trip_id}/agent/suggestions/{sid}/approve", json=approve).status_code
                == 200
            )
        for conn in (ana, vic):
            update = next_of(conn, "suggestion.updated", suggestionId=sid, status="applied")
            assert update["decidedBy"] == "ben"
            assert update["decidedAt"]
        decision = next_of_message(ana, kind="decision")  # the approval, recorded in the shared session
        assert decision["metadata"]["actor"] == "ben"
        assert decision["text"].startswith("ben approved the suggestion")


def test_a_deny_is_pushed_to_the_denier_only(local_stack: LocalStack, trip_id: str) -> None:
    with member(local_stack, "ana") as ana, member(local_stack, "ben") as ben:
        ask(ana, "subscribe", trip_id)
        ask(ben, "subscribe", trip_id)
        with http(local_stack, "ana") as client:
            version = client.get(f"/trips/{trip_id}").json()["version"]
            for name in ("Camp A", "Camp B"):
                version = client.post(
                    f"/trips/{trip_id}/ops",
                    json={
                        "op": "add_stop",
                        "args": {"dayIndex": 0, "name": name, "kind": "lodging"},
                        "expectedVersion": version,
                    },
                ).json()["trip"]["version"]
            sid = next_of(ana, "suggestion.created")["suggestion"]["suggestionId"]
            next_of(ben, "suggestion.created")
            assert (
                client.post(
                    f"/trips/{trip_id}/agent/suggestions/{sid}/approve", json={"id": sid, "approved": False}
                ).status_code
                == 200
            )
        assert next_of(ana, "suggestion.updated", suggestionId=sid)["hidden"] is True
        ben.send(json.dumps({"action": "unsubscribe", "tripId": trip_id}))  # a marker after the deny's push
        frames: list[dict[str, Any]] = []
        while not frames or frames[-1]["type"] != "unsubscribed":
            frames.append(json.loads(ben.recv(timeout=10)))
        assert not [f for f in frames if f["type"] == "suggestion.updated"]  # ben never heard of ana's deny


def test_a_stranger_cannot_subscribe_nor_tell_whether_the_trip_exists(
    local_stack: LocalStack, trip_id: str
) -> None:
    with member(local_stack, "eve") as eve:
        hidden = ask(eve, "subscribe", trip_id)
        missing = ask(eve, "subscribe", "trp_nothing000000000000")
    assert hidden["error"] == missing["error"] == "not_found"
    assert {k: v for k, v in hidden.items() if k != "tripId"} == {
        k: v for k, v in missing.items() if k != "tripId"
    }


def test_dropped_connections_are_cleaned_up(local_stack: LocalStack, trip_id: str) -> None:
    store = DynamoConnectionStore(
        dynamodb_client("eu-west-1", f"http://127.0.0.1:{local_stack.config.dynamodb_port}"),
        next(iter(local_stack.table_names.values())),
    )
    assert local_stack.websocket is not None
    before = set(local_stack.websocket.connections)
    with member(local_stack, "ana") as ana:
        ask(ana, "subscribe", trip_id)
        [closed] = set(local_stack.websocket.connections) - before

    def gone(connection: str) -> bool:  # the connection item first, then its subscriptions
        return store.user_of(connection) is None and all(
            c != connection for c, _ in store.subscribers(trip_id)
        )

    deadline = time.monotonic() + 5  # $disconnect runs after the socket closes
    while not gone(closed) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.user_of(closed) is None
    assert all(c != closed for c, _ in store.subscribers(trip_id))

    ben = connect(f"{ws_url(local_stack)}?token={token(local_stack, 'ben')}", proxy=None)
    ask(ben, "subscribe", trip_id)
    [vanished] = set(local_stack.websocket.connections) - before
    local_stack.websocket.lose(vanished)  # gone without $disconnect
    assert store.user_of(vanished) == "ben"
    with http(local_stack, "ana") as client:  # the next push meets 410 Gone and forgets it
        version = client.get(f"/trips/{trip_id}").json()["version"]
        client.post(
            f"/trips/{trip_id}/ops",
            json={"op": "edit_day", "args": {"dayIndex": 0, "city": "Ordino"}, "expectedVersion": version},
        )
    deadline = time.monotonic() + 10
    while not gone(vanished) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert store.user_of(vanished) is None
    assert all(c != vanished for c, _ in store.subscribers(trip_id))


def test_an_expired_suggestion_is_pushed_as_expired(local_stack: LocalStack, trip_id: str) -> None:
    from tripagent.adapters.dynamodb.proposals import DynamoProposalStore

    from tests.fixtures.review import a_suggestion

    store = DynamoProposalStore(
        dynamodb_client("eu-west-1", f"http://127.0.0.1:{local_stack.config.dynamodb_port}"),
        next(iter(local_stack.table_names.values())),
    )
    with member(local_stack, "ben") as ben:
        ask(ben, "subscribe", trip_id)
        store.create(
            a_suggestion(
                trip_id,
                None,
                proposalId="sug_expiring",
                expiresAt="2000-01-01T00:00:00.000Z",
                createdAt="2000-01-01T00:00:00.000Z",
            )
        )
        event = json.loads(
            (local_stack.template.path.parent / "events" / "SuggestionExpiryFunction.json").read_text()
        )
        # The stack's own minute schedule may sweep it first: either way it is expired once, by the system.
        local_stack.functions.invoke("SuggestionExpiryFunction", event)
        update = next_of(ben, "suggestion.updated", suggestionId="sug_expiring")
        assert update["status"] == "expired"
        assert update["decidedBy"] == "system"
        stored = store.get(trip_id, "sug_expiring")
        assert stored is not None
        assert stored.status == "expired"
