"""One parser for numbered questions: the brief chat's and the agent's clarifications answer alike."""

from __future__ import annotations

import pytest
from tripagent.domain.choice import Option, choose

PLACES = [
    Option("Santa Coloma", "Santa Coloma (village, Andorra)"),
    Option("Santa Coloma de Gramenet", "Santa Coloma de Gramenet (city, Spain)"),
]
STOPS = [Option("Museu del Tabac (day 1)"), Option("Museu de l'Automobil (day 1)")]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("2", 2),
        ("#2", 2),
        ("option 2", 2),
        ("number 1", 1),
        ("the second one", 2),
        ("la deuxième", 2),
        ("la premiere svp", 1),
        ("two", 2),
        ("deux", 2),
        ("2nd", 2),
        ("3", None),  # no third option
        ("Santa Coloma de Gramenet", 2),
        ("Gramenet", 2),
        ("the village, Andorra", 1),
        ("santa coloma", 1),  # the exact name, not the longer one it is part of
        ("Spain", 2),
        ("what about the weather?", None),  # a new message, not an answer
    ],
)
def test_places_by_number_ordinal_or_name(reply: str, expected: int | None) -> None:
    assert choose(reply, PLACES) == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("The Andorran village, not the one near Barcelona", 1),
        ("celle d'Andorre", 1),
        ("The one in Andorra, not the one near Barcelona", 1),
        ("le village andorran, pas celle à côté de Barcelone", 1),
        ("the Spanish one", 2),
        ("la ville espagnole", 2),
        ("Santa Coloma de Gramenet, près de Barcelone", 2),  # its whole name, then more words
        ("not the Spanish one", 1),  # of two, the other
        ("the Andorran one obviously, not the Barcelona suburb", 1),
        ("no idea where to start, maybe you can suggest?", None),
    ],
)
def test_places_by_description(reply: str, expected: int | None) -> None:
    """The country or kind of place the answer describes, in English or French; what follows "not" /
    "pas" is the option not meant."""
    assert choose(reply, PLACES) == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [("1", 1), ("the Tabac one", 1), ("automobil", 2), ("museu", None), ("le deuxième", 2)],
)
def test_agent_candidates_by_number_or_name_and_never_a_guess(reply: str, expected: int | None) -> None:
    assert choose(reply, STOPS) == expected


def test_a_name_that_starts_with_an_article_is_chosen_by_that_name() -> None:
    parishes = [Option("La Massana"), Option("Massana Park")]
    assert choose("La Massana", parishes) == 1
    assert choose("la massana", parishes) == 1
    assert choose("Massana Park", parishes) == 2


def test_a_number_out_of_range_may_still_be_part_of_a_name() -> None:
    assert choose("39", [Option("Pier 1"), Option("Pier 39")]) == 2


def test_a_misspelt_name_still_chooses_its_option() -> None:
    assert choose("Santa Colona de Gramenet", PLACES) == 2


@pytest.mark.parametrize(
    ("reply", "chosen"),
    [("1, the andorran one obviously lol", 1), ("2 - the spanish one", 2), ("1. yes", 1)],
)
def test_a_number_set_apart_then_words(reply: str, chosen: int) -> None:
    assert choose(reply, PLACES) == chosen


@pytest.mark.parametrize(
    "reply",
    [
        "1 day",
        "2 days please",
        "3 jours",
        "1.5 days would be better actually",
        "3-4 days actually",
        "2 - no wait, the first one",
        "1: no, neither of these",
        "3) no idea",
        "1 - hmm, the one in Spain",
    ],
)
def test_a_count_or_a_refusal_is_no_choice(reply: str) -> None:
    assert choose(reply, PLACES) is None


def test_a_long_run_of_numbers_is_no_choice_and_no_crash() -> None:
    assert choose("1," * 1999, PLACES) is None
