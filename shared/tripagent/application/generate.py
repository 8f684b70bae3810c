"""Use case: from a brief to a routed, staged, persisted trip (``POST /trips/ai-generate``).

Spec extraction (the model, with at most two corrective re-prompts) → geocode every place → coverage
guard (nothing uncovered reaches the router) → Valhalla bicycle routing with the rider's profile →
daily stages balanced by effort, ending at towns or lodging → a trip owned by the caller.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tripagent.application import ports
from tripagent.application.llm import ChatOptions, ChatRequest, Message, ModelProvider
from tripagent.application.places import (
    CoverageMap,
    PlaceFinder,
    PoiIndex,
    Snapper,
    check_coverage,
)
from tripagent.application.structured import Parsed, parse_structured
from tripagent.application.trips import TripWorkspace
from tripagent.domain.brief import DEFAULT_PROFILE, Collected, Pace, Profile
from tripagent.domain.geo import bbox, decode_polyline, project, spaced_along
from tripagent.domain.places import (
    Ambiguous,
    Found,
    NotFound,
    Place,
    SearchOutcome,
    distance_km,
    on_the_way,
    settled_by,
)
from tripagent.domain.stages import Sample, StopCandidate, plan_stages
from tripagent.domain.trip import Day, Route, Stage, Trip
from tripagent.errors import AiUnparseable, AmbiguousPlace, NeedsMoreInfo, OutOfCoverage, PlaceNotFound

MAX_REPROMPTS = 2
HEIGHT_INTERVAL_M = 100  # heights along the route, from the routing tiles
BEDS_WITHIN_KM = 1.0  # a town with lodging this near is a town with a bed
DAILY_KM = {"road": 80, "gravel": 55, "mountain": 35, "touring": 60, "hybrid": 45, "e-bike": 60}
COSTING: dict[str, dict[str, Any]] = {
    "road": {"bicycle_type": "Road", "use_roads": 0.6, "use_hills": 0.5, "avoid_bad_surfaces": 0.9},
    "gravel": {"bicycle_type": "Cross", "use_roads": 0.3, "use_hills": 0.5, "avoid_bad_surfaces": 0.2},
    "mountain": {"bicycle_type": "Mountain", "use_roads": 0.1, "use_hills": 0.7, "avoid_bad_surfaces": 0.0},
    "touring": {"bicycle_type": "Hybrid", "use_roads": 0.4, "use_hills": 0.3, "avoid_bad_surfaces": 0.6},
    "hybrid": {"bicycle_type": "Hybrid", "use_roads": 0.4, "use_hills": 0.3, "avoid_bad_surfaces": 0.5},
    # the motor makes a climb easier, not wanted: an e-bike tour still follows the valleys
    "e-bike": {
        "bicycle_type": "Hybrid",
        "use_roads": 0.5,
        "use_hills": 0.4,
        "avoid_bad_surfaces": 0.5,
        "cycling_speed": 22,
    },
}
# What the rider's pace does to a profile's willingness to climb and to share the road
PACE_HILLS = {"relaxed": 0.1, "steady": None, "brisk": 0.7}
RELAXED_ROADS = 0.25
FULL_CLIMB_M = 2000  # a day's climbing limit this high leaves the profile's use_hills as it is


def costing(spec: TripSpec) -> dict[str, Any]:
    """Valhalla's bicycle costing for the rider: the profile's, then the pace ("relaxed": climbs and busy
    roads avoided; "brisk": hills welcome), then the daily climbing limit (500 m a day: use_hills at most
    0.25)."""
    options = dict(COSTING[spec.profile])
    hills = PACE_HILLS.get(spec.pace or "steady") or options["use_hills"]
    if spec.pace == "relaxed":
        options["use_roads"] = min(options["use_roads"], RELAXED_ROADS)
    if spec.dailyClimbM:
        hills = min(hills, max(0.05, spec.dailyClimbM / FULL_CLIMB_M))
    options["use_hills"] = round(hills, 2)
    return options


class TripSpec(BaseModel):
    """What the model must extract from a brief (and what the rules extract without one)."""

    model_config = ConfigDict(extra="ignore")

    start: str = Field(min_length=1)
    end: str | None = None
    roundTrip: bool = False
    via: list[str] = Field(default_factory=list)
    durationDays: int = Field(ge=1, le=30)
    profile: Profile = DEFAULT_PROFILE
    startDate: dt.date | None = None
    dailyDistanceKm: float | None = Field(default=None, gt=0, le=400)
    dailyClimbM: float | None = Field(default=None, gt=0, le=6000)
    pace: Pace | None = None
    accommodation: str | None = None


class Router(ports.Router, Snapper, Protocol):
    """Generation also snaps points to the network (the coverage guard)."""


@dataclass(frozen=True)
class Generator:
    finder: PlaceFinder
    coverage: CoverageMap
    pois: PoiIndex
    router: Router
    workspace: TripWorkspace
    max_snap_m: float = 2000.0

    def generate(
        self,
        caller: str,
        brief: str,
        hints: Collected | None,
        provider: ModelProvider,
        model: str,
        *,
        today: dt.date,
    ) -> Trip:
        spec = self.extract_spec(brief, hints, provider, model, today=today)
        # The brief's places that name one place settle those that could be several (Pal, near Llorts)
        names = [spec.start, *spec.via, *([spec.end] if spec.end and not spec.roundTrip else [])]
        searched = {name: self.finder.search(name) for name in names}  # once each: a geocoder may be remote
        start = self._geocode(spec.start, "start", searched)
        end = start if spec.roundTrip or not spec.end else self._geocode(spec.end, "end", searched)
        # a stop the trip's ends settle: the Santa Coloma between La Massana and Sant Julià
        searched |= {name: on_the_way(searched[name], start, end) for name in spec.via}
        via = [self._geocode(name, "via", searched) for name in spec.via]
        if not spec.roundTrip and not spec.end:
            raise NeedsMoreInfo(
                "Where should the trip end, or is it a round trip?", details=[{"missing": ["end"]}]
            )
        for place in [start, *via, end]:
            self._guard(place)
        passes = via  # the rider's stops, named in the days that pass them
        if spec.roundTrip and not via:
            via = [self._turnaround(start, spec)]
        points = [(p.lat, p.lon) for p in [start, *via, end]]
        route = self.router.route(points, options=costing(spec), height_interval_m=HEIGHT_INTERVAL_M)
        return self._persist(caller, spec, start, end, route, passes=passes)

    # ------------------------------------------------------------------ 1. spec extraction
    def extract_spec(
        self, brief: str, hints: Collected | None, provider: ModelProvider, model: str, *, today: dt.date
    ) -> TripSpec:
        context = {
            "brief": brief,
            "hints": hints.model_dump(mode="json") if hints else {},
            "today": today.isoformat(),
        }
        messages = [Message("user", _spec_prompt(brief, hints))]
        for attempt in range(MAX_REPROMPTS + 1):
            result = provider.chat(
                ChatRequest(
                    model=model,
                    system=SPEC_SYSTEM,
                    messages=tuple(messages),
                    options=ChatOptions(max_output_tokens=500, temperature=0.0, task="spec_extraction"),
                    context=context,
                )
            )
            parsed = parse_structured(result.text, SpecDraft)
            merged = spec_with_hints(parsed.value if isinstance(parsed, Parsed) else None, hints)
            if isinstance(merged, TripSpec):
                return merged
            if isinstance(parsed, Parsed) and merged.missing and attempt == MAX_REPROMPTS:
                raise NeedsMoreInfo(
                    "The brief does not say " + " or ".join(merged.missing) + ".",
                    details=[{"missing": list(merged.missing)}],
                )
            reason = merged.reason if isinstance(parsed, Parsed) else parsed.reason
            messages += [
                Message("assistant", result.text),
                Message(
                    "user", f"That reply does not validate: {reason}. Answer again with only the JSON object."
                ),
            ]
        raise AiUnparseable("The model's trip spec could not be read after corrective re-prompts.")

    # ------------------------------------------------------------------ 2-3. places and coverage
    def _geocode(self, name: str, slot: str, searched: dict[str, SearchOutcome]) -> Place:
        context = [o.place for o in searched.values() if isinstance(o, Found)]
        outcome = settled_by(searched[name], context)
        if isinstance(outcome, Found):
            return outcome.place
        if isinstance(outcome, Ambiguous):
            raise AmbiguousPlace(
                f"“{name}” could be several places.",
                details=[{"slot": slot, "query": name, "candidates": outcome.options()}],
            )
        assert isinstance(outcome, NotFound)
        raise PlaceNotFound(
            f"No place called “{name}”.",
            details=[
                {
                    "slot": slot,
                    "query": name,
                    "suggestions": list(outcome.suggestions),
                    "byWord": {k: list(v) for k, v in outcome.by_word.items()},
                }
            ],
        )

    def _guard(self, place: Place) -> None:
        coverage = check_coverage(
            (place.lat, place.lon), self.coverage, self.router, max_snap_m=self.max_snap_m
        )
        if not coverage.covered:
            regions = ", ".join(coverage.covered_regions)
            raise OutOfCoverage(
                f"{place.label} is outside the routing data ({coverage.reason}); "
                f"routes can be planned in: {regions}.",
                details=[
                    {
                        "place": place.name,
                        "coveredRegions": list(coverage.covered_regions),
                        "reason": coverage.reason,
                    }
                ],
            )

    def _turnaround(self, start: Place, spec: TripSpec) -> Place:
        """The far point of a round trip: a covered town about half the trip's length away (as the crow
        flies, a loop being roughly 1.5× that), or the farthest the routing data allows."""
        target = (spec.dailyDistanceKm or DAILY_KM[spec.profile]) * spec.durationDays / 3
        region = self.coverage.covered_region(start.lat, start.lon)
        towns = [
            p
            for p in self.pois.within(
                start.lat - 1, start.lon - 1.5, start.lat + 1, start.lon + 1.5, ("place",)
            )
            if p.kind in ("town", "village", "city")
            and p.name != start.name
            and self.coverage.covered_region(p.lat, p.lon) == region
        ]
        if not towns:
            raise NeedsMoreInfo("No turnaround point for a round trip: name a place to ride through (via).")
        return min(
            towns, key=lambda p: abs(distance_km(start.lat, start.lon, p.lat, p.lon) - target) - p.importance
        )

    # ------------------------------------------------------------------ 4-6. stages and the trip
    def _persist(
        self, caller: str, spec: TripSpec, start: Place, end: Place, route: Any, *, passes: list[Place]
    ) -> Trip:
        samples = _samples(route)
        south, west, north, east = bbox([s.point for s in samples], 2.0)
        nearby = self.pois.within(south, west, north, east, ("place", "lodging"))
        beds = [p for p in nearby if p.category == "lodging"]

        def stops_near(lo_km: float, hi_km: float) -> list[StopCandidate]:
            """Towns and lodging within 1.5 km of the stretch between ``lo_km`` and ``hi_km``, each town
            knowing whether it has a bed within a kilometre."""
            stretch = [s.point for s in samples if lo_km <= s.km <= hi_km][::5]  # every ~500 m is enough
            if len(stretch) < 2:
                return []
            s_south, s_west, s_north, s_east = bbox(stretch, 1.5)
            found = []
            for place in nearby:
                if not (s_south <= place.lat <= s_north and s_west <= place.lon <= s_east):
                    continue
                if place.category == "place" and place.kind not in ("town", "village", "city", "hamlet"):
                    continue
                where = project((place.lat, place.lon), stretch)
                if where.offset_km <= 1.5:
                    lodging = place.category == "lodging"
                    found.append(
                        StopCandidate(
                            place.name,
                            lo_km + where.along_km,
                            where.offset_km,
                            place.kind,
                            lodging=lodging,
                            beds_near=not lodging
                            and any(
                                distance_km(place.lat, place.lon, b.lat, b.lon) <= BEDS_WITHIN_KM
                                for b in beds
                            ),
                        )
                    )
            return found

        stages = plan_stages(
            samples,
            spec.durationDays,
            start_name=start.name,
            end_name=end.name,
            total_duration_s=route.duration_s,
            stops_near=stops_near,
            max_day_km=spec.dailyDistanceKm,
        )
        passed = _passed_by_stage(samples, stages, passes)
        title = (
            f"{start.name} loop" if spec.roundTrip else f"{start.name} → {end.name}"
        ) + f", {spec.durationDays} {'day' if spec.durationDays == 1 else 'days'}"
        days = [
            Day(
                dayIndex=i,
                date=spec.startDate + dt.timedelta(days=i) if spec.startDate else None,
                city=stage.to_name,
                stage=Stage.model_validate(
                    {
                        "from": stage.from_name,
                        "to": stage.to_name,
                        "distanceKm": stage.distance_km,
                        "durationMin": stage.duration_min,
                        "ascentM": stage.ascent_m,
                        "descentM": stage.descent_m,
                        "polyline6": stage.polyline6,
                        "via": [n for n in passed[i] if n not in (stage.from_name, stage.to_name)],
                        "elevation": {
                            "stepM": stage.profile.step_m,
                            "heightsM": list(stage.profile.heights_m),
                        }
                        if stage.profile
                        else None,
                    }
                ),
            )
            for i, stage in enumerate(stages)
        ]
        ascent = sum(s.ascent_m or 0 for s in stages) if all(s.ascent_m is not None for s in stages) else None
        return self.workspace.create_trip(
            caller,
            title=title,
            start_date=spec.startDate,
            profile=spec.profile,
            days=days,
            route=Route(distanceKm=round(route.distance_km, 2), ascentM=ascent, polyline6=route.shape),
        )


def _passed_by_stage(samples: list[Sample], stages: list[Any], passes: list[Place]) -> list[list[str]]:
    """The rider's stops each day passes, in order: each stop is where the route comes nearest it, after
    the stop before (a route may pass a place twice)."""
    passed: list[list[str]] = [[] for _ in stages]
    ends = list(itertools.accumulate(s.distance_km for s in stages))
    after = 0
    for place in passes:
        nearest = min(
            range(after, len(samples)),
            key=lambda i: distance_km(place.lat, place.lon, *samples[i].point),
            default=after,
        )
        after = nearest
        day = next(
            (d for d, end_km in enumerate(ends) if samples[nearest].km <= end_km + 1e-6), len(stages) - 1
        )
        passed[day].append(place.name)
    return passed


def _samples(route: Any) -> list[Sample]:
    """The route every ``HEIGHT_INTERVAL_M`` with its heights (its own points, heightless, when the router
    gave none), legs joined end to end, distances scaled to the route's own (a shape's straight segments
    cut its corners)."""
    shapes = route.legs or (route.shape,)
    legs = []
    for i, shape in enumerate(shapes):
        line = decode_polyline(shape)
        heights = route.leg_heights[i] if i < len(route.leg_heights) else ()
        if len(heights) >= 2:
            legs.append(
                [(p, km, h) for (p, km), h in zip(spaced_along(line, len(heights)), heights, strict=True)]
            )
        else:
            walked = [0.0, *itertools.accumulate(distance_km(*a, *b) for a, b in itertools.pairwise(line))]
            legs.append([(p, km, None) for p, km in zip(line, walked, strict=True)])
    total = sum(leg[-1][1] for leg in legs if leg)
    scale = route.distance_km / total if total else 1.0
    samples: list[Sample] = []
    for leg in legs:
        offset = samples[-1].km if samples else 0.0
        samples += [Sample(p, offset + km * scale, h) for p, km, h in leg[1 if samples else 0 :]]
    return samples


class SpecDraft(BaseModel):
    """A model's trip spec before it is checked: any object (its fields are checked once merged)."""

    model_config = ConfigDict(extra="allow")


@dataclass(frozen=True)
class SpecProblem:
    """Why a spec does not validate once merged: the essentials it lacks, and anything else wrong."""

    missing: tuple[str, ...]
    others: tuple[str, ...]

    @property
    def reason(self) -> str:
        return "; ".join([*(f"{k}: required" for k in self.missing), *self.others])


ESSENTIAL = ("start", "durationDays")


def spec_with_hints(draft: BaseModel | None, hints: Collected | None) -> TripSpec | SpecProblem:
    """The one merge of generation: the brief chat's checked values (the rider's own answers) over the
    model's spec, then the spec checked, its essentials first. A model that leaves out a start or a number
    of days the chat holds is not asked again, and the chat's values win over a re-extraction; a route the
    chat holds whole (a start, and an end or a loop) is the route, no stop added or loop made by the model."""
    values = {
        k: v
        for k, v in (draft.model_extra or {} if draft is not None else {}).items()
        if k in TripSpec.model_fields and v not in (None, "")
    }
    if hints is not None:
        values |= {
            k: v
            for k, v in hints.model_dump().items()
            if v not in (None, [], "", False) and k in TripSpec.model_fields
        }
        if hints.start and (hints.end or hints.roundTrip):  # the chat's route is whole: its places, all
            values |= {"start": hints.start, "end": hints.end, "via": hints.via, "roundTrip": hints.roundTrip}
    missing = tuple(k for k in ESSENTIAL if k not in values)
    try:
        spec = TripSpec.model_validate(values)
    except ValidationError as exc:
        others = tuple(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}"
            for e in exc.errors()
            if e["loc"][:1] not in [(k,) for k in missing]
        )
        return SpecProblem(missing, others)
    return spec


def _spec_prompt(brief: str, hints: Collected | None) -> str:
    hint_text = json.dumps(hints.model_dump(mode="json", exclude_defaults=True)) if hints else "{}"
    return f"Brief:\n{brief}\n\nAlready collected (trust these): {hint_text}"


SPEC_SYSTEM = """You turn a cyclist's trip brief into a trip spec. Answer only with a JSON object:
{"start": "<place>", "end": "<place or null>", "roundTrip": <bool>, "via": ["<place>", ...],
"durationDays": <int>, "profile": "road|gravel|mountain|touring|hybrid|e-bike",
"startDate": "YYYY-MM-DD or null",
"dailyDistanceKm": <number or null>, "dailyClimbM": <number or null>, "pace": "relaxed|steady|brisk or null",
"accommodation": "hotel|camping|hostel|hut|any or null"}.
Use place names exactly as the rider wrote them. Do not invent places."""
