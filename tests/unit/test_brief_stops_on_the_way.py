"""Where a night or a stop is made on the way is a via point, not the end ("nuit à Canillo", "faire étape à
Meritxell et à Engordany", "sleep in Soldeu"); a stop said in a later turn joins the stops already said
unless the turn changes the route; "n back", "then come home", "et je rentre" make a loop; what is done at
the end is no place ("back to Kamppi to catch the ferry")."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


def _places(text: str) -> dict[str, list[str]]:
    return {slot: [p.text for p in ps] for slot, ps in read_turn(text, today=TODAY).places.items()}


@pytest.mark.parametrize(
    ("text", "via"),
    [
        ("nuit à Canillo en chambre d'hôtes", ["canillo"]),
        ("on s'arrête dormir à Encamp", ["encamp"]),
        ("une nuit de plus à Andorre-la-Vieille", ["andorre la vieille"]),
        ("j'aimerais faire étape à Meritxell et à Engordany", ["meritxell", "engordany"]),
        ("on s'arrêterait à Encamp et à Soldeu", ["encamp", "soldeu"]),
        ("a night in Canillo", ["canillo"]),
        ("sleep in Canillo", ["canillo"]),
        ("stopping at Meritxell and at Engordany", ["meritxell", "engordany"]),
        ("Encamp to Arinsal over 2 days, overnight La Massana", ["la massana"]),
        ("Ride from Encamp to Ordino, stopping for lunch in La Massana", ["la massana"]),
        ("From Canillo to Andorra la Vella, lunch in Encamp", ["encamp"]),
        ("D'Ordino à Canillo, une journée, pause café à Encamp", ["encamp"]),
        ("D'Ordino à Canillo, on voudrait déjeuner à La Massana", ["la massana"]),
        ("Eira to Kallio, can we pass the market square in Kaartinkaupunki?", ["kaartinkaupunki"]),
    ],
)
def test_a_stop_for_the_night_is_on_the_way(text: str, via: list[str]) -> None:
    places = _places(text)
    assert places.get("via") == via
    assert all(p not in places.get("end", []) for p in via)


def test_where_the_trip_stops_is_still_its_end() -> None:
    assert _places("on s'arrête à Soldeu") == {"end": ["soldeu"]}


@pytest.mark.parametrize(
    "text",
    [
        "ride up to kallio n back",
        "ride up to Kallio, grab lunch, then come home",
        "je monte à Kallio et je rentre",
        "Ride from our hotel in Eira out to Kallio and home again",
        "on va jusqu'à Kallio en passant par Kamppi, et on rentre à l'hôtel",
    ],
)
def test_back_home_is_a_loop(text: str) -> None:
    reading = read_turn(text, today=TODAY)
    assert reading.out_and_back or reading.slots.roundTrip


@pytest.mark.parametrize(
    "text",
    [
        "je regarde les billets d'avion et je reviens",
        "on voudrait rentrer à la maison à vélo à la fin, chez nous à Foix",
    ],
)
def test_back_to_this_chat_or_home_elsewhere_is_no_loop(text: str) -> None:
    reading = read_turn(text, today=TODAY)
    assert not reading.out_and_back
    assert not reading.slots.roundTrip


def test_what_is_done_at_the_end_is_no_place() -> None:
    places = _places("ride up to Kallio and Alppiharju and then back to Kamppi to catch the ferry home")
    assert places == {"via": ["kallio", "alppiharju"], "end": ["kamppi"]}


def test_a_stop_said_later_joins_the_turnaround(gazetteer: Gazetteer) -> None:
    turns = [
        "Aller-retour Sant Julià – Andorre-la-Vieille en VTC avec les enfants.",
        "Une journée, 25 km max au total.",
        "On pourrait s'arrêter à Aixovall au retour pour une glace ?",
    ]
    collected = last_reply(gazetteer, turns, locale="fr").collected
    assert collected.via == ["Andorra la Vella", "Aixovall"]


def test_a_stop_said_instead_replaces_the_stops(gazetteer: Gazetteer) -> None:
    turns = ["On part d'Erts pour rejoindre El Serrat en passant par Ordino", "oups, pas Ordino, par Llorts"]
    assert last_reply(gazetteer, turns, locale="fr").collected.via == ["Llorts"]
