"""The days from one day to another, however said: short names ("fri to sun"), a month's days ("May
20–23"), parts of the day ("de vendredi soir à dimanche midi"), from tomorrow, leaving one day and coming
back another ("départ samedi matin, retour dimanche soir")."""

import datetime as dt

import pytest
from tripagent.adapters.rules.brief_reader.reading import read_turn

TODAY = dt.date(2027, 5, 3)  # a Monday


@pytest.mark.parametrize(
    ("text", "locale", "days", "first"),
    [
        ("hey planning a ride from encamp fri to sun, gravel", "en", 3, dt.date(2027, 5, 7)),
        ("Dates: May 20–23. Start Pas de la Casa, finish Andorra la Vella.", "en", 4, dt.date(2027, 5, 20)),
        ("de vendredi soir à dimanche midi, départ Escaldes, arrivée Ordino", "fr", 3, dt.date(2027, 5, 7)),
        ("from tomorrow until saturday, mtb, starting in canillo", "en", 5, dt.date(2027, 5, 4)),
        (
            "Leaving Friday after work, back home Sunday evening. Home is Andorra la Vella",
            "en",
            3,
            dt.date(2027, 5, 7),
        ),
        (
            "J'habite à Sispony. Départ samedi matin, retour à la maison dimanche soir.",
            "fr",
            2,
            dt.date(2027, 5, 8),
        ),
        ("je pars demain de Sant Julià et je rentre à Sant Julià dimanche", "fr", 6, dt.date(2027, 5, 4)),
        ("Family trip with our 3 teens. starting the 24th, ending the 28th", "en", 5, dt.date(2027, 5, 24)),
        ("the kids pushed for a shorter trip, so 24th to 26th then", "en", 3, dt.date(2027, 5, 24)),
        ("départ le 10, retour le 12", "fr", 3, dt.date(2027, 5, 10)),
        ("how about 2027-05-15 to 2027-05-18", "en", 4, dt.date(2027, 5, 15)),
        ("ah et le pont c'est du jeudi 6 au dimanche 9", "fr", 4, dt.date(2027, 5, 6)),
        ("a tour over the long weekend? Sat 29 to Mon 31", "en", 3, dt.date(2027, 5, 29)),
        ("on arrive jeudi soir, on roule vendredi samedi dimanche", "fr", 3, dt.date(2027, 5, 7)),
        (
            "we set off on the bikes straight after work on friday, back home monday night",
            "en",
            4,
            dt.date(2027, 5, 7),
        ),
    ],
)
def test_the_days_from_one_day_to_another(text: str, locale: str, days: int, first: dt.date) -> None:
    """From one day to another, however said: short names, a month's days, parts of the day, leaving and
    coming back (today is Monday 3 May 2027)."""
    slots = read_turn(text, today=TODAY, default_locale=locale).slots
    assert (slots.durationDays, slots.startDate) == (days, first)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("start june 5, 2 days", 2),
        ("may 3 40 km a day", None),
        ("leaving friday, back to the car by 5", None),
        ("we leave on may 3, 10 of us", None),
    ],
)
def test_a_day_beside_a_count_is_no_range(text: str, days: int | None) -> None:
    """(A guard: a day of the month beside a count of days or kilometres spans nothing.)"""
    assert read_turn(text, today=TODAY).slots.durationDays == days
