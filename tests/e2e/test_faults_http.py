"""Engines failing and coming back, on a `tripagent dev` of its own (its engines are stopped mid-test):
requests answer a typed error quickly while one is down, and work again once it is back, with no restart
of the stack."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.conftest import DevServer, start_dev

BRIEF = {"brief": "2 days by road bike from Sant Julià de Lòria to Soldeu"}


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    server = start_dev(tmp_path_factory.mktemp("faults") / "dev.log")
    yield server
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGINT)
        server.process.wait(20)


def engine(server: DevServer, action: str, name: str) -> None:
    response = httpx.post(f"{server.url}/_local/engines/{name}/{action}", timeout=60)
    assert response.status_code == 200, response.text
    assert response.json() == {"engine": name, "running": action == "start"}


def test_with_valhalla_down_generation_is_a_quick_typed_503_and_works_again_once_it_is_back(
    faulty: DevServer,
) -> None:
    client = httpx.Client(base_url=faulty.url, headers=faulty.auth("faults"), timeout=60)
    assert client.post("/trips/ai-generate", json=BRIEF).status_code == 201  # warm: cold starts aside
    engine(faulty, "stop", "valhalla")
    started = time.monotonic()
    down = client.post("/trips/ai-generate", json=BRIEF)
    assert (down.status_code, down.json()["error"]) == (503, "routing_unavailable")
    assert time.monotonic() - started < 5
    assert client.get("/trips").status_code == 200  # the rest of the API is unaffected
    engine(faulty, "start", "valhalla")
    assert client.post("/trips/ai-generate", json=BRIEF).status_code == 201  # no restart of the stack


def test_with_dynamodb_down_requests_are_a_typed_503_not_a_500_and_work_again_once_it_is_back(
    faulty: DevServer,
) -> None:
    client = httpx.Client(base_url=faulty.url, headers=faulty.auth("faults"), timeout=60)
    assert client.post("/trips", json={"title": "Before"}).status_code == 201
    engine(faulty, "stop", "dynamodb")
    try:
        for method, path, body in [("GET", "/trips", None), ("POST", "/trips", {"title": "During"})]:
            started = time.monotonic()
            down = client.request(method, path, json=body)
            assert (down.status_code, down.json()["error"]) == (503, "dependency_unavailable"), down.text
            assert down.headers["retry-after"] == "5"
            assert time.monotonic() - started < 10  # not a hang past the function's timeout
        assert client.get("/me").status_code == 200  # what needs no table still answers
    finally:
        engine(faulty, "start", "dynamodb")
    assert client.post("/trips", json={"title": "After"}).status_code == 201
    assert client.get("/trips").status_code == 200
    assert httpx.get(f"{faulty.url}/_local/idle", timeout=60).json()["idle"]  # the stream pollers resumed
