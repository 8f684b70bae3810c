"""The offline reader's reading of one user turn: the slots it says, and its place phrases.

Slot reading is deterministic and bilingual (English, French): the words of durations, bikes, loops,
lodgings and distances (``brief_words``), dates (``brief_dates``) and place phrases (``brief_places``,
resolved by a geocoder elsewhere), read one user turn at a time.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from dataclasses import dataclass, field

from pydantic import ValidationError
from tripagent.adapters.rules.brief_reader import vocabulary
from tripagent.adapters.rules.brief_reader.dates import (
    FROM_TODAY,
    NTH_DAY_OF_MONTH,
    SHORT_WEEKDAY_DAY,
    SHORT_WEEKDAYS,
    WEEKDAY_WEEK_ON,
    WEEKDAYS,
    dates_in,
    short_days,
    spelled_dates,
    talked_later,
)
from tripagent.adapters.rules.brief_reader.patterns import lazy, one_of
from tripagent.adapters.rules.brief_reader.place_words import VERBS, says_a_slot
from tripagent.adapters.rules.brief_reader.places import PlacePhrase, day_plan, place_phrases
from tripagent.adapters.rules.brief_reader.words import (
    ACCOMMODATION,
    ANY_ACCOMMODATION,
    ANY_BIKE,
    BASE_STAY,
    CHANGED_LODGING,
    CHOICE_BETWEEN,
    CLIMB,
    CLIMB_PER_DAY,
    DAILY,
    DAILY_AGAIN,
    DAILY_MILES,
    DAYS_UNKNOWN,
    DISAGREEING,
    DISTANCE_SAID,
    END_UNKNOWN,
    END_WORD,
    FINISHING,
    FROM_NOW,
    FURTHER_OR_ELSEWHERE,
    HESITATING,
    KM_A_MILE,
    LAUNCH,
    LOOP_OR_NOT,
    MIXED_LODGING,
    NO_LIMIT,
    NOT_THE_DAYS,
    ONE_RIDE,
    ONE_WAY,
    OUT_AND_BACK,
    OVERNIGHT,
    PROFILE_WORDS,
    REVERSED,
    RIVAL_WISH,
    ROAD_ALONE,
    ROAD_IN_A_LIST,
    ROUND_TRIP,
    SAME_AS_THE_START,
    SETTING_OFF_ON,
    SOFT_LOOP,
    START_UNKNOWN,
    START_UNKNOWN_RAW,
    START_WORD,
    THE_HOTEL,
    UNDECIDED,
    VIA_WORD,
    WITHIN_A_DAY,
    Locale,
    Profile,
    amount,
    days_changed,
    detect_locale,
    duration_in,
    nights_on_the_way,
    numbered_days,
    story_days,
)
from tripagent.domain.brief import Collected
from tripagent.domain.places import normalize


@dataclass(frozen=True)
class DaysHint:
    """What says a brief fits in a day when its days are unsaid, gathered over its turns."""

    within_a_day: bool = False  # "just the afternoon", "tomorrow morning", "une petite heure", "today"
    one_ride: bool = False  # "une sortie dimanche", "a ride tomorrow": one day if dated and no lodging
    overnight: bool = False  # a night said: no day trip
    story: int | None = None  # "sleep there, and next morning climb to Arinsal": the days a story spans
    lodging: bool = False  # a lodging said other than where people stay ("hotels", not "our B&B in Llorts")

    def __or__(self, other: DaysHint) -> DaysHint:
        return DaysHint(
            self.within_a_day or other.within_a_day,
            self.one_ride or other.one_ride,
            self.overnight or other.overnight,
            max(self.story or 0, other.story or 0) or None,
            self.lodging or other.lodging,
        )

    def days(self, collected: Collected) -> int | None:
        """The days of a brief that says none: those its story spans, or one if it fits in a day (never
        over a night said)."""
        if collected.durationDays is not None:
            return collected.durationDays
        if self.story:
            return self.story
        if self.overnight:
            return None
        if self.within_a_day or (self.one_ride and collected.startDate and not self.lodging):
            return 1
        return None


@dataclass(frozen=True)
class Reading:
    """What one user turn says, before places are resolved."""

    slots: Collected
    places: dict[str, list[PlacePhrase]] = field(default_factory=dict)  # slot → phrases, in text order
    launch: bool = False
    locale: Locale = "en"
    out_and_back: bool = False  # the turn's end is where a loop from its start turns back
    one_way: bool = False  # "instead of coming back": the trip is no loop after all
    reversed: bool = False  # "the other way round": the start and the end swap
    start_unknown: bool = False  # "not sure yet where to start"
    end_unknown: bool = False  # "à El Serrat ou peut-être à Llorts, je sais pas encore"
    days_unknown: bool = False  # "let's leave the number of days open"
    days_hint: DaysHint = field(default_factory=DaysHint)  # "just the afternoon": one day
    distance_again: float | None = None  # "say 45 actually": the daily distance, if one was said before
    days_change: int = 0  # "add a day", "on enlève un jour": the days said before, so many more or fewer
    finish_said: bool = False  # a word of finishing ("finish in", "arrivée"), not a mere "to"
    hotel_as_base: bool = False  # the lodging said is only the hotel people stay at ("our hotel in Kamppi")
    days_undecided: bool = False  # "2 or 3 days, not sure": no count yet (one chosen later settles it)
    profile_open: bool = False  # "peu importe le vélo": no kind of bike, whatever was said before

    def merged_into(self, collected: Collected) -> Collected:
        """The brief so far with this turn's slots over it (a limit said again without its unit, "en fait
        max 30", replaces the distance said before)."""
        merged = collected.merged(self.slots)
        if self.profile_open:
            merged.profile = None
        if self.distance_again and collected.dailyDistanceKm and not self.slots.dailyDistanceKm:
            merged.dailyDistanceKm = self.distance_again
        if self.days_change and collected.durationDays and not self.slots.durationDays:
            merged.durationDays = max(1, collected.durationDays + self.days_change)
        return merged


def turned_back(start: str | None, end: str | None, via: list[str]) -> tuple[str | None, list[str]]:
    """The end and via points of "A to B and back": B becomes the last via point and A the end."""
    if start and end and end != start:
        return start, [*via, end]
    return end, via


# "from Encamp, or maybe Canillo", "to El Serrat or Llorts", "départ d'Arinsal ou de La Massana": two
# places for one end, neither chosen (unless what follows "or" is no place: "to Ordino, hotels or camping")
_START_OR = lazy(
    r"\b(?:from|depuis|start(?:ing)? (?:in|at|from)|depart (?:de|d|du)|(?:partir|pars|part|partons|partira\w*"
    r"|partiron\w*) (?:de|d|du))"
    r" (?P<said>(?!\d)[a-z]\w*(?: (?!\d)[a-z]\w*){0,3} (?:or|ou)(?: maybe| perhaps| peut etre| bien| else)?"
    r"(?: from| de| d| du| depuis)? (?P<other>(?!\d)[a-z]\w*(?: (?!\d)[a-z]\w*){0,3}))"
)
_END_OR = lazy(
    r"\b(?:to|towards|end(?:ing)? (?:up )?(?:in|at)|finish(?:ing)? (?:in|at)|vers|jusqu a"
    r"|arrivee(?: a| vers)?|end(?: point)?|finish|aller soit (?:a|au|vers|jusqu a)"  # soit à A soit à B
    # "je finis à Encamp ou Escaldes", "on termine à Ordino ou à Llorts"
    r"|(?P<verb>(?:fini[rst]?|finissons|finirai\w*|finiron\w*|termine\w*|arriver)(?: soit)?"
    r" (?:a|au|aux|vers|dans)))"
    # (not "arrivée à Soldeu, départ soit d'Encamp soit de Canillo": two starts, one end)
    r"(?: either)? (?P<said>(?!\d)[a-z]\w*(?: (?!\d|depart\b|start\w*\b|from\b|depuis\b)[a-z]\w*){0,3}"
    r" (?:or|ou|soit)"
    r"(?: maybe| perhaps| peut etre| bien| else)?"
    r"(?: to| in| at| a| vers)? (?P<other>(?!\d)[a-z]\w*(?: (?!\d)[a-z]\w*){0,3}))"
)


_FINISHED_ELSEWHERE = lazy(
    r"\b(?:back|retour|revenir|redescend\w*|remont\w*)\b.{0,30}\b(?:and|et|then|puis)"
    r" (?:finish|end|finir|terminer)\w* (?:in|at|a|vers)\b"
)


_NOT_IN_A_NAME = {
    "with",
    "avec",
    "my",
    "our",
    "mon",
    "ma",
    "mes",
    "nos",
    "the",
    "for",
    "pour",
    "by",
    "par",
    "a",
}


_FIRST_OF_TWO = lazy(r" (?:or|ou|soit)\b")


def _named(two: re.Match[str]) -> str:
    """The words of a "two for one" that name places: after its verb ("je finis à"), else after its first
    word ("jusqu'à la gare, soit..." keeps its "à": no two ends)."""
    if two.groupdict().get("verb"):  # (the two names, without the "à" of "ou à Arinsal")
        return f"{_FIRST_OF_TWO.split(two.group('said'))[0]} {two.group('other')}"
    said = two.group(0).replace("soit a ", "soit ").replace(" ou a ", " ou ")
    return re.sub(r"^arrivee a ", "arrivee ", said).split(" ", 1)[1]  # ("arrivée à A ou à B": two ends)


def _two_for_one(pattern: re.Pattern[str], norm: str) -> bool:
    """Whether the turn names two places for one end, joined by "or", neither chosen (not "from Ordino
    with my wife or my brother", nor "to eat or drink")."""
    return any(
        not says_a_slot(m.group("other"))
        and not _NOT_IN_A_NAME & set(_named(m).split())
        and m.group(0).split()[-len(m.group("other").split()) - 2] not in VERBS
        and m.group("other").split()[0] not in VERBS
        and (m.group("other").split()[0] not in _NOT_AFTER_OR or m.group("other").startswith(_FULL_NAMES))
        and not {"si", "if", "unless", "sauf"}
        & set(m.group("other").split())  # "or Llorts if we're tired": a fallback
        for m in pattern.finditer(norm)
    )


# "ordino... ou llorts": a place then "or" and a word that may be another (not "or not", "or so", "or if")
_OR_ANOTHER = lazy(
    r"\W*(?:or|ou|sinon) (?:maybe |perhaps |peut etre )?(?:(?:to|in|at|a|au|de|d|du|vers) )?([a-z]\w+)"
)
# a place's name in full, after its short name was read ("or to Pas": "pas de la casa")
_FULL_NAMES = tuple(vocabulary.aliases()["short_names"].values())
# How hard the rider wants it, in the words of the vocabulary's "pace" section
PACES: dict[str, str] = vocabulary.table("pace")
PACE = lazy(rf"\b({one_of(map(re.escape, PACES))})\b")
_NOT_AFTER_OR = {
    "not",
    "no",
    "pas",
    "two",
    "three",
    "deux",
    "trois",
    "so",
    "something",
    "anywhere",
    "whatever",
    "n",
    "if",
    "si",
    "unless",
    "sauf",
    "even",
    "meme",
    "less",
    "moins",
    "more",
    "plus",
}


def read_turn(
    text: str,
    *,
    today: dt.date,
    default_locale: Locale = "en",
    known_date: dt.date | None = None,
    capitalizes: bool = False,
) -> Reading:
    """What one turn says; ``known_date`` is the start date said before (a day alone is of its month),
    ``capitalizes`` whether the writer's other turns write names with capitals."""
    # "I'll decide tomorrow", "on en discute ce soir": when they talk again, not when they ride
    norm = talked_later(normalize(spelled_dates(short_days(text))))
    with_where = normalize(re.sub(r"(?i)\boù\b", " where ", text))  # "où" is no "ou" (or) once normalized
    values: dict[str, object] = {}
    # "40 km a day" is a distance, not a duration; "800 m of climbing a day" a climb
    without_daily = CLIMB_PER_DAY.sub(" ", DAILY_MILES.sub(" ", DAILY.sub(" ", norm)))
    duration, days_change = _days_said(without_daily)
    if duration:
        values["durationDays"] = duration
    if profile := _profile(norm, text):
        values["profile"] = profile
    places = place_phrases(text, capitalizes=capitalizes, locale=default_locale)
    # "drop into La Seu for lunch, then back up and finish in Canillo": back, but to end elsewhere
    one_way = bool(ONE_WAY.search(norm) or _FINISHED_ELSEWHERE.search(norm))
    if not one_way and (
        ROUND_TRIP.search(REVERSED.sub(" ", norm))  # (not "swap start and end")
        or SAME_AS_THE_START.search(norm)
        or OUT_AND_BACK.search(norm)
        or (SOFT_LOOP.search(norm) and "end" not in places)
    ):
        values["roundTrip"] = True
    if lodging := _accommodation(norm):
        values["accommodation"] = lodging
    if pace := PACE.search(norm):  # "a relaxed weekend", "tranquille"
        values["pace"] = PACES[pace.group(1)]
    if climb := CLIMB.search(norm.replace("+", " +").replace("  ", " ")):
        values["dailyClimbM"] = float(climb.group(1) or climb.group(2))
    if daily := _daily_distance(norm, without_daily):
        values["dailyDistanceKm"] = daily
    if days_unknown := bool(DAYS_UNKNOWN.search(norm)):  # "a week off? leave the number of days open"
        values.pop("durationDays", None)
    start_date, spanned = dates_in(without_daily, today, known_date)
    if start_date:
        values["startDate"] = start_date
    if spanned and _range_says_the_days(spanned, values.get("durationDays"), without_daily):
        values["durationDays"] = spanned
    if plan := day_plan(text):  # "Day 1: ... Day 3: ...": three days, a loop if it ends where it starts
        values.setdefault("durationDays", plan.days)
        if plan.places[0] == plan.places[-1]:
            values["roundTrip"] = True
    left_open = _choices_left_open(with_where, places)  # ("où on loge" is no "or")
    return Reading(
        slots=Collected.model_validate(_within_bounds(values)),
        places=places,
        launch=bool(LAUNCH.match(norm)),
        locale=detect_locale(text, default_locale),
        out_and_back=bool(OUT_AND_BACK.search(norm)) and not one_way,
        one_way=one_way,
        reversed=bool(REVERSED.search(norm)),
        start_unknown=bool(
            START_UNKNOWN.search(norm)
            or START_UNKNOWN_RAW.search(text.casefold())
            or _two_for_one(_START_OR, with_where)
            or "start" in left_open
        ),
        end_unknown=bool(END_UNKNOWN.search(norm)) or _two_for_one(_END_OR, with_where) or "end" in left_open,
        days_unknown=days_unknown,
        days_hint=DaysHint(
            bool(WITHIN_A_DAY.search(norm)),
            bool(ONE_RIDE.search(norm) or SHORT_WEEKDAY_DAY.search(norm)),
            # (where people stay, "the hotel", is no night away)
            bool(OVERNIGHT.search(away := THE_HOTEL.sub(" ", BASE_STAY.sub(" ", norm)))),
            max(story_days(text) or 0, numbered_days(text) or 0, nights_on_the_way(text) or 0) or None,
            bool(_accommodation(away)),
        ),
        distance_again=_distance_again(norm),
        days_change=days_change,
        finish_said=bool(FINISHING.search(norm)),
        hotel_as_base=values.get("accommodation") == "hotel" and not _accommodation(THE_HOTEL.sub(" ", norm)),
        days_undecided=bool(UNDECIDED.search(without_daily)),
        profile_open=_profile_left_open(norm, profile),
    )


def _days_said(without_daily: str) -> tuple[int | None, int]:
    """The days a turn says, and the days it adds to or takes off those said before ("on rajoute un
    jour": +1; within the turn, "on voulait 6 jours mais on enlève un jour" is 5)."""
    days_change, counted = days_changed(without_daily)  # (their "un jour" is no count of one day)
    # "the first weekend of June" is when, not how long
    # ("in a fortnight", "a week on Saturday": when, not how long)
    when = FROM_TODAY.sub(" ", WEEKDAY_WEEK_ON.sub(" ", NTH_DAY_OF_MONTH.sub(" ", counted)))
    duration = duration_in(FROM_NOW.sub(" ", when))
    if duration and days_change:
        duration, days_change = max(1, duration + days_change), 0
    nth = NTH_DAY_OF_MONTH.search(without_daily)
    if nth and nth.group(2).startswith("week") and not SETTING_OFF_ON.search(without_daily[: nth.start()]):
        duration = duration or 2  # ...though, no other length said, a weekend's two days (not "start on")
    return duration, days_change


_WEEKEND = lazy(r"\bweek ?ends?\b|\bpont\b")  # (a long weekend, "le pont": its days are the range's)


def _range_says_the_days(spanned: int, said: object, norm: str) -> bool:
    """Whether the days a range of dates spans are the trip's: no count said otherwise ("du 7 au 9 mai":
    three; not "here from the 10th to the 13th, one or two days of riding"), or only a weekend's ("le
    week-end de Pentecôte, du samedi au lundi": three)."""
    if said is None:
        return not UNDECIDED.search(norm)
    return isinstance(said, int) and spanned > said and bool(_WEEKEND.search(norm))


_NO_PLACE = lazy(r"\d|\b(?:days?|jours?|one|two|un|deux)\b")


def _choices_left_open(norm: str, places: dict[str, list[PlacePhrase]]) -> set[str]:
    """Which ends a turn leaves open ("start", "end"; "maybe further" opens the end said before again):
    between alternatives beside a word of indecision ("arrivée ordino... ou llorts, a voir",
    "either come back to canillo or end in la massana, idk yet"), or between the places a group has not
    agreed on ("Mum wants to end in Ordino, Dad says Canillo")."""
    hesitating, disagreeing = HESITATING.search(norm), DISAGREEING.search(norm)
    if not (hesitating or disagreeing):
        return set()
    found = sorted(
        (at, at + len(p.text), p.text)
        for phrases in places.values()
        for p in phrases
        if not HESITATING.search(p.text) and not _NO_PLACE.search(p.text) and (at := norm.find(p.text)) >= 0
    )
    left_open = set()
    # "maybe further": the end said before is open again (not "départ ? ... ou ailleurs", of the start)
    elsewhere = FURTHER_OR_ELSEWHERE.search(norm) and not START_WORD.search(norm)
    if hesitating and (LOOP_OR_NOT.search(norm) or elsewhere):
        left_open.add("end")
    elif hesitating and (first := _first_alternative(norm, found)) is not None:
        left_open.add("start" if _said_for(norm, first) == "start" else "end")
    elif (
        hesitating
        and (other := _OR_FIRST.match(norm))
        and _may_be_a_place(other[1])
        and not _WHEN.match(other[1])
    ):
        left_open.add("end")  # "or Arinsal... ugh let me think about it": the end said before, or another
    if disagreeing and _AGREED.search(norm, disagreeing.end()):  # "...ok let's say Soldeu, she'll forgive me"
        disagreeing = None
    if disagreeing:  # the places said from where the group disagrees on
        said: dict[str, set[str]] = {}
        wished_otherwise: set[str] = set()  # "...wants to start in Soldeu, my mum wants Canillo"
        for at, end, text in (place for place in found if place[0] >= disagreeing.start()):
            slot = _said_for(norm, at) or ""
            said.setdefault(slot, set()).add(text)
            if RIVAL_WISH.match(norm, end):
                wished_otherwise.add(slot)
        left_open |= {
            slot for slot in ("start", "end") if len(said.get(slot, ())) > 1 or slot in wished_otherwise
        }
    return left_open


_AGREED = lazy(
    r"\b(?:let s say|lets say|let s go (?:with|for)|we ll go (?:with|for)|we agreed|we decided|on dit|va pour"
    r"|on a decide|on s est mis d accord|disons|finalement|donc)\b"
)
_WHEN = lazy(r"(?:fin|debut|mi|end|start|early|late|mid|next|this|le|the|\d+)$")  # "ou fin mai"
_OR_FIRST = lazy(r"^\W*(?:\w+ )?(?:or|ou|sinon) (?:maybe |peut etre |perhaps )?([a-z]\w*)")


def _first_alternative(norm: str, found: list[tuple[int, int, str]]) -> int | None:
    """Where the first of two places joined by "or" is ("Ordino... ou Llorts", "El Serrat? or Llorts")."""
    for (at, end, _), (then, _, _) in itertools.pairwise(found):
        if CHOICE_BETWEEN.search(norm[end:then]):
            return at
    for at, end, _ in found:
        if (other := _OR_ANOTHER.match(norm, end)) and _may_be_a_place(other[1]):
            return at
    return None


def _said_for(norm: str, at: int) -> str | None:
    """What the nearest word of starting, ending or passing before a place says it is."""
    nearest = {
        slot: max((m.end() for m in pattern.finditer(norm, 0, at)), default=-1)
        for slot, pattern in (("start", START_WORD), ("end", END_WORD), ("via", VIA_WORD))
    }
    slot = max(nearest, key=lambda s: nearest[s])
    return slot if nearest[slot] >= 0 else None


def _may_be_a_place(word: str) -> bool:
    """Whether the word after an "or" may begin a place: not a weekday ("tmrw or wed"), a lodging or a bike
    ("refuge ou camping selon dispo")."""
    return (
        word not in _NOT_AFTER_OR
        and word not in VERBS
        and word not in WEEKDAYS
        and word not in SHORT_WEEKDAYS
        and not _accommodation(word)
        and not any(p.search(word) for _, p in PROFILE_WORDS)
    )


def _daily_distance(norm: str, without_daily: str) -> float | None:
    """ "40 km a day", "max 60 km"; or a distance said with no word of limit ("ordino loop 80k")."""
    if daily := DAILY.search(norm):
        return float(amount(next(figure for figure in daily.groups() if figure)))
    if miles := DAILY_MILES.search(norm):
        return float(round(int(miles.group(1)) * KM_A_MILE))
    for said in DISTANCE_SAID.finditer(without_daily):
        if not NO_LIMIT.search(norm) and not NOT_THE_DAYS.search(without_daily, 0, said.start()):
            return float(amount(said.group(1)))
    return None


def _distance_again(norm: str) -> float | None:
    """ "say 45 actually", "en fait max 30": a daily distance said again without its unit."""
    again = DAILY_AGAIN.search(norm)
    figure = int(next(group for group in again.groups() if group)) if again else 0
    return float(figure) if 10 <= figure <= 400 else None


def _within_bounds(values: dict[str, object]) -> dict[str, object]:
    """What Collected refuses ("61 jours", "9000 m of climbing": beyond its bounds) is no reading, not an
    error: each value is kept only if Collected, the one place its bounds are said, accepts it."""
    kept = {}
    for key, value in values.items():
        try:
            Collected.model_validate({key: value})
        except ValidationError:
            continue
        kept[key] = value
    return kept


def _profile(norm: str, text: str) -> Profile | None:
    """The kind of bike said last ("road bike... actually gravel"), not one taken back ("VTC, pas VTT",
    "the gravel one is in the shop"); of two said together, the first says what kind ("gravel
    bikepacking") unless one is electric ("VTT électrique", "electric mountain bikes")."""
    said = _bikes_said(norm)
    if not said:
        if ROAD_ALONE.search(norm) or ROAD_IN_A_LIST.search(text.casefold()):  # "ALV -> SJL, 1 jour, route"
            return "road"
        return None
    start, _, last = said[-1]
    together = [profile for _, end, profile in said[:-1] if start - end <= 3]
    if last == "e-bike" or "e-bike" in together:
        return "e-bike"
    return together[-1] if together else last


def _bikes_said(norm: str) -> list[tuple[int, int, Profile]]:
    """Each kind of bike the turn names and does not take back, in the order of the text."""
    return sorted(
        (m.start(), m.end(), profile)
        for profile, pattern in PROFILE_WORDS
        for m in pattern.finditer(norm)
        if not _NOT_THIS_BIKE.search(norm[: m.start()]) and not _UNAVAILABLE.match(norm, m.end())
    )


# "VTC, pas VTT", "out of e-bikes", "not on the road bike" (a bare "no" is mostly "no, road bike")
_NOT_THIS_BIKE = lazy(
    r"\b(?:not|(?<!au )(?<!le )(?<!du )(?<!de )pas|out of|instead of|plutot que|rather than|sans|without"
    r"|no more|plus de|sold|vendu)\s+"
    r"(?:(?:a|an|the|my|un|une|de|des|en|le|la|les|mon|ses|normal)\s+)?$"
)
# "the gravel one is in the shop", "mon VTT est en panne": that bike is not the one
_UNAVAILABLE = lazy(
    r"\w*(?: \w+){0,2} (?:is|are|est|sont) (?:in the shop|broken|being repaired|en panne|en reparation|casse)"
)


def _profile_left_open(norm: str, profile: Profile | None) -> bool:
    """ "No preference for the bike", or a kind said then taken back ("I was going to say road bike but no
    preference, whatever the rental shop has")."""
    if not (anything := ANY_BIKE.search(norm)):
        return False
    said = _bikes_said(norm)
    return profile is None or not said or anything.end() > said[-1][0]


def _accommodation(norm: str) -> str | None:
    """The kind of lodging said ("hotels, no camping": hotels); two kinds said together are a mix (any),
    one after the other a change of mind (the last)."""
    said = sorted(
        (m.start(), m.end(), kind)
        for kind, pattern in ACCOMMODATION
        for m in pattern.finditer(norm)
        if not _NEGATED.search(norm[: m.start()]) and not _NOT_AN_OPTION.match(norm, m.end())
    )
    kinds = {kind for _, _, kind in said}
    if not kinds:
        return "any" if ANY_ACCOMMODATION.search(norm) else None
    if len(kinds) > 1 and (
        MIXED_LODGING.search(norm)
        or not all(
            CHANGED_LODGING.search(norm[end:start])
            for (_, end, kind), (start, _, other) in itertools.pairwise(said)
            if kind != other
        )
    ):
        return "any"  # "a mix of camping and hotels"
    return said[-1][2]


# "camping's not really an option", "camping is out": not that kind
_NOT_AN_OPTION = lazy(r"(?: s| is| are) (?:not|out|hors de question)\b")


_NEGATED = lazy(
    r"\b(?:no|not|pas de|pas en|sans|without|never|jamais|rather than|plutot que)\s+(?:\w+\s+)?$"
    # "neither of us is camping", "nobody wants to camp", "on a passé l'âge du camping", "rather sleep in
    # huts than in the tent"
    r"|\b(?:neither|nobody|no one|personne ne|age du|age de|than|too old for|trop vieux pour)"
    r"\s+(?:\w+\s+){0,3}$"
)
