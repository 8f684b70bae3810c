"""Day-by-day plans, as people paste them: "Day 1: Ordino → Canillo / Day 2: Canillo → Soldeu", "J1 : A - B",
"1) A → B", "day 1 A to B, day 2 B to C", tables ("| 1 | Escaldes | Canillo |", rows separated by tabs).
The first place starts the trip, the last ends it (the trip is a loop when they are one), the others are
its stops in order, and the plan's days are the trip's."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from tripagent.adapters.rules.brief_reader.dates import SHORT_WEEKDAYS, WEEKDAYS
from tripagent.adapters.rules.brief_reader.patterns import lazy
from tripagent.domain.places import normalize

# "Day 1", "day1", "Jour 2", "J3", "D1", "1er jour", "2e jour", "3rd day": a day's mark, where a line or a
# sentence's piece begins
_DAY_MARK = lazy(
    r"(?:^|(?<=[\s,;.(]))(?:day|jour|dag|tag|d|j)\s?(\d{1,2})\b\s*[:.)\-–]?\s*"
    r"|(?:^|(?<=[\s,;.(]))(\d{1,2})(?:er|re|e|eme|ème|st|nd|rd|th)\s+(?:day|jour)\b\s*[:.)\-–]?\s*",
    re.IGNORECASE | re.MULTILINE,
)
# "1) A → B", "2. A - B", at the start of a line
_NUMBERED = lazy(r"^[ \t]*[-*•]?[ \t]*(\d{1,2})[ \t]*[.)][ \t]+", re.MULTILINE)  # (blanks, not newlines)
# "Tue 18 May – A → B", "sat: A → B", "[Tom] samedi : A - B": a line whose day is named, in the plan's order
_DATED_LINE = lazy(
    r"^[ \t]*(?:[-*•>][ \t]*)?(?:\[[^\]\n]{1,20}\][ \t]*)?"
    rf"(?:(?:{'|'.join(sorted([*WEEKDAYS, *SHORT_WEEKDAYS], key=len, reverse=True))})\b\.?"
    r"(?:[ \t]+\d{1,2}(?:st|nd|rd|th|er)?(?:[ \t]+[a-zéû]+\.?)?)?"
    r"|(?:le[ \t]+)?\d{1,2}(?:st|nd|rd|th|er)|\d{1,2}/\d{1,2})"  # "15th: A → B", "16/5 : B → C"
    r"[ \t]*[:–—-][ \t]*",
    re.IGNORECASE | re.MULTILINE,
)
# "Mon La Massana to Sant Julià, Tue Sant Julià to Encamp, Wed ...": days named inline, one a leg
_WEEKDAY_MARK = lazy(
    r"(?:^|(?<=[\s,;.(]))"
    rf"({'|'.join(sorted([*WEEKDAYS, *SHORT_WEEKDAYS], key=len, reverse=True))})\b\.?\s*[:\-–]?\s+",
    re.IGNORECASE,
)
_DAY_OF = {**WEEKDAYS, **SHORT_WEEKDAYS}
# Getting there by other means than the bike: a day or a night of it is none of the ride's ("we land on
# Friday, night at the hotel"; not "arrivée à La Massana le 3e jour", where the ride ends)
COMING_IN = lazy(
    r"\b(?:land\w*|fly\w*|flies|flights?|atterri\w*|trains?|bus|avion|planes?|airport|aeroport)\b",
    re.IGNORECASE,
)
# What leads from one place of a day to the next
_LEG = lazy(
    r"\s*(?:→|->|=>|⇒|➡️?|>|–|—|\s-\s|\|)\s*|\s+(?:to|à|a|then|puis|jusqu['’]à|towards|vers)\s+", re.IGNORECASE
)
# Words before a day's place that are not part of it: "back down to", "up to", "on to", "retour à"
_LEAD = lazy(
    r"^(?:(?:and|et|then|puis|back|down|up|on|ride|cycle|go|head|come|return|retour|from|de|d['’]|via|par"
    r"|finish(?:ing)?|end(?:ing)?|in|at|to|à|a|all the way)\b['’]?\s*)+",
    re.IGNORECASE,
)
_AFTER = lazy(r"\s*(?:[,;(].*|\s+(?:on day|le jour|on the|by|en|in|with|avec|for|pour)\s.*)$", re.IGNORECASE)
_UNDECIDED = lazy(r"\b(?:or|ou|either|soit|maybe|peut[- ]être)\b", re.IGNORECASE)


_TRAILING = lazy(r"\s+(?:on|le|au|the|the last|on the)$")


def _same(one: str, other: str) -> bool:
    """The same place said in full and shortened: "sant julia de loria" and "sant julia"."""
    return one == other or one.startswith(other + " ") or other.startswith(one + " ")


@dataclass(frozen=True)
class Itinerary:
    places: list[str]  # normalized, in the order ridden (a place each day ends in is said once)
    days: int
    end_undecided: bool = False  # "Day 2: Soldeu to either Pas de la Casa or back to Canillo"


def itinerary(text: str, is_name: Callable[[str], bool]) -> Itinerary | None:
    """The plan a turn lays out day by day, if it does: two days or more, each a leg between places
    (``is_name`` tells a place's name from other words)."""
    legs = _table_rows(text) or _day_pieces(text)
    if len(legs) < 2 or [day for day, _ in legs] != list(range(1, len(legs) + 1)):
        return None
    places: list[str] = []
    undecided = False
    for day, said in legs:
        piece = re.sub(r"\([^)]*\)?", " ", said)  # "(is there a ferry that takes bikes?)"
        parts = [p for p in _LEG.split(piece) if p and p.strip()]
        if len(parts) == 1 and parts[0].count("-") == 1:  # "Day 1 Encamp-Canillo": a leg, not one name
            parts = parts[0].split("-")
        for part in parts:
            if _UNDECIDED.search(part):  # "to either Pas de la Casa or back to Canillo": the day is open
                undecided = day == len(legs)
                break
            name = normalize(_AFTER.sub("", _LEAD.sub("", part.strip())))
            name = _TRAILING.sub("", name)
            named = name and 1 <= len(name.split()) <= 5 and not re.search(r"\d", name) and is_name(name)
            if named and places and _same(places[-1], name):  # "Sant Julià de Lòria", then "Sant Julià"
                places[-1] = max(places[-1], name, key=len)
            elif named:
                places.append(name)
    if len(places) < 2:
        return None
    return Itinerary(places, len(legs), undecided)


def _table_rows(text: str) -> list[tuple[int, str]]:
    """ "| 1 | Escaldes | Canillo |" or "1<tab>Kamppi<tab>Taka-Töölö": the day, then its places."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"\||\t", line) if c.strip()]
        if len(cells) >= 3 and cells[0].isdigit():
            rows.append((int(cells[0]), " → ".join(cells[1:])))
    return rows


def _line_after(text: str, mark: re.Match[str]) -> str:
    end = text.find("\n", mark.end())
    return text[mark.end() : end if end >= 0 else len(text)].strip(" ,;.")


def _day_pieces(text: str) -> list[tuple[int, str]]:
    marks = list(_DAY_MARK.finditer(text))
    if [_day_of(m) for m in marks] != list(
        range(1, len(marks) + 1)
    ):  # ("le soir du 1er jour", in a line of its own)
        marks = [m for m in marks if m.start() == 0 or text[: m.start()].endswith("\n")] or marks
    numbered = not marks
    if numbered:
        marks = list(_NUMBERED.finditer(text))
    if len(marks) < 2 and len(dated := list(_DATED_LINE.finditer(text))) >= 2:
        # days named, not numbered: each line a leg, in the order written
        return [
            (day, _line_after(text, m))
            for day, m in enumerate(dated, start=1)
            if _LEG.search(_line_after(text, m))
        ]
    if len(marks) < 2:
        return _weekday_pieces(text)
    pieces = []
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        end = following.start() if following else len(text)
        piece = text[mark.end() : end]
        # the last day's piece ends with its line or sentence; the others run to the next mark
        piece = re.split(r"\n|(?<=[a-zà-ÿ])\.\s", piece)[0].strip(" ,;.")
        if numbered and not _LEG.search(piece):  # "1. Start: La Massana": a list, but of no legs
            return []
        pieces.append((_day_of(mark), piece))
    return pieces


def _day_of(mark: re.Match[str]) -> int:
    """The day a mark numbers ("Day 2", "3rd day")."""
    return int(mark.group(1) or mark.group(2))


def _weekday_pieces(text: str) -> list[tuple[int, str]]:
    """Three days or more named inline one after the other, each followed by a leg ("Mon A to B, Tue B to
    C, Wed C to D"): each a day, in the order written."""
    marks = list(_WEEKDAY_MARK.finditer(text))
    days = [_DAY_OF[m.group(1).casefold()] for m in marks]
    if len(marks) < 3 or any((b - a) % 7 != 1 for a, b in itertools.pairwise(days)):
        return []
    pieces = []
    for day, (mark, following) in enumerate(zip(marks, [*marks[1:], None], strict=True), start=1):
        if COMING_IN.search(re.split(r"[.\n!?]", text[: mark.start()])[-1]):  # "we land on Friday..."
            return []
        piece = text[mark.end() : following.start() if following else len(text)]
        piece = re.split(r"\n|(?<=[a-zà-ÿ])\.\s", piece)[0].strip(" ,;.")
        if not _LEG.search(piece) or COMING_IN.search(piece):  # (a day of landing is no day ridden)
            return []
        pieces.append((day, piece))
    return pieces
