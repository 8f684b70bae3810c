"""Use case: check every engine and report each one's state."""

from __future__ import annotations

import time
from collections.abc import Iterable

from tripagent.application.ports import HealthProbe
from tripagent.domain.health import HealthReport, ProbeResult


def check_health(probes: Iterable[HealthProbe]) -> HealthReport:
    engines: dict[str, ProbeResult] = {}
    for probe in probes:
        started = time.perf_counter()
        try:
            engines[probe.name] = probe.check()
        except Exception as exc:  # a probe's failure is the answer, not an error of this use case
            elapsed = (time.perf_counter() - started) * 1000
            engines[probe.name] = ProbeResult("down", round(elapsed, 1), f"{type(exc).__name__}: {exc}")
    return HealthReport(engines)
