"""Use case: one turn of the stateless brief chat (``POST /trips/ai-chat``).

The model understands, the server checks. The client sends the whole conversation each turn. Before any
model call: roles, sizes, the per-user rate limit and the provider. Then the configured reader (a model
through any provider, or the offline reader behind ``rules``: ``brief_understanding``) answers with its
reply, the brief as it understood it and whether it thinks it is ready, and the server holds every
reader's answer to the same checks:

- the brief's bounds (``Collected.lenient``);
- each place named, geocoded; a name with namesakes settled by the brief's other places, or asked as a
  numbered question; a name found nowhere left out (or asked, when it is close to a place we know);
- the answers to the server's own numbered questions (``domain.choice``), which only the server reads;
- the coverage guard: a place outside the area routes can be planned in is said so, by name;
- ``missing``, ``canLaunch``, and ``ready = the reader says ready ∧ nothing missing ∧ every place found``.

Where the server changes what the reader said, the reply says so. Assistant turns are untrusted: the only
thing they carry that the server believes is its own signed state (the brief it held, the choices made,
a pending question), checked by its signature.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from tripagent.application.brief_state import (
    CLARIFICATION_TTL_S,
    STATE_MARK,
    BriefState,
    Chosen,
    Pending,
    StateSigner,
    read_state,
    state_mark,
)
from tripagent.application.brief_understanding import (
    ModelReader,
    PendingQuestion,
    TurnToRead,
)
from tripagent.application.llm import Message
from tripagent.domain.brief import MAX_STOPS, Collected, Locale, Refused
from tripagent.domain.choice import Option as Choosable
from tripagent.domain.choice import choose
from tripagent.domain.places import (
    Ambiguous,
    Found,
    NotFound,
    Place,
    SearchOutcome,
    normalize,
    on_the_way,
    settled_by,
    settled_by_the_trip,
    typo_of_ours,
    unambiguous_name,
    worth_asking,
)
from tripagent.errors import RateLimited, ValidationFailed

if TYPE_CHECKING:  # (protocols only: a cold start does not load the trip model for them)
    from tripagent.application.llm import ModelProvider
    from tripagent.application.places import CoverageMap, PlaceFinder
    from tripagent.application.ports import RateLimiter


class ChatTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: str
    content: str


@dataclass(frozen=True)
class BriefLimits:
    max_messages: int = 24
    max_message_chars: int = 4000
    rate_limit: int = 20
    rate_window_s: int = 60
    max_output_tokens: int = 600


class Option(BaseModel):
    index: int
    label: str


class Clarification(BaseModel):
    question: str
    options: list[Option]


class BriefReply(BaseModel):
    reply: str
    readyToGenerate: bool
    collected: Collected
    missing: list[str]
    canLaunch: bool
    turnsLeft: int
    clarification: Clarification | None = None
    brief: str = Field(description="The consolidated brief that POST /trips/ai-generate accepts.")
    model: str


def answer_index(answer: str, options: list[dict[str, Any]]) -> int | None:
    """Which option a reply chooses (``domain.choice``), as the option's own ``index``."""
    chosen = choose(answer, [Choosable(name=o["name"], label=o["label"]) for o in options])
    return int(options[chosen - 1]["index"]) if chosen else None


@dataclass(frozen=True)
class _Choice:
    """The option a rider chose in answer to the server's numbered question, this turn."""

    slot: str  # "start", "end" or "via:<name asked about>"
    place: str  # the name that finds the chosen place alone
    label: str


@dataclass
class _Checked:
    """The brief once the server has checked the reader's places."""

    collected: Collected
    search: Callable[[str], SearchOutcome]  # the turn's geocoder, each text looked up once
    located: dict[str, Place] = field(default_factory=dict)  # each place name the slots hold, and where
    clarification: Clarification | None = None
    not_found: list[str] = field(default_factory=list)  # names found nowhere, left out
    refused: list[Refused] = field(default_factory=list)  # values the server's own checks left out


@dataclass(frozen=True)
class BriefChat:
    finder: PlaceFinder
    limiter: RateLimiter
    signer: StateSigner
    limits: BriefLimits = BriefLimits()
    # Where routes can be planned: a brief naming a place outside is not ready (generation would refuse it)
    coverage: CoverageMap | None = None

    # ------------------------------------------------------------------ checks before any model call
    def validate(self, messages: list[ChatTurn]) -> None:
        if not messages:
            raise ValidationFailed("messages must not be empty.", details=[{"loc": ["body", "messages"]}])
        if len(messages) > self.limits.max_messages:
            raise ValidationFailed(
                f"At most {self.limits.max_messages} messages per conversation.",
                details=[{"loc": ["body", "messages"], "limit": self.limits.max_messages}],
            )
        for index, message in enumerate(messages):
            if message.role not in ("user", "assistant"):
                raise ValidationFailed(
                    f"messages[{index}].role must be user or assistant, not {message.role!r}.",
                    details=[{"loc": ["body", "messages", index, "role"]}],
                )
            # (an assistant turn carries the server's signed mark besides what it said: not counted)
            said = STATE_MARK.sub("", message.content) if message.role == "assistant" else message.content
            if len(said) > self.limits.max_message_chars:
                raise ValidationFailed(
                    f"messages[{index}] is longer than {self.limits.max_message_chars} characters.",
                    details=[
                        {
                            "loc": ["body", "messages", index, "content"],
                            "limit": self.limits.max_message_chars,
                        }
                    ],
                )
        if messages[-1].role != "user":
            raise ValidationFailed(
                "The last message must be the user's.",
                details=[{"loc": ["body", "messages", len(messages) - 1, "role"]}],
            )

    def check_rate(self, caller: str) -> None:
        retry_after = self.limiter.hit(
            f"ai-chat#{caller}", limit=self.limits.rate_limit, window_s=self.limits.rate_window_s
        )
        if retry_after is not None:
            raise RateLimited("Too many messages: wait a moment.", retry_after_s=retry_after)

    def handle(
        self,
        caller: str,
        messages: list[ChatTurn],
        locale: Locale,
        resolve_model: Callable[[str], tuple[ModelProvider, str]],
        *,
        now: float,
        today: dt.date,
        time_zone: str = "UTC",
    ) -> BriefReply:
        """The whole turn in the order the contract sets: input checks, rate limit, provider, then work."""
        self.validate(messages)
        self.check_rate(caller)
        provider, model = resolve_model(caller)
        return self.turn(messages, locale, provider, model, now=now, today=today, time_zone=time_zone)

    # ------------------------------------------------------------------ the turn
    def turn(
        self,
        messages: list[ChatTurn],
        locale: Locale,
        provider: ModelProvider,
        model: str,
        *,
        now: float,
        today: dt.date,
        time_zone: str = "UTC",
    ) -> BriefReply:
        state = read_state(self.signer, messages)
        history = [ChatTurn(role=m.role, content=STATE_MARK.sub("", m.content)) for m in messages]
        asked, choice = self._answered(state, history[-1].content, now)
        understanding = ModelReader(provider, model, self.limits.max_output_tokens).understand(
            TurnToRead(
                messages=tuple(
                    Message("user" if m.role == "user" else "assistant", m.content) for m in history
                ),
                today=today,
                time_zone=time_zone,
                locale=locale,
                collected=state.collected,
                areas=tuple(self.coverage.region_labels().values()) if self.coverage else (),
                pending=asked,
                chosen=choice.label if choice else None,
                choices=tuple(state.choices),
            )
        )
        said_in = understanding.locale or locale
        said = _with_choice(understanding.collected, choice)
        checked = self._checked_places(said, understanding.unsure, state, now, said_in, today)
        collected, clarification = checked.collected, checked.clarification
        outside = self._outside(collected, checked.located)
        missing = collected.missing()
        can_launch = bool(collected.start) and not outside
        by = "tripagent"  # who wrote the reply: the server, where its checks have the last word
        if clarification is not None:
            reply = (
                clarification.question
                + "\n"
                + "\n".join(f"{o.index}. {o.label}" for o in clarification.options)
            )
        elif outside:  # no model can plan there either
            reply = self._outside_reply(outside, said_in)
        else:
            reply, by = understanding.reply, understanding.model
        still_needed = missing if understanding.ready and clarification is None and not outside else []
        reply = _with_notes(
            reply, [*understanding.refused, *checked.refused], checked.not_found, still_needed, said_in
        )
        if collected.dailyClimbM and collected.dailyClimbM != state.collected.dailyClimbM:
            reply = _with_flat_areas(reply, self._without_heights(collected, checked.located), said_in)
        every_place_found = clarification is None and not outside and not checked.not_found
        ready = understanding.ready and not missing and every_place_found
        state.collected = collected
        mark = state_mark(self.signer, state, now)
        turns_left = max(0, (self.limits.max_messages - len(messages)) // 2)
        return BriefReply(
            reply=f"{reply}\n\n{mark}",
            readyToGenerate=ready,
            collected=collected,
            missing=missing,
            canLaunch=can_launch,
            turnsLeft=turns_left,
            clarification=clarification,
            brief=consolidated_brief(collected, [m.content for m in history if m.role == "user"]),
            model=by,
        )

    def _answered(
        self, state: BriefState, last: str, now: float
    ) -> tuple[PendingQuestion | None, _Choice | None]:
        """The server's pending numbered question, as the reader is told of it, and the rider's answer to
        it (``1``, "the French one"), which is the server's to read: the place chosen is kept in the
        state, by its slot and by the name asked about, and holds whatever the reader writes. The question
        is closed either way: a new message was sent."""
        pending = state.pending
        state.pending = None
        if pending is None or now - pending.created_at > CLARIFICATION_TTL_S:
            return None, None
        asked = PendingQuestion(pending.slot, pending.query, tuple(str(o["label"]) for o in pending.options))
        chosen = answer_index(last, pending.options)
        if chosen is None:
            return asked, None
        option = next(o for o in pending.options if int(o["index"]) == chosen)
        place = unambiguous_name(str(option["name"]), str(option["label"]), self.finder.search)
        state.choices.append(Chosen(pending.slot, pending.query, place))
        return asked, _Choice(pending.slot, place, str(option["label"]))

    # ------------------------------------------------------------------ the server's checks of places
    def _checked_places(  # noqa: PLR0917
        self,
        said: Collected,
        unsure: tuple[str, ...],
        state: BriefState,
        now: float,
        locale: Locale,
        today: dt.date,
    ) -> _Checked:
        """Each place the reader named, geocoded: a name chosen in answer to a question is the place chosen;
        namesakes are settled by the brief's other places (and by what its days can ride), else asked; a
        name found nowhere is a misspelling of a place we route, a question if it is close to some, or
        left out. The slots then hold each place by a name that finds it alone (generation reads them
        again). A name the reader is ``unsure`` of is asked about whenever it has namesakes."""
        search = _once(_with_its_area_said(self.finder.search))
        doubted = {normalize(name) for name in unsure}
        trip = said.model_copy(deep=True)
        refused: list[Refused] = []
        if trip.startDate and trip.startDate < today:  # ("June 1st" read in a year gone by)
            refused.append(Refused("startDate", trip.startDate.isoformat(), "past"))
            trip.startDate = None
        if len(trip.via) > MAX_STOPS:
            refused.append(Refused("via", ", ".join(trip.via[MAX_STOPS:]), f"more than {MAX_STOPS} stops"))
            trip.via = trip.via[:MAX_STOPS]
        answered = state.answered
        trip.start, trip.end = (answered.get(normalize(n), n) if n else None for n in (said.start, said.end))
        trip.via = [answered.get(normalize(n), n) for n in trip.via]
        out = _Checked(trip, search, refused=refused)
        named = trip.places()
        outcomes = {name: search(name) for name in dict.fromkeys(named)}
        context = [o.place for o in outcomes.values() if isinstance(o, Found)]

        def settle(name: str) -> SearchOutcome:
            outcome = outcomes[name] if normalize(name) in doubted else settled_by(outcomes[name], context)
            if isinstance(outcome, NotFound):
                outcome = typo_of_ours(outcome) or outcome  # "from escladas": les Escaldes
            return outcome

        ends: dict[str, SearchOutcome] = {
            slot: settle(name) for slot in ("start", "end") if (name := getattr(trip, slot))
        }
        for slot, outcome in ends.items():
            if isinstance(outcome, Ambiguous) and normalize(getattr(trip, slot)) not in doubted:
                ends[slot] = self._settled_by_the_trip(slot, outcome, trip, ends, outcomes)
        start, end = (o.place if isinstance(o := ends.get(s), Found) else None for s in ("start", "end"))
        for slot, outcome in ends.items():
            setattr(trip, slot, self._kept(slot, slot, getattr(trip, slot), outcome, out, state, now, locale))
        stops = []
        for name in trip.via:
            outcome = on_the_way(settle(name), start, end)  # the Santa Coloma between two villages
            if (kept := self._kept("via", f"via:{name}", name, outcome, out, state, now, locale)) is not None:
                stops.append(kept)
        trip.via = stops
        return out

    def _settled_by_the_trip(
        self,
        slot: str,
        outcome: Ambiguous,
        trip: Collected,
        ends: dict[str, SearchOutcome],
        outcomes: dict[str, SearchOutcome],
    ) -> SearchOutcome:
        """A start or an end that only one namesake makes a trip of (its days, its limit, its other
        places): that one (``settled_by_the_trip``)."""
        if not trip.durationDays:
            return outcome
        other = "end" if slot == "start" else "start"
        there = o.place if isinstance(o := ends.get(other), Found) else None
        stops = [o.place for name in trip.via if isinstance(o := outcomes.get(name), Found)]
        if slot == "start":
            route: list[Place | None] = [None, *stops, None if trip.roundTrip else there]
        else:
            route = [there, *stops, None]
        return settled_by_the_trip(outcome, route, trip.durationDays, trip.dailyDistanceKm)

    def _kept(  # noqa: PLR0917
        self,
        slot: str,
        key: str,
        name: str,
        outcome: SearchOutcome,
        out: _Checked,
        state: BriefState,
        now: float,
        locale: Locale,
    ) -> str | None:
        """The name a slot keeps for a place: the found place's (by a name that finds it alone), or none,
        with the question to ask (the first of the turn) or the name left out said."""
        if isinstance(outcome, Found):
            kept = unambiguous_name(outcome.place.name, outcome.place.label, out.search)
            out.located[kept] = out.located[name] = outcome.place
            return kept
        asked = (
            self._question(slot, key, name, outcome, state, now, locale)
            if out.clarification is None
            else None
        )
        if asked is not None:
            out.clarification = asked
        elif isinstance(outcome, NotFound) or out.clarification is None:
            out.not_found.append(name)
        return None

    def _question(  # noqa: PLR0917
        self,
        slot: str,
        key: str,
        phrase: str,
        outcome: Ambiguous | NotFound,
        state: BriefState,
        now: float,
        locale: Locale,
    ) -> Clarification | None:
        candidates = worth_asking(phrase, outcome)
        if not candidates:
            return None
        options = [
            {"index": i, "label": c.place.label, "name": c.place.name}
            for i, c in enumerate(candidates, start=1)
        ]
        state.pending = Pending(key, phrase, options, now)
        phrase = phrase.title() if phrase.islower() else phrase  # the rider's words, as they would write them
        if isinstance(outcome, Ambiguous):
            text = (
                f"Which “{phrase}” do you mean?" if locale == "en" else f"De quel « {phrase} » parlez-vous ?"
            )
        else:
            text = (
                f"I could not find “{phrase}”. Did you mean one of these?"
                if locale == "en"
                else f"Je ne trouve pas « {phrase} ». Vouliez-vous dire :"
            )
        return Clarification(
            question=text,
            options=[Option(index=int(str(o["index"])), label=str(o["label"])) for o in options],
        )

    def _outside(self, collected: Collected, located: dict[str, Place]) -> list[Place]:
        """The brief's places outside the area routes can be planned in (none when that is not known)."""
        if self.coverage is None:
            return []
        # (an end said beside a loop is still a place of the trip: "Kallio to Porvoo and back")
        places = [located[name] for name in collected.places() if name in located]
        return [p for p in places if self.coverage.covered_region(p.lat, p.lon) is None]

    def _without_heights(self, collected: Collected, located: dict[str, Place]) -> list[str]:
        """The areas of the brief's places whose routing data has no heights (built without elevation)."""
        if self.coverage is None:
            return []
        places = [located[name] for name in collected.places() if name in located]
        regions = {r for p in places if (r := self.coverage.covered_region(p.lat, p.lon)) is not None}
        labels = self.coverage.region_labels()
        return [labels.get(r, r) for r in sorted(regions) if not self.coverage.has_heights(r)]

    def _outside_reply(self, outside: list[Place], locale: Locale) -> str:
        assert self.coverage is not None
        regions = ", ".join(self.coverage.region_labels().values())
        names = ", ".join(p.label for p in outside)
        if locale == "fr":
            return (
                f"{names} : hors de la zone où je sais calculer des itinéraires ({regions}). "
                "Choisissez un départ, une arrivée et des étapes à l'intérieur."
            )
        return (
            f"{names}: outside the area I can plan routes in ({regions}). "
            "Choose a start, an end and stops inside it."
        )


def _with_choice(said: Collected, choice: _Choice | None) -> Collected:
    """The reader's brief with the rider's answer to the server's question in its slot, whatever the
    reader wrote there (a number, the other option, nothing)."""
    if choice is None:
        return said
    trip = said.model_copy(deep=True)
    slot, _, query = choice.slot.partition(":")
    if slot in ("start", "end"):
        setattr(trip, slot, choice.place)
    elif normalize(query) in [normalize(stop) for stop in trip.via]:
        trip.via = [choice.place if normalize(stop) == normalize(query) else stop for stop in trip.via]
    elif choice.place not in trip.via:
        trip.via = [*trip.via, choice.place]
    return trip


def _with_its_area_said(search: Callable[[str], SearchOutcome]) -> Callable[[str], SearchOutcome]:
    """The geocoder, and for a name found nowhere as written, the name without the area a model adds to
    it ("Encamp, <country>", "Canillo (<country>)", "Kallio, <city>")."""

    def find(text: str) -> SearchOutcome:
        found = search(text)
        bare = text.split(",", maxsplit=1)[0].split("(", maxsplit=1)[0].strip()
        if isinstance(found, NotFound) and bare and bare != text.strip():
            again = search(bare)
            return again if not isinstance(again, NotFound) else found
        return found

    return find


def _with_notes(
    reply: str, refused: list[Refused], not_found: list[str], still_needed: list[str], locale: Locale
) -> str:
    """The reply, and what the server changed in what the reader said (values out of bounds, places
    found nowhere) or still needs: the reply and ``collected`` never contradict each other."""
    notes = [_refused(r, locale) for r in refused]
    if not_found:
        names = ", ".join(f"“{_clipped(n)}”" if locale == "en" else f"« {_clipped(n)} »" for n in not_found)
        notes.append(
            f"I could not find {names} on the map, so I left it out: could you name it another way?"
            if locale == "en"
            else f"Je ne trouve pas {names} sur la carte, je l'ai donc laissé de côté : "
            "pouvez-vous le nommer autrement ?"
        )
    if still_needed:
        words = ", ".join(_NEEDED[locale][slot] for slot in still_needed)
        notes.append(
            f"Before I can plan it I still need {words}."
            if locale == "en"
            else f"Pour le calculer il me manque encore {words}."
        )
    return "\n\n".join([reply, *notes])


def _with_flat_areas(reply: str, areas: list[str], locale: Locale) -> str:
    """A climbing limit asked where the routing data has no heights: said, once, rather than ignored."""
    if not areas:
        return reply
    names = ", ".join(areas)
    note = (
        f"The routing data of {names} has no elevation: the days will show no climbing, and I cannot keep "
        "them under a climbing limit."
        if locale == "en"
        else f"Les données d'itinéraire de {names} n'ont pas d'altitudes : les jours n'afficheront pas de "
        "dénivelé, et je ne peux pas les limiter en montée."
    )
    return f"{reply}\n\n{note}"


_NEEDED: dict[Locale, dict[str, str]] = {
    "en": {"start": "the start", "end": "the end (or a round trip)", "durationDays": "the number of days"},
    "fr": {"start": "le départ", "end": "l'arrivée (ou une boucle)", "durationDays": "le nombre de jours"},
}
_SLOT_WORDS: dict[Locale, dict[str, str]] = {
    "en": {
        "durationDays": "a trip of {value} days",
        "dailyDistanceKm": "{value} km a day",
        "dailyClimbM": "{value} m of climbing a day",
        "pace": "a {value} pace",
        "startDate": "the date {value}",
        "profile": "the bike “{value}”",
        "accommodation": "the lodging “{value}”",
        "via": "the stops {value}",
    },
    "fr": {
        "durationDays": "un voyage de {value} jours",
        "dailyDistanceKm": "{value} km par jour",
        "dailyClimbM": "{value} m de montée par jour",
        "pace": "un rythme « {value} »",
        "startDate": "la date {value}",
        "profile": "le vélo « {value} »",
        "accommodation": "l'hébergement « {value} »",
        "via": "les étapes {value}",
    },
}


def _refused(refused: Refused, locale: Locale) -> str:
    words = _SLOT_WORDS[locale].get(refused.slot, refused.slot + " = {value}")
    what = words.format(value=_clipped(str(refused.value)))
    if refused.reason == "past":
        sentence = (
            f"{what} is past, so I left it out."
            if locale == "en"
            else f"{what} est passée : je l'ai laissée de côté."
        )
        return sentence[0].upper() + sentence[1:]
    return (
        f"I cannot plan {what}, so I left it out."
        if locale == "en"
        else f"Je ne peux pas retenir {what} : je l'ai laissé de côté."
    )


def _clipped(text: str, most: int = 60) -> str:
    """A value echoed back, cut (it travels in every later turn)."""
    return text if len(text) <= most else text[: most - 1] + "…"


def consolidated_brief(collected: Collected, user_turns: list[str]) -> str:
    """What generation receives: the parameters understood, then the rider's own words as fallback."""
    parts = [
        f"{k}: {v}" for k, v in collected.model_dump(mode="json").items() if v not in (None, [], False, "")
    ]
    return "Collected — " + "; ".join(parts) + "\nRider said:\n" + "\n".join(f"- {t}" for t in user_turns)


def _once(search: Callable[[str], SearchOutcome]) -> Callable[[str], SearchOutcome]:
    """The geocoder, each text looked up once (a geocoder may be remote)."""
    return lru_cache(maxsize=None)(search)
