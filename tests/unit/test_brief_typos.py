"""A name found nowhere that misspells one place we route is that place, in the chat and in generation's
rules alike; a name that misspells nothing we route is still asked about."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.domain.places import NotFound, typo_of_ours

from tests.fixtures.brief_chat import last_reply, spec_of


@pytest.mark.parametrize(("said", "meant"), [("escladas", "les Escaldes"), ("grau rojo", "Grau Roig")])
def test_a_misspelling_of_a_place_we_route(gazetteer: Gazetteer, said: str, meant: str) -> None:
    outcome = gazetteer.search(said)
    assert isinstance(outcome, NotFound)
    found = typo_of_ours(outcome)
    assert found is not None
    assert found.place.name == meant


def test_a_name_close_to_nothing_we_route_is_no_typo(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("down")
    assert isinstance(outcome, NotFound)
    assert typo_of_ours(outcome) is None


def test_the_chat_takes_the_misspelt_place_and_says_it_back(gazetteer: Gazetteer) -> None:
    turns = ["ride from escladas down to sant julia for lunch and back up to escladas, one day, this sunday"]
    reply = last_reply(gazetteer, turns)
    assert reply.clarification is None
    assert reply.collected.start == "les Escaldes"
    assert reply.collected.roundTrip
    assert "les Escaldes" in reply.reply


def test_generation_reads_the_misspelt_place_as_the_chat(gazetteer: Gazetteer) -> None:
    assert spec_of(gazetteer, ["from escladas to sant julia, one day, road bike"])["start"] == "les Escaldes"
