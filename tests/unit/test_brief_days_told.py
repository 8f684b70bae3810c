"""Days told rather than counted: a route told as a story spans one day more for each next day after a
night on the way ("sleep there, and next morning climb up to Arinsal", "nuit à Canillo, et dimanche
retour"); a night of arrival before the first day is no day ridden; a ride on one day from where people stay
(their B&B, "nous logeons dans un hôtel") is a day."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("text", "locale", "days"),
    [
        (
            "Soldeu, roll down the valley to Sant Julià, sleep there, and next morning climb up to Arinsal",
            "en",
            2,
        ),
        (
            "park the car in pas de la casa and ride over to ordino, sleep there, then back to the car on"
            " sunday",
            "en",
            2,
        ),
        (
            "D'el Tarter on descend jusqu'à Escaldes, on dort là-bas, et le lendemain on monte à Ordino",
            "fr",
            2,
        ),
        (
            "Départ Pas de la Casa, on descend à Encamp, nuit au camping. Le lendemain on monte à Grau Roig",
            "fr",
            2,
        ),
        (
            "Nous atterrissons à Toulouse le vendredi 11 juin, nuit à l'hôtel à Sant Julià. Samedi départ de"
            " Sant Julià jusqu'à Canillo par Encamp, nuit à Canillo, et dimanche retour à Sant Julià.",
            "fr",
            2,
        ),
        (
            "from Ordino to Soldeu: we ride to Canillo, sleep at the hut, the next day on to Soldeu, camp"
            " there, and the following day back down to Encamp",
            "en",
            3,
        ),
        (
            "Day one Sant Julia to Encamp, then the next day over to Canillo and up to Soldeu, and the last"
            " day we roll all the way down to Andorra la Vella",
            "en",
            3,
        ),
        (
            "départ Andorre-la-Vieille le 5 juin, on veut dormir à Ordino le premier soir puis à Canillo le"
            " deuxième et revenir à Andorre-la-Vieille le troisième jour",
            "fr",
            3,
        ),
    ],
)
def test_the_days_a_story_spans(gazetteer: Gazetteer, text: str, locale: str, days: int) -> None:
    assert last_reply(gazetteer, [text], locale).collected.durationDays == days


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        (
            "We land in Barcelona on the 10th, sleep in Andorra la Vella, and the next day we ride to Ordino",
            "en",
        ),
        ("On arrive en train le 14 juin, on dort à Encamp et le lendemain on roule d'Encamp à Canillo", "fr"),
    ],
)
def test_a_night_of_arrival_is_no_day_ridden(gazetteer: Gazetteer, text: str, locale: str) -> None:
    """(A guard: the story's reading must not count the night people arrive.)"""
    assert last_reply(gazetteer, [text], locale).collected.durationDays is None


def test_a_count_said_wins_over_the_story(gazetteer: Gazetteer) -> None:
    """(A guard: the story is a hint under any count said.)"""
    turns = ["Soldeu down to Sant Julià, sleep there, and next morning climb up to Arinsal", "make it 3 days"]
    assert last_reply(gazetteer, turns, "en").collected.durationDays == 3


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (
            ["We're staying at a B&B in Llorts. On Wednesday the 12th we go up to el Serrat and back"],
            "en",
        ),
        (
            ["We've rented an airbnb in Encamp for the whole week.", "Saturday: Encamp to Canillo and back"],
            "en",
        ),
        (
            ["nous logeons dans un hôtel à Etu-Töölö. Le jeudi 6 mai nous voudrions aller jusqu'à Linjat"],
            "fr",
        ),
        (
            ["on dort à l'auberge de jeunesse à Kamppi. Vendredi on veut faire Kamppi → Kluuvi → Siltasaari"],
            "fr",
        ),
        (
            ["Petit tour demain : départ de l'hôtel à Arinsal, je monte par Pal et retour à Arinsal", "VTT"],
            "fr",
        ),
        (["mtb day: La Massana up to Pal, drop into Arinsal and roll back to La Massana"], "en"),
        (["after work today I want to ride from Eira up to Hakaniemi, then the tram home"], "en"),
    ],
)
def test_a_dated_ride_from_where_people_stay_is_a_day(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    """Where people stay is the ride's base, no night on the way: one ride on one day is a day."""
    assert last_reply(gazetteer, turns, locale).collected.durationDays == 1


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["Saturday from Encamp to Canillo, hotels please"], "en"),
        (["samedi d'Encamp à Canillo, on dort au camping de Canillo"], "fr"),
    ],
)
def test_a_dated_ride_with_a_night_away_is_not_a_day(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    """(A guard: lodging on the way still says the days are not known.)"""
    assert last_reply(gazetteer, turns, locale).collected.durationDays is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        (
            "On part de l'hôtel à Arinsal, on monte par Pal et on revient à l'hôtel le soir. Samedi 12 juin.",
            "fr",
        ),
        ("Saturday: Encamp up to Meritxell and Canillo, and back in Encamp for dinner", "en"),
        ("aller retour hakaniemi - eira le 1er juin en VAE", "fr"),
    ],
)
def test_back_by_the_evening_or_there_and_back_on_a_date_is_a_day(
    gazetteer: Gazetteer, text: str, locale: str
) -> None:
    assert last_reply(gazetteer, [text], locale).collected.durationDays == 1


def test_back_every_evening_is_no_day_trip(gazetteer: Gazetteer) -> None:
    """(A guard: a base people come back to each evening is several days.)"""
    text = "Encamp to Canillo on Saturday, back to the hotel every evening for dinner"
    assert last_reply(gazetteer, [text], "en").collected.durationDays is None


def test_in_a_fortnight_is_when_not_how_long(gazetteer: Gazetteer) -> None:
    turns = ["Départ d'Encamp, arrivée Andorre-la-Vieille, 2 jours", "dans quinze jours, le samedi 15"]
    assert last_reply(gazetteer, turns, "fr").collected.durationDays == 2
