"""Cutting a route into daily stages that balance effort, each ending at a sensible place.

Effort counts climbing as well as distance: 100 m of ascent weigh as much as 1 km on the flat (a common
rule of thumb for loaded touring). Each night is where riders can sleep: the ideal cut (equal effort each
day) moves to the best place within a small detour of the route, a town or village with lodging first,
then lodging alone, then a village, then a hamlet; first within a fifth of a day's effort of the ideal
point, else within half of it; never past the rider's daily distance when a place within it will do.
Only a route with nowhere at all to stop ends a day at a kilometre mark.
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tripagent.domain.geo import LatLon, encode_polyline, interpolate
from tripagent.domain.trip import MAX_PROFILE_POINTS

CLIMB_KM_PER_100M = 1.0
WINDOWS = (0.2, 0.5)  # of a day's effort, either side of the ideal cut: the near one first
TOWNS = frozenset({"town", "city", "village"})
# What a night's place costs beside its distance from the ideal cut, in km of effort
NIGHT_COST = {"town with a bed": 0.0, "lodging": 1.0, "town": 3.0, "hamlet": 6.0}


@dataclass(frozen=True, slots=True)
class Sample:
    point: LatLon
    km: float  # along the route
    height_m: float | None


@dataclass(frozen=True, slots=True)
class StopCandidate:
    name: str
    along_km: float
    detour_km: float
    kind: str  # a place's (town, village, hamlet…) or a lodging's (hotel, camp_site…)
    lodging: bool = False  # a place to sleep itself
    beds_near: bool = False  # a town with lodging within reach

    @property
    def night_cost(self) -> float:
        if self.lodging:
            return NIGHT_COST["lodging"]
        if self.kind in TOWNS:
            return NIGHT_COST["town with a bed"] if self.beds_near else NIGHT_COST["town"]
        return NIGHT_COST["hamlet"]


@dataclass(frozen=True, slots=True)
class HeightProfile:
    step_m: int
    heights_m: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StagePlan:
    from_name: str
    to_name: str
    distance_km: float
    duration_min: float
    ascent_m: float | None
    descent_m: float | None
    polyline6: str
    profile: HeightProfile | None = None


def _night(
    samples: Sequence[Sample],
    *,
    effort: list[float],
    kms: list[float],
    ideal: float,
    day_effort: float,
    cuts: list[tuple[int, str]],
    stops_near: Callable[[float, float], list[StopCandidate]],
    max_day_km: float | None,
) -> tuple[int, str] | None:
    """Where the night after the cut at ``ideal`` effort is spent: its sample and its name."""
    used = {name for _, name in cuts}
    since_km = samples[cuts[-1][0]].km if cuts else 0.0
    for window in WINDOWS:
        lo = min(bisect_left(effort, ideal - day_effort * window), len(effort) - 1)
        hi = max(bisect_right(effort, ideal + day_effort * window) - 1, lo)
        candidates = [
            c
            for c in stops_near(samples[lo].km, samples[hi].km)
            if c.name not in used and c.along_km > since_km
        ]
        within = [c for c in candidates if max_day_km is None or c.along_km - since_km <= max_day_km]
        if not (candidates := within or candidates):
            continue

        def cost(c: StopCandidate) -> float:
            at = effort[min(bisect_left(kms, c.along_km), len(effort) - 1)]
            return abs(at - ideal) + 2 * c.detour_km + c.night_cost

        best = min(candidates, key=cost)
        return min(bisect_left(kms, best.along_km), len(samples) - 1), best.name
    return None


def effort_profile(samples: Sequence[Sample]) -> list[float]:
    """Cumulative effort (km-equivalent) at each sample."""
    effort = [0.0]
    for a, b in itertools.pairwise(samples):
        climb = max(0.0, (b.height_m or 0) - (a.height_m or 0)) if a.height_m is not None else 0.0
        effort.append(effort[-1] + (b.km - a.km) + climb / 100 * CLIMB_KM_PER_100M)
    return effort


def plan_stages(
    samples: Sequence[Sample],
    days: int,
    *,
    start_name: str,
    end_name: str,
    total_duration_s: float,
    stops_near: Callable[[float, float], list[StopCandidate]],
    max_day_km: float | None = None,
) -> list[StagePlan]:
    """``days`` stages over ``samples``; ``stops_near(lo_km, hi_km)`` lists places along that stretch."""
    if days < 1 or len(samples) < 2:
        raise ValueError("a route of at least two samples and one day")
    effort = effort_profile(samples)
    total = effort[-1]
    kms = [sample.km for sample in samples]
    cuts: list[tuple[int, str]] = []
    for day in range(1, days):
        ideal = total * day / days
        # effort only grows along the route: bisect instead of scanning it
        index = min(bisect_left(effort, ideal), len(effort) - 1)
        if index and ideal - effort[index - 1] < effort[index] - ideal:
            index -= 1
        name = f"km {samples[index].km:.0f}"
        night = _night(
            samples,
            effort=effort,
            kms=kms,
            ideal=ideal,
            day_effort=total / days,
            cuts=cuts,
            stops_near=stops_near,
            max_day_km=max_day_km,
        )
        if night is not None:
            index, name = night
        if cuts and index <= cuts[-1][0]:
            index = min(len(samples) - 2, cuts[-1][0] + 1)
        cuts.append((index, name))
    bounds = [(0, start_name), *cuts, (len(samples) - 1, end_name)]
    total_km = samples[-1].km or 1.0
    stages = []
    for (i, from_name), (j, to_name) in itertools.pairwise(bounds):
        part = samples[i : j + 1]
        heights = [s.height_m for s in part if s.height_m is not None]
        ascent = descent = None
        if len(heights) == len(part):
            ascent = sum(max(0.0, b - a) for a, b in itertools.pairwise(heights))
            descent = sum(max(0.0, a - b) for a, b in itertools.pairwise(heights))
        distance = part[-1].km - part[0].km
        stages.append(
            StagePlan(
                from_name=from_name,
                to_name=to_name,
                distance_km=round(distance, 2),
                duration_min=round(total_duration_s / 60 * distance / total_km, 1),
                ascent_m=round(ascent) if ascent is not None else None,
                descent_m=round(descent) if descent is not None else None,
                polyline6=encode_polyline([s.point for s in part]),
                profile=height_profile(part) if ascent is not None else None,
            )
        )
    return stages


def height_profile(part: Sequence[Sample], max_points: int = MAX_PROFILE_POINTS) -> HeightProfile | None:
    """The stage's heights at a fixed step from its start: 100 m, or a multiple of it that keeps a long
    stage within ``max_points`` (linear between the route's samples)."""
    if len(part) < 2 or any(s.height_m is None for s in part):
        return None
    start, length_m = part[0].km, (part[-1].km - part[0].km) * 1000
    step = 100 * max(1, math.ceil(length_m / 100 / max_points))
    kms = [(s.km - start) * 1000 for s in part]
    heights = [float(s.height_m or 0.0) for s in part]
    marks = range(math.ceil(length_m / step) + 1)
    return HeightProfile(
        step, tuple(round(interpolate(kms, heights, min(k * step, length_m))) for k in marks)
    )
