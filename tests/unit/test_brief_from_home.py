"""Setting off from home makes where people live the start, as plainly as after "from" ("J'habite à
Taka-Töölö, je voudrais partir de chez moi", "I live in Pasila... start right from my front door",
"starting at home in Espoo"); said alone, where people live stays a start only if nothing else is."""

import datetime as dt

import pytest
from tripagent.adapters.rules.brief_reader.reading import read_turn

TODAY = dt.date(2027, 5, 3)


def _start(text: str) -> list[tuple[str, bool]]:
    return [(p.text, p.strong) for p in read_turn(text, today=TODAY).places.get("start", [])]


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("J'habite à Taka-Töölö, je voudrais partir de chez moi jusqu'à Ullanlinna", "taka toolo"),
        ("On habite à Foix et on veut partir de chez nous jusqu'à Canillo", "foix"),
        ("I live in Pasila so I'd start right from my front door and ride down to Kaartinkaupunki", "pasila"),
        ("Starting at home in Espoo, we'd ride to Kallio.", "espoo"),
        ("from our flat in Siltasaari down to Munkkisaari where his grandparents live", "siltasaari"),
    ],
)
def test_home_is_the_start(text: str, start: str) -> None:
    assert _start(text)[0] == (start, True)


def test_where_people_live_alone_is_a_loose_start() -> None:
    phrases = read_turn("I live in Pasila and want to ride to Kallio", today=TODAY).places["start"]
    assert [(p.text, p.loose) for p in phrases] == [("pasila", True)]


def test_the_start_said_as_it_would_be() -> None:
    assert _start("Le point de départ serait Toulouse, l'arrivée à Andorre-la-Vieille")[0][0] == "toulouse"
