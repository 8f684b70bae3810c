"""The brief chat over HTTP with a model configured (``AI_PROVIDER=openai``): a scripted OpenAI-compatible
server (``benchmarks/fake_model.py --script``) that understands what the offline reader gets wrong. The API
returns the model's values, geocoded by the server, and the server's honest answers where the model names
a place that does not exist, says a value out of bounds or answers half a JSON object."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from evaluation.scoring import SLOTS, slot_right
from tests.e2e.conftest import DevServer, start_dev, start_model

SCRIPT = Path(__file__).parents[1] / "fixtures" / "models" / "understood.json"
FAULTS = [
    {
        "id": "fault-no-such-place",
        "turns": ["2 days from Ordino to Zyxwvland"],
        "answer": {
            "reply": "Lovely: Ordino to Zyxwvland!",
            "readyToGenerate": True,
            "collected": {"start": "Ordino", "end": "Zyxwvland", "durationDays": 2},
        },
    },
    {
        "id": "fault-out-of-bounds",
        "turns": ["Ordino to Canillo, lots of days"],
        "answer": {
            "reply": "Ninety days it is!",
            "readyToGenerate": True,
            "collected": {"start": "Ordino", "end": "Canillo", "durationDays": 90},
        },
    },
    {
        "id": "fault-half-json",
        "turns": ["Ordino to Canillo, 2 days, gravel"],
        "answer": '{"reply": "From Ordi',
    },
]


@pytest.fixture(scope="module")
def model_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    folder = tmp_path_factory.mktemp("model")
    script = json.loads(SCRIPT.read_text())
    script["conversations"] += FAULTS
    (folder / "script.json").write_text(json.dumps(script))
    port, model = start_model(folder, folder / "script.json")
    env = {"AI_PROVIDER": "openai", "AI_MODEL": "scripted", "AI_BASE_URL": f"http://127.0.0.1:{port}/v1"}
    server = start_dev(folder / "dev.log", env)
    yield server
    for process in (server.process, model):
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(20)


def converse(server: DevServer, turns: list[str], locale: str = "en") -> dict[str, Any]:
    """A conversation as a client sends it, by a rider of its own (each rider has a rate limit)."""
    rider = f"rider-{abs(hash(tuple(turns))) % 10**8}"
    messages: list[dict[str, str]] = []
    body: dict[str, Any] = {}
    for text in turns:
        messages.append({"role": "user", "content": text})
        response = httpx.post(
            f"{server.url}/trips/ai-chat",
            json={"messages": messages, "locale": locale, "timeZone": "Europe/Andorra"},
            headers=server.auth(rider),
            timeout=30,
        )
        assert response.status_code == 200, response.text
        body = response.json()
        messages.append({"role": "assistant", "content": body["reply"]})
    return body


def test_the_api_returns_the_models_understanding_geocoded(model_server: DevServer) -> None:
    conversations = json.loads(SCRIPT.read_text())["conversations"]
    wrong = {}
    for conversation in conversations:
        body = converse(model_server, conversation["turns"], conversation["locale"])
        misses = [s for s in SLOTS if not slot_right(s, conversation["expected"], body["collected"])]
        if body["readyToGenerate"] != conversation["ready"]:
            misses.append("ready")
        if misses:
            wrong[conversation["id"]] = misses
        assert body["model"] in ("fake", "tripagent")  # the model that answered, or the server's own reply
    assert wrong == {}
    finish = converse(
        model_server, ["2 days from Canillo, road bikes. my sister lives in Ordino so we finish at hers"]
    )
    assert finish["collected"]["end"] == "Ordino"
    assert finish["readyToGenerate"] is True


def test_a_model_that_names_a_place_that_does_not_exist_is_answered_honestly(model_server: DevServer) -> None:
    body = converse(model_server, ["2 days from Ordino to Zyxwvland"])
    assert body["collected"]["end"] is None
    assert body["missing"] == ["end"]
    assert body["readyToGenerate"] is False
    assert "Zyxwvland" in body["reply"]


def test_a_value_out_of_bounds_is_dropped_and_said(model_server: DevServer) -> None:
    body = converse(model_server, ["Ordino to Canillo, lots of days"])
    assert body["collected"]["durationDays"] is None
    assert body["readyToGenerate"] is False
    assert "90 days" in body["reply"]


def test_half_a_json_object_is_never_ready_and_shows_no_json(model_server: DevServer) -> None:
    body = converse(model_server, ["Ordino to Canillo, 2 days, gravel"])
    assert body["readyToGenerate"] is False
    assert "{" not in body["reply"].split("\n\n")[0]
