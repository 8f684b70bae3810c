"""Every stop of a list, the last one too: "round Katajanokka, Kaartinkaupunki and Eira then back", "up to
La Cortinada and Llorts, then back to Ordino", "ride to Punavuori and Eira, and end at Ullanlinna"; not a
choice between two ends, nor what someone else will do ("and she'll get us there")."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


@pytest.mark.parametrize(
    ("turns", "via"),
    [
        (
            [
                "quick loop tomorrow from Hakaniemi, round Katajanokka, Kaartinkaupunki and Eira"
                " then back to Hakaniemi"
            ],
            ["Katajanokka", "Kaartinkaupunki", "Eira"],
        ),
        (
            [
                "Two couples, starting Ordino, going up to La Cortinada and Llorts, then back to Ordino",
                "3 days",
            ],
            ["la Cortinada", "Llorts"],
        ),
        (
            [
                "Plan is to pick up bikes in Ruoholahti, ride to Punavuori and Eira, and end at Ullanlinna."
                " Day trip."
            ],
            ["Punavuori", "Eira"],
        ),
    ],
)
def test_the_last_stop_of_a_list_is_a_stop(gazetteer: Gazetteer, turns: list[str], via: list[str]) -> None:
    assert last_reply(gazetteer, turns).collected.via == via


@pytest.mark.parametrize(
    "text",
    [
        "Pour l'arrivée j'hésite entre Sant Julià et La Massana.",
        "Destination: still deciding between Soldeu and El Tarter.",
    ],
)
def test_two_ends_to_choose_from_are_no_route(text: str) -> None:
    assert "via" not in read_turn(text, today=TODAY).places


def test_what_someone_else_does_after_the_end_is_no_place() -> None:
    text = "so we'll finish in Sant Julià and she'll get us there."
    places = read_turn(text, today=TODAY).places
    assert [p.text for p in places["end"]] == ["sant julia"]
    assert "via" not in places


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (
            [
                "Du Pas de la Case jusque chez ma cousine à Sispony, en 2 jours",
                "sans passer par Escaldes svp, nuit à Ordino",
            ],
            "fr",
        ),
        (
            [
                "From Pas de la Casa to Sispony, 2 days",
                "without going through Escaldes please, night in Ordino",
            ],
            "en",
        ),
    ],
)
def test_a_place_not_to_pass_is_no_stop(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    """ "sans passer par Escaldes", "without going through Escaldes": not through it (and "jusque" ends the
    start's name)."""
    collected = last_reply(gazetteer, turns, locale).collected
    assert (collected.start, collected.end, collected.via) == ("Pas de la Casa", "Sispony", ["Ordino"])
