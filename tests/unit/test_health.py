from __future__ import annotations

from dataclasses import dataclass

from tripagent.application.health import check_health
from tripagent.domain.health import ProbeResult


@dataclass
class FakeProbe:
    name: str
    fail: bool = False

    def check(self) -> ProbeResult:
        if self.fail:
            raise ConnectionError("refused")
        return ProbeResult("ok", 1.0, "fine")


def test_all_probes_up_is_healthy() -> None:
    report = check_health([FakeProbe("dynamodb"), FakeProbe("valhalla")])
    assert report.healthy
    assert set(report.engines) == {"dynamodb", "valhalla"}


def test_a_failing_probe_is_reported_down_with_its_reason_and_the_others_still_run() -> None:
    report = check_health([FakeProbe("dynamodb", fail=True), FakeProbe("valhalla")])
    assert not report.healthy
    assert report.engines["dynamodb"].state == "down"
    assert "ConnectionError: refused" in report.engines["dynamodb"].detail
    assert report.engines["valhalla"].state == "ok"
