"""Briefs typed as club riders type them on a phone: short day names in lowercase, and a distance said
with no word of limit ("ordino loop sat 80k"), read where nothing around them says otherwise."""

import datetime as dt

import pytest
from tripagent.adapters.rules.brief_reader.reading import read_turn

TODAY = dt.date(2027, 5, 3)  # a Monday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("ordino loop sat 80k 1500m D+ road", dt.date(2027, 5, 8)),
        ("road wed", dt.date(2027, 5, 5)),
        ("1d 40k tops thurs", dt.date(2027, 5, 6)),
        ("sortie gravel dim", dt.date(2027, 5, 9)),
        ("2j route ven-sam", dt.date(2027, 5, 7)),
    ],
)
def test_a_short_day_name_typed_in_lowercase_is_the_day(text: str, day: dt.date) -> None:
    assert read_turn(text, today=TODAY).slots.startDate == day


@pytest.mark.parametrize(
    "text",
    [
        "From Encamp to Soldeu. We love riding in the sun.",
        "avec sam et moi, de Encamp à Soldeu",
        "we sat down and looked at the map",
        "un jeu de piste à Ordino",
        "on the fri: sam: not sure",
    ],
)
def test_a_short_day_name_that_is_a_noun_a_verb_or_a_name_is_no_date(text: str) -> None:
    assert read_turn(text, today=TODAY).slots.startDate is None


@pytest.mark.parametrize(
    ("text", "km"),
    [
        ("ordino loop sat 80k", 80),
        ("~90k", 90),
        ("gravel 1j 45km", 45),
        ("60k/d max", 60),
        ("sortie longue 120 bornes", 120),
        # a figure beside a word of limit or "a day", no unit; miles; a distance in words
        ("1 day road || max 30", 30),
        ("road || 60 max", 60),
        ("gravel, camping, 50 a day", 50),
        ("gravel bike, 50ish km a day max", 50),
        ("we think in miles - 40 miles a day max", 64),
        ("Ten kilometres at the very most, as I tire easily", 10),
    ],
)
def test_a_distance_said_alone_is_the_day_s_distance(text: str, km: float) -> None:
    assert read_turn(text, today=TODAY).slots.dailyDistanceKm == km


@pytest.mark.parametrize(
    ("text", "km", "days", "date"),
    [
        ("2 days, starting on May 13. Max 35 km a day.", 35, 2, dt.date(2027, 5, 13)),  # not "13 max"
        ("3-day MTB loop || tops 35 km a day", 35, 3, None),  # "a day" is the limit's, no count of days
        ("we think in miles, 3 days - 40 miles a day max", 64, 3, None),
    ],
)
def test_a_limit_takes_neither_the_date_nor_the_days(
    text: str, km: float, days: int, date: dt.date | None
) -> None:
    slots = read_turn(text, today=TODAY).slots
    assert (slots.dailyDistanceKm, slots.durationDays, slots.startDate) == (km, days, date)


@pytest.mark.parametrize(
    "text",
    [
        "our hotel is 10 km from Encamp",
        "un gîte à 5 km d'Ordino",
        "3 days - 100 km in all",
        "no limit on distance, it's like 10k lol",
        "we're a group of 12 max",  # people, not kilometres
        "on sera 12 max",
        "2 nights max",
        "max 4 people",
        "rooms at 80 a night",
        "hostels please, max 30€ a night",
    ],
)
def test_how_far_something_is_or_the_whole_trip_is_no_daily_distance(text: str) -> None:
    assert read_turn(text, today=TODAY).slots.dailyDistanceKm is None


@pytest.mark.parametrize(("text", "days"), [("sat-sun", 2), ("ven-sam", 2), ("samedi-dimanche", 2)])
def test_two_days_joined_by_a_dash_are_both_ridden(text: str, days: int) -> None:
    assert read_turn(text, today=TODAY).slots.durationDays == days


def test_a_day_corrected_to_the_next_is_no_range() -> None:
    read = read_turn("Sorry, not Saturday — Sunday the 9th", today=TODAY)
    assert read.slots.durationDays is None
    assert read.slots.startDate == dt.date(2027, 5, 9)


@pytest.mark.parametrize(
    "text", ["loops yeah", "boucles depuis AlV oui", "base la massana, loops from there"]
)
def test_loops_from_a_base_are_a_round_trip(text: str) -> None:
    assert read_turn(text, today=TODAY).slots.roundTrip


@pytest.mark.parametrize(
    "text",
    [
        "A/R Escaldes - Engolasters en VAE jeudi",
        "Return trip Kallio to Ullanlinna tomorrow on my ebike",
        "AlV → pas de la casa → back. tue am. road",
        "up to Linnanmäki and come straight back home after",
        "e-bike to Kaisaniemi and Kallio and be back at the hotel by evening",
    ],
)
def test_going_back_said_in_passing_is_a_round_trip(text: str) -> None:
    assert read_turn(text, today=TODAY).slots.roundTrip


@pytest.mark.parametrize(
    "text",
    [
        "the return trip home is by train",
        "Canillo → Soldeu → back to Toulouse by car",
        "from Encamp to Soldeu, we'll take the bus back to the hotel",
    ],
)
def test_a_way_back_not_ridden_is_no_round_trip(text: str) -> None:
    assert not read_turn(text, today=TODAY).slots.roundTrip


def test_a_word_after_a_short_name_is_no_part_of_it() -> None:
    read = read_turn("boucles depuis AlV oui", today=TODAY)
    assert [p.text for p in read.places["start"]] == ["andorra la vella"]


def test_a_short_name_after_a_capitalized_article_is_no_day() -> None:
    assert read_turn("The sun was out all day, from Encamp to Soldeu", today=TODAY).slots.startDate is None


@pytest.mark.parametrize(
    ("text", "day", "days"),
    [
        ("start 22/5 from canillo", dt.date(2027, 5, 22), None),
        ("day after tmrw, loop from kluuvi", dt.date(2027, 5, 5), None),
        # a range of weekdays anchored on a date said beside it; its days, not a weekend's two
        ("the long weekend, Saturday to Monday, starting Saturday the 15th", dt.date(2027, 5, 15), 3),
        # (Pentecost 2027 is Sunday 16 May: its weekend's Saturday, not the next Saturday)
        ("Pour le week-end de Pentecôte, du samedi au lundi", dt.date(2027, 5, 15), 3),
    ],
)
def test_dates_said_in_few_words(text: str, day: dt.date, days: int | None) -> None:
    slots = read_turn(text, today=TODAY).slots
    assert (slots.startDate, slots.durationDays) == (day, days)


def test_a_fraction_before_days_is_no_date() -> None:
    assert read_turn("ride 3/4 days from canillo", today=TODAY).slots.startDate is None
