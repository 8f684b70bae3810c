"""The whole area a trip happens in ("a ride in Helsinki", "une balade à Helsinki") is no start or end of
it while a district is said: the district is; the area is the start or the end only when said as one
("from Helsinki", "de Tampere à Helsinki", "the centre of Helsinki"), or, for a loop or a trip with its end,
when no district is said at all."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.place_reading import is_setting
from tripagent.adapters.rules.brief_reader.places import said_as_an_end
from tripagent.adapters.rules.brief_reader.reading import read_turn
from tripagent.domain.places import Found

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale", "start", "end"),
    [
        (["a bike ride in Helsinki please", "Kallio", "Eira", "1 day"], "en", "Kallio", "Eira"),
        (
            ["Une balade à vélo à Helsinki, départ de Kruununhaka", "arrivée à Eira, une journée"],
            "fr",
            "Kruununhaka",
            "Eira",
        ),
        (["vélo à helsinki", "Etu-Töölö", "Kruununhaka", "1 jour"], "fr", "Etu-Töölö", "Kruununhaka"),
        (
            [
                "We're in Helsinki next week and our hotel is in Kamppi.",
                "One day: Kamppi to Eira and Ullanlinna, then back to the hotel",
            ],
            "en",
            "Kamppi",
            None,
        ),
        (["Petite boucle à Helsinki dimanche : départ Punavuori, une journée"], "fr", "Punavuori", None),
    ],
)
def test_a_district_is_the_start_or_end_not_the_area_it_is_in(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, end: str | None
) -> None:
    reply = last_reply(gazetteer, turns, locale=locale)
    assert (reply.collected.start, reply.collected.end) == (start, end)


@pytest.mark.parametrize(
    ("turns", "locale", "start", "end"),
    [
        (["from Helsinki to Kallio, 1 day"], "en", "Helsinki", "Kallio"),
        (["De Tampere à Helsinki, une semaine"], "fr", "Tampere", "Helsinki"),
        (["Turku to Helsinki", "e-bike, three days"], "en", "Turku", "Helsinki"),  # a later turn keeps it
        (["a loop in the centre of Helsinki, one day"], "en", "Helsinki", None),
        (["quick spin around helsinki tonight, just a loop"], "en", "Helsinki", None),  # nothing else said
        (["Helsinki to Espoo and back to Helsinki over two days"], "en", "Helsinki", "Helsinki"),
    ],
)
def test_the_area_is_an_end_when_said_as_one(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, end: str | None
) -> None:
    reply = last_reply(gazetteer, turns, locale=locale)
    assert (reply.collected.start, reply.collected.end) == (start, end)


def test_the_area_alone_asks_where_in_it_the_ride_starts(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["helsinki ride"])
    assert reply.collected.start is None
    assert reply.reply.startswith("Where does the trip start?")


def test_the_area_is_no_end_named_anywhere(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer, ["on voudrait faire du vélo à Helsinki", "on part de Kallio, une journée"], locale="fr"
    )
    assert (reply.collected.start, reply.collected.end) == ("Kallio", None)
    assert not reply.readyToGenerate


def test_only_the_area_named_as_its_region_is_a_setting(gazetteer: Gazetteer) -> None:
    found = {name: gazetteer.search(name) for name in ("Helsinki", "Kallio", "Andorra la Vella")}
    assert all(isinstance(f, Found) for f in found.values())
    assert [is_setting(f.place) for f in found.values() if isinstance(f, Found)] == [True, False, False]


@pytest.mark.parametrize(
    ("text", "as_an_end"),
    [
        ("from Helsinki to Kallio", True),
        ("départ d'Helsinki", True),
        ("De Tampere à Helsinki", True),
        ("Helsinki centre and back", True),
        ("jusqu'au centre d'Helsinki", True),
        ("une balade à Helsinki", False),
        ("an escale de 9h à Helsinki", False),
        ("a ride in Helsinki", False),
        ("helsinki, 2 days", False),
    ],
)
def test_said_as_an_end(text: str, as_an_end: bool) -> None:
    assert said_as_an_end(text, "Helsinki") is as_an_end


@pytest.mark.parametrize(
    "text",
    [
        "oui on revient au même endroit",
        "and finish back there",
        "we end at the same spot",
        "back to the same place",
    ],
)
def test_coming_back_to_the_same_place_is_a_loop(text: str) -> None:
    assert read_turn(text, today=dt.date(2027, 5, 3)).slots.roundTrip
