"""Inputs a reviewer found that broke the brief's reading: quadratic backtracking on long runs of blanks,
a recursion on repeated negations, 29 February next year, figures beyond a brief's bounds; and rules that
misfired on ordinary sentences. The brief chat must answer every one of them, quickly."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from tripagent.adapters.llm.rules import RulesProvider
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.signing import HmacSigner
from tripagent.application.brief_chat import BriefChat, BriefLimits, ChatTurn
from tripagent.domain.brief import read_turn
from tripagent.domain.choice import Option, choose

TODAY = dt.date(2027, 5, 3)


class NoLimit:
    def hit(self, key: str, *, limit: int, window_s: int) -> int | None:
        return None


@pytest.fixture(scope="module")
def chat() -> BriefChat:
    return BriefChat(Gazetteer(), NoLimit(), HmacSigner(b"s" * 32), BriefLimits())


def converse(chat: BriefChat, turns: list[str]) -> Any:
    messages: list[ChatTurn] = []
    reply = None
    for text in turns:
        messages.append(ChatTurn(role="user", content=text))
        reply = chat.turn(messages, "en", RulesProvider(), "rules", now=time.time(), today=TODAY)
        messages.append(ChatTurn(role="assistant", content=reply.reply))
    return reply


@pytest.mark.parametrize(
    "text",
    [
        "I'd rather" + " " * 3985 + "go",
        "We arrive in" + "\t" * 3985 + "x",
        " " * 4000,
    ],
)
def test_long_runs_of_blanks_are_read_in_linear_time(text: str) -> None:
    started = time.perf_counter()
    read_turn(text, today=TODAY)
    assert time.perf_counter() - started < 2.0  # was 45 s and 57 s: quadratic backtracking


def test_a_reply_of_a_thousand_nots_is_no_recursion() -> None:
    places = [Option("Santa Coloma", "Santa Coloma (village, Andorra)"), Option("X", "X (city, Spain)")]
    assert choose("not " * 1000, places) is None
    assert choose("not not the Spanish one", places) == 2  # two refusals: the one named


@pytest.mark.parametrize("text", ["from Ordino on 29 February", "le 29 février", "du 29 au 30 fevrier"])
def test_29_february_when_next_year_has_none(text: str) -> None:
    read_turn(text, today=dt.date(2028, 5, 3))  # 2029 has no 29 February: no reading, no ValueError


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("9000 m of climbing", "dailyClimbM"),
        ("d+ 9999", "dailyClimbM"),
        ("0000 m d+", "dailyClimbM"),
        ("du 5 au 70", "durationDays"),
        ("61 jours", "durationDays"),
        ("10 weeks", "durationDays"),
        ("999 km a day", "dailyDistanceKm"),
    ],
)
def test_figures_beyond_a_briefs_bounds_are_no_reading_not_an_error(text: str, slot: str) -> None:
    assert getattr(read_turn(text, today=TODAY).slots, slot) is None


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("autour de 50 km par jour", "roundTrip", False),
        ("riding around 40 km a day", "roundTrip", False),
        ("A 3-day tour of Andorra from Ordino to Soldeu", "roundTrip", False),
        ("4 days from Ordino to Soldeu, with a full day in Andorra la Vella", "durationDays", 4),
        ("2 jours d'Ordino à Soldeu par le pont de Sant Antoni", "durationDays", 2),
        ("From Ordino to Soldeu, 2 days, we have 4", "durationDays", 2),
        ("Hi! Today I want to plan a 3-day trip next month", "startDate", None),
        ("We leave today from Ordino", "startDate", TODAY),
    ],
)
def test_ordinary_sentences_that_rules_misread(text: str, slot: str, value: Any) -> None:
    assert getattr(read_turn(text, today=TODAY).slots, slot) == value


@pytest.mark.parametrize(
    "text",
    [
        "From Encamp, 2 or 3 days",
        "Je veux partir de Canillo où nous logeons",
        "Ordino is a good place to start",
    ],
)
def test_a_start_said_is_not_taken_for_undecided(text: str) -> None:
    assert not read_turn(text, today=TODAY).start_unknown


def test_coming_home_by_bus_is_no_ride_back() -> None:
    assert not read_turn("D'Ordino à Soldeu en 2 jours, puis on rentre en bus", today=TODAY).out_and_back


def test_a_place_the_rider_refuses_is_never_the_start(chat: BriefChat) -> None:
    reply = converse(chat, ["3 days to Soldeu, but avoid Canillo please"])
    assert reply.collected.start != "Canillo"
