"""Places abroad that no ride of the trip's days could reach are where people come from, not places of
the ride ("a couple from Cardiff" on a week of 45 km a day in Andorra); a place within reach, or one
nothing else replaces, is still the rider's, and said to be outside. Two ends the weather chooses between
are open."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.place_reading import beyond_reach
from tripagent.domain.places import Found

from tests.fixtures.brief_chat import last_reply


def _place(gazetteer: Gazetteer, name: str) -> Found:
    found = gazetteer.search(name)
    assert isinstance(found, Found)
    return found


def test_reach_is_the_days_ridden_and_their_limit(gazetteer: Gazetteer) -> None:
    cardiff, toulouse, canillo = (_place(gazetteer, n).place for n in ("Cardiff", "Toulouse", "Canillo"))
    assert beyond_reach(cardiff, [canillo], 7, 45)  # 1,000 km away: no week of 45 km a day
    assert not beyond_reach(cardiff, [canillo], 7, None)  # (a week of 200 km a day would get there)
    assert not beyond_reach(toulouse, [canillo], 5, None)  # 150 km: a ride of five days
    assert beyond_reach(toulouse, [canillo], 1, 40)  # ...but not of one day of 40 km at most
    assert not beyond_reach(cardiff, [canillo], 0, None)  # days unknown: nothing to measure by
    assert not beyond_reach(cardiff, [], 7, None)


@pytest.mark.parametrize(
    ("turns", "locale", "start", "via"),
    [
        (
            ["My husband and I (from Cardiff, both fifty-ish) want to spend a whole week touring Andorra "
             "from Tuesday 1 June. We arrive the day before on the bus from Toulouse into Andorra la Vella "
             "and that's also where we'll finish, so it's a round trip. Loose plan: south to Sant Julià de "
             "Lòria first, then back up to Encamp. 45 km a day max.", "touring bikes, our own"],
            "en", "Andorra la Vella", ["Sant Julià de Lòria", "Encamp"],
        ),
        (
            ["now at a hostel in Punavuori. my friend from uni Emma is joining me, she's from Glasgow. "
             "renting bikes for two days from sunday 16th and doing a loop from the hostel, up to Kallio for "
             "the flea market and on to Alppila, and back to the hostel in Punavuori.", "25 km a day tops"],
            "en", "Punavuori", ["Kallio", "Alppila"],
        ),
        (
            ["Bonjour, je suis étudiante à Lille et je viens ce week-end à Helsinki avec mon frère. On dort "
             "deux nuits à l'auberge de jeunesse d'Ullanlinna. Samedi et dimanche on voudrait rouler "
             "tranquille en partant de l'auberge et en y revenant : passer par Eira, Munkkisaari, puis "
             "Punavuori."],
            "fr", "Ullanlinna", ["Eira", "Munkkisaari", "Punavuori"],
        ),
    ],
)  # fmt: skip
def test_where_people_come_from_far_away_is_no_place_of_the_ride(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, via: list[str]
) -> None:
    collected = last_reply(gazetteer, turns, locale).collected
    assert (collected.start, collected.via) == (start, via)


@pytest.mark.parametrize(
    ("turns", "named"),
    [
        (["From Paris to Soldeu, 2 days"], "Paris"),  # out of reach, but nothing replaces it
        (["From Toulouse to Andorra la Vella, 5 days"], "Toulouse"),  # within reach
    ],
)
def test_a_start_abroad_that_nothing_replaces_is_said_to_be_outside(
    gazetteer: Gazetteer, turns: list[str], named: str
) -> None:
    reply = last_reply(gazetteer, turns, covered=True)
    assert reply.collected.start == named
    assert not reply.readyToGenerate
    assert named in reply.reply


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["starting from Sant Julià. if the weather's good we go up to Arinsal, otherwise we stay low and "
          "finish in Santa Coloma", "just the one day"], "en"),
        (["départ Soldeu, une journée", "si il fait beau on pousse jusqu'à Pas de la Casa, sinon on s'arrête "
          "à Grau Roig"], "fr"),
    ],
)  # fmt: skip
def test_two_ends_the_weather_chooses_between_are_open(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.end is None
    assert not reply.readyToGenerate


def test_an_end_said_plainly_beside_the_weather_stays(gazetteer: Gazetteer) -> None:
    """(A guard: the weather with no other end is no choice between ends.)"""
    plain = last_reply(gazetteer, ["from Encamp to Soldeu, 2 days, if it rains we'll take the bus back"])
    assert plain.collected.end == "Soldeu"
