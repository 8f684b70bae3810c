"""The holidays riders date a ride by: "le week-end de Pentecôte", "whit monday", "le pont de l'Ascension",
"juhannus", "the late May bank holiday weekend". Each names a day of the year it next comes in (a
weekend, its Saturday); the moveable feasts are counted from Easter."""

from __future__ import annotations

import datetime as dt

from dateutil.easter import easter  # (Gregorian Easter, the moveable feasts' anchor)
from tripagent.adapters.rules.brief_reader.patterns import lazy

_WEEKEND = r"(?:long )?week ?end"
# (normalized text: no accents, apostrophes as blanks)
HOLIDAY = lazy(
    # the Monday itself, unless its long weekend is meant ("the Whit Monday long weekend": its Saturday)
    rf"\b(?P<whit_monday>(?:lundi de (?:la )?pentecote|whit ?monday|pentecost monday)(?! {_WEEKEND}))"
    rf"|\b(?P<whitsun>(?:lundi de (?:la )?pentecote|whit ?monday) {_WEEKEND}|pentecote|pentecost|whitsun\w*"
    rf"|whit {_WEEKEND})\b"
    # (not the climb: "l'ascension du Port d'Envalira", "the ascension of the Coll d'Ordino", "une ascension")
    r"|(?<!\bune )(?<!\ban )(?<!\bthis )(?<!\bcette )(?<!\bbelle )\b(?P<ascension>ascension)\b"
    r"(?! (?:du|de|des|d|of|to|vers|jusqu\w*|up)\b)"
    r"|\b(?P<midsummer>juhannus\w*|midsummer)\b"
    # the UK's spring bank holiday, the last Monday of May: its weekend's Saturday
    r"|\b(?P<spring_bank>(?:late may|end of may|spring) bank holiday"
    r"|bank holiday (?:weekend )?(?:at )?(?:the )?end of (?:may|the month))\b"
)


def holiday_in(norm: str, today: dt.date) -> dt.date | None:
    """The day the first holiday named in a normalized turn next falls on (today or later)."""
    if not (said := HOLIDAY.search(norm)):
        return None
    kind = said.lastgroup or ""
    for year in (today.year, today.year + 1):
        day = _day_of(kind, year)
        if day >= today:
            return day
    return None


def _day_of(kind: str, year: int) -> dt.date:
    sunday = easter(year)
    if kind == "whit_monday":
        return sunday + dt.timedelta(days=50)
    if kind == "whitsun":  # the weekend's Saturday, the day before Pentecost
        return sunday + dt.timedelta(days=48)
    if kind == "ascension":  # a Thursday, the start of its "pont"
        return sunday + dt.timedelta(days=39)
    if kind == "midsummer":  # Finland's Midsummer Eve: the Friday between 19 and 25 June
        june_19 = dt.date(year, 6, 19)
        return june_19 + dt.timedelta(days=(4 - june_19.weekday()) % 7)
    last_monday = dt.date(year, 5, 31) - dt.timedelta(days=dt.date(year, 5, 31).weekday())
    return last_monday - dt.timedelta(days=2)
