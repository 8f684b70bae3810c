"""Generation over HTTP against `tripagent dev`: 201 with a persisted trip, idempotency, GPX, errors."""

from __future__ import annotations

import gpxpy
import httpx

from tests.e2e.conftest import DevServer

BRIEF = "2 days by road bike from Sant Julià de Lòria to Soldeu"


def test_generate_persists_a_trip_the_caller_owns(dev_server: DevServer) -> None:
    headers = dev_server.auth("gus")
    response = httpx.post(
        f"{dev_server.url}/trips/ai-generate", json={"brief": BRIEF}, headers=headers, timeout=30
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["outcome"] == "generated"
    trip = body["trip"]
    assert [m["role"] for m in trip["members"] if m["userId"] == "gus"] == ["owner"]
    assert len(trip["days"]) == 2
    assert trip["days"][0]["stage"]["from"] == "Sant Julià de Lòria"
    stored = httpx.get(f"{dev_server.url}/trips/{trip['tripId']}", headers=headers).json()
    assert stored["days"] == trip["days"]
    gpx = httpx.get(f"{dev_server.url}/trips/{trip['tripId']}/gpx", headers=headers)
    assert gpx.status_code == 200
    assert gpx.headers["content-type"].startswith("application/gpx+xml")
    assert len(gpxpy.parse(gpx.text).tracks) == 2
    assert (
        httpx.get(f"{dev_server.url}/trips/{trip['tripId']}/gpx", headers=dev_server.auth("eve")).status_code
        == 404
    )


def test_an_idempotency_key_returns_the_same_trip(dev_server: DevServer) -> None:
    headers = {**dev_server.auth("ida"), "Idempotency-Key": "gen-0001"}
    first = httpx.post(
        f"{dev_server.url}/trips/ai-generate", json={"brief": BRIEF}, headers=headers, timeout=30
    )
    again = httpx.post(
        f"{dev_server.url}/trips/ai-generate", json={"brief": BRIEF}, headers=headers, timeout=30
    )
    assert first.status_code == again.status_code == 201
    assert first.json()["trip"]["tripId"] == again.json()["trip"]["tripId"]
    trips = httpx.get(f"{dev_server.url}/trips", headers=dev_server.auth("ida")).json()["trips"]
    assert len(trips) == 1
    other = httpx.post(
        f"{dev_server.url}/trips/ai-generate", json={"brief": "3 days " + BRIEF}, headers=headers, timeout=30
    )
    assert other.status_code == 422  # the same key for another request


def test_the_pipelines_outcomes_are_typed_errors(dev_server: DevServer) -> None:
    headers = dev_server.auth("gus")
    outside = httpx.post(
        f"{dev_server.url}/trips/ai-generate",
        headers=headers,
        timeout=30,
        json={"brief": "from Barcelona to Andorra la Vella, 2 days, road bike"},
    )
    assert (outside.status_code, outside.json()["error"]) == (422, "out_of_coverage")
    unknown = httpx.post(
        f"{dev_server.url}/trips/ai-generate",
        headers=headers,
        timeout=30,
        json={"brief": "from Xyzzyville to Soldeu in 2 days"},
    )
    assert (unknown.status_code, unknown.json()["error"]) == (422, "place_not_found")
    assert unknown.json()["details"][0]["suggestions"]
    vague = httpx.post(
        f"{dev_server.url}/trips/ai-generate",
        headers=headers,
        timeout=30,
        json={"brief": "something nice in the mountains"},
    )
    assert vague.status_code == 422
    assert vague.json()["error"] in ("needs_more_info", "ai_unparseable")
