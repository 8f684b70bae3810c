"""A choice left open and made later in a word ("ok Llorts", "sant julia is fine", "on garde Kallio", "ok
andorre la vieille alors"): the place chosen fills what was open."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale", "start"),
    [
        (["boucle d'une journée depuis Llorts ou depuis Ordino ?", "ok Llorts", "en VAE"], "fr", "Llorts"),
        (
            ["jsuis pas sur : arinsal ou la massana pour commencer. on finit a encamp", "ok arinsal", "2j"],
            "fr",
            "Arinsal",
        ),
        (
            [
                "We could start either from la seu d'urgell or straight from sant julia",
                "sant julia is fine, we'll take the bus up",
                "to canillo via encamp, 2 days",
            ],
            "en",
            "Sant Julià de Lòria",
        ),
        (
            [
                "week-end prochain, boucle à Helsinki depuis Kallio ou Alppiharju",
                "mon pote dit Alppiharju, moi Kallio... on garde Kallio",
            ],
            "fr",
            "Kallio",
        ),
        (
            [
                "salut, on part de sant julia ou d'andorre la vieille ? lequel est le plus pratique",
                "ok andorre la vieille alors. direction Ordino en 2 jours",
            ],
            "fr",
            "Andorra la Vella",
        ),
    ],
)
def test_a_choice_made_in_a_word(gazetteer: Gazetteer, turns: list[str], locale: str, start: str) -> None:
    assert last_reply(gazetteer, turns, locale).collected.start == start


def test_assent_alone_chooses_nothing(gazetteer: Gazetteer) -> None:
    """(A guard: "ok thanks" after a start left open names no place.)"""
    reply = last_reply(gazetteer, ["start in Llorts or Ordino, not sure", "ok thanks"], "en")
    assert reply.collected.start is None
