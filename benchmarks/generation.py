"""Generation with the ``rules`` provider on the local engines, against the time of the Valhalla calls it
makes, in the same run. Goal: the whole generation ≤ 1.5× its Valhalla time."""

from __future__ import annotations

import datetime as dt
import statistics
import time
from typing import Any

from tripagent.adapters.llm.rules import RulesProvider
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.valhalla import ValhallaClient
from tripagent.application.generate import Generator
from tripagent.application.trips import TripWorkspace

GOAL = 1.5
ROUNDS = 7  # of the three briefs: a median of 21 generations (of 9, it moved 1.30–1.59 between runs)
BRIEFS = [
    "2 days by road bike from Sant Julià de Lòria to Soldeu",
    "a 3-day round trip from Ordino by gravel bike",
    "from Andorra la Vella to Canillo via La Massana, 2 days, touring",
]


class TimedRouter:
    def __init__(self, inner: ValhallaClient) -> None:
        self.inner = inner
        self.seconds = 0.0

    def _timed(self, name: str, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return getattr(self.inner, name)(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - started

    def route(self, *a: Any, **k: Any) -> Any:
        return self._timed("route", *a, **k)

    def locate(self, *a: Any, **k: Any) -> Any:
        return self._timed("locate", *a, **k)


class MemoryTrips:
    def create(self, trip: Any) -> None:
        pass


def report(valhalla_url: str) -> bool:
    from tripagent.adapters.system import SystemClock, new_id

    names = Gazetteer()  # one open index, as a warm function has; its remembered answers are cleared per run
    names.search("warm up")
    ratios, totals, routing = [], [], []
    for _ in range(ROUNDS):
        for brief in BRIEFS:
            names.forget()
            router = TimedRouter(ValhallaClient(valhalla_url))
            workspace = TripWorkspace(MemoryTrips(), SystemClock(), new_id)  # type: ignore[arg-type]
            generator = Generator(names, names, names, router, workspace)
            started = time.perf_counter()
            generator.generate("bench", brief, None, RulesProvider(), "rules", today=dt.date(2026, 11, 30))
            total = time.perf_counter() - started
            totals.append(total)
            routing.append(router.seconds)
            ratios.append(total / router.seconds)
    ratio = statistics.median(ratios)
    print(
        f"generation with rules (median of {len(ratios)}): {statistics.median(totals) * 1000:.0f} ms in all, "
        f"{statistics.median(routing) * 1000:.0f} ms in Valhalla — ratio {ratio:.2f} (goal ≤ {GOAL}) "
        f"{'ok' if ratio <= GOAL else 'OVER'}"
    )
    return ratio <= GOAL
