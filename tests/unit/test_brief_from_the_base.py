"""Where the ride leaves from or comes back to a base people placed: the car parked in a village, the
hotel, the hostel ("park the car in Pas de la Casa... back to the car", "depuis l'hôtel... retour à
l'hôtel"): the ride starts there, and coming back to it is a loop."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.domain.brief_base import base_said

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale", "start"),
    [
        (
            [
                "Nous venons de Genève. En Andorre on dort à l'hôtel à Ordino.",
                "Depuis l'hôtel, on aimerait une boucle d'une journée par la Cortinada et Ansalonga,"
                " et retour à"
                " l'hôtel.",
            ],
            "fr",
            "Ordino",
        ),
        (
            [
                "On gare la voiture à Sant Julià samedi, on roule jusqu'au soir puis on retrouve la voiture."
                " VTT."
            ],
            "fr",
            "Sant Julià de Lòria",
        ),
        (
            [
                "we come with the car and leave it in Andorra la Vella parking. We want to make a circle and"
                " return to the car. Four days"
            ],
            "en",
            "Andorra la Vella",
        ),
        (
            [
                "three days of riding round the centre from Wednesday, always back to the hostel in Kamppi at"
                " night"
            ],
            "en",
            "Kamppi",
        ),
        (
            [
                "on loge 3 nuits à l'hôtel à Soldeu, on veut faire des sorties en vélo de route chaque jour"
                " en"
                " partant de l'hôtel, donc 3 jours de vélo"
            ],
            "fr",
            "Soldeu",
        ),
    ],
)
def test_a_ride_from_and_back_to_its_base_is_a_loop_from_there(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str
) -> None:
    collected = last_reply(gazetteer, turns, locale).collected
    assert collected.start == start
    assert collected.roundTrip
    assert start not in collected.via


def test_a_base_of_another_kind_is_not_the_start() -> None:
    """Starting at a bus station is no ride from the hostel the night is spent at."""
    said = base_said(
        ["two days, starting at the Kamppi bus station, through Punavuori, overnight at a hostel in Kallio"]
    )
    assert said is None


def test_a_start_said_elsewhere_is_kept(gazetteer: Gazetteer) -> None:
    """(A guard: a hotel placed in one village does not move a start said in another.)"""
    collected = last_reply(
        gazetteer,
        ["we sleep at a hotel in Encamp. From Canillo to Soldeu and back to the hotel, 1 day"],
        "en",
    ).collected
    assert collected.start == "Canillo"
