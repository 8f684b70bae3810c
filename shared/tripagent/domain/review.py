"""The reviewer's deterministic checks and its structured decision (the suggestion it may raise is a
proposal: domain/proposal.py).

The checks run before any model: duplicate or conflicting stops, impossible timing between consecutive
timed stops (travel times given by the caller, from the router), the same night booked twice, outdoor
plans on a day with a bad forecast, backtracking (the detour ratio of a day's order), and expenses whose
payer is not a member, whose participants do not match, or whose amount is an outlier. Each finding says
what it concerns and, when there is an obvious fix, the operation of the registry that would make it.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tripagent.domain.geo import distance_km
from tripagent.domain.text import normalize
from tripagent.domain.trip import Stop, Trip

Severity = Literal["info", "warning", "critical"]
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "critical": 2}


class Patch(BaseModel):
    """An operation of the registry with its arguments (the trip version is added by the decision)."""

    model_config = ConfigDict(extra="forbid")

    op: str
    args: dict[str, Any] = Field(default_factory=dict)


class Finding(BaseModel):
    code: str
    severity: Severity
    message: str
    dayIndex: int | None = None
    ids: list[str] = Field(default_factory=list)  # the stops or expenses concerned
    patch: Patch | None = None


class PendingPatch(Patch):
    """A patch and the trip version it applies to."""

    expectedVersion: int


class ReviewDecision(BaseModel):
    """What the reviewer's model must answer (validated like any untrusted input)."""

    model_config = ConfigDict(extra="ignore")

    shouldNotify: bool
    severity: Severity = "info"
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = Field(max_length=1000)
    suggestion: str = Field("", max_length=1000)
    pendingPatch: PendingPatch | None = None
    expiresAt: str | None = None


# ---------------------------------------------------------------------------- the checks
BAD_RAIN_PROBABILITY = 70  # %
BAD_RAIN_MM = 10.0
BAD_WIND_KMH = 50.0
# Backtracking: road kilometres a stop adds to its day, from crow-flight distances between stops times a
# road factor: mountain roads wind. Valhalla's bicycle route between 12 Pyrenean villages (55 pairs) is
# 1.66 times the straight line at the median (1.21 at the 10th percentile, 2.33 at the 90th). A stop must
# add both this many kilometres and this share of the day's riding.
ROAD_FACTOR = 1.6
BACKTRACK_MIN_KM = 10.0
BACKTRACK_MIN_SHARE = 0.2
OUTLIER_FACTOR = 5


def minutes(hhmm: str | None) -> int | None:
    if not hhmm:
        return None
    hours, _, mins = hhmm.partition(":")
    return int(hours) * 60 + int(mins or 0)


def hhmm(total: int) -> str:
    total = min(total, 23 * 60 + 59)
    return f"{total // 60:02d}:{total % 60:02d}"


def consecutive_timed(trip: Trip, day: int) -> list[tuple[Stop, Stop]]:
    """Pairs of consecutive stops of a day where the first ends and the second starts at a given time,
    in the order of their times: a breakfast added at 08:30 to the end of the day's list comes first,
    and overlaps nothing that starts later."""
    stops = sorted(
        (s for s in trip.stops_on(day) if s.startTime or s.endTime),
        key=lambda s: minutes(s.startTime or s.endTime) or 0,  # stable: equal times keep the day's order
    )
    return [(a, b) for a, b in itertools.pairwise(stops) if (a.endTime or a.startTime) and b.startTime]


def check_trip(
    trip: Trip,
    *,
    days: set[int],
    ids: set[str],
    travel_minutes: Mapping[tuple[str, str], float] | None = None,
    forecasts: Mapping[int, dict[str, Any]] | None = None,
) -> list[Finding]:
    """Findings about the days and entities an edit touched (``days``, ``ids``), worst first."""
    findings: list[Finding] = []
    for day in sorted(d for d in days if 0 <= d < len(trip.days)):
        findings += _duplicates(trip, day)
        findings += _timing(trip, day, travel_minutes or {})
        findings += _lodging(trip, day)
        findings += _weather(trip, day, (forecasts or {}).get(day))
        findings += _backtracking(trip, day, ids)
    findings += _expenses(trip, ids)
    return sorted(findings, key=lambda f: -SEVERITY_RANK[f.severity])


def _duplicates(trip: Trip, day: int) -> list[Finding]:
    out = []
    seen: dict[str, Stop] = {}
    for stop in trip.stops_on(day):
        key = normalize(stop.name)
        same_place = next(
            (
                s
                for s in seen.values()
                if s.kind == stop.kind
                and None not in (s.lat, s.lon, stop.lat, stop.lon)
                and distance_km(s.lat or 0, s.lon or 0, stop.lat or 0, stop.lon or 0) < 0.03
            ),
            None,
        )
        first = seen.get(key) or same_place
        if first is not None:
            out.append(
                Finding(
                    code="duplicate_stop",
                    severity="warning",
                    message=f"Day {day + 1} has “{stop.name}” twice.",
                    dayIndex=day,
                    ids=[first.stopId, stop.stopId],
                    patch=Patch(op="remove_stop", args={"stopId": stop.stopId}),
                )
            )
        seen.setdefault(key, stop)
    return out


def _timing(trip: Trip, day: int, travel: Mapping[tuple[str, str], float]) -> list[Finding]:
    out = []
    for a, b in consecutive_timed(trip, day):
        leave, arrive = minutes(a.endTime or a.startTime), minutes(b.startTime)
        assert leave is not None
        assert arrive is not None
        gap = arrive - leave
        if gap < 0:
            out.append(
                Finding(
                    code="overlapping_times",
                    severity="warning",
                    message=f"“{b.name}” starts at {b.startTime}, before “{a.name}” ends ({a.endTime}).",
                    dayIndex=day,
                    ids=[a.stopId, b.stopId],
                    patch=_shift(b, leave),
                )
            )
            continue
        needed = travel.get((a.stopId, b.stopId))
        if needed is not None and needed > gap + 5:
            start = leave + 5 * -(-round(needed) // 5)
            out.append(
                Finding(
                    code="impossible_timing",
                    severity="critical" if needed > 2 * gap + 30 else "warning",
                    message=(
                        f"Riding from “{a.name}” to “{b.name}” takes about {round(needed)} min, but there "
                        f"are {gap} min between {hhmm(leave)} and {b.startTime}."
                    ),
                    dayIndex=day,
                    ids=[a.stopId, b.stopId],
                    patch=_shift(b, start),
                )
            )
    return out


def _shift(stop: Stop, start: int) -> Patch:
    args: dict[str, Any] = {"stopId": stop.stopId, "startTime": hhmm(start)}
    old_start, old_end = minutes(stop.startTime), minutes(stop.endTime)
    if old_start is not None and old_end is not None:
        args["endTime"] = hhmm(start + max(0, old_end - old_start))
    return Patch(op="edit_stop", args=args)


def _lodging(trip: Trip, day: int) -> list[Finding]:
    lodging = [s for s in trip.stops_on(day) if s.kind == "lodging"]
    if len(lodging) < 2:
        return []
    return [
        Finding(
            code="double_lodging",
            severity="warning",
            message=f"Night {day + 1} is booked twice: " + " and ".join(f"“{s.name}”" for s in lodging) + ".",
            dayIndex=day,
            ids=[s.stopId for s in lodging],
            patch=Patch(op="remove_stop", args={"stopId": lodging[-1].stopId}),
        )
    ]


def bad_weather(forecast: Mapping[str, Any] | None) -> str | None:
    if not forecast:
        return None
    rain = forecast.get("precipitation_probability_max")
    mm = forecast.get("precipitation_sum")
    wind = forecast.get("wind_speed_10m_max")
    if isinstance(rain, (int, float)) and rain >= BAD_RAIN_PROBABILITY:
        return f"{rain:g} % chance of rain"
    if isinstance(mm, (int, float)) and mm >= BAD_RAIN_MM:
        return f"{mm:g} mm of rain"
    if isinstance(wind, (int, float)) and wind >= BAD_WIND_KMH:
        return f"wind up to {wind:g} km/h"
    return None


def _weather(trip: Trip, day: int, forecast: Mapping[str, Any] | None) -> list[Finding]:
    why = bad_weather(forecast)
    if why is None:
        return []
    return [
        Finding(
            code="outdoor_bad_weather",
            severity="warning",
            message=f"“{s.name}” is outdoors on day {day + 1}, and the forecast says {why}.",
            dayIndex=day,
            ids=[s.stopId],
        )
        for s in trip.stops_on(day)
        if s.outdoor
    ]


def _path_km(stops: list[Stop]) -> float:
    return sum(
        distance_km(a.lat or 0, a.lon or 0, b.lat or 0, b.lon or 0) for a, b in itertools.pairwise(stops)
    )


def _ride(trip: Trip, day: int) -> list[Stop]:
    """The day as it is ridden: from the night before's lodging, through the stops in the order of their
    times (an untimed stop where its order puts it, after the timed one before it), to the night's."""
    before = [s for s in trip.stops_on(day - 1) if s.kind == "lodging"] if day > 0 else []
    stops = [s for s in trip.stops_on(day) if s.lat is not None and s.lon is not None]
    visits, lodgings = [s for s in stops if s.kind != "lodging"], [s for s in stops if s.kind == "lodging"]
    keyed: list[tuple[int, int, Stop]] = []
    at = -1
    for stop in visits:
        timed = minutes(stop.startTime)
        at = timed if timed is not None else at
        keyed.append((at, stop.order, stop))
    ordered = [s for _, _, s in sorted(keyed, key=lambda k: (k[0], k[1]))]
    start = [before[-1]] if before and before[-1].lat is not None else []
    return [*start, *ordered, *lodgings[-1:]]


def _detour_km(ride: list[Stop], i: int) -> float:
    """The road kilometres stop ``i`` adds to the day: to it and on, against straight on without it."""
    prev, stop, after = ride[i - 1], ride[i], ride[i + 1]
    added = _path_km([prev, stop, after]) - _path_km([prev, after])
    return added * ROAD_FACTOR


def _backtracking(trip: Trip, day: int, ids: set[str]) -> list[Finding]:
    """A stop that sends the day back over road already ridden: judged by the kilometres it adds and
    their share of the day (a 2-3 km detour between town-centre stops is no risk; an out-and-back of well
    over 10 km is), for the stops the edit touched, or every stop of the day when it touched none."""
    ride = _ride(trip, day)
    if len(ride) < 3:
        return []
    day_km = _path_km(ride) * ROAD_FACTOR
    touched = {s.stopId for s in ride} & ids
    worst: tuple[float, int] | None = None
    for i in range(1, len(ride) - 1):
        if (touched and ride[i].stopId not in touched) or ride[i].kind == "lodging":
            continue
        extra = _detour_km(ride, i)
        if (
            extra >= BACKTRACK_MIN_KM
            and extra >= BACKTRACK_MIN_SHARE * day_km
            and (not worst or extra > worst[0])
        ):
            worst = (extra, i)
    if worst is None:
        return []
    extra, i = worst
    stop = ride[i]
    return [
        Finding(
            code="backtracking",
            severity="warning",
            message=(
                f"Day {day + 1}: {stop.name} adds about {extra:.0f} km of riding back and forth, "
                f"{100 * extra / day_km:.0f} % of the day's {day_km:.0f} km."
            ),
            dayIndex=day,
            ids=[stop.stopId],
            patch=_better_place(trip, day, ride, i),
        )
    ]


def _better_place(trip: Trip, day: int, ride: list[Stop], i: int) -> Patch | None:
    """The day's stops, in their stored order, with this one moved where it adds least (before the night's
    lodging), when it has no time that holds it where it is; the others stay as they are."""
    stop = ride[i]
    if stop.startTime is not None:
        return None
    stored = trip.stops_on(day)
    others = [s for s in stored if s.stopId != stop.stopId]
    lodging_at = next((j for j, s in enumerate(others) if s.kind == "lodging"), len(others))
    before = [ride[0]] if ride[0].dayIndex != day else []  # the night before's lodging

    def riding_km(order: list[Stop]) -> float:
        return _path_km([s for s in [*before, *order] if s.lat is not None and s.lon is not None])

    best = min(([*others[:j], stop, *others[j:]] for j in range(lodging_at + 1)), key=riding_km)
    if [s.stopId for s in best] == [s.stopId for s in stored]:
        return None
    return Patch(op="reorder_stops", args={"dayIndex": day, "stopIds": [s.stopId for s in best]})


def _expenses(trip: Trip, ids: set[str]) -> list[Finding]:
    out = []
    members = {m.userId for m in trip.members}
    for expense in trip.expenses:
        if expense.expenseId not in ids:
            continue
        label = f"“{expense.label}” ({expense.amount} {expense.currency})"
        if expense.payer not in members:
            out.append(
                Finding(
                    code="payer_not_member",
                    severity="warning",
                    message=f"The payer of {label}, {expense.payer}, is not a member of the trip.",
                    ids=[expense.expenseId],
                )
            )
        strangers = [p for p in expense.participants if p not in members]
        if strangers or not expense.participants:
            keep = [p for p in expense.participants if p in members] or sorted(members)
            out.append(
                Finding(
                    code="participants_mismatch",
                    severity="warning",
                    message=(
                        f"{label} is shared with "
                        + (", ".join(strangers) + ", who are not members." if strangers else "nobody.")
                    ),
                    ids=[expense.expenseId],
                    patch=Patch(
                        op="edit_expense", args={"expenseId": expense.expenseId, "participants": keep}
                    ),
                )
            )
        others = [
            e.amount
            for e in trip.expenses
            if e.expenseId != expense.expenseId and e.currency == expense.currency
        ]
        if len(others) >= 3:
            median = Decimal(statistics.median(others))
            if median > 0 and expense.amount > OUTLIER_FACTOR * median:
                fixed = next(
                    (expense.amount / f for f in (10, 100) if median / 2 <= expense.amount / f <= median * 2),
                    None,
                )
                out.append(
                    Finding(
                        code="amount_outlier",
                        severity="warning",
                        message=f"{label} is over {OUTLIER_FACTOR}× the trip's usual expense ({median}).",
                        ids=[expense.expenseId],
                        patch=Patch(
                            op="edit_expense", args={"expenseId": expense.expenseId, "amount": str(fixed)}
                        )
                        if fixed is not None
                        else None,
                    )
                )
    return out
