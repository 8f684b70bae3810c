"""Of several ends a turn says one after the other, the one said with a word of finishing is the end and
the earlier are stops ("..., puis les Escaldes, arrivée à Encamp"); not when the turn weighs one against
the other ("come back to Pas, or finish in Andorra la Vella"). "Aller-retour A – B dans la journée" turns
at B."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


def _places(text: str) -> dict[str, list[str]]:
    return {slot: [p.text for p in ps] for slot, ps in read_turn(text, today=TODAY).places.items()}


@pytest.mark.parametrize(
    ("text", "via", "end"),
    [
        (
            "Départ d'Ordino, montée vers La Massana, puis les Escaldes, arrivée à Encamp.",
            ["la massana", "les escaldes"],
            ["encamp"],
        ),
        ("ride from Kamppi to Kallio, then Alppila, end at Linjat", ["kallio", "alppila"], ["linjat"]),
        (
            "From Canillo first to Ransol, then Soldeu, then El Tarter, and at the end we finish in Pas",
            ["ransol", "soldeu"],
            ["pas de la casa"],
        ),
    ],
)
def test_the_end_said_as_the_finish_is_the_end(text: str, via: list[str], end: list[str]) -> None:
    places = _places(text)
    assert places["via"][: len(via)] == via
    assert places["end"] == end


@pytest.mark.parametrize(
    "text",
    [
        "We could loop and come back to Encamp, or finish in Andorra la Vella, can't decide",
        "elle voudrait revenir à Canillo mais moi j'aimerais finir à Soldeu",
    ],
)
def test_ends_weighed_against_each_other_are_no_route(text: str) -> None:
    assert "via" not in _places(text)


def test_instead_is_no_place() -> None:
    assert _places("actually make El Tarter the finish instead") == {"end": ["el tarter"]}


@pytest.mark.parametrize(
    "text",
    [
        "Aller-retour Kamppi – Alppiharju dans la journée",
        "Aller-retour Kamppi – Alppiharju sur la journée, en vélo de route",
        "Aller-retour Kamppi ↔ Alppiharju, route, 1 j",
    ],
)
def test_out_and_back_said_with_a_dash(gazetteer: Gazetteer, text: str) -> None:
    reply = last_reply(gazetteer, [text], locale="fr")
    assert (reply.collected.start, reply.collected.via, reply.collected.roundTrip) == (
        "Kamppi",
        ["Alppiharju"],
        True,
    )


@pytest.mark.parametrize(
    "text",
    ["le 2 juin on fait Kamppi – Kallio à vélo avec des amis", "on fait Kamppi – Kallio dans la journée"],
)
def test_a_route_with_a_dash_after_the_verb(text: str) -> None:
    assert _places(text) == {"start": ["kamppi"], "end": ["kallio"]}


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("want to cycle Encamp → Ordino → Arinsal on a gravel bike", "encamp"),
        ("going Canillo -> Ransol -> Soldeu", "canillo"),
    ],
)
def test_a_route_with_arrows_after_a_verb_of_riding(text: str, start: str) -> None:
    assert _places(text)["start"] == [start]
