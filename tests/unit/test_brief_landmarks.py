"""Landmarks people name instead of their district or village, and a route's end said last."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.landmarks import landmarks_as_places
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("said", "place"),
    [
        ("from the oodi library", "from kluuvi"),
        ("up to the rock church", "up to etu toolo"),
        ("on loge a cote de caldea", "on loge a cote de escaldes"),
        ("le musee du tabac", "sant julia de loria"),
        ("through kaivopuisto park", "through ullanlinna"),
        ("from the central station", "from helsinki"),
        ("commencer a la gare centrale", "commencer a helsinki"),
        ("depart hakis", "depart hakaniemi"),
    ],
)
def test_a_landmark_is_said_as_the_place_it_is_in(said: str, place: str) -> None:
    assert landmarks_as_places(said) == place


def test_a_word_inside_another_is_no_landmark() -> None:
    assert landmarks_as_places("the kiasmatic route to oodiland") == "the kiasmatic route to oodiland"


def test_a_brief_by_its_landmarks(gazetteer: Gazetteer) -> None:
    text = (
        "hi! staying at hotel torni, want to ride out to the rock church and then finish at hakaniemi market"
        " hall for lunch. just a few hours tomorrow morning"
    )
    reply = last_reply(gazetteer, [text])
    assert (reply.collected.start, reply.collected.end) == ("Kamppi", "Hakaniemi")
    assert reply.collected.via == ["Etu-Töölö"]
    assert reply.readyToGenerate


def test_an_end_said_last_makes_the_place_before_it_a_stop() -> None:
    read = read_turn(
        "from Kamppi to Kallio, then past Hakaniemi market, end in Kruununhaka. A day.",
        today=dt.date(2027, 5, 3),
    )
    assert [p.text for p in read.places["end"]] == ["kruununhaka"]
    assert "kallio" in [p.text for p in read.places["via"]]


def test_the_centre_by_its_station_and_a_district_by_its_nickname(gazetteer: Gazetteer) -> None:
    for turns, start in [
        (["cycle route please", "from the central station", "to kallio", "1 day"], "Helsinki"),
        (["départ Hakis, arrivée Sörkka, via Kallio", "juste une sortie d'une heure"], "Hakaniemi"),
    ]:
        reply = last_reply(gazetteer, turns, "fr" if "départ" in turns[0] else "en")
        assert reply.collected.start == start
        assert reply.readyToGenerate
