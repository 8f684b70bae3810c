"""Places: what a name means, and how sure we are.

A search has three outcomes: ``Found`` (one clear best place), ``Ambiguous`` (the best candidates are too
close to call: a numbered question for the user) and ``NotFound`` (with suggestions: close spellings,
and what each word alone finds). Names are compared after :func:`normalize`: case, accents and
punctuation do not matter.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from tripagent.domain.geo import distance_km
from tripagent.domain.text import normalize

__all__ = ["distance_km", "normalize"]  # (where the places code has always found them)


@dataclass(frozen=True, slots=True)
class Place:
    place_id: int
    name: str
    kind: str  # city, town, village, hamlet, suburb, locality, or a POI kind (hotel, camp_site, ...)
    category: str  # place, lodging, food, water, bike, culture, viewpoint, station
    lat: float
    lon: float
    importance: float  # 0..1
    country: str | None = None
    region: str | None = None  # the routing extract it lies in, when it does

    @property
    def label(self) -> str:
        kind = self.kind.replace("_", " ")
        return f"{self.name} ({kind}, {self.country})" if self.country else f"{self.name} ({kind})"


_LABEL = re.compile(r"^(?P<name>.+?)\s*\((?P<kind>[^(),]+)(?:,\s*(?P<country>[^()]+))?\)\s*$")


def label_name(text: str) -> str | None:
    """The name inside one of our own labels (``"Santa Coloma (village, <country>)"`` → ``"Santa Coloma"``),
    or None when the text is not shaped like one. A label handed to a person (a numbered option, a
    suggestion) must find exactly that place when it comes back."""
    found = _LABEL.match(text)
    return found.group("name") if found else None


@dataclass(frozen=True, slots=True)
class Candidate:
    place: Place
    score: float  # 0..1, higher is better
    matched_name: str


@dataclass(frozen=True, slots=True)
class Found:
    place: Place
    score: float
    alternatives: tuple[Candidate, ...] = ()
    outcome: Literal["found"] = "found"
    matched: str = ""  # the normalized name it was found by (one of its names, in any language)


@dataclass(frozen=True, slots=True)
class Ambiguous:
    query: str
    candidates: tuple[Candidate, ...]  # numbered from 1 in this order
    outcome: Literal["ambiguous"] = "ambiguous"

    def options(self) -> list[dict[str, object]]:
        return [
            {"index": i, "label": c.place.label, "placeId": c.place.place_id}
            for i, c in enumerate(self.candidates, start=1)
        ]


@dataclass(frozen=True, slots=True)
class NotFound:
    query: str
    suggestions: tuple[str, ...] = ()
    by_word: dict[str, tuple[str, ...]] = field(default_factory=dict)
    near_misses: tuple[Candidate, ...] = ()  # the places behind the suggestions, for a numbered question
    outcome: Literal["not_found"] = "not_found"


SearchOutcome = Found | Ambiguous | NotFound

MATCH_FLOOR = 0.8  # below this similarity a name is not a match, only a suggestion
# below this a near miss is no typo worth a question ("Straight": Wright? "Arcalís": Arcadia?), only a
# suggestion where a place is looked up; "Tolouse" (0.88), "Foxi" (0.75) are still asked
TYPO_QUESTION_FLOOR = 0.75
AMBIGUITY_MARGIN = 0.06  # candidates within this score of the best are too close to call
DOMINANCE = 0.04  # an importance lead this large (about twice the population) settles a tie of names
ARTICLES = {"les", "la", "el", "els", "l", "le", "los", "las", "lo", "il", "the"}


def quality(query: str, name: str) -> float:
    """How well a normalized name answers a normalized query: 1.0 for the same name (articles aside:
    "Escaldes" is "les Escaldes"); 0.9 when the query is the start of the name (a shortened name);
    otherwise the strings' normalized edit similarity, articles aside too (a typo, a missing letter or two
    letters swapped cost one edit: "Masana" is close to "La Massana", "Soldue" to "Soldeu")."""
    if query == name or bare_name(query) == bare_name(name):
        return 1.0
    if name.startswith(query + " ") and len(query) >= 4:
        return 0.9
    similar = _edit_similarity()
    similarity = similar(query, name)
    query_bare, name_bare = bare_name(query), bare_name(name)
    if query_bare != query or name_bare != name:
        similarity = max(similarity, similar(query_bare, name_bare))
    return float(similarity)


@cache
def _edit_similarity() -> Callable[[str, str], float]:
    """Levenshtein with two letters swapped one edit ("Soldue"), imported once, on the first comparison."""
    from rapidfuzz.distance import OSA

    return OSA.normalized_similarity


def score(match_quality: float, importance: float, near_km: float | None = None) -> float:
    value = 0.75 * match_quality + 0.25 * importance
    if near_km is not None:
        value += 0.1 * math.exp(-near_km / 50)
    return round(value, 4)


def candidate(
    place: Place, matched_name: str, match_quality: float, near: tuple[float, float] | None
) -> Candidate:
    """A place as a candidate for a query: its match, its importance and, given ``near``, its distance."""
    near_km = distance_km(near[0], near[1], place.lat, place.lon) if near else None
    return Candidate(place, score(match_quality, place.importance, near_km), matched_name)


def decide(query: str, candidates: list[Candidate]) -> Found | Ambiguous | None:
    """One clear place, a question, or ``None`` when nothing matches well enough (best first in input)."""
    norm = normalize(query)
    matching = [c for c in candidates if quality(norm, c.matched_name) >= MATCH_FLOOR]
    matching = _competing(norm, _closer_than_ours(norm, matching))
    if not matching:
        return None
    top = matching[0]
    rivals = [c for c in matching if c is top or _rival(norm, c, top)]
    distinct = _distinct(rivals)
    if len(distinct) > 1:  # the places we route first: the question must not lose them past its fifth
        distinct.sort(key=lambda c: c.place.region is None)
        return Ambiguous(query, tuple(distinct[:5]))
    return Found(top.place, top.score, tuple(matching[1:4]), matched=top.matched_name)


TYPO_FLOOR = 0.7  # a place we route this close in spelling to a name found nowhere is what was meant


def unambiguous_name(name: str, label: str, search: Callable[[str], SearchOutcome]) -> str:
    """What a place is called from now on: its name when the name alone finds it, else its label, so that
    what reads the name again (generation) finds the same place."""
    found = search(name)
    return name if isinstance(found, Found) and found.place.label == label else label


def worth_asking(phrase: str, outcome: Ambiguous | NotFound) -> tuple[Candidate, ...]:
    """The places a numbered question about ``phrase`` offers, at most five: its namesakes, or the near
    misses spelled close enough to be a typo (none: no question worth asking)."""
    if isinstance(outcome, Ambiguous):
        return outcome.candidates[:5]
    said = normalize(phrase)
    return tuple(c for c in outcome.near_misses if quality(said, c.matched_name) >= TYPO_QUESTION_FLOOR)[:5]


def typo_of_ours(outcome: NotFound) -> Found | None:
    """A name found nowhere whose one near miss we route is close in spelling ("escladas": les Escaldes,
    "grau rojo": Grau Roig): that place, which the recap says back to be corrected, rather than a question
    whose other answers are towns abroad the rider never meant."""
    said = normalize(outcome.query)
    ours = [
        c
        for c in outcome.near_misses
        if c.place.region is not None and quality(said, c.matched_name) >= TYPO_FLOOR
    ]
    if len({c.place.name for c in ours}) != 1:
        return None
    return Found(ours[0].place, ours[0].score)


CONTEXT_NEAR_KM = 60.0  # a candidate this close to another place of the same brief is the one meant...
CONTEXT_FAR_KM = 300.0  # ...when every other candidate is at least this far from all of them


def settled_by(outcome: SearchOutcome, context: list[Place]) -> SearchOutcome:
    """An ambiguous name that the other places of the same brief settle: in "from Pal to Llorts" Pal is
    the village near Llorts, since every other Pal is far from it; in "Santa Coloma to Canillo" Santa
    Coloma is the one namesake inside the area Canillo is routed in (``_the_one_in_the_area``). A name whose
    every namesake lies outside the areas we route is no question either: the answer is "outside"
    whichever was meant, so the one near the brief's other places is named: "the train to l'Hospitalet"
    before Pas de la Casa is the village, not L'Hospitalet de Llobregat. Near none, it stays a question (a
    loose reading, "as to", is no Ås, Norway)."""
    if not isinstance(outcome, Ambiguous) or not context:
        return outcome

    def reach(place: Place) -> float:
        return min(distance_km(place.lat, place.lon, other.lat, other.lon) for other in context)

    if inside := _the_one_in_the_area(outcome, context):
        return Found(inside.place, inside.score, matched=inside.matched_name)
    near = [c for c in outcome.candidates if reach(c.place) <= CONTEXT_NEAR_KM]
    if len(near) == 1 and (
        all(reach(c.place) >= CONTEXT_FAR_KM for c in outcome.candidates if c is not near[0])
        or all(c.place.region is None for c in outcome.candidates)
    ):
        return Found(near[0].place, near[0].score, matched=near[0].matched_name)
    return outcome


def _the_one_in_the_area(outcome: Ambiguous, context: list[Place]) -> Candidate | None:
    """The only namesake inside the area we route that all the brief's other places lie in: "Santa Coloma
    to Canillo" starts in the Pyrenean village. Santa Coloma de Gramenet is near enough to be ridden from,
    but a trip from it could not be planned here, so the question's only answer worth giving is the
    village, which the recap names to be corrected. A place abroad among the others (Barcelona, where
    someone lives) leaves it asked; so do two namesakes inside the area."""
    areas = {place.region for place in context}
    if len(areas) != 1 or None in areas:
        return None
    inside = [c for c in outcome.candidates if c.place.region in areas]
    return inside[0] if len(inside) == 1 else None


ON_THE_WAY_KM = 20.0  # a stop that adds at most this (as the crow flies) lies on the way...
OFF_THE_WAY_KM = 100.0  # ...when every other place of that name would add at least this


def on_the_way(outcome: SearchOutcome, start: Place | None, end: Place | None) -> SearchOutcome:
    """An ambiguous stop that the trip's ends settle: "from La Massana to Sant Julià via Santa Coloma" stops
    at the village between them, not at Santa Coloma de Gramenet, a 250 km detour (a loop's far end, from
    its start and back). A start or an end alone stays a question: a ride from Gramenet is plausible."""
    if not isinstance(outcome, Ambiguous) or start is None:
        return outcome
    last = end or start

    def detour(place: Place) -> float:
        there = distance_km(start.lat, start.lon, place.lat, place.lon)
        onward = distance_km(place.lat, place.lon, last.lat, last.lon)
        return there + onward - distance_km(start.lat, start.lon, last.lat, last.lon)

    on = [c for c in outcome.candidates if detour(c.place) <= ON_THE_WAY_KM]
    if len(on) == 1 and all(detour(c.place) >= OFF_THE_WAY_KM for c in outcome.candidates if c is not on[0]):
        return Found(on[0].place, on[0].score, matched=on[0].matched_name)
    return outcome


# a ride's road kilometres for its crow-flight ones (Valhalla measured 1.66 over passes: superseded/0021)
ROAD_FACTOR = 1.3
PLAUSIBLE_DAY_KM = 150.0  # the most anyone plans a day, where the brief sets no limit
IMPLAUSIBLE = 2.0  # ...and a trip this many times what its days allow is no trip anyone meant


def settled_by_the_trip(
    outcome: SearchOutcome, route: list[Place | None], days: int, daily_km: float | None
) -> SearchOutcome:
    """An ambiguous start or end that only one namesake makes a trip of: ``route`` is the trip's places in
    order, None where the name goes. "Santa Coloma to Arinsal via Sispony, one day, 35 km max" starts in
    the village: from Santa Coloma de Gramenet it would be 160 km. "From Santa Coloma to Soldeu, 2 days"
    stays a question: both make a trip."""
    if not isinstance(outcome, Ambiguous) or days < 1 or all(p is None for p in route):
        return outcome
    allowed = ridable_km(days, daily_km)

    def length(candidate: Place) -> float:
        points = [candidate if p is None else p for p in route]
        return ROAD_FACTOR * sum(
            distance_km(a.lat, a.lon, b.lat, b.lon) for a, b in itertools.pairwise(points)
        )

    fits = [c for c in outcome.candidates if length(c.place) <= allowed]
    if len(fits) == 1 and all(
        length(c.place) >= IMPLAUSIBLE * allowed for c in outcome.candidates if c is not fits[0]
    ):
        return Found(fits[0].place, fits[0].score, matched=fits[0].matched_name)
    return outcome


def ridable_km(days: int, daily_km: float | None) -> float:
    """The road kilometres a trip of ``days`` can ride: its daily limit, or the most anyone plans a day."""
    return days * (daily_km or PLAUSIBLE_DAY_KM)


def _closer_than_ours(norm: str, matching: list[Candidate]) -> list[Candidate]:
    """A place abroad that only resembles the query (by spelling, not its name nor the start of one) competes
    with a place we route only if it resembles it about as well: "la masana" is La Massana, not Mashhad
    (once "Masant"), though Mashhad is larger; Santa Coloma de Gramenet still competes with Santa Coloma."""
    ours = max((quality(norm, c.matched_name) for c in matching if c.place.region is not None), default=0.0)
    return [
        c
        for c in matching
        if c.place.region is not None
        or (match := quality(norm, c.matched_name)) >= PREFIX_MATCH  # the name said, or the start of one
        or match + OURS_CLOSER > ours
    ]


OURS_CLOSER = 0.05  # a place we route that matches this much better leaves a mere resemblance abroad out
PREFIX_MATCH = 0.9  # quality's score for a query that is the start of a name (Santa Coloma [de Gramenet])


def _competing(norm: str, matching: list[Candidate]) -> list[Candidate]:
    """The candidates that compete with a name said exactly. Not a place only part of whose other name it
    is ("Vila" is no question of Matola, once Vila Salazar); nor, beside a place we route of that very
    name, a place abroad whose name merely begins with it, far away (Vila Velha, Brazil), while one near
    enough to be meant still is (Santa Coloma de Gramenet, 120 km from Santa Coloma)."""
    exact = [c for c in matching if quality(norm, c.matched_name) == 1.0]
    if not exact:
        return matching
    ours = [c.place for c in exact if c.place.region is not None]

    def competes(c: Candidate) -> bool:
        if c in exact:
            return True
        if c.matched_name != normalize(c.place.name):
            return False
        return (
            c.place.region is not None
            or not ours
            or any(distance_km(c.place.lat, c.place.lon, o.lat, o.lon) < CONTEXT_FAR_KM for o in ours)
        )

    return [c for c in matching if competes(c)]


def _rival(norm: str, c: Candidate, top: Candidate) -> bool:
    """Whether ``c`` is too close to ``top`` to call. A namesake that matches no better and is several
        times smaller is no rival (Barcelona, Spain over Barcelona, Venezuela); a place whose name matches
        better is one (Santa Coloma, the village), unless it is abroad and no larger than the place we route
    at the top. But a place we route is always a rival of a larger one
        abroad, and so is a close spelling of one ("Orino", Italy, for Ordino): that is asked, never guessed
        (a trip planned abroad would only be refused), or settled by the brief's other places."""
    match = quality(norm, c.matched_name)
    if top.place.region is not None and c.place.region is None and c.place.importance <= top.place.importance:
        return False  # a namesake abroad no larger than the place we route (Alppila, Oulu): ours is meant
    if top.place.region is None and c.place.region is not None:  # a typo of ours, too: "Orino" for Ordino
        return match >= MATCH_FLOOR
    if match < 0.9:
        return False
    return top.score - c.score <= AMBIGUITY_MARGIN and not (
        match <= quality(norm, top.matched_name) and top.place.importance - c.place.importance >= DOMINANCE
    )


def bare_name(name: str) -> str:
    """A normalized name without its article: "la massana" is also said "massana"."""
    words = name.split()
    return " ".join(words[1:]) if len(words) > 1 and words[0] in ARTICLES else name


def _distinct(candidates: list[Candidate]) -> list[Candidate]:
    """One candidate per real place: the same town twice (two sources, 2 km apart) is one."""
    out: list[Candidate] = []
    for c in candidates:
        if all(distance_km(c.place.lat, c.place.lon, o.place.lat, o.place.lon) > 5 for o in out):
            out.append(c)
    return out
