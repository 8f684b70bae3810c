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
from tests.fixtures.brief_chat import NoLimit
from tests.fixtures.fakes import ScriptedModel

SCRIPT = Path(__file__).parents[1] / "fixtures" / "models" / "understood.json"
CONVERSATIONS = list(load_script(SCRIPT).values())
TODAY = dt.date.fromisoformat(json.loads(SCRIPT.read_text())["today"])


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
    model = SpecDraft.model_validate({"end": "Soldeu", "via": ["Encamp"], "roundTrip": True})
    merged = spec_with_hints(model, hints)
    assert isinstance(merged, TripSpec)
    # the chat holds the whole route: its places, no stop added nor loop made by the model
    assert (merged.start, merged.end, merged.roundTrip, merged.via) == ("Ordino", "Canillo", False, [])
    assert (merged.durationDays, merged.profile) == (2, "gravel")
    partial = spec_with_hints(model, Collected(start="Ordino", durationDays=2))  # launched before the end
    assert isinstance(partial, TripSpec)
    assert (partial.start, partial.end, partial.via) == ("Ordino", "Soldeu", ["Encamp"])


# ------------------------------------------------------------------------------------ the server's word
def _santa_coloma_question(gazetteer: Gazetteer) -> tuple[int, str]:
    """The number of the Andorran village in the question about "Santa Coloma", and the other label."""
    doubt = json.dumps(
        {
            **json.loads(says("ok", True, start="Santa Coloma", roundTrip=True, durationDays=3)),
            "unsure": ["Santa Coloma"],
        }
    )
    (asked,) = converse(gazetteer, ["Round trip from Santa Coloma, 3 days"], ScriptedModel([doubt]))
    assert asked.clarification is not None
    village = next(o.index for o in asked.clarification.options if "Andorra" in o.label)
    other = next(o.label for o in asked.clarification.options if "Andorra" not in o.label)
    return village, other


@pytest.mark.parametrize("model_writes", ["the other option", "nothing", "the number"])
def test_the_riders_answer_to_the_servers_question_holds_whatever_the_model_writes(
    gazetteer: Gazetteer, model_writes: str
) -> None:
    village, other = _santa_coloma_question(gazetteer)
    doubt = json.dumps(
        {
            **json.loads(says("ok", True, start="Santa Coloma", roundTrip=True, durationDays=3)),
            "unsure": ["Santa Coloma"],
        }
    )
    start = {"the other option": other, "nothing": None, "the number": str(village)}[model_writes]
    answer = says("Great!", True, start=start, roundTrip=True, durationDays=3)
    model = ScriptedModel([doubt, answer])
    _, answered = converse(gazetteer, ["Round trip from Santa Coloma, 3 days", str(village)], model)
    assert answered.collected.start == "Santa Coloma (village, Andorra)"
    assert answered.readyToGenerate
    assert "The rider chose: Santa Coloma (village, Andorra)" in model.requests[-1].system


def test_a_model_that_sends_only_what_changed_keeps_the_rest(gazetteer: Gazetteer) -> None:
    model = ScriptedModel(
        [
            says("ok", True, start="Andorra la Vella", end="Encamp", durationDays=3),
            json.dumps(
                {
                    "reply": "Gravel it is: 3 days from Andorra la Vella to Encamp.",
                    "readyToGenerate": True,
                    "collected": {"profile": "Gravel"},
                }
            ),
        ]
    )
    _first, second = converse(gazetteer, ["Andorra la Vella to Encamp, 3 days", "gravel"], model)
    assert (second.collected.start, second.collected.end, second.collected.durationDays) == (
        "Andorra la Vella",
        "Encamp",
        3,
    )
    assert second.collected.profile == "gravel"
    assert second.readyToGenerate


def test_a_model_that_says_ready_with_an_essential_missing_is_told_what_is(gazetteer: Gazetteer) -> None:
    (reply,) = converse(
        gazetteer, ["from Ordino"], ScriptedModel([says("All set!", True, start="Ordino", durationDays=2)])
    )
    assert not reply.readyToGenerate
    assert "still need the end (or a round trip)" in reply.reply


def test_an_answer_cut_short_by_the_output_budget_is_not_read_as_whole(gazetteer: Gazetteer) -> None:
    class CutShort(ScriptedModel):
        def chat(self, request: Any) -> Any:
            from dataclasses import replace

            return replace(super().chat(request), finish_reason="length")

    whole = says("ok", True, start="Ordino", end="Canillo", durationDays=2, via=["Encamp", "Canillo"])
    cut = whole[: whole.index('Canillo"]') + 5]  # (cut inside the last stop's name)
    (reply,) = converse(gazetteer, ["Ordino to Canillo, 2 days"], CutShort([cut]))
    assert not reply.readyToGenerate
    assert reply.collected.start is None  # the previous state: nothing yet


@pytest.mark.parametrize(
    "odd",
    [{"unsure": "Ordino"}, {"language": 5}, {"readyToGenerate": None}, {"unsure": [None]}],
)
def test_one_odd_field_costs_no_other(gazetteer: Gazetteer, odd: dict[str, Any]) -> None:
    answer = {**json.loads(says("Right.", True, start="Ordino", end="Canillo", durationDays=2)), **odd}
    (reply,) = converse(gazetteer, ["Ordino to Canillo, 2 days"], ScriptedModel([json.dumps(answer)]))
    assert (reply.collected.start, reply.collected.end) == ("Ordino", "Canillo")
    assert reply.reply.startswith("Right.")


def test_collected_sent_as_a_json_string_is_read(gazetteer: Gazetteer) -> None:
    inner = json.dumps({"start": "Ordino", "end": "Canillo", "durationDays": 2})
    answer = json.dumps({"reply": "ok", "readyToGenerate": True, "collected": inner})
    (reply,) = converse(gazetteer, ["Ordino to Canillo, 2 days"], ScriptedModel([answer]))
    assert reply.readyToGenerate


@pytest.mark.parametrize(
    ("said", "slot", "kept"),
    [
        ({"durationDays": True}, "durationDays", None),
        ({"durationDays": 45}, "durationDays", None),  # past what generation plans (30)
        ({"durationDays": "3"}, "durationDays", 3),
        ({"profile": "Gravel"}, "profile", "gravel"),
        ({"via": "Encamp, Canillo"}, "via", ["Encamp", "Canillo"]),
        ({"startDate": "2027-04-01"}, "startDate", None),  # before today (2027-05-03)
    ],
)
def test_values_as_models_write_them(
    gazetteer: Gazetteer, said: dict[str, Any], slot: str, kept: Any
) -> None:
    answer = {"start": "Ordino", "end": "Soldeu", "durationDays": 2, **said}
    (reply,) = converse(gazetteer, ["Ordino to Soldeu"], ScriptedModel([says("ok", True, **answer)]))
    assert getattr(reply.collected, slot) == kept
    if kept is None:
        assert "left it out" in reply.reply


def test_stops_past_twenty_are_left_out_and_said(gazetteer: Gazetteer) -> None:
    stops = ["Encamp", "Canillo"] * 13
    (reply,) = converse(
        gazetteer,
        ["a long one"],
        ScriptedModel([says("ok", True, start="Ordino", end="Soldeu", durationDays=5, via=stops)]),
    )
    assert len(reply.collected.via) == 20
    assert "the stops" in reply.reply


def test_a_long_reply_does_not_break_the_next_turn(gazetteer: Gazetteer) -> None:
    model = ScriptedModel([says("blah " * 900, False, start="Ordino"), says("ok", False, start="Ordino")])
    first, second = converse(gazetteer, ["from Ordino", "and then?"], model)
    assert len(first.reply.split("\n\n[//]")[0]) <= 2000
    assert second.collected.start == "Ordino"


def test_the_servers_notes_survive_its_own_question(gazetteer: Gazetteer) -> None:
    answer = json.dumps(
        {
            **json.loads(says("ok", True, start="Santa Coloma", end="Zyxwvland", durationDays=90)),
            "unsure": ["Santa Coloma"],
        }
    )
    (reply,) = converse(gazetteer, ["Santa Coloma to Zyxwvland, 90 days"], ScriptedModel([answer]))
    assert reply.clarification is not None
    assert "90 days" in reply.reply


@pytest.mark.parametrize("name", ["Encamp, Andorra", "Encamp (Andorra)"])
def test_a_place_with_its_area_added_is_that_place(gazetteer: Gazetteer, name: str) -> None:
    (reply,) = converse(
        gazetteer, ["to Encamp"], ScriptedModel([says("ok", True, start="Ordino", end=name, durationDays=2)])
    )
    assert reply.collected.end == "Encamp"
    assert reply.readyToGenerate


def test_a_fenced_object_that_cannot_be_read_is_not_shown(gazetteer: Gazetteer) -> None:
    (reply,) = converse(gazetteer, ["hi"], ScriptedModel(['```json\n{"reply": ["a"], "collected": 5}\n```']))
    assert "```" not in reply.reply
    assert "{" not in reply.reply.split("\n\n[//]")[0]
