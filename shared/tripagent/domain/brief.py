"""The trip brief: what a rider has told us so far, and the rules that read it from plain text.

Slot reading is deterministic and bilingual (English, French): durations ("3 days", "a long weekend",
"une semaine"), bike profiles and their common names, dates, daily distance, round trips,
accommodation, "launch it" / "c'est bon". Place phrases ("from X to Y", "de X à Y", "via X") are
extracted here and resolved by a geocoder elsewhere.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tripagent.domain.places import normalize

Profile = Literal["road", "gravel", "mountain", "touring", "hybrid", "e-bike"]
Locale = Literal["en", "fr"]
# What a trip cannot be planned without ("end" is satisfied by a round trip). The bike is not one: a brief
# without it is planned for a touring bike (generation's default), and the reply says so.
ESSENTIALS = ("start", "end", "durationDays")
DEFAULT_PROFILE: Profile = "touring"


class Collected(BaseModel):
    model_config = ConfigDict(extra="ignore")

    start: str | None = None
    end: str | None = None
    via: list[str] = Field(default_factory=list)
    durationDays: int | None = Field(default=None, ge=1, le=60)
    profile: Profile | None = None
    startDate: dt.date | None = None
    dailyDistanceKm: float | None = Field(default=None, gt=0, le=400)
    roundTrip: bool = False
    accommodation: Literal["hotel", "camping", "hostel", "hut", "any"] | None = None
    notes: str | None = None

    def missing(self) -> list[str]:
        absent = []
        for slot in ESSENTIALS:
            if slot == "end" and (self.end or self.roundTrip):
                continue
            if getattr(self, slot) in (None, ""):
                absent.append(slot)
        return absent

    def merged(self, other: Collected) -> Collected:
        """``other``'s known values over this one's (later turns refine earlier ones)."""
        values = self.model_dump()
        for key, value in other.model_dump().items():
            if value not in (None, "", [], False):
                values[key] = value
        return Collected.model_validate(values)


NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "un": 1,
    "une": 1,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
    "cinq": 5,
    "sept": 7,
    "huit": 8,
    "neuf": 9,
    "dix": 10,
    "a": 1,
}
_NUM = r"(\d{1,2}|" + "|".join(sorted(NUMBERS, key=len, reverse=True)) + r")"

DURATION_PATTERNS: list[tuple[re.Pattern[str], int | None]] = [
    (re.compile(r"\blong weekend\b|\blong week end\b|\bgrand week ?end\b|\bpont\b"), 3),
    (re.compile(r"\bweek ?end\b"), 2),
    (re.compile(r"\b(a|one|une|1) (week|semaine)\b"), 7),
    (re.compile(rf"\b{_NUM} (weeks|semaines)\b"), -7),
    (re.compile(rf"\b{_NUM}[ -]?(days?|jours?|journees?|nights?|nuits?)\b"), None),
]

PROFILE_WORDS: list[tuple[Profile, re.Pattern[str]]] = [
    ("e-bike", re.compile(r"\be ?bike|\belectric|\belectrique|\bvae\b|\bpedelec")),
    ("gravel", re.compile(r"\bgravel")),
    ("mountain", re.compile(r"\bmountain ?bike|\bmtb\b|\bvtt\b|\btout terrain")),
    ("touring", re.compile(r"\btouring|\bcyclotouris|\brandonn|\bbikepacking|\bvoyage a velo|\bloaded")),
    ("hybrid", re.compile(r"\bhybrid|\bvtc\b|\bcity bike|\bvelo de ville|\bhybride")),
    ("road", re.compile(r"\broad ?bike|\bracing bike|\bvelo de route|\bvelo de course|\broad\b|\broute\b")),
]
ROUND_TRIP = re.compile(
    r"\bround ?trip|\bloop\b|\bboucle\b|\baller retour\b|\bback to (the )?start|\bcircuit\b"
    r"|\bstart(?:ing)? and (?:finish|end)(?:ing)? (?:in|at)\b|\bback to where\b|\bcom(?:e|ing) back to\b"
    r"|\b(?:revient|revenir|retour) au (?:point de )?depart\b|\bdepart et (?:arrivee|retour) (?:a|vers)\b"
)
# "A to B and back", "up to B and then back down", "je monte jusqu'à B et je redescends": B is where a loop
# from A turns (not "and back to C", "et retour à C": those name the end)
OUT_AND_BACK = re.compile(
    r"\b(?:and|then|et) (?:then |come |coming |ride |go |ride )?back\b(?! to\b)|\bback down\b"
    r"|\bthere and back\b|\bet retour\b(?! (?:a|au|vers|jusqu)\b)|\bredescend|\baller retour\b"
)
ACCOMMODATION: list[tuple[str, re.Pattern[str]]] = [
    ("camping", re.compile(r"\bcamp(ing|site|ground)?s?\b|\btente\b|\btent\b")),
    ("hostel", re.compile(r"\bhostels?\b|\bauberges?\b|\bgites?\b")),
    ("hut", re.compile(r"\bhuts?\b|\brefuges?\b")),
    ("hotel", re.compile(r"\bhotels?\b|\bchambres? d hotes\b|\bb ?& ?b\b|\bguest ?house")),
]
DAILY = re.compile(r"\b(\d{2,3})\s?km\s?(a|per|/|par|each|chaque|by)?\s?(day|jour|j)\b")
LAUNCH = re.compile(
    r"^(ok |okay |yes |oui |alors )?(launch( it)?|go( ahead)?|let s go|generate( it)?|start( it)?"
    r"|c est bon|vas y|allez|lance( le)?( calcul)?|on y va|c est parti|valide)\W*$"
)
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
_MONTH = "|".join(MONTHS)
DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
DATE_DM = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th|er)? (?:of )?({_MONTH})(?: (\d{{4}}))?\b")
DATE_MD = re.compile(rf"\b({_MONTH}) (\d{{1,2}})(?:st|nd|rd|th)?(?: (\d{{4}}))?\b")
FRENCH = re.compile(
    r"\b(je|j|nous|velo|jours?|semaine|depart|de|du|vers|avec|pour|une|bonjour|merci|c est)\b"
)

# Where a place phrase ends: a connector or punctuation (not an article: "Andorra la Vella" keeps its "la").
_COUNTS = "|".join(n for n in NUMBERS if len(n) > 1 and n not in ("un", "une"))  # "to Encamp two days"
_STOP = (
    r"(?=\s+(?:to|au|jusqu|vers|via|par|in|en|on|for|pour|with|avec|and|et|by|over|during|starting|then"
    r"|puis|le|using|riding|please|svp|thanks|merci|through|passing|back|and back|et retour|loop|instead"
    r"|rather than|plutot que|au lieu|from there|pas d|not|" + _COUNTS + r"|\d)\b|[.,;!?]|$)"
)
# Triggers after which a phrase may well be no place ("staying in hotels"): one that names none is not asked
LOOSE_START = (
    "set off from", "set off in", "setting off from", "set off at", "beginning at", "beginning in",
    "begin at", "begin in", "begins in", "begins at", "kicking off from", "kicking off in", "kick off from",
    "kick off in", "starting point", "start point", "departure from", "departing from", "departing",
    "based in", "staying in", "gather in", "starting town is", "renting bikes in", "start from",
    "la depart se fera d", "depart se fera de", "depart se fera d", "point de depart",
    "a partir de", "a partir d", "on part de", "on part d", "partirons de", "partirons d", "partira de",
    "partira d",
)  # fmt: skip
LOOSE_END = (
    "end in", "end at", "end up in", "ends in", "reach", "get to", "destination is", "destination",
    "end point", "arrival in", "arriving", "rejoindre",
)  # fmt: skip
WEAK_TRIGGERS = {"de", "d", "par", "depart", "retour", *LOOSE_START, *LOOSE_END}
_START = (
    r"from|starting (?:in|at|from)|start(?:ing)? in|leaving|depart(?:ing)? from|depuis|au depart d"
    r"|au depart de|depart de|partant de|en partant de|pars d|pars de|de|d"
    r"|start(?:ing)? and (?:finish|end)(?:ing)? (?:in|at)|loop (?:from|around|out of|starting (?:in|at|from))"
    r"|boucle (?:au depart )?(?:de|d|a|vers|autour de)|start(?:ing)? at|"
    + "|".join(sorted(LOOSE_START, key=len, reverse=True))
    + r"|depart"
)
_END = (
    r"to|towards|ending (?:in|at)|finish(?:ing)? (?:in|at)|arriving (?:in|at)|jusqu(?: vers)?|vers"
    r"|arrivee vers|arrivee|retour|" + "|".join(sorted(LOOSE_END, key=len, reverse=True))
)
_VIA = r"via|through|by way of|passing (?:by|through)|par|en passant par"
PLACE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("start", re.compile(rf"\b({_START})\s+(.{{1,60}}?)" + _STOP)),
    (
        "start",
        re.compile(r"^()(.{1,60}?)(?=\s+(?:back to|to|vers|jusqu|via|through)\s)"),
    ),  # "Ordino to Soldeu": weak
    ("start", re.compile(r"^boucle\s+()(.{1,60}?)" + _STOP)),  # "Boucle Ordino, 3 jours"
    ("start", re.compile(r"^(?:an? )?()(.{1,60}?)(?=\s+(?:loop|round trip)\b)")),  # "Andorra la Vella loop"
    ("end", re.compile(rf"\b({_END})\s+(.{{1,60}}?)" + _STOP)),
    ("via", re.compile(rf"\b({_VIA})\s+(.{{1,60}}?)" + _STOP)),
]
VERBS = {
    "ride",
    "go",
    "do",
    "be",
    "make",
    "cycle",
    "bike",
    "have",
    "see",
    "visit",
    "spend",
    "stay",
    "take",
    "plan",
    "faire",
    "aller",
    "rouler",
    "partir",
    "going",
    "heading",
    "riding",
    "reach",
    "get",
    "finish",
    "arrive",
    "head",
    "continue",
    "come",
    "return",
    "rejoindre",
    "voir",
    "visiter",
    "passer",
    "prendre",
    "my",
    "mon",
    "ma",
    "i",
    "we",
    "you",
    "je",
    "j",
    "nous",
    "on",
    "il",
    "elle",
    "want",
    "would",
    "like",
    "veux",
    "voudrais",
    "bonjour",
    "hello",
    "hi",
    "please",
    "velo",
    "vtt",
    "gravel",
    "une",
    "un",
    "a",
    "the",
}
NOT_PLACES = {
    "the",
    "a",
    "day",
    "days",
    "jours",
    "week",
    "semaine",
    "bike",
    "velo",
    "road",
    "route",
    "go",
    "me",
    "us",
    "start",
    "end",
    "it",
    "do",
    "be",
    "ride",
    "rouler",
    "faire",
    "hotel",
    "camping",
}


# A phrase starting with one of these is not a name but another trigger ("boucle depuis La Massana"); a
# count of days is not one either ("une boucle de deux jours", _COUNT_OF_DAYS).
NOT_A_NAME_START = {
    "depuis", "from", "to", "vers", "via", "par", "au", "aux", "en", "sur", "pour", "dans", "in", "at", "on",
    "with", "avec", "through", "starting", "start", "jusqu", "back", "retour", "home",
}  # fmt: skip
# After a weak trigger (or none) a phrase beginning with these is a French connector, not a name ("De
# Santa Coloma à Soldeu"); after "from" it may be one (Des Moines, De Panne).
WEAK_NOT_A_NAME_START = {"de", "d", "du", "des"}
_COUNT_OF_DAYS = re.compile(rf"^{_NUM}[ -]?(days?|jours?|journees?|nights?|nuits?|weeks?|semaines?)\b")
_TRAILING_CONNECTOR = re.compile(r"\s+(?:de|d|du|des|sur|en|at|of|about|pour|for)$")
# Route separators typed between names: "Ordino - Canillo", "Arinsal → Ordino → Canillo".
_SEPARATOR = re.compile(r"\s+(?:-|–|—|->|→|>)\s+")


def _every_match(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """Every match, overlapping ones too: a trigger inside an earlier match still starts its own."""
    found, at = [], 0
    while (match := pattern.search(text, at)) is not None:
        found.append(match)
        at = match.start() + 1
    return found


_NOT_A_ROUTE_PART = NOT_A_NAME_START | VERBS
# Up to the last word before a route's first name that cannot be in a name: a count, a slot word, a colon
_ROUTE_TAIL = re.compile(r"\s+(?:en|in|for|pour|sur|on|over|with|avec|during)\s+.*$|\s*\d.*$", re.IGNORECASE)
_ROUTE_LEAD = re.compile(
    r"^.*(?:\d|:|\b(?:days?|jours?|nights?|nuits?|weeks?|semaines?|weekend|trip|tour|ride|loop|boucle|aller.retour|"
    r"bike|bikes|velo|mtb|vtt|gravel|road|touring|hybrid)\b)\s*",
    re.IGNORECASE,
)


def _routes_in_words(clause: str) -> str:
    """``A - B`` as ``A to B``; ``A → B → C`` as ``A via B to C`` — when every part could be a name (a few
    words, no count, no bike or other slot word): "road bike - maybe gravel" stays as it is."""
    parts = _SEPARATOR.split(clause)
    if len(parts) < 2:
        return clause
    # "4 day touring trip Encamp -> El Serrat", "quick one: 2 days Canillo -> Ordino": the words that
    # lead to the first name are not part of it; nor, in "A - Toulouse en 6 jours", those after the last
    lead = _ROUTE_LEAD.match(parts[0])
    before = parts[0][: lead.end()] if lead and lead.end() < len(parts[0]) else ""
    tail = _ROUTE_TAIL.search(parts[-1])
    after = parts[-1][tail.start() :] if tail and tail.start() > 0 else ""
    parts = [
        parts[0].removeprefix(before),
        *parts[1:-1],
        parts[-1].removesuffix(after) if after else parts[-1],
    ]
    if len(parts) == 1:
        return clause
    for part in parts:
        norm = normalize(part)
        words = norm.split()
        if not 1 <= len(words) <= 5 or re.search(r"\d", norm) or words[0] in _NOT_A_ROUTE_PART:
            return clause
        if (
            any(p.search(norm) for _, p in PROFILE_WORDS)
            or ROUND_TRIP.search(norm)
            or _COUNT_OF_DAYS.search(norm)
        ):
            return clause
    route = parts[0] + "".join(f" via {p}" for p in parts[1:-1]) + f" to {parts[-1]}"
    return f"{before} from {route}{after}" if before else route + after


@dataclass(frozen=True, slots=True)
class PlacePhrase:
    text: str
    strong: bool  # after an unmistakable word ("from", "to", "via"); French "de"/"par" are weak


@dataclass(frozen=True)
class Reading:
    """What one user turn says, before places are resolved."""

    slots: Collected
    places: dict[str, list[PlacePhrase]] = field(default_factory=dict)  # slot → phrases, in text order
    launch: bool = False
    locale: Locale = "en"
    out_and_back: bool = False  # the turn's end is where a loop from its start turns back


def turned_back(start: str | None, end: str | None, via: list[str]) -> tuple[str | None, list[str]]:
    """The end and via points of "A to B and back": B becomes the last via point and A the end."""
    if start and end and end != start:
        return start, [*via, end]
    return end, via


def detect_locale(text: str, default: Locale = "en") -> Locale:
    hits = len(FRENCH.findall(normalize(text)))
    return "fr" if hits >= 2 else default


def read_turn(text: str, *, today: dt.date, default_locale: Locale = "en") -> Reading:
    norm = normalize(text)
    values: dict[str, object] = {}
    without_daily = DAILY.sub(" ", norm)  # "40 km a day" is a distance, not a duration
    for pattern, days in DURATION_PATTERNS:
        found = pattern.search(without_daily)
        if found:
            if days is None or days < 0:
                count = found.group(1)
                n = int(count) if count.isdigit() else NUMBERS.get(count, 0)
                values["durationDays"] = n * (7 if days == -7 else 1)
            else:
                values["durationDays"] = days
            break
    for profile, pattern in PROFILE_WORDS:
        if pattern.search(norm):
            values["profile"] = profile
            break
    if ROUND_TRIP.search(norm) or OUT_AND_BACK.search(norm):
        values["roundTrip"] = True
    for kind, pattern in ACCOMMODATION:
        if pattern.search(norm):
            values["accommodation"] = kind
            break
    daily = DAILY.search(norm)
    if daily:
        values["dailyDistanceKm"] = float(daily.group(1))
    start_date = _date(norm, today)
    if start_date:
        values["startDate"] = start_date
    places = _place_phrases(text)
    return Reading(
        Collected.model_validate(values),
        places,
        bool(LAUNCH.match(norm)),
        detect_locale(text, default_locale),
        bool(OUT_AND_BACK.search(norm)),
    )


_STARTING_AT = re.compile(
    r"\b(commen\w*|loge\w*|bas[ée]e?s?|serons|sommes|partons|partirons)(\s+(?:notre\s+\w+\s+)?)à(?![\w])",
    re.IGNORECASE,
)


def _place_phrases(text: str) -> dict[str, list[PlacePhrase]]:
    """Each slot's place phrases of one turn, in the order of the text."""
    # French "à" is a destination; normalized it would be the English article "a". Punctuation ends a
    # place phrase, so each clause is read on its own.
    mentions: list[tuple[int, str, PlacePhrase]] = []
    offset = 0
    # ...but after a verb of starting or staying it is where the trip begins: "on commence à Encamp",
    # "nous serons basés à Soldeu", "on loge à Ordino"
    text = _STARTING_AT.sub(r"\1\2depuis", text)
    marked = re.sub(r"(?<![\w])à(?![\w])", " vers ", text)
    if detect_locale(text, "en") == "fr":  # French by its own words: "de Canillo a Ordino" lost its accent
        marked = re.sub(r"(\b(?:de|d|du|depuis)[ '’][^,.;!?\n]{1,60}?)\s+a\s+(?=\w)", r"\1 vers ", marked)
    for clause in (_routes_in_words(c) for c in re.split(r"[.,;!?\n]+", marked)):
        clause_norm = DAILY.sub(" ", normalize(clause))
        for slot, pattern in PLACE_PATTERNS:
            for match in _every_match(pattern, clause_norm):
                trigger, phrase = match.group(1), match.group(2).strip()
                strong = bool(trigger) and trigger not in WEAK_TRIGGERS
                # "de vélo de route de Canillo": after a weak "de", each later "de" may start the place.
                candidates = [(match.start(2), phrase, strong)]
                if not strong:
                    candidates += [
                        (match.start(2) + m.end(), phrase[m.end() :], False)
                        for m in re.finditer(r"\b(?:de|d) ", phrase)
                    ]
                if slot == "via":  # the rest of the list: "through A and B", "par A puis B"
                    rest = clause_norm[match.end(2) :]
                    for more in re.finditer(
                        r"^\s+(?:and then|and|et puis|puis|et|then)\s+(.{1,60}?)" + _STOP, rest
                    ):
                        candidates.append((match.end(2) + more.start(1), more.group(1).strip(), strong))
                        rest = rest[more.end() :]
                for start, found, is_strong in candidates:
                    candidate = _TRAILING_CONNECTOR.sub("", found)  # "Soldeu sur (3 jours)"
                    words = candidate.split()
                    if (
                        words
                        and candidate not in NOT_PLACES
                        and words[0] not in VERBS
                        and words[0] not in NOT_A_NAME_START
                        and (is_strong or words[0] not in WEAK_NOT_A_NAME_START)
                        and not _COUNT_OF_DAYS.match(candidate)
                        and len(candidate) <= 60
                        and not re.search(r"\d", candidate)
                    ):
                        mentions.append((offset + start, slot, PlacePhrase(candidate, is_strong)))
        offset += len(clause) + 1
    # A weak phrase inside a strong one is a piece of its name: "de Lòria" of "to Sant Julià de Lòria"
    spans = [(at, at + len(p.text)) for at, _, p in mentions if p.strong]
    mentions = [
        m
        for m in mentions
        if m[2].strong or not any(s <= m[0] and m[0] + len(m[2].text) <= e for s, e in spans)
    ]
    places: dict[str, list[PlacePhrase]] = {}
    seen: set[tuple[int, str, str]] = set()
    for at, slot, phrase in sorted(mentions, key=lambda f: f[0]):
        if (at, slot, phrase.text) not in seen:  # one phrase found by two overlapping triggers is one
            seen.add((at, slot, phrase.text))
            places.setdefault(slot, []).append(phrase)
    return places


def _date(norm: str, today: dt.date) -> dt.date | None:
    try:
        if m := DATE_ISO.search(norm):
            return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if m := DATE_DM.search(norm):
            day, month, year = int(m.group(1)), MONTHS[m.group(2)], m.group(3)
        elif m := DATE_MD.search(norm):
            month, day, year = MONTHS[m.group(1)], int(m.group(2)), m.group(3)
        else:
            return None
        candidate = dt.date(int(year) if year else today.year, month, day)
        if not year and candidate < today:
            candidate = candidate.replace(year=today.year + 1)
        return candidate
    except ValueError:
        return None
