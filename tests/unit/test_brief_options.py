"""Trips weighed as options in one turn and chosen in a later one ("option A: ... option B: ...", then
"let's do B"), and what else a reply says of them (one dropped, a choice taken back)."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.options import options_in, with_options_settled

from tests.fixtures.brief_chat import last_reply


def test_options_are_marked_in_order() -> None:
    options = options_in("Options: (a) Eira → Hakaniemi, (b) Kamppi → Kallio. 1 day")
    assert options is not None
    assert [c.strip(" ,") for c in options.choices] == ["Eira → Hakaniemi", "Kamppi → Kallio"]
    assert options.after == "1 day"


@pytest.mark.parametrize(
    "text",
    [
        "a loop from Encamp, 2 days",  # no marks
        "plan B is to take the bus",  # one mark
        "option B: Encamp, option A: Soldeu",  # out of order
        "Rough itinerary:\n1) Andorra la Vella → Encamp\n2) Encamp → Pas de la Casa\n3) Pas → Foix",  # a list
        "fixie ride plan:\n1) etu-töölö\n2) kamppi\n3) punavuori\n4) eira\n5) ullanlinna",
    ],
)
def test_no_options_where_none_are_laid_out(text: str) -> None:
    assert options_in(text) is None


@pytest.mark.parametrize(
    ("turns", "read"),
    [
        (["Options: (a) Eira → Hakaniemi, (b) Kamppi → Kallio. 1 day", "b"],
         "Options. Kamppi → Kallio. 1 day"),
        (["option A: Ordino to Soldeu in 2 days. option B: a loop from Encamp over 3 days", "let's do B"],
         "a loop from Encamp over 3 days"),
        (["plan 1: Ordino → Soldeu, 2 days. plan 2: Canillo loop, 1 day", "ok la deuxième"],
         "Canillo loop, 1 day"),
        (["three ideas: a) sant julia to ordino b) escaldes loop c) encamp to soldeu. all 2 days", "not a",
          "not c"],
         "three ideas. escaldes loop. all 2 days"),
        (["option A: Encamp to Soldeu. option B: a loop from Encamp", "the loop"], "a loop from Encamp"),
        # none chosen: only the words beside the options ("not a loop" drops no option a)
        (["two ideas: a) Ordino to Soldeu, 2 days b) a loop from Encamp, 3 days", "not a loop person tbh"],
         "two ideas"),
        (["three ideas: a) sant julia to ordino b) escaldes loop c) encamp to soldeu. all 2 days",
          "ok not c. between a and b still"], "three ideas. all 2 days"),
        (["option A: Encamp to Pas 2 days. option B: Encamp to Sant Julià 2 days", "A",
          "hmm actually maybe B, or A... not sure now"], ""),
    ],
)  # fmt: skip
def test_a_turn_of_options_reads_as_the_one_chosen(turns: list[str], read: str) -> None:
    assert with_options_settled(turns)[0] == read


@pytest.mark.parametrize(
    ("turns", "start", "end", "loop", "ready"),
    [
        (["hi, torn between two things. option A: Ordino to Soldeu in 2 days. option B: a loop from Encamp "
          "over 3 days. gravel bike either way", "let's do B"],
         "Encamp", None, True, True),
        (["Options: (a) Eira → Hakaniemi, (b) Kamppi → Kallio. 1 day", "b"], "Kamppi", "Kallio", False, True),
        (["Two ideas for the long weekend: (1) Andorra la Vella up to Pas de la Casa via Encamp and Canillo, "
          "or (2) La Massana to Arinsal via Erts. Road bikes.",
          "honestly no idea yet, what would you suggest?"],
         None, None, False, False),
    ],
)  # fmt: skip
def test_the_brief_is_the_option_chosen(
    gazetteer: Gazetteer, turns: list[str], start: str | None, end: str | None, loop: bool, ready: bool
) -> None:
    reply = last_reply(gazetteer, turns)
    trip = reply.collected
    assert (trip.start, trip.end, trip.roundTrip, reply.readyToGenerate) == (start, end, loop, ready)
