"""Cutting a route into daily stages that balance effort, each ending at a sensible place.

Effort counts climbing as well as distance: 100 m of ascent weigh as much as 1 km on the flat (a common
rule of thumb for loaded touring). Each cut is moved to the nearest town or lodging within a small detour
of the route, if one lies within a fifth of a day's effort of the ideal point.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tripagent.domain.geo import LatLon, encode_polyline

CLIMB_KM_PER_100M = 1.0
SNAP_WINDOW = 0.2  # of a day's effort, either side of the ideal cut


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
    kind: str


@dataclass(frozen=True, slots=True)
class StagePlan:
    from_name: str
    to_name: str
    distance_km: float
    duration_min: float
    ascent_m: float | None
    descent_m: float | None
    polyline6: str


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
        window = total / days * SNAP_WINDOW
        # effort only grows along the route: bisect instead of scanning it
        index = min(bisect_left(effort, ideal), len(effort) - 1)
        if index and ideal - effort[index - 1] < effort[index] - ideal:
            index -= 1
        lo = min(bisect_left(effort, ideal - window), len(effort) - 1)
        hi = max(bisect_right(effort, ideal + window) - 1, lo)
        used = {name for _, name in cuts}
        candidates = [c for c in stops_near(samples[lo].km, samples[hi].km) if c.name not in used]
        name = f"km {samples[index].km:.0f}"
        if candidates:
            best = min(
                candidates,
                key=lambda c: (
                    abs(c.along_km - samples[index].km)
                    + 2 * c.detour_km
                    + (0 if c.kind in ("town", "city", "village") else 0.5)
                ),
            )
            index = min(bisect_left(kms, best.along_km), len(samples) - 1)
            name = best.name
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
            )
        )
    return stages
