"""What a review of session 10's readings found misread, each mended: phrases that look like the new
rules' cues but are not (a day, a distance, a choice left open, a loop, a start, a landmark, a count)."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


@pytest.mark.parametrize(
    "text",
    [
        "a ride from Encamp to Soldeu, hoping for sun",
        "I use sat nav on the phone",
        "sam wants to come",
        "it gets dim early",
    ],
)
def test_short_words_that_are_no_day(text: str) -> None:
    assert read_turn(text, today=TODAY).slots.startDate is None


@pytest.mark.parametrize(
    "text",
    [
        "300 km in 5 days",
        "average speed 18 km/h",
        "I commute 15 km",
        "last week I did 120 km",
        "Porvoo is about 50 km east",
        "250 km for the whole trip",
    ],
)
def test_distances_that_are_not_the_day_s(text: str) -> None:
    assert read_turn(text, today=TODAY).slots.dailyDistanceKm is None


@pytest.mark.parametrize(
    "reply",
    [
        "I'll probably go with 2 friends",
        "say 2 adults and a kid",
        "let's say 9 o'clock start",
        "disons 4 vélos",
    ],
)
def test_a_figure_chosen_that_counts_something_else_is_no_count_of_days(
    gazetteer: Gazetteer, reply: str
) -> None:
    turns = ["from Encamp to Soldeu, 2 or 3 days, not sure", reply]
    assert last_reply(gazetteer, turns).collected.durationDays is None


def test_a_limit_after_a_figure_that_counts_people_is_no_distance(gazetteer: Gazetteer) -> None:
    turns = ["from Encamp to Soldeu, 2 days, 60 km a day", "we're a group of 12 max"]
    assert last_reply(gazetteer, turns).collected.dailyDistanceKm == 60


@pytest.mark.parametrize(
    "reply",
    [
        "I'll confirm the start date in a day or two",
        "bikes rented by the day or week?",
        "3 days, otherwise 2 of us could join",
    ],
)
def test_days_said_before_stay_said(gazetteer: Gazetteer, reply: str) -> None:
    assert last_reply(gazetteer, ["from Encamp to Soldeu, 4 days", reply]).collected.durationDays in (3, 4)


@pytest.mark.parametrize(
    "reply", ["When do we start? No idea yet, maybe June", "Once we start we'll see how the legs feel"]
)
def test_the_verb_start_leaves_the_start_said(gazetteer: Gazetteer, reply: str) -> None:
    assert last_reply(gazetteer, ["from Encamp to Soldeu, 2 days", reply]).collected.start == "Encamp"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Départ d'Encamp où on loge, arrivée Soldeu, 2 jours, pour le vélo je sais pas encore", "fr"),
        ("from Encamp to Soldeu, 2 days; we'll see if we come back by bike or by bus", "en"),
        ("I don't like loops, from Encamp to Soldeu, 2 days", "en"),
        (
            "My wife says she wants to ride to Canillo for lunch and then on to Soldeu. From Encamp, 1 day",
            "en",
        ),
        ("Départ d'Encamp, on retrouve nos amis à Soldeu pour le dîner, 1 jour", "fr"),
    ],
)
def test_a_plain_trip_stays_as_said(gazetteer: Gazetteer, text: str, locale: str) -> None:
    reply = last_reply(gazetteer, [text], locale)
    assert (reply.collected.start, reply.collected.end) == ("Encamp", "Soldeu")
    assert not reply.collected.roundTrip


def test_a_car_rented_is_no_start_there(gazetteer: Gazetteer) -> None:
    text = "We fly into Toulouse, rent a car and start riding on Saturday from Encamp to Soldeu, 2 days"
    assert last_reply(gazetteer, [text]).collected.start == "Encamp"


def test_a_station_elsewhere_is_no_landmark_of_ours(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["From Latour-de-Carol railway station to Encamp, 1 day"])
    assert reply.collected.start != "Helsinki"
