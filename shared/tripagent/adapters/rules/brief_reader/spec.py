"""The ``rules`` engine for generation's spec extraction."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tripagent.adapters.rules.brief_reader.named import (
    end_named_anywhere,
    named_by_feature,
    place_named_anywhere,
    trimmed_to_ours,
)
from tripagent.adapters.rules.brief_reader.place_reading import beside_feature, far_fetched, shortened
from tripagent.adapters.rules.brief_reader.places import THERE, PlacePhrase, capitalizes_names
from tripagent.adapters.rules.brief_reader.reading import (
    DaysHint,
    Reading,
    read_turn,
    turned_back,
)
from tripagent.application.llm import ChatRequest, ChatResult, rules_answer
from tripagent.application.places import PlaceFinder
from tripagent.domain.brief import Collected
from tripagent.domain.places import Found, NotFound, SearchOutcome, normalize, typo_of_ours


@dataclass(frozen=True)
class SpecRules:
    """The ``rules`` provider's engine for spec extraction: the brief chat's slot rules over the brief,
    its places named through the same geocoder as generation's (given here, not through the request)."""

    places: PlaceFinder

    def __call__(self, request: ChatRequest) -> ChatResult:
        return self.answer(request)

    def answer(self, request: ChatRequest) -> ChatResult:
        today = dt.date.fromisoformat(request.context.get("today") or dt.date.today().isoformat())
        searched: dict[str, SearchOutcome] = {}  # each phrase once: the geocoder may be remote

        named_as: dict[str, str] = {}  # a phrase looked up by another name, and that name (for generation)

        def search(text: str) -> SearchOutcome:
            if text not in searched:
                searched[text] = self.places.search(text)
                if isinstance(searched[text], NotFound) and (
                    by := named_by_feature(self.places.search, text)
                ):
                    searched[text] = by  # "le lac d'Engolasters", as the chat
                    named_as[text] = beside_feature(text)
                elif isinstance(missed := searched[text], NotFound) and (typo := typo_of_ours(missed)):
                    searched[text] = typo  # "from escladas", as the chat
                    named_as[text] = typo.place.name
            return searched[text]

        lines = str(request.context.get("brief", "")).splitlines()
        capitalizes = any(capitalizes_names(line) for line in lines)  # as the chat reads the turns
        read = _BriefRead()
        for line in lines:
            read.add(
                read_turn(line, today=today, known_date=read.collected.startDate, capitalizes=capitalizes),
                search,
            )
        read.collected.durationDays = read.days_hint.days(read.collected)
        collected, places, unsure = read.collected, read.places, read.unsure
        skipped, not_the_end = read.skipped, read.not_the_end
        start_unknown, end_unknown, out_and_back = read.start_unknown, read.end_unknown, read.out_and_back
        # "back to Pas", Pas de la Casa said in full in the brief: that place, as the chat reads it
        routed = [t for texts in places.values() for t in texts if _routed(search(t))]
        places = {
            slot: [named_as.get(t, t) if _routed(search(t)) else shortened(t, routed) or t for t in texts]
            for slot, texts in places.items()
        }
        spec: dict[str, Any] = collected.model_dump(mode="json", exclude_defaults=True)
        spec.update(_named_places(places, skipped, search, round_trip=collected.roundTrip))
        brief = [str(request.context.get("brief", ""))]
        if not start_unknown:
            _start_named_anywhere(spec, search, brief)
        if not (collected.roundTrip or end_unknown):
            _end_named_anywhere(spec, search, brief, not_the_end | skipped)
        for slot in ("start", "end"):  # nothing else: what was said there, for generation to name unknown
            if slot not in spec and [t for t in unsure.get(slot, []) if not far_fetched(search(t), t)]:
                spec[slot] = next(t for t in unsure[slot] if not far_fetched(search(t), t))
        if out_and_back:
            spec["end"], spec["via"] = turned_back(spec.get("start"), spec.get("end"), spec.get("via", []))
        if spec.get("start") and spec.get("start") == spec.get("end"):  # "from Soldeu to Soldeu": a loop
            spec["roundTrip"] = True
        return rules_answer(json.dumps(spec, ensure_ascii=False))


@dataclass
class _BriefRead:
    """What the brief's lines say, one after the other, as the brief chat reads its turns."""

    collected: Collected = field(default_factory=Collected)
    places: dict[str, list[str]] = field(default_factory=dict)
    unsure: dict[str, list[str]] = field(default_factory=dict)  # loosely read phrases naming nothing we know
    skipped: set[str] = field(default_factory=set)
    not_the_end: set[str] = field(default_factory=set)  # said as a start: no end named anywhere
    start_unknown: bool = False  # "not sure yet where to start"
    end_unknown: bool = False  # ...or where to end
    out_and_back: bool = False
    last_place: str | None = None  # the place said last, which a later "there" means
    days_hint: DaysHint = field(default_factory=DaysHint)  # "just the afternoon", as the chat reads it

    def add(self, reading: Reading, search: Callable[[str], SearchOutcome]) -> None:
        self.out_and_back |= reading.out_and_back
        self.start_unknown |= reading.start_unknown
        self.end_unknown |= reading.end_unknown
        self.not_the_end |= {p.text for p in reading.places.get("start", [])}
        self.collected = reading.merged_into(self.collected)
        self.days_hint = DaysHint() if reading.days_unknown else self.days_hint | reading.days_hint
        if reading.days_unknown:  # "let's leave the number of days open", as the chat reads it
            self.collected.durationDays = None
        if reading.one_way:  # "instead of coming back"
            self.collected.roundTrip = False
        places = self.places
        if reading.reversed and not self.collected.roundTrip:  # "the other way round", as the chat reads it
            places["start"], places["end"] = places.get("end", []), places.get("start", [])
        if reading.reversed and "via" not in reading.places and "via" in places:  # the stops too
            places["via"] = places["via"][::-1]
        for was, now in zip(reading.places.get("was", []), reading.places.get("now", []), strict=False):
            # "pas Kalasatama, je voulais dire Kallio", as the chat reads it
            for slot, texts in places.items():
                places[slot] = [now.text if t == was.text else t for t in texts]
        for slot, phrases in reading.places.items():
            if slot in ("was", "now"):
                continue
            if slot == "skip":  # "skip Sispony": out of the via points
                self.skipped |= {normalize(p.text) for p in phrases}
                continue
            # phrases after "from", "to", "via" first: they say most plainly what is a place; a loosely
            # read one only when it names a place ("overnighter Sispony to Llorts": not "overnighter")
            ordered = [_trimmed(p, search) for p in sorted(phrases, key=lambda p: not p.strong)]
            kept = [p for p in ordered if p.text == THERE or _kept(p, search)]
            texts = [(self.last_place or "") if p.text == THERE else p.text for p in kept]  # "finish there"
            places.setdefault(slot, []).extend(t for t in texts if t)
            self.last_place = texts[-1] if texts and texts[-1] else self.last_place
            self.unsure.setdefault(slot, []).extend(p.text for p in ordered if p not in kept)
        if reading.end_unknown:  # "El Serrat or maybe Llorts, not sure yet": no end, as the chat reads it
            places["end"], self.unsure["end"] = [], []


def _trimmed(phrase: PlacePhrase, search: Callable[[str], SearchOutcome]) -> PlacePhrase:
    """A plainly said phrase naming nothing whole, as the place we route it begins with ("Hakaniemi
    market"), as the chat reads it."""
    if (
        phrase.strong
        and isinstance(search(phrase.text), NotFound)
        and (piece := trimmed_to_ours(search, phrase.text))
    ):
        return PlacePhrase(normalize(piece.place.name), strong=True, cased=phrase.cased, loose=phrase.loose)
    return phrase


def _kept(phrase: PlacePhrase, search: Callable[[str], SearchOutcome]) -> bool:
    """A phrase read as a place: after a plain word, or naming one (and, lowercase among capitalized
    names, one we route)."""
    outcome = search(phrase.text)
    plain = phrase.strong or not (far_fetched(outcome, phrase.text) or isinstance(outcome, NotFound))
    return plain and (phrase.cased or _routed(outcome))


def _start_named_anywhere(
    spec: dict[str, Any], search: Callable[[str], SearchOutcome], brief: list[str]
) -> None:
    """As the brief chat: no start said, a place we route named anywhere by its very name."""
    if "start" not in spec:
        taken = {normalize(n) for n in [spec.get("end"), *spec.get("via", [])] if n}
        if place := place_named_anywhere(search, brief, taken):
            spec["start"] = place.name


def _end_named_anywhere(
    spec: dict[str, Any], search: Callable[[str], SearchOutcome], brief: list[str], not_the_end: set[str]
) -> None:
    """As the brief chat: a start and no end said (no loop), the last place we route named anywhere."""
    if spec.get("start") and "end" not in spec:
        taken = {normalize(n) for n in [spec["start"], *spec.get("via", [])]} | not_the_end
        if place := end_named_anywhere(search, brief, taken):
            spec["end"] = place.name


def _routed(outcome: SearchOutcome) -> bool:
    return isinstance(outcome, Found) and outcome.place.region is not None


def _named_places(
    places: dict[str, list[str]],
    skipped: set[str],
    search: Callable[[str], SearchOutcome],
    *,
    round_trip: bool,
) -> dict[str, Any]:
    """Places through the geocoder, as the brief chat reads them: the first phrase that names a place."""
    named: dict[str, Any] = {}
    for slot, texts in places.items():
        if slot == "via":
            named["via"] = list(
                dict.fromkeys(  # each via point once, as the chat keeps them
                    text
                    for text in texts
                    if not isinstance(search(text), NotFound) and normalize(text) not in skipped
                )
            )
        elif slot in ("start", "end") and texts:
            # for a start, a place we route before one abroad, as the chat reads them ("from Tallinn")
            tried = sorted(texts, key=lambda t: not _routed(search(t))) if slot == "start" else texts
            named[slot] = next((text for text in tried if not isinstance(search(text), NotFound)), tried[0])
    # A clause that is only a name ("Road bike. La Massana. 2 days."): the start, else the end,
    # when it is a place we route
    for text in places.get("bare", []):
        outcome = search(text)
        if isinstance(outcome, Found) and outcome.place.region is not None:
            free = "start" if "start" not in named else "end" if not round_trip else None
            if free and free not in named:
                named[free] = text
            elif len(places["bare"]) >= 2 and text not in (named.get("start"), named.get("end")):
                named["via"] = list(dict.fromkeys([*named.get("via", []), text]))  # a list of stops
    return named
