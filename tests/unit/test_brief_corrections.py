"""A place taken back for another said beside it ("Ah no, not Prats. Meritxell.", "sorry, Etu-Töölö, not
Taka"), or a start said again right after a correction ("On part de Prats, euh non, de Ransol"), is the one
meant; "plutôt que d'Ordino", "not sure" take nothing back."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


def _places(text: str) -> dict[str, list[str]]:
    return {slot: [p.text for p in ps] for slot, ps in read_turn(text, today=TODAY).places.items()}


@pytest.mark.parametrize(
    ("text", "was", "now"),
    [
        ("Ah no, not Prats. Meritxell. I want to see the sanctuary first.", "prats", "meritxell"),
        ("oups pas alppiharju, alppila", "alppiharju", "alppila"),
        ("sorry, etu-töölö, not taka", "taka", "etu toolo"),
        (
            "Oh sorry, not Andorra la Vella, Santa Coloma, that's where our hotel is",
            "andorra la vella",
            "santa coloma",
        ),
        # "de" inside a name after a capital is part of it; "sorry" is no name
        ("sorry, not Encamp, Pas de la Casa", "encamp", "pas de la casa"),
        ("oups pas Canillo, Sant Julià de Lòria", "canillo", "sant julia de loria"),
    ],
)
def test_a_place_said_for_another(text: str, was: str, now: str) -> None:
    places = _places(text)
    assert (places["was"], places["now"]) == ([was], [now])


@pytest.mark.parametrize(
    "text",
    [
        "Ordino, not sure",
        "Start in Ordino, not Canillo",
        "from Ordino, not too far",
        "départ de Ordino, pas Encamp",
    ],
)
def test_no_place_taken_back(text: str) -> None:
    places = _places(text)
    assert "was" not in places
    assert "ordino" in [*places.get("start", []), *places.get("bare", [])]


def test_an_interjection_is_not_the_place_meant() -> None:
    assert "now" not in _places("sorry, not Encamp")


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("On part de Prats, euh non, de Ransol finalement, et on finit à Encamp", ["ransol"]),
        ("Départ de Canillo... ah non, en fait on part de Prats. Arrivée à Meritxell", ["prats"]),
        ("en fait, on partira de La Massana plutôt que d'Ordino", ["la massana", "ordino"]),
    ],
)
def test_a_start_said_again_after_a_correction(text: str, start: list[str]) -> None:
    assert _places(text)["start"] == start


@pytest.mark.parametrize(
    ("turns", "start"),
    [
        (["Trip from Prats to Grau Roig, 2 days.", "Ah no, not Prats. Meritxell."], "Meritxell"),
        (["start taka-töölö, end siltasaari, 1 day", "sorry, etu-töölö, not taka"], "Etu-Töölö"),
    ],
)
def test_the_start_taken_back_is_replaced(gazetteer: Gazetteer, turns: list[str], start: str) -> None:
    assert last_reply(gazetteer, turns).collected.start == start
