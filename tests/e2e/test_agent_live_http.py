"""The agent's reply as it is written, over HTTP against `tripagent dev` with a model that writes slowly
(``benchmarks/fake_model.py`` in ``long`` mode): the asker can go away and the turn goes on; any member
reattaches (``GET …/agent/chat/stream``, the AI SDK's resume, read by the real `ai` 6 and 7 clients) and
gets the whole reply so far and then the rest; a member's stop ends it at the model's next word, cancels
the call upstream and is stored; strangers learn nothing, viewers cannot stop."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tripagent_local.paths import REPO_ROOT

from tests.e2e.conftest import DevServer, slow_model_stack
from tests.e2e.test_agent_http import node

RESUME_CLIENT = REPO_ROOT / "tests" / "e2e" / "js" / "resume_client.mjs"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DevServer, str]]:
    with slow_model_stack(tmp_path_factory.mktemp("live")) as stack:
        yield stack


def new_trip(server: DevServer) -> str:
    created = httpx.post(f"{server.url}/trips", headers=server.auth("ana"), json={"title": "Live"})
    assert created.status_code == 201, created.text
    trip_id: str = created.json()["tripId"]
    for user, role in (("ben", "editor"), ("vic", "viewer")):
        added = httpx.post(
            f"{server.url}/trips/{trip_id}/members",
            headers=server.auth("ana"),
            json={"userId": user, "role": role},
        )
        assert added.status_code == 201, added.text
    return trip_id


def chunks_of(lines: Iterator[str]) -> Iterator[dict[str, Any] | str]:
    for line in lines:
        if line.startswith("data: "):
            data = line.removeprefix("data: ")
            yield data if data == "[DONE]" else json.loads(data)


def ask_and_leave(server: DevServer, trip_id: str, words: int) -> str:
    """Ana asks, reads the first ``words`` text deltas, and goes away (a reload); returns the turn id."""
    with httpx.stream(
        "POST",
        f"{server.url}/trips/{trip_id}/agent/chat",
        headers=server.auth("ana"),
        json={"messages": [{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Tell me all"}]}]},
        timeout=30,
    ) as response:
        assert response.status_code == 200
        turn_id, seen = "", 0
        for chunk in chunks_of(response.iter_lines()):
            assert isinstance(chunk, dict)
            if chunk["type"] == "start":
                turn_id = chunk["messageMetadata"]["streamId"]
                assert turn_id == chunk["messageId"]
                # who asked what, for the members who attach to it
                assert chunk["messageMetadata"]["askedBy"] == "ana"
                assert chunk["messageMetadata"]["asked"] == "Tell me all"
            seen += chunk["type"] == "text-delta"
            if seen >= words:
                return turn_id
    raise AssertionError("the stream ended early")


def text_of(message: dict[str, Any]) -> str:
    return "".join(p.get("text", "") for p in message["parts"] if p["type"] == "text")


def stats(model_url: str) -> dict[str, int]:
    answer: dict[str, int] = httpx.get(f"{model_url}/_fake/stats").json()
    return answer


def test_nothing_being_written_is_204_for_both_clients(live: tuple[DevServer, str]) -> None:
    server, _ = live
    trip_id = new_trip(server)
    resume = f"{server.url}/trips/{trip_id}/agent/chat/stream"
    assert httpx.get(resume, headers=server.auth("ben")).status_code == 204
    for package in ("ai6", "ai7"):
        answer = node(
            RESUME_CLIENT, package, f"{server.url}/trips/{trip_id}/agent/chat", resume, server.token("ben")
        )
        assert answer == {"resumed": None}
    assert httpx.get(resume, headers=server.auth("stranger")).status_code == 404


def test_a_member_reattaches_gets_it_all_and_a_stop_ends_it_everywhere(live: tuple[DevServer, str]) -> None:
    server, model_url = live
    trip_id = new_trip(server)
    turn_id = ask_and_leave(server, trip_id, words=5)
    time.sleep(1.0)  # the turn goes on without its asker
    resume = f"{server.url}/trips/{trip_id}/agent/chat/stream?id={turn_id}"
    copies: dict[str, Any] = {}

    def reattach(package: str) -> None:
        copies[package] = node(
            RESUME_CLIENT, package, f"{server.url}/trips/{trip_id}/agent/chat", resume, server.token("ben")
        )

    readers = [threading.Thread(target=reattach, args=(p,)) for p in ("ai6", "ai7")]
    for reader in readers:
        reader.start()
    time.sleep(2.0)
    stop = f"{server.url}/trips/{trip_id}/agent/turns/{turn_id}/stop"
    assert httpx.post(stop, headers=server.auth("vic")).status_code == 403  # a viewer cannot
    assert (
        httpx.post(
            f"{server.url}/trips/{trip_id}/agent/turns/msg_nope/stop", headers=server.auth("ben")
        ).status_code
        == 404
    )
    stopped = httpx.post(stop, headers=server.auth("ana"))
    assert stopped.status_code == 202, stopped.text
    assert stopped.json()["stopRequestedBy"] == "ana"
    for reader in readers:
        reader.join(30)
    sent = stats(model_url)["wordsSent"]
    time.sleep(1.0)
    assert stats(model_url)["wordsSent"] == sent  # the call upstream was closed: no more words
    assert stats(model_url)["closedEarly"] >= 1
    history = httpx.get(f"{server.url}/trips/{trip_id}/agent/messages", headers=server.auth("ben")).json()
    stored = history["messages"][-1]
    assert stored["id"] == turn_id
    assert stored["metadata"]["stopped"] == "stop"
    for package in ("ai6", "ai7"):
        copy = copies[package]
        assert copy["error"] is None, copy
        message = copy["resumed"]
        assert message["id"] == turn_id
        assert text_of(message).startswith("Part 1: word1 word2 word3 word4")  # from the very start
        assert message["metadata"]["stopped"] == "stop"
        assert text_of(message).strip() == stored["parts"][0]["text"].strip()
    assert len(text_of(stored).split()) > 20  # it went on while nobody was attached
    assert httpx.post(stop, headers=server.auth("ben")).status_code == 200  # already ended
    assert httpx.get(resume, headers=server.auth("ben")).status_code == 204
