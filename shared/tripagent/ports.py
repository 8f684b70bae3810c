"""The interfaces use cases depend on. Adapters implement them; tests pass fakes or local engines."""

from __future__ import annotations

from typing import Protocol

from tripagent.domain.health import ProbeResult


class HealthProbe(Protocol):
    """One dependency the system needs to serve requests (a table, the router, the event bus)."""

    name: str

    def check(self) -> ProbeResult: ...
