"""A ride that fits in a day, its days unsaid ("just the afternoon", "tomorrow morning", "une petite heure",
"une sortie dimanche 16 mai"), is one day, in the brief chat and in generation's rules alike; a night said,
lodging with a ride on a date, or days left open keep it unsaid."""

from __future__ import annotations

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import CORPUS_TODAY as TODAY
from tests.fixtures.brief_chat import last_reply
from tests.fixtures.brief_chat import spec_of as spec

DAY_RIDES = [
    ["loop around helsinki centre this sunday, just an afternoon, about 20km max, hybrid"],
    ["from Kamppi to Kallio tomorrow morning", "city bike"],
    ["aller-retour depuis Hakaniemi : Linjat puis Alppiharju", "demain aprem, vélo de ville"],
    ["aller jusqu'à Munkkisaari et revenir, depuis Eira", "vendredi 14, vélo de route, une petite heure"],
    ["Sortie club dimanche 16 mai, boucle au départ d'Andorra la Vella par La Massana et Ordino"],
    ["a 2 hour ride from Kruununhaka to Sörnäinen on Saturday"],
    ["Kamppi to Eira today, e-bike"],
]


@pytest.mark.parametrize("turns", DAY_RIDES)
def test_a_ride_that_fits_in_a_day_is_one_day_and_ready(gazetteer: Gazetteer, turns: list[str]) -> None:
    reply = last_reply(gazetteer, turns, "fr" if "depuis" in turns[0] or "Sortie" in turns[0] else "en")
    assert reply.collected.durationDays == 1
    assert reply.readyToGenerate
    assert spec(gazetteer, turns)["durationDays"] == 1  # generation reads the brief the same way


@pytest.mark.parametrize(
    "turns",
    [
        # a night said: the evening is no day trip
        ["from Encamp to Soldeu, leaving saturday morning, sleeping in a hut on the way"],
        # a base for several days: every evening back
        ["based in Ordino, riding out every morning and back each evening"],
        # days left open after all
        [
            "can you plan a ride for next Saturday?",
            "from La Massana to Pas de la Casa",
            "not sure how many days yet",
        ],
        # a ride on a date, but with lodging: several days, unsaid
        ["a ride from Ordino to Canillo starting tomorrow, hotels please"],
        # a date and no ride said as one
        ["from Ordino to Canillo starting June 5"],
    ],
)
def test_days_stay_unsaid_over_a_night_lodging_or_days_left_open(
    gazetteer: Gazetteer, turns: list[str]
) -> None:
    reply = last_reply(gazetteer, turns)
    assert reply.collected.durationDays is None
    assert not reply.readyToGenerate
    assert "durationDays" not in spec(gazetteer, turns)


def test_days_said_win_over_a_ride_within_a_day(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["3 days from Ordino to Soldeu", "we leave tomorrow morning"])
    assert reply.collected.durationDays == 3


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (
            [
                "cycling w the kids sunday, from kruununhaka. short, like 15k max",
                "loop pls, past kaartinkaupunki",
            ],
            "en",
        ),
        (["boucle VTT dimanche depuis ordino par llorts", "30 km max"], "fr"),
        (["dim 9 : alppila -> linjat -> siltasaari -> kaisaniemi, en vélo de ville, tranquille"], "fr"),
        (["quick spin around helsinki center tonite? just a loop, nothing fancy"], "en"),
        (["sortie route dim de andorre la vieille à pas de la case et retour"], "fr"),
    ],
)
def test_a_ride_on_a_day_named_is_one_day(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.durationDays == 1
    assert reply.collected.startDate is not None
    assert reply.readyToGenerate


def test_a_trip_for_as_long_as_it_takes_leaves_its_days_open(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["going from ordino to canillo next saturday for as long as it takes"])
    assert reply.collected.durationDays is None


def test_a_road_ride_said_in_french_shorthand() -> None:
    from tripagent.adapters.rules.brief_reader.reading import read_turn

    assert read_turn("sortie route dim de Canillo", today=TODAY).slots.profile == "road"
