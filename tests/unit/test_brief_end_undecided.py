"""An end left undecided in so many words leaves the trip without one, whatever turn named it before
("pas décidé où finir", "ou finir à Erts jsp", "where we end depends on the weather", "I'll decide
tomorrow"); an end said with something else left open stays."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


@pytest.mark.parametrize(
    "text",
    [
        "pas décidé où finir",
        "ou finir a erts jsp",
        "maybe I'll finish in Pas de la Casa instead, if my friend can pick me up there. I'll know tomorrow",
        "where we end depends on the weather, either Pas de la Casa or back down to Encamp",
        "About the final point I am not sure yet, maybe in France, maybe back to Sant Julià",
        "en fait je sais plus pour Arinsal, peut-être Pal ou Arinsal",
        "then... honestly no clue where we end up, maybe Arans, maybe back to Llorts",
        "pour la fin on hésite entre eira et ullanlinna, je te redis",
        "end in Ordino, no, Llorts, no... ugh. I'll decide tomorrow morning",
    ],
)
def test_an_end_left_undecided(text: str) -> None:
    reading = read_turn(text, today=TODAY)
    assert reading.end_unknown
    assert not reading.start_unknown


def test_neither_end_decided() -> None:
    reading = read_turn("honestly we haven't decided start or finish, wanted your opinion first", today=TODAY)
    assert (reading.start_unknown, reading.end_unknown) == (True, True)


@pytest.mark.parametrize(
    "text",
    [
        "from Ordino to Canillo, 2 days",
        "end in Soldeu, not sure which hotel yet",
        "Départ d'Encamp, arrivée à Soldeu. Pas encore décidé la date de départ.",
    ],
)
def test_an_end_said_stays(text: str) -> None:
    reading = read_turn(text, today=TODAY)
    assert not reading.end_unknown
    assert not reading.start_unknown


def test_an_end_said_before_is_open_again(gazetteer: Gazetteer) -> None:
    turns = ["départ Alppila, arrivée Kallio, 2 jours", "pour la fin on hésite entre eira et ullanlinna"]
    assert last_reply(gazetteer, turns[:1], locale="fr").collected.end == "Kallio"
    reply = last_reply(gazetteer, turns, locale="fr")
    assert reply.collected.end is None
    assert not reply.readyToGenerate
