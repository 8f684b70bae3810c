"""The model understands, the server checks: a scripted OpenAI-compatible model that understands what
the offline reader gets wrong is what the brief chat returns (geocoded), and a model that names a place
that does not exist, says a value out of bounds or answers half a JSON object gets a typed, honest answer.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tripagent.adapters.llm.openai_compat import OpenAICompatibleProvider
from tripagent.adapters.llm.rules import RulesProvider, rule_engines
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.signing import HmacSigner
from tripagent.application.brief_chat import BriefChat, BriefLimits, BriefReply, ChatTurn
from tripagent.application.generate import SpecDraft, TripSpec, spec_with_hints
from tripagent.application.llm import ModelProvider
from tripagent.domain.brief import Collected

from benchmarks.fake_model import answer, load_script
from evaluation.scoring import SLOTS, slot_right
from tests.fixtures.fakes import ScriptedModel

SCRIPT = Path(__file__).parents[1] / "fixtures" / "models" / "understood.json"
CONVERSATIONS = list(load_script(SCRIPT).values())
TODAY = dt.date.fromisoformat(json.loads(SCRIPT.read_text())["today"])


class NoLimit:
    def hit(self, key: str, *, limit: int, window_s: int) -> int | None:
        return None


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return Gazetteer()


def scripted_openai(
    script: dict[tuple[str, ...], Any], seen: list[dict[str, Any]]
) -> OpenAICompatibleProvider:
    """The OpenAI-compatible adapter against the scripted model's answers, over a mock transport."""

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        message = {"role": "assistant", "content": answer(body, script)}
        return httpx.Response(
            200, json={"model": "scripted", "choices": [{"message": message, "finish_reason": "stop"}]}
        )

    return OpenAICompatibleProvider(
        api_key="k", base_url="http://model.test/v1", transport=httpx.MockTransport(handle)
    )


def converse(
    gazetteer: Gazetteer, turns: list[str], provider: ModelProvider, locale: str = "en", **kwargs: Any
) -> list[BriefReply]:
    chat = BriefChat(gazetteer, NoLimit(), HmacSigner(b"u" * 32), BriefLimits(), coverage=gazetteer)
    messages: list[ChatTurn] = []
    replies = []
    now = time.time()
    for text in turns:
        messages.append(ChatTurn(role="user", content=text))
        reply = chat.turn(messages, locale, provider, "scripted", now=now, today=TODAY, **kwargs)  # type: ignore[arg-type]
        messages.append(ChatTurn(role="assistant", content=reply.reply))
        replies.append(reply)
        now += 10
    return replies


def says(reply: str, ready: bool, **collected: Any) -> str:
    """A model's answer, as the JSON object it is asked for."""
    return json.dumps({"reply": reply, "readyToGenerate": ready, "collected": collected})


def wrong_slots(conversation: dict[str, Any], reply: BriefReply) -> list[str]:
    got = reply.collected.model_dump(mode="json")
    wrong = [slot for slot in SLOTS if not slot_right(slot, conversation["expected"], got)]
    return wrong + (["ready"] if reply.readyToGenerate != conversation["ready"] else [])


def test_the_script_holds_enough_conversations_the_offline_reader_gets_wrong(gazetteer: Gazetteer) -> None:
    rules = RulesProvider(rule_engines(gazetteer, gazetteer))
    missed = [
        c["id"]
        for c in CONVERSATIONS
        if wrong_slots(c, converse(gazetteer, c["turns"], rules, c["locale"])[-1])
    ]
    assert len(missed) >= 20, missed


@pytest.mark.parametrize("conversation", CONVERSATIONS, ids=[c["id"] for c in CONVERSATIONS])
def test_a_model_that_understands_is_what_the_brief_chat_returns(
    gazetteer: Gazetteer, conversation: dict[str, Any]
) -> None:
    """With a model configured, its understanding is the answer, checked and geocoded by the server: not
    the offline reader's values merged over it."""
    seen: list[dict[str, Any]] = []
    model = scripted_openai(load_script(SCRIPT), seen)
    reply = converse(gazetteer, conversation["turns"], model, conversation["locale"])[-1]
    assert wrong_slots(conversation, reply) == []
    for place in reply.collected.places():  # geocoded: each slot names a place the geocoder finds alone
        assert type(gazetteer.search(place)).__name__ == "Found", place
    assert seen[-1]["response_format"]["type"] == "json_schema"  # structured output, asked for


def test_the_model_is_told_today_the_riders_zone_the_areas_and_the_brief_so_far(gazetteer: Gazetteer) -> None:
    model = ScriptedModel(
        [
            says("ok", False, start="Ordino", durationDays=2),
            says("ok", True, start="Ordino", end="Canillo", durationDays=2),
        ]
    )
    converse(gazetteer, ["2 days from Ordino", "to Canillo"], model, time_zone="Europe/Andorra")
    system = model.requests[-1].system
    assert "Monday 2027-05-03" in system
    assert "Europe/Andorra" in system
    assert "Andorra" in system
    assert "Helsinki" in system
    assert '"start": "Ordino"' in system  # what the server held after the turn before
    assert model.requests[-1].context["collected"]["durationDays"] == 2


def test_a_place_that_does_not_exist_is_left_out_and_said(gazetteer: Gazetteer) -> None:
    model = ScriptedModel(
        [
            '{"reply": "Great, 2 days from Ordino to Zyxwvland!", "readyToGenerate": true, '
            '"collected": {"start": "Ordino", "end": "Zyxwvland", "durationDays": 2}}'
        ]
    )
    (reply,) = converse(gazetteer, ["2 days from Ordino to Zyxwvland"], model)
    assert reply.collected.start == "Ordino"
    assert reply.collected.end is None
    assert reply.missing == ["end"]
    assert not reply.readyToGenerate
    assert "could not find “Zyxwvland”" in reply.reply


def test_a_misspelt_place_of_ours_is_that_place(gazetteer: Gazetteer) -> None:
    model = ScriptedModel([says("ok", True, start="escladas", end="Canillo", durationDays=2)])
    (reply,) = converse(gazetteer, ["from escladas to canillo, 2 days"], model)
    assert reply.collected.start == "les Escaldes"
    assert reply.readyToGenerate


@pytest.mark.parametrize(
    ("collected", "slot", "said"),
    [
        ({"durationDays": 90}, "durationDays", "a trip of 90 days"),
        ({"durationDays": 2, "dailyDistanceKm": 900}, "dailyDistanceKm", "900 km a day"),
        (
            {"durationDays": 2, "startDate": "the 31st of Juneuary"},
            "startDate",
            "the date the 31st of Juneuary",
        ),
        ({"durationDays": 2, "profile": "unicycle"}, "profile", "the bike “unicycle”"),
    ],
)
def test_a_value_out_of_bounds_is_dropped_and_said(
    gazetteer: Gazetteer, collected: dict[str, Any], slot: str, said: str
) -> None:
    answer_ = {
        "reply": "Sounds good!",
        "readyToGenerate": True,
        "collected": {"start": "Ordino", "end": "Canillo", **collected},
    }
    (reply,) = converse(gazetteer, ["from Ordino to Canillo"], ScriptedModel([json.dumps(answer_)]))
    assert getattr(reply.collected, slot) is None
    assert reply.collected.start == "Ordino"  # one bad slot costs no other
    assert said in reply.reply
    assert reply.readyToGenerate == (slot != "durationDays")


def test_half_a_json_object_keeps_the_brief_so_far_and_is_never_ready(gazetteer: Gazetteer) -> None:
    model = ScriptedModel(
        [
            says("ok", True, start="Ordino", end="Canillo", durationDays=2),
            '{"reply": "Sure, and the bike is',
        ]
    )
    first, second = converse(gazetteer, ["2 days from Ordino to Canillo", "gravel"], model)
    assert first.readyToGenerate
    assert second.collected == first.collected
    assert not second.readyToGenerate
    assert second.reply.startswith("Sure, and the bike is")  # what was said, not the JSON around it


def test_a_place_outside_the_area_is_said_by_name(gazetteer: Gazetteer) -> None:
    model = ScriptedModel([says("Lovely!", True, start="Ordino", end="Barcelona", durationDays=3)])
    (reply,) = converse(gazetteer, ["Ordino to Barcelona, 3 days"], model)
    assert not reply.readyToGenerate
    assert not reply.canLaunch
    assert "Barcelona" in reply.reply
    assert "outside the area" in reply.reply


def test_namesakes_are_settled_by_the_brief_or_asked_and_the_answer_is_the_servers(
    gazetteer: Gazetteer,
) -> None:
    settled = ScriptedModel([says("ok", True, start="Santa Coloma", end="Canillo", durationDays=2)])
    (reply,) = converse(gazetteer, ["Santa Coloma to Canillo, 2 days"], settled)
    assert reply.collected.start == "Santa Coloma (village, Andorra)"
    assert reply.readyToGenerate
    doubt = json.loads(says("ok", True, start="Santa Coloma", end="Canillo", durationDays=2))
    doubt = json.dumps({**doubt, "unsure": ["Santa Coloma"]})  # the model is not sure which is meant
    model = ScriptedModel([doubt, doubt])  # the model keeps naming it as said: the server's choice holds
    asked, answered = converse(gazetteer, ["Santa Coloma to Canillo, 2 days", "the Andorran one"], model)
    assert asked.clarification is not None
    assert not asked.readyToGenerate
    assert "the numbered options" in model.requests[1].system  # the model is told of the question
    assert answered.collected.start == "Santa Coloma (village, Andorra)"
    assert answered.clarification is None
    assert answered.readyToGenerate


def test_generation_takes_the_chats_values_where_the_models_spec_leaves_them_out() -> None:
    """One merge for both use cases: the chat's checked values over the model's spec, then the essentials."""
    hints = Collected(start="Ordino", end="Canillo", durationDays=2, profile="gravel")
    spec = spec_with_hints(SpecDraft.model_validate({"end": "Soldeu"}), None)
    assert not isinstance(spec, TripSpec)
    assert spec.missing == ("start", "durationDays")
    merged = spec_with_hints(SpecDraft.model_validate({"end": "Soldeu", "via": ["Encamp"]}), hints)
    assert isinstance(merged, TripSpec)
    assert (merged.start, merged.end, merged.durationDays, merged.via) == ("Ordino", "Canillo", 2, ["Encamp"])
