"""A day more or less than said: "finalement on rajoute un jour" after 3 days is 4, "on voulait 6 jours
mais on enlève un jour" is 5; their "un jour" is no count of one day."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale", "days"),
    [
        (["On avait prévu 3 jours d'Andorre-la-Vieille à Soldeu", "finalement on rajoute un jour"], "fr", 4),
        (["on part 2 jours, de La Massana à Encamp", "finalement on rajoute un jour"], "fr", 3),
        (["on voulait 6 jours mais on enlève un jour", "boucle depuis Canillo"], "fr", 5),
        (["3 days from Encamp to Soldeu", "let's add another day"], "en", 4),
        (["4 days, loop from Ordino", "actually drop a day, we're tired"], "en", 3),
        (["Loop from Canillo, 2 days", "one more day in Ordino would be nice"], "en", 3),
        (["boucle depuis Canillo, 2 jours", "et deux jours de plus à Ordino"], "fr", 4),
    ],
)
def test_a_day_more_or_less_than_said(gazetteer: Gazetteer, turns: list[str], locale: str, days: int) -> None:
    assert last_reply(gazetteer, turns, locale).collected.durationDays == days


def test_a_day_more_with_no_count_before_is_no_count(gazetteer: Gazetteer) -> None:
    """With no count said, "add a day" says none either (before, its "a day" was read as one day)."""
    reply = last_reply(gazetteer, ["loop from Canillo", "maybe add a day in Ordino"], "en")
    assert reply.collected.durationDays is None
