"""The date of the journey there is not the ride's: "we fly into Barcelona on the 14th of June... starting
the 15th" starts on the 15th (of June), "je viens en ferry jeudi. Samedi, j'aimerais rouler" on Saturday;
a journey's date alone, or followed by "the next day", still dates the ride as before."""

import datetime as dt

import pytest
from tripagent.adapters.rules.brief_reader.reading import read_turn

TODAY = dt.date(2027, 5, 3)  # a Monday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        (
            "Flying into Barcelona on the 14th of June, then the bus up. A loop from Andorra la Vella,"
            " starting the 15th.",
            dt.date(2027, 6, 15),
        ),
        (
            "Je viens de Tallinn en ferry jeudi. Samedi, j'aimerais rouler de Kruununhaka à Kluuvi",
            dt.date(2027, 5, 8),
        ),
        ("we fly into Toulouse on the 20th of May. the ride itself starts on the 21st", dt.date(2027, 5, 21)),
        (
            "we fly into Barcelona on the 10th of June and start riding the next day, the 11th",
            dt.date(2027, 6, 11),
        ),
        ("On atterrit à Barcelone le 7 mai et on veut rouler le samedi 8.", dt.date(2027, 5, 8)),
        ("we fly into Barcelona on the 10th of June and start riding the next day", dt.date(2027, 6, 11)),
        ("We land in Barcelona on the 10th of June", dt.date(2027, 6, 10)),
    ],
)
def test_the_ride_starts_on_the_date_said_after_the_journey_there(text: str, day: dt.date) -> None:
    assert read_turn(text, today=TODAY).slots.startDate == day
