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
        # from and back to a base placed in a village (test_brief_from_the_base.py)
        (
            [
                "Nous venons de Genève. En Andorre on dort à l'hôtel à Ordino.",
                "Depuis l'hôtel, on aimerait une boucle d'une journée par la Cortinada et Ansalonga,"
                " et retour à l'hôtel.",
            ],
            "fr",
            "Ordino",
        ),
        (
            ["On gare la voiture à Sant Julià samedi, on roule jusqu'au soir puis on retrouve la voiture."],
            "fr",
            "Sant Julià de Lòria",
        ),
        (
            [
                "we come with the car and leave it in Andorra la Vella parking. We want to make a circle"
                " and return to the car. Four days"
            ],
            "en",
            "Andorra la Vella",
        ),
        (
            ["three days riding round the centre from Wednesday, always back to the hostel in Kamppi"],
            "en",
            "Kamppi",
        ),
        (
            [
                "on loge 3 nuits à l'hôtel à Soldeu, on veut faire des sorties en vélo de route chaque"
                " jour en partant de l'hôtel, donc 3 jours de vélo"
            ],
            "fr",
            "Soldeu",
        ),
    ],
)
def test_the_loop_starts_where_people_are_or_come_back_to(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str
) -> None:
    collected = last_reply(gazetteer, turns, locale).collected
    assert collected.start == start
    assert collected.roundTrip
    assert start not in collected.via


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


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["Start in Encamp please, and make a round", "5 days"], "en"),
        (["bike tour from hakaniemi round, thru kruununhaka, kluuvi", "1 day"], "en"),
        (["Trois jours dans un Airbnb à Punavuori, on revient dormir au même endroit chaque soir"], "fr"),
    ],
)
def test_a_round_or_sleeping_at_the_same_place_is_a_loop(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    assert last_reply(gazetteer, turns, locale).collected.roundTrip


def test_the_long_way_round_is_no_loop(gazetteer: Gazetteer) -> None:
    """(A guard: "the long way round via Sörnäinen" goes round, not back.)"""
    turns = ["Kallio to Kruununhaka, but I'd like to go the long way round via Sörnäinen. A day."]
    assert not last_reply(gazetteer, turns, "en").collected.roundTrip


def test_fin_names_the_end(gazetteer: Gazetteer) -> None:
    """ "Départ Pas de la Casa, fin Sant Julià" (not "fin mai", no place)."""
    assert (
        last_reply(gazetteer, ["Départ Pas de la Casa, fin Sant Julià"], "fr").collected.end
        == "Sant Julià de Lòria"
    )
    assert last_reply(gazetteer, ["fin mai, d'Encamp à Canillo"], "fr").collected.end == "Canillo"


@pytest.mark.parametrize(
    ("turns", "start", "via"),
    [
        (
            [
                "We drive up to Pas de la Casa and start riding there.",
                "4 days, a loop back to Pas de la Casa, through Canillo, Ordino, La Massana and Sant Julià",
            ],
            "Pas de la Casa",
            ["Canillo", "Ordino", "La Massana", "Sant Julià de Lòria"],
        ),
        (
            [
                "from tomorrow until saturday, mtb, starting in canillo, a hut each night and end back in"
                " canillo"
            ],
            "Canillo",
            [],
        ),
    ],
)
def test_a_loop_back_to_a_place_starts_there(
    gazetteer: Gazetteer, turns: list[str], start: str, via: list[str]
) -> None:
    collected = last_reply(gazetteer, turns, "en").collected
    assert (collected.start, collected.via, collected.roundTrip) == (start, via, True)
