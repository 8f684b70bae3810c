"""The offline reader's conversation: the brief the user turns say, read one after the other (a later
turn refines an earlier one), each place phrase looked up in the places index as it is read.

This is the ``rules`` provider's understanding of a brief chat: it answers through the same port as a
model does (``engine.BriefChatRules``) and the server checks what it says like any model's.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

from tripagent.adapters.rules.brief_reader.base import base_said
from tripagent.adapters.rules.brief_reader.named import (
    end_named_anywhere,
    named_by_feature,
    names_in_a_row,
    ours_by_name,
    place_named_anywhere,
    trimmed_to_ours,
)
from tripagent.adapters.rules.brief_reader.options import with_options_settled
from tripagent.adapters.rules.brief_reader.patterns import lazy
from tripagent.adapters.rules.brief_reader.place_reading import (
    beyond_reach,
    far_fetched,
    is_setting,
    names_a_sight,
    shortened,
)
from tripagent.adapters.rules.brief_reader.places import (
    CENTRE,
    THERE,
    PlacePhrase,
    capitalizes_names,
    said_as_an_end,
)
from tripagent.adapters.rules.brief_reader.reading import (
    DaysHint,
    Reading,
    read_turn,
    turned_back,
)
from tripagent.adapters.rules.brief_reader.stops import ADDED, placed
from tripagent.adapters.rules.brief_reader.words import (
    STOPS_CHANGED,
    THAT_WAS_THE_END,
    bare_count,
    settled_count,
)
from tripagent.application.brief_state import BriefState, Pending
from tripagent.application.places import PlaceFinder
from tripagent.domain.brief import PLACE_SLOTS, Collected, Locale
from tripagent.domain.places import (
    Ambiguous,
    Found,
    NotFound,
    Place,
    SearchOutcome,
    distance_km,
    normalize,
    on_the_way,
    settled_by,
    settled_by_the_trip,
    typo_of_ours,
    unambiguous_name,
    worth_asking,
)

PHRASES_LOOKED_UP = 30  # of one turn
_NUMBERED = lazy(r"^\s*1\. ", re.MULTILINE)  # an assistant turn that lists numbered options
_OPTION = lazy(r"^\s*\d+\. (.+?)\s*$", re.MULTILINE)  # ...and each option's label


def _only_an_option(answer: str, question: str) -> bool:
    """A turn that is only one of the numbered question's options typed out ("Santa Coloma (village,
    the Pyrenees)"): a choice, kept by the state like "1", and no place said anew (not the end, once the start
    is chosen)."""
    said = normalize(answer)
    return any(said == normalize(label) for label in _OPTION.findall(question))


class SaidTurn(NamedTuple):
    """A rider's turn as said, and the place phrases read in it."""

    text: str
    places: dict[str, list[PlacePhrase]]


class Turn(NamedTuple):
    """A turn of the conversation as the reader sees it: who said it, and what."""

    role: str
    content: str


@dataclass(frozen=True)
class Asked:
    """A place the reader could not settle (several namesakes, or a near miss after a strong word): the
    slot it was said for and the phrase, for the server to ask about."""

    slot: str
    key: str
    phrase: str


@dataclass
class Understood:
    collected: Collected
    locale: Locale
    launch: bool = False
    clarification: Asked | None = None
    located: dict[str, Place] = field(default_factory=dict)  # each place name the slots hold, and where


@dataclass(frozen=True)
class ConversationReader:
    finder: PlaceFinder

    def read(self, history: list[Turn], state: BriefState, locale: Locale, today: dt.date) -> Understood:
        """The brief the whole conversation says; ``state`` holds the choices made to the server's
        numbered questions (and is updated with the question this reading leaves open)."""
        return self._understand(history, state, 0.0, locale, today)

    def _understand(
        self, history: list[Turn], state: BriefState, now: float, locale: Locale, today: dt.date
    ) -> Understood:
        """The brief the user turns say, read one after the other (a later turn refines an earlier one)."""
        history = _options_settled(history)  # "option A: ... option B: ...", then "let's do B"
        out = Understood(Collected(), locale)
        start_unknown = False  # the rider said the start is not decided
        end_unknown = False  # ...or the end
        aside = _SaidAside()  # places said as what the ends are not, or as the centre
        capitalizes = any(capitalizes_names(m.content) for m in history if m.role == "user")
        said_from: set[str] = set()  # what was said other than where people live, land or come from
        days_hint = DaysHint()  # "just the afternoon": one day, if no turn says how many
        days_open = False  # the days were left open ("2 or 3 days, not sure"): "let's say 3" settles them
        lodging_said = False  # a kind of lodging said, not only the hotel people stay at
        answered_start = None  # the start a turn gave alone ("Pas de la Casa"): "that's where we end"?
        for i, message in enumerate(history):
            if message.role != "user" or (i > 0 and _only_an_option(message.content, history[i - 1].content)):
                continue
            start_was = out.collected.start
            reading = read_turn(
                message.content,
                today=today,
                default_locale=locale,
                known_date=out.collected.startDate,
                capitalizes=capitalizes,
            )
            collected = out.collected = reading.merged_into(out.collected)
            asked_which = i > 0 and bool(_NUMBERED.search(history[i - 1].content))  # "2" answers that
            _count_answered(
                collected,
                normalize(message.content),
                asked_which=asked_which,
                days_open=days_open,
                doubted=reading.days_undecided,
            )
            days_left_open = reading.days_unknown or reading.days_undecided  # "2 or 3 days, not sure"
            days_open = (days_open or days_left_open) and not collected.durationDays
            _loop_said(collected, reading)
            days_hint = DaysHint() if days_left_open else days_hint | reading.days_hint
            lodging_said |= bool(reading.slots.accommodation) and not reading.hotel_as_base
            out.launch, out.locale = reading.launch, reading.locale
            was_a_loop, was_the_end = collected.roundTrip, collected.end
            asked = self._resolve_places(
                collected, SaidTurn(message.content, reading.places), state, now, out.locale, out.located
            )
            _turned(collected, reading, message.content)
            _the_answer_was_the_end(collected, answered_start, message.content)
            answered_start = _given_alone(collected.start, start_was, reading)
            _back_from(was_the_end, collected, reading, message.content)
            # "maybe Arinsal or maybe back to Canillo"; a loop, then "my partner wants to finish in France,
            # either Foix or Ax, we'll see"
            if reading.end_unknown and (not was_a_loop or reading.finish_said):
                collected.roundTrip = False
            start_unknown = reading.start_unknown or (start_unknown and not collected.start)
            end_unknown = reading.end_unknown or (end_unknown and not collected.end)
            aside.remember(reading)
            said_from |= {p.text for ps in reading.places.values() for p in ps if not p.loose}
            if collected.start:  # a start once said is no end named anywhere ("I'll be in Tampere")
                aside.not_the_end.add(normalize(collected.start))
            out.clarification = asked or out.clarification
        if not days_open:  # ("2 or 3 days" then "saturday": a day said, the count still open)
            out.collected.durationDays = days_hint.days(out.collected)
        if out.collected.durationDays == 1 and not lodging_said:  # "back to our hotel", on a day's ride
            out.collected.accommodation = None
        if out.clarification is not None and self._settled_by_the_trip(out, state):
            out.clarification = None
        turns = [m.content for m in history if m.role == "user"]
        self._ends_unsaid(
            out,
            turns,
            said_from,
            aside,
            start_unknown=start_unknown,
            end_unknown=end_unknown,
        )
        _ending_where_it_started(out.collected, out.located)
        return out

    def _ends_unsaid(
        self,
        out: Understood,
        turns: list[str],
        said_from: set[str],
        aside: _SaidAside,
        *,
        start_unknown: bool,
        end_unknown: bool,
    ) -> None:
        """The ends no word of starting or ending gave, read from the whole conversation: no place abroad
        only passed on the way there, the base the ride leaves from, a place named anywhere."""
        trip = out.collected
        loose = self._loosely_abroad(out, said_from)  # "we fly into Barcelona", then only Canillo
        out_of_reach = self._out_of_reach(out) - loose  # "a couple from Cardiff", on a week in the Pyrenees
        ends = trip.start, trip.end
        if passed := loose | out_of_reach:
            trip.start = None if trip.start in passed else trip.start
            trip.end = None if trip.end in passed else trip.end
            trip.via = [stop for stop in trip.via if stop not in passed]
        if out.clarification is None and not start_unknown:
            self._from_the_base(out.collected, turns, out.located)
        if not out.collected.start and aside.centre_start and not start_unknown:
            self._start_at_the_centre(out)
        if not out.collected.start and out.clarification is None and not start_unknown:
            self._start_named_anywhere(out.collected, turns, out.located, aside.taken_out)
        if not (end_unknown or out.clarification):
            self._end_named_anywhere(out.collected, turns, out.located, aside.not_the_end)
        # an end out of reach that nothing replaced is the rider's, and outside ("from Paris to Soldeu, 2
        # days"): said to be outside rather than asked for again
        trip.start = trip.start or (ends[0] if ends[0] in out_of_reach else None)
        trip.end = trip.end or (ends[1] if ends[1] in out_of_reach else None)

    def _start_at_the_centre(self, out: Understood) -> None:
        """ "start from the city centre", then "end in Munkkisaari": the centre of the area the brief's
        places, all said now, are in."""
        if isinstance(centre := _the_centre(self.finder.search, list(out.located.values())), Found):
            out.collected.start = centre.place.name
            out.located[centre.place.name] = centre.place

    def _settled_by_the_trip(self, out: Understood, state: BriefState) -> bool:
        """A question about a start or an end that only one namesake makes a trip of (its days, its limit,
        its other places): no question, that place (``settled_by_the_trip``)."""
        pending, trip = state.pending, out.collected
        if pending is None or pending.slot not in ("start", "end") or not trip.durationDays:
            return False
        other = [
            name for name in [trip.start, *trip.via, trip.end] if name and name != getattr(trip, pending.slot)
        ]
        if any(name not in out.located for name in other):
            return False  # a place of the trip not located: nothing to measure it by
        stops = [out.located[name] for name in trip.via]
        if pending.slot == "start":
            end = out.located.get(trip.end or "")
            route: list[Place | None] = (
                [None, *stops, None] if trip.roundTrip else [None, *stops, *([end] if end else [])]
            )  # (a loop comes back to the name)
        else:
            route = [out.located.get(trip.start or ""), *stops, None]
        settled = settled_by_the_trip(
            self.finder.search(pending.query), route, trip.durationDays, trip.dailyDistanceKm
        )
        if not isinstance(settled, Found):
            return False
        name = self._unambiguous(settled.place)
        setattr(trip, pending.slot, name)
        out.located[name] = settled.place
        state.pending = None
        return True

    def _unambiguous(self, place: Place) -> str:
        return unambiguous_name(place.name, place.label, self.finder.search)

    def _resolve_places(  # noqa: PLR0917
        self,
        collected: Collected,
        turn: SaidTurn,
        state: BriefState,
        now: float,
        locale: Locale,
        located: dict[str, Place],
    ) -> Asked | None:
        """Set each place slot from the first phrase of the turn that names a place; a later turn's place
        replaces an earlier one. An ambiguous place, or a place not found after a strong word ("from",
        "to"), becomes the numbered question. A clause that is only a name fills the start, else the end,
        when it is a place we route; a via point taken out ("skip Sispony") leaves the list; the area a
        trip is in is set aside (``_set_aside_setting``)."""
        text, phrases = turn
        # (each text looked up once in the turn: a geocoder may be remote, and rows and names are read twice)
        search = _once(self.finder.search)
        phrases = _rows_apart(search, phrases)
        ends_before = (collected.start, collected.end)
        question: Asked | None = None
        # The brief's places that name one place settle those that could be several (Pal, near Llorts)
        # (each phrase searched once: a geocoder may be remote)
        # (at most PHRASES_LOOKED_UP of a turn: a real turn names a few places, a 4,000-character one may
        # hold hundreds of phrases, each a lookup)
        texts = list(dict.fromkeys(p.text for ps in phrases.values() for p in ps))[:PHRASES_LOOKED_UP]
        strong = {p.text for ps in phrases.values() for p in ps if p.strong}
        searched = self._search(search, texts, located, strong)
        phrases = {slot: [p for p in ps if p.text in searched] for slot, ps in phrases.items()}
        earlier = {name: self.finder.search(name) for name in state.resolved.values()}
        context = _context(searched, strong, list(earlier.values()), located)
        for slot in PLACE_SLOTS:
            via: list[str] = []
            said_as: dict[str, str] = {}  # each stop's name as the turn wrote it
            for phrase in _in_order(slot, phrases.get(slot, []), searched):
                key = slot if slot != "via" else f"via:{phrase.text}"
                chosen = state.resolved.get(key)
                found = None if chosen else searched[phrase.text]
                if found is not None and _not_meant(phrase, found):
                    continue
                outcome = _meant(found, phrase, context) if found is not None else None
                if slot == "via" and outcome is not None:  # a stop the trip's ends settle (on the way)
                    outcome = on_the_way(outcome, *_ends_or_others(collected, located, context))
                if isinstance(outcome, Found):  # by its label when the name alone is still a question
                    chosen = outcome.place.name if outcome is found else self._unambiguous(outcome.place)
                    located[chosen] = located[phrase.text] = outcome.place  # (as said, for "Saint-Julien")
                elif chosen and isinstance(known := earlier.get(chosen), Found):
                    located[chosen] = located[phrase.text] = known.place
                if chosen:
                    if slot == "via":
                        via.append(chosen)
                        said_as.setdefault(chosen, phrase.text)
                        continue
                    setattr(collected, slot, chosen)
                    break
                sight = names_a_sight(phrase.text)  # "through Kaivopuisto park", "down to the market"
                if question is None and (
                    (isinstance(outcome, Ambiguous) and (phrase.strong or _any_of_ours(outcome)))
                    or (isinstance(outcome, NotFound) and phrase.strong and not sight)
                ):
                    question = self._question(slot, key, phrase.text, outcome, state, now, locale)
                    if question is not None and slot != "via":  # no question to ask: read the next phrase
                        break
            if via:
                collected.via = _stops_now(collected, via, said_as, turn, located)
        bare = [(p, searched[p.text]) for p in phrases.get("bare", [])]
        # names alone, several, in a turn that says its start or end: a list of stops ("1. Départ : Pas /
        # 2. Grau Roig / 3. Soldeu / 4. Arrivée : Canillo")
        listed = len(bare) >= 2 and ("start" in phrases or "end" in phrases)
        self._named_alone(
            collected,
            _on_the_way_of_a_list(bare, collected, located, context) if listed else bare,
            located,
            listed=listed,
        )
        answer = None if question else _an_ambiguous_answer(collected, bare, phrases, text)
        question = question or self._answered_alone(collected, answer, state, now, locale, located, context)
        _meant_instead(collected, phrases, searched, located)
        _skipped(collected, phrases.get("skip", []), searched)
        _back_to_the_start(collected, phrases.get("end", []), searched, located)
        _set_aside_setting(collected, ends_before, text, located, phrases)
        return question

    @staticmethod
    def _search(
        search: Callable[[str], SearchOutcome], texts: list[str], located: dict[str, Place], plain: set[str]
    ) -> dict[str, SearchOutcome]:
        """Each phrase through the geocoder, and for what names nothing: the village by a lake ("le lac
        d'Engolasters"), the place a plainly said phrase begins with ("Hakaniemi market", ``plain``: the
        phrases said after an unmistakable word), a name's first words when the brief says it in full
        elsewhere ("back to Pas", Pas de la Casa said before), "there" of an earlier turn."""
        searched = {text: search(text) for text in texts if text not in (THERE, CENTRE)}
        if THERE in texts:  # "I'd start and finish there": the place an earlier turn named last
            searched[THERE] = Found(last, 1.0, matched=THERE) if (last := _last(located)) else NotFound(THERE)
        if CENTRE in texts:  # "from the city centre down to Eira": the city's
            places = [*located.values(), *(o.place for o in searched.values() if isinstance(o, Found))]
            searched[CENTRE] = _the_centre(search, places)
        said_in_full: dict[str, SearchOutcome] = {t: searched[t] for t in texts if _ours(searched[t])}
        said_in_full |= {normalize(name): Found(place, 1.0) for name, place in located.items()}
        for text in texts:  # "le lac d'Engolasters": the village by it, if the lake itself is not known
            if isinstance(searched.get(text), NotFound) and (by := named_by_feature(search, text)):
                searched[text] = by
            trimmed = text in plain and isinstance(searched.get(text), NotFound)
            if trimmed and (piece := trimmed_to_ours(search, text)):
                searched[text] = Found(piece.place, piece.score, matched=text)  # "Hakaniemi market"
        for text in texts:
            if not _ours(searched[text]) and (full := shortened(text, list(said_in_full))):
                named = said_in_full[full]
                searched[text] = (
                    Found(named.place, named.score, matched=text) if isinstance(named, Found) else named
                )
        return searched

    @staticmethod
    def _out_of_reach(out: Understood) -> set[str]:
        """The brief's places abroad that its days could not ride to from the places of it we route
        (``beyond_reach``): where people come from, not places of the ride."""
        trip = out.collected
        places = {name: out.located.get(name) for name in [trip.start, trip.end, *trip.via] if name}
        ours = [place for place in places.values() if place is not None and place.region is not None]
        return {
            name
            for name, place in places.items()
            if place is not None
            and place.region is None
            and beyond_reach(place, ours, trip.durationDays or 0, trip.dailyDistanceKm)
        }

    @staticmethod
    def _loosely_abroad(out: Understood, said_from: set[str]) -> set[str]:
        """The brief's places abroad said only as where people live, land, come from or pass on the way
        there ("we fly into Barcelona", "drive home via Foix") while the brief names a place we route:
        no places of the ride."""
        if not any(place.region is not None for place in out.located.values()):
            return set()
        trip = out.collected
        abroad = {
            name: place
            for name in [trip.start, trip.end, *trip.via]
            if name and (place := out.located.get(name)) is not None and place.region is None
        }
        return {
            name
            for name, place in abroad.items()
            if not any(
                out.located.get(t) == place or normalize(t) == normalize(place.name) for t in said_from
            )
        }

    def _from_the_base(self, collected: Collected, turns: list[str], located: dict[str, Place]) -> None:
        """No start said (or the start said is the base's place), and the ride leaves from or comes back to
        a base placed in a village or district we route ("park the car in Pas de la Casa... back to the
        car"): the ride starts there, a loop if it comes back (``base_said``)."""
        if (base := base_said(turns)) is None:
            return
        # (the longest words that name a place we route: "the hostel in Kamppi at night"; not trimmed_to_ours,
        # which takes no shortened name, and "sant julia samedi" is Sant Julià de Lòria)
        for name in base.names:
            found = self.finder.search(name)
            if isinstance(found, Found) and found.place.region is not None:
                place = found.place
                break
        else:
            return
        if collected.start and located.get(collected.start) != place and collected.start != place.name:
            return
        collected.start = collected.start or place.name
        located[collected.start] = place
        collected.via = [stop for stop in collected.via if located.get(stop) != place and stop != place.name]
        if base.comes_back and (not collected.end or collected.end == collected.start):
            collected.end, collected.roundTrip = None, True

    def _start_named_anywhere(
        self, collected: Collected, turns: list[str], located: dict[str, Place], taken_out: set[str]
    ) -> None:
        """No word said where the trip starts: a place we route named anywhere (``place_named_anywhere``);
        the recap says it, to be corrected."""
        if _back_where_they_are(collected, turns):
            return
        taken = {normalize(n) for n in [collected.end, *collected.via] if n} | taken_out
        # a district before the whole area ("in Tampere, our hotel is in Kamppi"); the area itself only
        # for a trip that has its end, or is a loop ("a loop in Tampere": from its centre)
        place = place_named_anywhere(self.finder.search, turns, taken, settings=False)
        if place is None and (collected.end or collected.roundTrip):
            place = place_named_anywhere(self.finder.search, turns, taken)
        if place:
            collected.start = place.name
            located[place.name] = place

    def _end_named_anywhere(
        self, trip: Collected, turns: list[str], located: dict[str, Place], not_the_end: set[str]
    ) -> None:
        """A trip with a start, no loop and no word for its end: the last place we route named anywhere
        and not otherwise taken (``end_named_anywhere``); the recap says it, to be corrected."""
        if not trip.start or trip.end or trip.roundTrip:
            return
        taken = {normalize(n) for n in [trip.start, *trip.via] if n} | not_the_end
        if place := end_named_anywhere(self.finder.search, turns, taken, settings=False):
            trip.end = place.name
            located[place.name] = place

    @staticmethod
    def _named_alone(
        collected: Collected,
        said: list[tuple[PlacePhrase, SearchOutcome]],
        located: dict[str, Place],
        *,
        listed: bool = False,
    ) -> None:
        """A clause that is only a name fills the start, else the end: when it is a place we route
        ("Hotels." or "Bonjour." are no place), or, when it opens its turn, a town abroad by its very name
        (the answer "Toulouse, I live there": then said to be outside the area, not ignored). Names alone
        ``listed`` between a start and an end are stops."""
        for phrase, outcome in said:
            if not isinstance(outcome, Found):
                continue
            abroad = outcome.place.region is None
            exact = normalize(phrase.text) in (normalize(outcome.place.name), outcome.matched)
            if abroad and not (phrase.strong and exact and outcome.place.kind in ("city", "town")):
                continue
            free = "start" if not collected.start else None
            if free is None and not collected.end and not collected.roundTrip:
                free = "end"
            name = outcome.place.name
            if free:
                setattr(collected, free, name)
                located[name] = outcome.place
            elif listed and not abroad and name not in (collected.start, collected.end, *collected.via):
                collected.via = [*collected.via, name]
                located[name] = outcome.place

    def _answered_alone(  # noqa: PLR0917
        self,
        collected: Collected,
        answer: tuple[str, PlacePhrase, Ambiguous] | None,
        state: BriefState,
        now: float,
        locale: Locale,
        located: dict[str, Place],
        context: list[Place],
    ) -> Asked | None:
        """The answer "Santa Coloma" to "where does it start?": the namesake the brief's other places
        settle ("Pal" after "from Canillo": the village), or chosen since ("1", "the French one"), else
        the question (not nothing, and not a guess)."""
        if answer is None:
            return None
        slot, phrase, outcome = answer
        if isinstance(settled := settled_by(outcome, context), Found):
            name = self._unambiguous(settled.place)
            setattr(collected, slot, name)
            located[name] = located[phrase.text] = settled.place
            return None
        if (chosen := state.resolved.get(slot)) and isinstance(known := self.finder.search(chosen), Found):
            setattr(collected, slot, chosen)
            located[chosen] = known.place
            return None
        return self._question(slot, slot, phrase.text, outcome, state, now, locale)

    def _question(  # noqa: PLR0917
        self,
        slot: str,
        key: str,
        phrase: str,
        outcome: Ambiguous | NotFound,
        state: BriefState,
        now: float,
        locale: Locale,
    ) -> Asked | None:
        """A place worth a numbered question (namesakes, or near misses close enough to be a typo): the
        server asks it; none when there is nothing to offer (the next phrase is read instead)."""
        if not worth_asking(phrase, outcome):
            return None
        state.pending = Pending(key, phrase, [], now)  # (the server asks it, with the options: not us)
        return Asked(slot, key, phrase)


def _stops_now(
    collected: Collected, said: list[str], said_as: dict[str, str], turn: SaidTurn, located: dict[str, Place]
) -> list[str]:
    """The via points once a turn names some: the turn's alone when it says the route again or changes it
    ("oups, pas Ordino, par Llorts"), else those said before and then these ("on pourrait s'arrêter à
    Aixovall au retour": one more stop), each where the turn puts it ("add Canillo before Soldeu",
    "ajoute Aixovall juste après le départ"). Each once: "via Meritxell, Prats... then Prats"."""
    text, phrases = turn
    norm = normalize(text)
    if not ADDED.search(norm) and ("start" in phrases or "end" in phrases or STOPS_CHANGED.search(norm)):
        return list(dict.fromkeys(said))
    # (the area the trip is in, read as a stop from "une balade à Tampere", is no stop of it)
    stops = [name for name in collected.via if not ((place := located.get(name)) and is_setting(place))]
    spellings = {
        key: _spellings(name, located)
        for key, name in [("start", collected.start), ("end", collected.end), *((s, s) for s in stops)]
    }
    return placed(
        [(stop, normalize(said_as.get(stop, stop))) for stop in dict.fromkeys(said)], stops, norm, spellings
    )


def _spellings(name: str | None, located: dict[str, Place]) -> set[str]:
    """The names a place of the brief goes by in the conversation ("les Escaldes", "escaldes")."""
    if not name:
        return set()
    place = located.get(name)
    return {normalize(name)} | {normalize(text) for text, other in located.items() if other == place}


def _options_settled(history: list[Turn]) -> list[Turn]:
    """The conversation, each turn of options read as the option chosen later (``with_options_settled``)."""
    settled = iter(with_options_settled([m.content for m in history if m.role == "user"]))
    return [Turn(m.role, next(settled)) if m.role == "user" else m for m in history]


@dataclass
class _SaidAside:
    """What the turns said of places, for the ends no word gave (``_ends_unsaid``)."""

    not_the_end: set[str] = field(default_factory=set)  # said as a start, or taken out
    taken_out: set[str] = field(default_factory=set)  # "actually maybe not Encamp": no start either
    centre_start: bool = False  # "start from the city centre": the area's, once its places are said

    def remember(self, reading: Reading) -> None:
        self.not_the_end |= {p.text for slot in ("start", "skip") for p in reading.places.get(slot, [])}
        self.taken_out |= {p.text for p in reading.places.get("skip", [])}
        self.centre_start |= any(p.text == CENTRE for p in reading.places.get("start", []))


def _loop_said(collected: Collected, reading: Reading) -> None:
    """A loop no more, or an end said before dropped for one."""
    if reading.one_way:  # "instead of coming back"
        collected.roundTrip = False
    # "let's finish where we started" (an end said before: where "A to B... aller-retour" turns)
    elif reading.slots.roundTrip and "end" not in reading.places and not reading.out_and_back:
        collected.end = None


def _given_alone(start: str | None, start_was: str | None, reading: Reading) -> str | None:
    """The start a turn gave as a name alone ("Pas de la Casa"), the way an answer to "where from?" is."""
    return start if start != start_was and set(reading.places) <= {"bare"} else None


def _the_answer_was_the_end(collected: Collected, answered: str | None, text: str) -> None:
    """ "Pas de la Casa", then "wait, no - that's where we want to end": the place given alone as the
    start is the end."""
    if answered and any(THAT_WAS_THE_END.search(normalize(part)) for part in re.split(r"[.!?;]", text)):
        collected.end, collected.roundTrip = answered, False
        collected.start = None if collected.start == answered else collected.start


def _back_from(was_the_end: str | None, collected: Collected, reading: Reading, text: str) -> None:
    """ "Ordino to Arinsal" then "back to Ordino at the end": the end said before is where the loop turns
    (not "no, end in Ordino": instead; nor a turn that says the whole route again)."""
    back = collected.start and collected.end == collected.start and "end" in reading.places
    norm = normalize(text)
    changed = STOPS_CHANGED.search(norm)
    again = reading.one_way or reading.out_and_back or "start" in reading.places
    if back and was_the_end and was_the_end != collected.start and not (changed or again):
        collected.via = list(dict.fromkeys([*collected.via, was_the_end]))
        collected.roundTrip = True


def _turned(collected: Collected, reading: Reading, text: str) -> None:
    """What a turn says of the trip's shape once its places are read: back the way it came, a loop no
    more, the other way round, a start or an end not decided after all."""
    if reading.out_and_back:
        collected.end, collected.via = turned_back(collected.start, collected.end, collected.via)
    ends = [p for p in reading.places.get("end", []) if p.strong]
    new_route = reading.finish_said or "start" in reading.places  # (not "up to the lake": a far end)
    elsewhere = bool(ends and collected.end and collected.end != collected.start)
    if elsewhere and new_route and not reading.slots.roundTrip:
        collected.roundTrip = False  # "back to the first plan, finishing in La Massana"
    elif elsewhere and collected.roundTrip and collected.end:  # a loop "up to the lake": where it turns
        collected.via = _in_the_order_said(list(dict.fromkeys([*collected.via, collected.end])), text)
        collected.end = None
    both = "start" in reading.places and "end" in reading.places  # "...: de la Seu à Encamp"
    if reading.reversed and collected.end and not collected.roundTrip and not both:  # "the other way round"
        collected.start, collected.end = collected.end, collected.start
    if reading.reversed and "via" not in reading.places:  # the stops too, a loop's included
        collected.via = collected.via[::-1]
    if reading.start_unknown:  # "not sure yet where to start", "torn between A or B"
        collected.start = None
    # "Llorts, or...", "not sure about Soldeu anymore, maybe further"
    if reading.end_unknown:
        collected.end = None
    if reading.end_unknown and reading.slots.roundTrip:  # "maybe Arinsal or maybe back to Canillo"
        collected.roundTrip = False
    if reading.days_unknown:  # "let's leave the number of days open for now"
        collected.durationDays = None


def _back_to_the_start(
    collected: Collected,
    ends: list[PlacePhrase],
    searched: dict[str, SearchOutcome],
    located: dict[str, Place],
) -> None:
    """A turn that goes on to the start after its end ("Kamppi to Kallio, stay there, then back to Kamppi",
    "kallio → sörnäinen → retour kallio"): a loop, through the places it named before going back; "from
    Soldeu to Soldeu": a loop."""
    if collected.start and collected.start == collected.end:
        collected.roundTrip = True
    start = located.get(collected.start or "")
    places = [o.place for p in ends if isinstance(o := searched.get(p.text), Found)]
    if start is None or not (back := [i for i, p in enumerate(places) if i > 0 and _same_place(p, start)]):
        return
    stops = [p.name for p in places[: back[-1]] if not _same_place(p, start)]
    collected.via = list(dict.fromkeys([*stops, *collected.via]))
    collected.end, collected.roundTrip = None, True


def _in_the_order_said(stops: list[str], text: str) -> list[str]:
    """A loop's stops in the order the turn names them ("a loop from Kluuvi to Kaisaniemi, Hakaniemi and
    Kallio": where it turns first); as they were if the turn does not name them all."""
    said = normalize(text)
    at = {stop: said.find(normalize(stop)) for stop in stops}
    return stops if min(at.values(), default=0) < 0 else sorted(stops, key=at.__getitem__)


def _ending_where_it_started(trip: Collected, located: dict[str, Place]) -> None:
    """A trip whose end, however found, is its start is a loop ("de Pal à Arinsal puis Xixerella", then
    "et retour à Pal")."""
    start, end = (located.get(name or "") for name in (trip.start, trip.end))
    if start and end and start.place_id == end.place_id:  # (not near: a city's districts are)
        trip.roundTrip = True


def _same_place(one: Place, other: Place) -> bool:
    return one.place_id == other.place_id or distance_km(one.lat, one.lon, other.lat, other.lon) < 1


def _skipped(collected: Collected, skips: list[PlacePhrase], searched: dict[str, SearchOutcome]) -> None:
    """A place taken out ("skip Sispony", "on laisse tomber Foix") leaves the via points, the start and
    the end."""
    for phrase in skips:  # "skip Sispony"
        outcome = searched[phrase.text]
        dropped = {normalize(phrase.text)} | (
            {normalize(outcome.place.name)} if isinstance(outcome, Found) else set()
        )
        collected.via = [v for v in collected.via if normalize(v) not in dropped]
        for slot in ("start", "end"):  # "on laisse tomber Foix": not the start either
            if (value := getattr(collected, slot)) and normalize(value) in dropped:
                setattr(collected, slot, None)


def _meant_instead(
    collected: Collected,
    phrases: dict[str, list[PlacePhrase]],
    searched: dict[str, SearchOutcome],
    located: dict[str, Place],
) -> None:
    """ "pas Kalasatama, je voulais dire Kallio": the place meant, wherever the other one was."""
    for was, now in zip(phrases.get("was", []), phrases.get("now", []), strict=False):
        old, new = searched.get(was.text), searched.get(now.text)
        if new is not None and not isinstance(new, Found):  # "not La Massana, Santa Coloma"
            new = settled_by(new, list(located.values()))
        if not isinstance(new, Found):
            continue
        gone = {normalize(was.text)} | ({normalize(old.place.name)} if isinstance(old, Found) else set())
        located[new.place.name] = new.place
        for slot in ("start", "end"):
            if (value := getattr(collected, slot)) and _taken_back(value, gone):
                setattr(collected, slot, new.place.name)
        collected.via = [new.place.name if _taken_back(v, gone) else v for v in collected.via]


def _back_where_they_are(collected: Collected, turns: list[str]) -> bool:
    """No start said, and the end is where people come back to ("we're at a hotel in La Massana...
    up to Pal, and back to La Massana the same day"), or a loop comes back to one of its stops ("4
    days, a loop back to Pas de la Casa, through Canillo..."): a loop from there."""
    if collected.start:
        return False
    if collected.end is None:
        back = [stop for stop in collected.via if _said_back_to(stop, turns)] if collected.roundTrip else []
        if back:
            collected.start = back[-1]
            collected.via = [stop for stop in collected.via if stop != back[-1]]
        return bool(back)
    if not _said_back_to(collected.end, turns):
        return False
    collected.start, collected.end, collected.roundTrip = collected.end, None, True
    return True


def _said_back_to(name: str, turns: list[str]) -> bool:
    """Whether a turn says people come back to the place ("back to Encamp", "retour à Encamp")."""
    back_to = _back_to(normalize(name))
    return any(back_to.search(normalize(turn)) for turn in turns)


@lru_cache(maxsize=64)  # (a handful of stops and turns: compiled once per name, not per stop and turn)
def _back_to(name: str) -> re.Pattern[str]:
    return lazy(rf"\b(?:back (?:to|in|at)|retour (?:a|vers|sur)|rentrer a|revenir a) {re.escape(name)}\b")


def _taken_back(name: str, gone: set[str]) -> bool:
    """Whether a place is one taken back, by its name or its name's first word ("sorry, Etu-Töölö, not
    Taka": Taka-Töölö)."""
    return normalize(name) in gone or bool(gone & set(normalize(name).split()[:1]))


def _ends_or_others(
    collected: Collected, located: dict[str, Place], context: list[Place]
) -> tuple[Place | None, Place | None]:
    """The places a stop lies between: the trip's ends, or, its start not known yet (said later, or only
    by where people stay), the first and last other places of the brief that we route ("spending the week
    in Escaldes... ride to Sant Julià via La Massana and Santa Coloma")."""
    start, end = (located.get(name or "") for name in (collected.start, collected.end))
    if start is None and (ours := [p for p in context if p.region is not None]):
        return ours[0], ours[-1]
    return start, end


def _rows_apart(
    search: Callable[[str], SearchOutcome], phrases: dict[str, list[PlacePhrase]]
) -> dict[str, list[PlacePhrase]]:
    """Names typed in a row with no comma, each a place we route, are one after the other ("via la
    massana ordino canillo"); three or more names alone, each a place we route, are a route from the
    first, via the others, to the last ("kallio sornainen kamppi kallio", "Escaldes, Engolasters,
    Encamp, Canillo, sur la journée"), unless the turn says its start or end."""
    out: dict[str, list[PlacePhrase]] = {}
    for slot, said in phrases.items():
        for phrase in said:
            row = names_in_a_row(search, phrase.text) if slot in ("via", "bare") else None
            out.setdefault(slot, []).extend([replace(phrase, text=name) for name in row] if row else [phrase])
    bare = out.get("bare", [])
    if (
        len(bare) >= 3
        and not {"start", "end"} & out.keys()
        and all(ours_by_name(p.text, search(p.text)) for p in bare)
    ):
        del out["bare"]
        out["start"], out["end"] = [bare[0]], [bare[-1]]
        out["via"] = [*bare[1:-1], *out.get("via", [])]
    return out


def _once(search: Callable[[str], SearchOutcome]) -> Callable[[str], SearchOutcome]:
    """The geocoder, each text looked up once."""
    return lru_cache(maxsize=None)(search)


def _an_ambiguous_answer(
    collected: Collected,
    bare: list[tuple[PlacePhrase, SearchOutcome]],
    phrases: dict[str, list[PlacePhrase]],
    text: str,
) -> tuple[str, PlacePhrase, Ambiguous] | None:
    """A turn that is only a name with namesakes here and abroad ("Santa Coloma"), while the start or the
    end is still to say: that slot, the phrase and its namesakes (a question to ask, not a guess)."""
    if len(bare) != 1 or any(phrases.get(slot) for slot in PLACE_SLOTS):
        return None
    phrase, outcome = bare[0]
    free = "start" if not collected.start else "end" if not (collected.end or collected.roundTrip) else None
    if free is None or not isinstance(outcome, Ambiguous) or not _any_of_ours(outcome):
        return None
    return (free, phrase, outcome) if normalize(text) == normalize(phrase.text) else None


def _any_of_ours(outcome: Ambiguous) -> bool:
    """Whether a namesake is a place we route: a loosely read phrase ("pas de pont cette année": "de pont")
    whose namesakes all lie abroad is no question worth asking."""
    return any(candidate.place.region is not None for candidate in outcome.candidates)


def _on_the_way_of_a_list(
    said: list[tuple[PlacePhrase, SearchOutcome]],
    trip: Collected,
    located: dict[str, Place],
    context: list[Place],
) -> list[tuple[PlacePhrase, SearchOutcome]]:
    """Names alone listed as stops: each the namesake the brief's other places and ends settle, as a via
    point's ("Start La Massana, Santa Coloma, Aixovall, Sant Julia": the village, not Gramenet)."""
    ends = _ends_or_others(trip, located, context)
    return [(phrase, on_the_way(settled_by(found, context), *ends)) for phrase, found in said]


def _count_answered(
    collected: Collected, said: str, *, asked_which: bool, days_open: bool, doubted: bool
) -> None:
    """A count said alone answers "how many days?" ("2", unless a numbered question was asked); once the
    days were left open ("2 or 3 days, not sure"), a count chosen in so many words settles them ("let's
    say 3"); days doubted again ("je sais plus si je fais 3 jours ou une semaine") are open."""
    if doubted and not settled_count(said):
        collected.durationDays = None
        return
    if collected.durationDays:
        return
    days = None if asked_which else bare_count(said)
    if days is None and (days_open or doubted):  # ("Ola says 1, I say 2. she's driving so 1")
        days = settled_count(said)
    if days:
        collected.durationDays = days


def _context(
    searched: dict[str, SearchOutcome],
    strong: set[str],
    earlier: list[SearchOutcome],
    located: dict[str, Place],
) -> list[Place]:
    """The brief's places that settle those of several namesakes: the turn's, those chosen before, and
    those earlier turns named ("start in Alppila instead", of Kallio); not a word loosely read as a town
    abroad it only resembles ("de rando": Bandō, Japan)."""
    named = [o for text, o in searched.items() if text in strong or not far_fetched(o, text)]
    return [o.place for o in [*named, *earlier] if isinstance(o, Found)] + list(located.values())


def _meant(found: SearchOutcome, phrase: PlacePhrase, context: list[Place]) -> SearchOutcome:
    """What a phrase names: of its namesakes, the one the brief's other places settle; a name found
    nowhere after a strong word, the place we route it misspells ("from escladas": from les Escaldes)."""
    outcome = settled_by(found, context)
    if isinstance(outcome, NotFound) and phrase.strong:
        return typo_of_ours(outcome) or outcome
    return outcome


def _in_order(slot: str, phrases: list[PlacePhrase], searched: dict[str, SearchOutcome]) -> list[PlacePhrase]:
    """The order a slot's phrases are tried in: via points as said; for a start or an end, those after
    "from", "to" first, as generation reads them (they say most plainly what is a place); and for a start,
    a place we route before one abroad ("Coming over from Tallinn... riding from Kaartinkaupunki")."""
    if slot == "via":
        return phrases
    ordered = sorted(phrases, key=lambda p: not p.strong)
    if slot == "start":
        ordered.sort(key=lambda p: not (_ours(searched[p.text]) and not _not_meant(p, searched[p.text])))
    # "une boucle à Tampere : départ Punavuori": the district, not the area it is in
    ordered.sort(key=lambda p: isinstance(found := searched[p.text], Found) and is_setting(found.place))
    return ordered


def _set_aside_setting(
    trip: Collected,
    before: tuple[str | None, str | None],
    text: str,
    located: dict[str, Place],
    phrases: dict[str, list[PlacePhrase]],
) -> None:
    """The whole area a trip is in, taken for its start or end from no plain word ("a ride in Tampere",
    "tampere" alone): out of the slot, for a district said later to fill it (or, for a start, named
    anywhere when none is: ``_start_named_anywhere``). Not its centre, said for the slot ("from the city
    centre")."""
    centred = {slot for slot, said in phrases.items() if any(p.text == CENTRE for p in said)}
    for slot, was in zip(("start", "end"), before, strict=True):
        name = getattr(trip, slot)
        place = located.get(name or "")
        if place is None or name == was or not is_setting(place):
            continue  # (not this turn's: "Turku to Tampere", then "three days")
        if said_as_an_end(text, place.name) or slot in centred:
            continue  # "from Tampere to Kallio", "Tampere to Espoo and back to Tampere"
        setattr(trip, slot, None)


def _the_centre(search: Callable[[str], SearchOutcome], named: list[Place]) -> SearchOutcome:
    """The centre of the one area the brief's other places are in, when the area is a town of its own
    (Tampere; not a country, whose centre could be any of its villages')."""
    regions = {place.region for place in named if place.region}
    if len(regions) == 1 and isinstance(area := search(regions.pop()), Found) and is_setting(area.place):
        return Found(area.place, 1.0, matched=CENTRE)
    return NotFound(CENTRE)


def _last(located: dict[str, Place]) -> Place | None:
    return next(reversed(located.values()), None)


def _ours(outcome: SearchOutcome) -> bool:
    """A place we route, found alone."""
    return isinstance(outcome, Found) and outcome.place.region is not None


def _not_meant(phrase: PlacePhrase, found: SearchOutcome) -> bool:
    """A loosely read phrase found abroad under another name ("de Lòria": Glória, Brazil), or a lowercase
    word among capitalized names that is no place we route ("to say": Say, Niger)."""
    if not phrase.cased and not _ours(found):
        return True
    return not phrase.strong and far_fetched(found, phrase.text)
