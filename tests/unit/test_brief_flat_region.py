"""A climbing limit asked in a region built without elevation: the reply says the days will have no
climbing figures, once, in the rider's language; where the region has heights, nothing is said."""

from __future__ import annotations

from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


class BuiltWithoutElevation(Gazetteer):
    def has_heights(self, region: str) -> bool:
        return False


TURNS = ["2 days by road bike from Sant Julià de Lòria to Canillo, at most 800 m of climbing a day"]


def test_the_reply_says_a_flat_region_cannot_keep_a_climbing_limit() -> None:
    flat = BuiltWithoutElevation()
    reply = last_reply(flat, TURNS, covered=True)
    assert reply.collected.dailyClimbM == 800
    assert "has no elevation" in reply.reply
    assert reply.readyToGenerate  # the trip can still be planned, without climbing figures
    again = last_reply(flat, [*TURNS, "and we ride on the 12th of June"], covered=True)
    assert "has no elevation" not in again.reply  # said once, when the limit is asked
    french = last_reply(
        flat, ["2 jours de Sant Julià de Lòria à Canillo, 800 m de dénivelé max par jour"], "fr", covered=True
    )
    assert "n'ont pas d'altitudes" in french.reply


def test_nothing_is_said_where_the_region_has_heights() -> None:
    reply = last_reply(Gazetteer(), TURNS, covered=True)
    assert reply.collected.dailyClimbM == 800
    assert "elevation" not in reply.reply
