"""A count of days still open stays open: "2 or 3 days" then "saturday" is no one-day ride, "maybe 2 days,
let me check with my wife" takes back the 3 said before, "3 jours... ou 4, on verra" and "on hésite entre 1
nuit ou 2" say no count; "a mountain hut for a night or two" is about the beds, not the days."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["2 or 3 days from canillo to arinsal", "saturday", "mtb"], "en"),
        (
            [
                "3 days from Arinsal to Canillo, hotels, road bikes",
                "hmm actually maybe 2 days, let me check with my wife",
            ],
            "en",
        ),
        (["départ Encamp, arrivée Andorre-la-Vieille", "3 jours... ou 4, on verra"], "fr"),
        (["départ kamppi, arrivée kallio, auberge de jeunesse", "on hésite entre 1 nuit ou 2"], "fr"),
        (["between 3 and 5 days, we'll see how the legs feel", "loop from Kallio"], "en"),
        (["this time 4 or 5, not sure yet", "Ordino to Canillo, via Arinsal and La Massana"], "en"),
        (["not sure about dates, probably 3 or 4 nights", "loop from Andorra la Vella"], "en"),
        (["on hésite entre 2 jours et un long week-end", "départ Ullanlinna, arrivée Alppila"], "fr"),
        (
            [
                "Good afternoon. I intend to cycle in Helsinki from Kamppi to Kallio.",
                "I shall let you know how many days once I have spoken with my daughter.",
            ],
            "en",
        ),
    ],
)
def test_a_count_left_open_is_no_count(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    reply = last_reply(gazetteer, turns, locale=locale)
    assert reply.collected.durationDays is None
    assert not reply.readyToGenerate


def test_a_night_or_two_in_a_hut_is_no_count_left_open() -> None:
    text = "seven days cycling; hotels, though we are not averse to a mountain hut for a night or two"
    reading = read_turn(text, today=TODAY)
    assert reading.slots.durationDays == 7
    assert not reading.days_undecided
