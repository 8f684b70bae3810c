"""What the chat asks about and what it reads past: a word that is no place is not answered with five towns
that merely look like it ("Straight": Wright? Putra Heights?), a typo of a real town still is; a choice
between two ends ("soit à Kallio soit à Alppila") is left open; a heading before a route ("Big trip:
Lleida to Canillo") and "all the way" are no part of a name."""

import datetime as dt
from typing import Any

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn
from tripagent.domain.places import Candidate, Found, NotFound, SearchOutcome, normalize

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


def test_a_word_that_only_looks_like_far_towns_is_not_asked_about(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer,
        [
            "escaldes -> ordino -> el serrat, then straight back down the same road to escaldes",
            "one day, road",
        ],
    )
    assert reply.clarification is None
    assert reply.readyToGenerate


class _OneTypo:
    """The gazetteer, but "Tolouze" is found by no search, only near Toulouse (as a remote geocoder may)."""

    def __init__(self, gazetteer: Gazetteer) -> None:
        self.gazetteer = gazetteer

    def search(self, query: str, **kwargs: Any) -> SearchOutcome:
        if normalize(query) != "tolouze":
            return self.gazetteer.search(query, **kwargs)
        toulouse = self.gazetteer.search("Toulouse")
        assert isinstance(toulouse, Found)
        return NotFound(query, near_misses=(Candidate(toulouse.place, 0.8, "toulouse"),))


def test_a_typo_close_to_a_real_town_is_still_asked_about(gazetteer: Gazetteer) -> None:
    reply = last_reply(_OneTypo(gazetteer), ["From Tolouze to Soldeu, 2 days"])  # type: ignore[arg-type]
    assert reply.clarification is not None
    assert [o.label for o in reply.clarification.options] == ["Toulouse (city, France)"]


def test_either_one_end_or_the_other_leaves_the_end_open(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer,
        [
            "une petite sortie à Helsinki demain, juste la journée, en partant de Kamppi",
            "on voudrait aller soit à Kallio soit à Alppila, je sais pas lequel",
        ],
        locale="fr",
    )
    assert reply.collected.end is None
    assert not reply.readyToGenerate


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Big trip: Lleida to Canillo, 6 days, gravel.", "lleida", "canillo"),
        ("Route: Sant Julià to Canillo", "sant julia", "canillo"),
        ("cycle from Barcelona all the way up to Andorra la Vella", "barcelona", "andorra la vella"),
    ],
)
def test_a_heading_and_all_the_way_are_no_part_of_a_name(text: str, start: str, end: str) -> None:
    places = read_turn(text, today=TODAY).places
    assert [p.text for p in places["start"]] == [start]
    assert [p.text for p in places["end"]] == [end]


def test_a_heading_that_says_what_the_name_is_stays_with_it() -> None:
    assert [p.text for p in read_turn("Départ : Ordino", today=TODAY).places["start"]] == ["ordino"]
