"""Phrasings a review of session 9's readings found misread, each kept as it was before them: a common
word is no weekday, travel hours are no day ride, "I think tomorrow" is a date, a figure that counts
people is no distance, something else left open leaves the end, start and days as said."""

from __future__ import annotations

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import CORPUS_TODAY as TODAY
from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    "text",
    [
        "From Encamp to Soldeu. We love riding in the sun.",
        "From Encamp to Soldeu with my friend Sam.",
        "We live 3 hours away. From Encamp to Soldeu.",
        "Today I'd like to plan a trip from Encamp to Soldeu",
    ],
)
def test_no_day_said_is_no_day_ride(gazetteer: Gazetteer, text: str) -> None:
    reply = last_reply(gazetteer, [text])
    assert reply.collected.durationDays is None
    assert not reply.readyToGenerate


def test_a_weekday_said_short_where_it_can_be_nothing_else() -> None:
    assert read_turn("just sat, Encamp to Soldeu", today=TODAY).slots.startDate == dt.date(2027, 5, 8)
    assert read_turn("jusqu'au bord de la mer.", today=TODAY).slots.startDate is None


@pytest.mark.parametrize(
    "text",
    ["I think tomorrow is best, a ride from Encamp to Soldeu", "We decided: tomorrow, Encamp to Soldeu"],
)
def test_tomorrow_thought_or_decided_is_a_date(text: str) -> None:
    assert read_turn(text, today=TODAY).slots.startDate == dt.date(2027, 5, 4)


def test_a_figure_that_counts_people_or_a_date_is_no_distance() -> None:
    before = read_turn("from Encamp to Soldeu, 2 days, 40 km a day", today=TODAY).slots
    for text in ("actually 12 of us are coming", "finalement 16 mai", "plutôt 15 juin"):
        assert read_turn(text, today=TODAY).merged_into(before).dailyDistanceKm == 40


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["From Encamp to Soldeu, 3 days, road bike. End in Soldeu, but not sure which hotel yet."], "en"),
        (["Start Encamp. The end is Soldeu, not sure about the bike yet. 2 days"], "en"),
        (["If possible, end at Soldeu. Start Encamp, 2 days"], "en"),
        (["From Encamp to Soldeu, 3 days, road bike, not sure if we leave Friday or Saturday"], "en"),
        (["Départ d'Encamp, arrivée à Soldeu, 3 jours. Pas encore décidé la date de départ."], "fr"),
        (["3 days from Encamp to Soldeu, not sure if day 2 ends in Canillo or Ordino"], "en"),
        (["On vient de décider : départ d'Encamp, arrivée à Soldeu, 2 jours"], "fr"),
    ],
)
def test_something_else_left_open_keeps_what_was_said(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    collected = last_reply(gazetteer, turns, locale).collected
    assert (collected.start, collected.end) == ("Encamp", "Soldeu")
    assert collected.durationDays is not None


def test_names_that_begin_like_a_day_make_no_plan() -> None:
    read = read_turn("Marie: Encamp → Soldeu\nSamuel: Encamp → Canillo", today=TODAY)
    assert read.slots.durationDays is None
