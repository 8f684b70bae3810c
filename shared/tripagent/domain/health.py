"""Health of the system as a whole: each engine's state, and whether all are up."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

State = Literal["ok", "down"]


@dataclass(frozen=True, slots=True)
class ProbeResult:
    state: State
    latency_ms: float
    detail: str = ""


@dataclass(frozen=True, slots=True)
class HealthReport:
    engines: dict[str, ProbeResult] = field(default_factory=dict)

    @property
    def healthy(self) -> bool:
        return all(result.state == "ok" for result in self.engines.values())
