"""Holidays date a ride ("le week-end de Pentecôte", "whit monday", "le pont de l'Ascension", "juhannus");
a day in words beside its weekday ("le mercredi douze mai") and a day said apart from its month ("fin
juin, le 25") are of that month."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.dates import dates_in
from tripagent.adapters.rules.brief_reader.holidays import holiday_in
from tripagent.domain.places import normalize

from tests.fixtures.brief_chat import CORPUS_TODAY, last_reply


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("le week-end de Pentecôte", dt.date(2027, 5, 15)),  # Pentecost 2027: Sunday 16 May
        ("pour la pentecôte", dt.date(2027, 5, 15)),
        ("lundi de pentecôte, une journée", dt.date(2027, 5, 17)),
        ("starting at engolasters on whit monday", dt.date(2027, 5, 17)),
        ("Is the Whit Monday long weekend doable for a loop", dt.date(2027, 5, 15)),
        ("the Whitsun long weekend", dt.date(2027, 5, 15)),
        ("le jeudi de l'Ascension", dt.date(2027, 5, 6)),
        ("leaving on Ascension day", dt.date(2027, 5, 6)),
        ("pour juhannus je veux une balade", dt.date(2027, 6, 25)),
        ("midsummer eve, short ride before the party", dt.date(2027, 6, 25)),
        ("Late May bank holiday weekend", dt.date(2027, 5, 29)),
        ("bank holiday weekend at the end of the month", dt.date(2027, 5, 29)),
    ],
)
def test_a_holiday_names_its_day(text: str, day: dt.date) -> None:
    assert holiday_in(normalize(text), CORPUS_TODAY) == day


@pytest.mark.parametrize(
    "text",
    [
        "l'ascension du Port d'Envalira en vélo de route",
        "the ascension of the Coll d'Ordino",
        "une belle ascension",
    ],
)
def test_a_climb_is_no_ascension_day(text: str) -> None:
    assert holiday_in(normalize(text), CORPUS_TODAY) is None


def test_a_holiday_past_this_year_is_next_years() -> None:
    assert holiday_in("ascension", dt.date(2027, 5, 7)) == dt.date(2028, 5, 25)
    assert holiday_in("a bank holiday weekend", CORPUS_TODAY) is None  # which one: not said


@pytest.mark.parametrize(
    ("text", "day", "days"),
    [
        ("pont de l'Ascension, du jeudi au dimanche", dt.date(2027, 5, 6), 4),
        ("week-end de la Pentecôte, du samedi au lundi", dt.date(2027, 5, 15), 3),
        ("le samedi 15 mai, week-end de Pentecôte", dt.date(2027, 5, 15), None),  # the date said wins
        ("aller à Ullanlinna le mercredi douze mai", dt.date(2027, 5, 12), None),
        ("au départ du samedi cinq juin", dt.date(2027, 6, 5), None),
        ("le dimanche quatre juillet", dt.date(2027, 7, 4), None),
        ("fin juin, le 25 plus précisément", dt.date(2027, 6, 25), None),
        ("début juillet, le samedi 3", dt.date(2027, 7, 3), None),
        ("je pars en juin pour le boulot et j'aurai une journée libre le 14", dt.date(2027, 6, 14), None),
        ("we may ride on the 2nd", dt.date(2027, 6, 2), None),  # "may", a verb: the next 2nd
        ("le 25", dt.date(2027, 5, 25), None),
        # a weekday beside a count is no day of the month; weekdays beside the dates they are
        ("départ Vila, arrivée les Bons, mercredi, 1 journée", dt.date(2027, 5, 5), None),
        ("Saturday and Sunday free (the 22nd and 23rd of May)", dt.date(2027, 5, 22), 2),
        ("Jeudi 13 j'ai posé un jour de congé", dt.date(2027, 5, 13), None),
        # a day of the month beside a weekday: the more precise, or the first such weekday after it
        ("le 22/05 non le 23, je me suis trompé de jour, c'est le dimanche", dt.date(2027, 5, 23), None),
        ("We're in Andorra from the 8th. Ride leaves from Escaldes on the Sunday", dt.date(2027, 5, 9), None),
    ],
)
def test_dates_in_words_holidays_and_months_said_apart(text: str, day: dt.date, days: int | None) -> None:
    assert dates_in(normalize(text), CORPUS_TODAY) == (day, days)


def test_a_holiday_dates_the_brief(gazetteer: Gazetteer) -> None:
    turns = ["lundi de pentecôte, une journée", "de sant julià à andorre-la-vieille, vélo de route"]
    reply = last_reply(gazetteer, turns, "fr")
    assert reply.collected.startDate == dt.date(2027, 5, 17)
