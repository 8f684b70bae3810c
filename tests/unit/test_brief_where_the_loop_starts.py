"""Where a loop starts when no word of starting says it: both ends said at once without a preposition
("start and finish la massana"), where people are ("je suis à Aubinyà... aller jusqu'à Bixessarri et
revenir"), the place they come back to ("up to Pal and back to Encamp for dinner")."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale", "start"),
    [
        (["start and finish la massana, loop, 3 days"], "en", "La Massana"),
        (
            ["Je suis à Aubinyà avec mes petits-enfants, je voudrais aller jusqu'à Bixessarri et revenir"],
            "fr",
            "Aubinyà",
        ),
        (["tomorrow we ride up to Pal and back to Encamp for dinner"], "en", "Encamp"),
        (["on monte à Pal et retour à Encamp le soir, demain"], "fr", "Encamp"),
    ],
)
def test_the_loop_starts_where_people_are_or_come_back_to(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str
) -> None:
    collected = last_reply(gazetteer, turns, locale).collected
    assert collected.start == start
    assert collected.roundTrip


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["start and finish the same day, from Ordino to Canillo"], "en"),
        (["je suis à vélo, d'Ordino à Canillo"], "fr"),
        (["from Ordino up to Pal and back to Encamp"], "en"),
    ],
)
def test_a_start_said_is_kept(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    """(A guard: "the same day", "à vélo" and a start said are no start of a loop.)"""
    assert last_reply(gazetteer, turns, locale).collected.start == "Ordino"
