"""The trip workspace over HTTP against `tripagent dev`: the route × role matrix and its promises."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import DevServer

CALLERS = ("anonymous", "stranger", "viewer", "editor", "owner")


class Api:
    def __init__(self, server: DevServer) -> None:
        self.server = server
        self.client = httpx.Client(base_url=server.url, timeout=15)

    def headers(self, who: str) -> dict[str, str]:
        return {} if who == "anonymous" else self.server.auth(who)

    def request(self, who: str, method: str, path: str, json: Any = None) -> httpx.Response:
        return self.client.request(method, path, json=json, headers=self.headers(who))


@pytest.fixture(scope="module")
def api(dev_server: DevServer) -> Api:
    return Api(dev_server)


def new_trip(api: Api) -> str:
    trip = api.request(
        "owner", "POST", "/trips", {"title": "Andorra in June", "startDate": "2027-06-12"}
    ).json()
    trip_id: str = trip["tripId"]
    for user, role in (("viewer", "viewer"), ("editor", "editor")):
        assert (
            api.request(
                "owner", "POST", f"/trips/{trip_id}/members", {"userId": user, "role": role}
            ).status_code
            == 201
        )
    version = api.request("owner", "GET", f"/trips/{trip_id}").json()["version"]
    op = {"op": "add_day", "args": {"city": "Canillo"}, "expectedVersion": version}
    assert api.request("owner", "POST", f"/trips/{trip_id}/ops", op).status_code == 200
    return trip_id


def version_of(api: Api, trip_id: str) -> int:
    return int(api.request("owner", "GET", f"/trips/{trip_id}").json()["version"])


# (method, path template, body factory, expected status per caller)
MATRIX: list[tuple[str, str, Any, dict[str, int]]] = [
    (
        "POST",
        "/trips",
        lambda api, t: {"title": "Mine"},
        {"anonymous": 401, "stranger": 201, "viewer": 201, "editor": 201, "owner": 201},
    ),
    ("GET", "/trips", None, {"anonymous": 401, "stranger": 200, "viewer": 200, "editor": 200, "owner": 200}),
    (
        "GET",
        "/trips/{t}",
        None,
        {"anonymous": 401, "stranger": 404, "viewer": 200, "editor": 200, "owner": 200},
    ),
    (
        "GET",
        "/trips/{t}/ops",
        None,
        {"anonymous": 401, "stranger": 404, "viewer": 200, "editor": 200, "owner": 200},
    ),
    (
        "POST",
        "/trips/{t}/ops",
        lambda api, t: {
            "op": "add_stop",
            "args": {"dayIndex": 0, "name": "Lunch", "kind": "food"},
            "expectedVersion": version_of(api, t),
        },
        {"anonymous": 401, "stranger": 404, "viewer": 403, "editor": 200, "owner": 200},
    ),
    (
        "POST",
        "/trips/{t}/members",
        lambda api, t: {"userId": "newcomer", "role": "viewer"},
        {"anonymous": 401, "stranger": 404, "viewer": 403, "editor": 403, "owner": 201},
    ),
    (
        "PATCH",
        "/trips/{t}/members/viewer",
        lambda api, t: {"role": "editor"},
        {"anonymous": 401, "stranger": 404, "viewer": 403, "editor": 403, "owner": 200},
    ),
    (
        "DELETE",
        "/trips/{t}/members/viewer",
        None,
        {"anonymous": 401, "stranger": 404, "viewer": 403, "editor": 403, "owner": 200},
    ),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), MATRIX, ids=[f"{m} {p}" for m, p, _, _ in MATRIX]
)
@pytest.mark.parametrize("caller", CALLERS)
def test_route_by_role(
    api: Api, caller: str, method: str, path: str, body: Any, expected: dict[str, int]
) -> None:
    trip_id = new_trip(api)
    response = api.request(caller, method, path.format(t=trip_id), body(api, trip_id) if body else None)
    assert response.status_code == expected[caller], response.text
    if response.status_code >= 400 and caller != "anonymous":
        assert set(response.json()) >= {"error", "message", "details"}


def test_a_strangers_404_is_byte_for_byte_the_missing_trips(api: Api) -> None:
    trip_id = new_trip(api)
    for suffix in ("", "/ops"):
        hidden = api.request("stranger", "GET", f"/trips/{trip_id}{suffix}")
        missing = api.request("stranger", "GET", f"/trips/trp_doesnotexist0000000{suffix}")
        assert hidden.status_code == missing.status_code == 404
        assert hidden.content == missing.content
        # (and the local gateway's own timing: how long the request waited for a free environment)
        strip = {"date", "x-request-id", "x-local-environment-wait-ms"}
        assert {k: v for k, v in hidden.headers.items() if k not in strip} == {
            k: v for k, v in missing.headers.items() if k not in strip
        }


def test_a_stale_expected_version_is_409_with_the_current_version(api: Api) -> None:
    trip_id = new_trip(api)
    current = version_of(api, trip_id)
    response = api.request(
        "editor",
        "POST",
        f"/trips/{trip_id}/ops",
        {"op": "add_day", "args": {}, "expectedVersion": current - 1},
    )
    assert response.status_code == 409
    assert response.json()["error"] == "version_conflict"
    assert response.json()["currentVersion"] == current


@pytest.mark.parametrize("smuggled", [{"version": 99}, {"members": []}, {"ownerId": "stranger"}])
def test_mass_assignment_in_op_args_is_rejected(api: Api, smuggled: dict[str, Any]) -> None:
    trip_id = new_trip(api)
    before = api.request("owner", "GET", f"/trips/{trip_id}").json()
    response = api.request(
        "owner",
        "POST",
        f"/trips/{trip_id}/ops",
        {
            "op": "edit_day",
            "args": {"dayIndex": 0, "city": "X", **smuggled},
            "expectedVersion": before["version"],
        },
    )
    assert response.status_code == 422
    assert response.json()["error"] == "validation_error"
    assert api.request("owner", "GET", f"/trips/{trip_id}").json() == before


def test_bad_json_is_400_invalid_json(api: Api) -> None:
    response = api.client.post(
        "/trips", content=b"{not json", headers={**api.headers("owner"), "content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_json"


def test_the_ops_registry_is_served_with_schemas_and_roles(api: Api) -> None:
    trip_id = new_trip(api)
    ops = {o["name"]: o for o in api.request("viewer", "GET", f"/trips/{trip_id}/ops").json()["ops"]}
    assert ops["add_stop"]["requiredRole"] == "editor"
    assert ops["add_stop"]["highRisk"] is True
    assert ops["add_member"]["requiredRole"] == "owner"
    assert ops["add_stop"]["argsSchema"]["additionalProperties"] is False


def test_a_whitelisted_op_over_http_reaches_the_bus_once(api: Api) -> None:
    trip_id = new_trip(api)
    response = api.request(
        "editor",
        "POST",
        f"/trips/{trip_id}/ops",
        {
            "op": "add_stop",
            "args": {"dayIndex": 0, "name": "Caldea", "kind": "activity"},
            "expectedVersion": version_of(api, trip_id),
        },
    )
    assert response.status_code == 200
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        events = [
            e
            for e in api.client.get("/_local/events").json()["events"]
            if e["detail"].get("tripId") == trip_id
        ]
        if events:
            break
        time.sleep(0.2)
    assert api.client.get("/_local/idle").json()["idle"]  # nothing left in flight: more would be a duplicate
    events = [
        e for e in api.client.get("/_local/events").json()["events"] if e["detail"].get("tripId") == trip_id
    ]
    assert [(e["detail"]["op"], e["detail"]["actor"]) for e in events] == [("add_stop", "editor")]


def test_a_committed_operation_becomes_a_turn_of_the_trips_session(api: Api, dev_server: DevServer) -> None:
    from tripagent.adapters.dynamodb.sessions import DynamoSessionStore
    from tripagent_local.engines import dynamodb_client

    trip_id = new_trip(api)
    response = api.request(
        "editor",
        "POST",
        f"/trips/{trip_id}/ops",
        {
            "op": "edit_day",
            "args": {"dayIndex": 0, "city": "Ordino"},
            "expectedVersion": version_of(api, trip_id),
        },
    )
    assert response.status_code == 200
    client = dynamodb_client(dev_server.ports["DYNAMODB_PORT"])
    sessions = DynamoSessionStore(client, "tripagent-local-TripagentTable", retention_s=86400)
    deadline = time.monotonic() + 10
    while not (turns := sessions.turns(trip_id)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [(t.kind, t.metadata.actor, t.metadata.source) for t in turns] == [
        ("operation", "editor", "operation")
    ]
    assert "Ordino" in turns[0].text
    deliveries = api.client.get("/_local/deliveries").json()["deliveries"]
    assert any(
        d["function"] == "OperationRecorderFunction" and d["event"]["detail"]["tripId"] == trip_id
        for d in deliveries
    )


def test_members_using_the_app_at_once_each_get_only_their_own_answers(dev_server: DevServer) -> None:
    """Six members, each with a trip of their own, read it, their list and themselves all at once, three
    rounds over: every answer is the caller's own, and none is a 500 or a 404 for their own trip."""
    users = [f"crowd{i}" for i in range(6)]
    trips: dict[str, str] = {}
    for user in users:
        created = httpx.post(
            f"{dev_server.url}/trips",
            json={"title": f"{user}'s trip"},
            headers=dev_server.auth(user),
            timeout=30,
        )
        assert created.status_code == 201, created.text
        trips[user] = created.json()["tripId"]

    def visit(user: str) -> tuple[str, str, list[str], str]:
        headers = dev_server.auth(user)
        with httpx.Client(base_url=dev_server.url, headers=headers, timeout=30) as client:
            me, trip, listed = client.get("/me"), client.get(f"/trips/{trips[user]}"), client.get("/trips")
        for response in (me, trip, listed):
            assert response.status_code == 200, (user, response.status_code, response.text)
        return me.json()["userId"], trip.json()["title"], [t["tripId"] for t in listed.json()["trips"]], user

    with ThreadPoolExecutor(max_workers=len(users)) as pool:
        for _ in range(3):
            for me, title, listed, user in pool.map(visit, users):
                assert (me, title, listed) == (user, f"{user}'s trip", [trips[user]])
