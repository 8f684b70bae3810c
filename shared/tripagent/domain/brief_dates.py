"""Dates as riders write them: "12 June", "June 12th", "2027-06-12", "du 7 au 9 mai" (and its three
days), "tomorrow", "next Saturday", "samedi 8", "this coming weekend", "the 22nd", "le 22". A date
without a year is the next one to come."""

from __future__ import annotations

import datetime as dt
import re

MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "janvier": 1,
    "fevrier": 2,
    "mars": 3,
    "avril": 4,
    "mai": 5,
    "juin": 6,
    "juillet": 7,
    "aout": 8,
    "septembre": 9,
    "octobre": 10,
    "novembre": 11,
    "decembre": 12,
}
WEEKDAYS = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
    "lundi": 0, "mardi": 1, "mercredi": 2, "jeudi": 3, "vendredi": 4, "samedi": 5, "dimanche": 6,
}  # fmt: skip
_MONTH = "|".join(MONTHS)
DATE_ISO = re.compile(r"\b(\d{4})[- ](\d{2})[- ](\d{2})\b")  # normalized, "2027-05-15" is "2027 05 15"
DATE_DM = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th|er)? (?:of )?({_MONTH})(?: (\d{{4}}))?\b")
DATE_MD = re.compile(rf"\b({_MONTH}) (\d{{1,2}})(?:st|nd|rd|th)?(?: (\d{{4}}))?\b")
_WEEKDAY = "|".join(WEEKDAYS)
_ORD = r"(?:st|nd|rd|th|er|eme)?"
DATE_RANGE = re.compile(
    rf"\b(\d{{1,2}}){_ORD} (?:au |to |and |et |till |until |jusqu au )?(\d{{1,2}}){_ORD} (?:of )?({_MONTH})\b"
)
RELATIVE_DAYS = [
    (re.compile(r"\bday after tomorrow\b|\bapres demain\b"), 2),
    (re.compile(r"\btomorrow\b|\bdemain\b|\btmrw\b|\btmr\b|\b2morrow\b"), 1),
    (
        re.compile(
            r"\b(?:leav\w*|start\w*|set\w* off|going|ride|riding|depart\w*|part\w*|commenc\w*)\b(?: \w+){0,2}"
            r" (?:today|aujourd hui)\b|\b(?:today|aujourd hui)\b(?: \w+){0,2} (?:leave|start|set off|part\w*)"
        ),
        0,
    ),
]
NEXT_WEEKEND = re.compile(
    r"\b(?:this (?:coming )?|next |coming )week ?end\b|\bce week ?end\b|\bweek ?end prochain\b"
)
WEEKDAY_DAY = re.compile(rf"\b({_WEEKDAY}) (?:the )?(\d{{1,2}}){_ORD}\b(?! (?:km|days?|jours?|h)\b)")
WEEKDAY = re.compile(rf"\b({_WEEKDAY})\b")
MONTH_WORD = re.compile(rf"\b(?:{_MONTH})\b")
# "the 22nd", "le 22": a day of a month not named (the next such day)
DAY_ONLY = re.compile(
    r"\bthe (\d{1,2})(?:st|nd|rd|th)\b"
    r"|\ble (\d{1,2})(?:er)?\b(?! ?(?:km|kilo|jours?|h|heures?|m|personnes?)\b)"
)


# "from the 14th to the 16th", "du 14 au 16": a range within the month of its first day
DAY_RANGE = re.compile(
    r"\b(?:from )?the (\d{1,2})(?:st|nd|rd|th) (?:to|till|until|and) (?:the )?(\d{1,2})(?:st|nd|rd|th)\b"
    r"|\bdu (\d{1,2})(?:er)? au (\d{1,2})\b(?! ?(?:km|kilo|jours?|h|heures?|m|personnes?)\b)"
)


def dates_in(norm: str, today: dt.date) -> tuple[dt.date | None, int | None]:
    """The start date a turn names, and the days a range of dates spans ("du 7 au 9 mai": 3)."""
    if (m := DAY_RANGE.search(norm)) and not DATE_RANGE.search(norm):
        first, last = int(m.group(1) or m.group(3)), int(m.group(2) or m.group(4))
        start = _next_day_of_month(first, today)
        return start, (last - first + 1 if start and last >= first else None)
    if m := DATE_RANGE.search(norm):
        first, last = int(m.group(1)), int(m.group(2))
        start = _day_month(first, MONTHS[m.group(3)], None, today)
        if start and last >= first:
            return start, last - first + 1
        return start, None
    return _date(norm, today), None


def _day_month(day: int, month: int, year: str | None, today: dt.date) -> dt.date | None:
    try:
        candidate = dt.date(int(year) if year else today.year, month, day)
        if not year and candidate < today:
            candidate = candidate.replace(year=today.year + 1)  # 29 February may not come next year
    except ValueError:
        return None
    return candidate


def _next_day_of_month(day: int, today: dt.date) -> dt.date | None:
    for ahead in range(3):
        month, year = (today.month - 1 + ahead) % 12 + 1, today.year + (today.month - 1 + ahead) // 12
        try:
            candidate = dt.date(year, month, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    return None


def _next_weekday(weekday: int, today: dt.date) -> dt.date:
    """The next such day after today ("on Saturday", "next Saturday", "samedi prochain")."""
    return today + dt.timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def _date(norm: str, today: dt.date) -> dt.date | None:
    if m := DATE_ISO.search(norm):
        try:
            return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    if m := DATE_DM.search(norm):
        return _day_month(int(m.group(1)), MONTHS[m.group(2)], m.group(3), today)
    if m := DATE_MD.search(norm):
        return _day_month(int(m.group(2)), MONTHS[m.group(1)], m.group(3), today)
    for pattern, ahead in RELATIVE_DAYS:
        if pattern.search(norm):
            return today + dt.timedelta(days=ahead)
    if m := WEEKDAY_DAY.search(norm):
        return _next_day_of_month(int(m.group(2)), today)
    if NEXT_WEEKEND.search(norm):
        return _next_weekday(WEEKDAYS["saturday"], today)
    if m := WEEKDAY.search(norm):
        return _next_weekday(WEEKDAYS[m.group(1)], today)
    if m := DAY_ONLY.search(norm):
        return _next_day_of_month(int(m.group(1) or m.group(2)), today)
    return None
