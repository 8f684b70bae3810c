"""Where the ride leaves from or comes back to a base people placed: the car parked in a village, the
hotel, the hostel ("park the car in Pas de la Casa... back to the car", "depuis l'hôtel... retour à
l'hôtel"): the ride starts there, and coming back to it is a loop (the rides themselves are cases of
`test_brief_where_the_loop_starts.py`); a base of another kind, or a start said elsewhere, is not it."""

from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.base import base_said

from tests.fixtures.brief_chat import last_reply


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
