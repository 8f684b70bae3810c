"""The local bus: EventBridge's envelope, pattern matching, asynchronous delivery, retries, dead letters."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from tripagent_local.deadletters import DeadLetterLog
from tripagent_local.eventbus import LocalEventBus, LocalRule, PutEventsError

PATTERN = {
    "source": ["tripagent.trips"],
    "detail-type": ["TripOperationCommitted"],
    "detail": {"op": [{"prefix": "stop."}]},
}


def entry(op: str = "stop.add", bus: str = "app-bus", **extra: Any) -> dict[str, Any]:
    return {
        "Source": "tripagent.trips",
        "DetailType": "TripOperationCommitted",
        "Detail": json.dumps({"op": op, "tripId": "t1"}),
        "EventBusName": bus,
        **extra,
    }


def make_bus(tmp_path: Path, invoke: Any, attempts: int = 3) -> LocalEventBus:
    rules = [LocalRule("Reviewer.Ops", "ReviewerFunction", "app-bus", PATTERN)]
    return LocalEventBus(
        {"app-bus"},
        rules,
        invoke,
        DeadLetterLog(tmp_path / "dead.jsonl"),
        attempts=attempts,
        backoff_s=0.01,
    )


def test_a_matching_event_is_delivered_with_the_eventbridge_envelope(tmp_path: Path) -> None:
    received: list[tuple[str, dict[str, Any]]] = []
    bus = make_bus(tmp_path, lambda fid, event: received.append((fid, event)))
    result = bus.put_events([entry()])
    assert result["FailedEntryCount"] == 0
    assert bus.wait_idle()
    ((function_id, event),) = received
    assert function_id == "ReviewerFunction"
    assert event["id"] == result["Entries"][0]["EventId"]
    assert event["detail-type"] == "TripOperationCommitted"
    assert event["source"] == "tripagent.trips"
    assert event["detail"] == {"op": "stop.add", "tripId": "t1"}
    assert {"version", "account", "time", "region", "resources"} <= set(event)


@pytest.mark.parametrize("changed", [{"op": "expense.add"}, {"bus": "default"}])
def test_events_that_do_not_match_the_rule_or_bus_are_not_delivered(
    tmp_path: Path, changed: dict[str, str]
) -> None:
    received: list[Any] = []
    bus = make_bus(tmp_path, lambda *a: received.append(a))
    bus.put_events([entry(**changed)])
    assert bus.wait_idle()
    assert received == []


def test_delivery_is_asynchronous(tmp_path: Path) -> None:
    release = threading.Event()
    bus = make_bus(tmp_path, lambda *a: release.wait(5))
    bus.put_events([entry()])  # returns while the target is still running
    assert not bus.wait_idle(0.1)
    release.set()
    assert bus.wait_idle()


def test_a_failing_target_is_retried_then_dead_lettered(tmp_path: Path) -> None:
    calls: list[int] = []

    def fail(*_: Any) -> None:
        calls.append(1)
        raise RuntimeError("target broke")

    bus = make_bus(tmp_path, fail, attempts=3)
    bus.put_events([entry()])
    assert bus.wait_idle()
    assert len(calls) == 3
    (dead,) = bus.dead_letters.records
    assert dead["status"] == "failed"
    assert dead["attempts"] == 3
    assert "target broke" in dead["error"]
    logged = [json.loads(line) for line in (tmp_path / "dead.jsonl").read_text().splitlines()]
    assert logged[0]["eventId"] == dead["eventId"]


def test_a_target_that_recovers_is_delivered_once(tmp_path: Path) -> None:
    outcomes = iter([RuntimeError("flaky"), None])

    def flaky(*_: Any) -> None:
        outcome = next(outcomes)
        if outcome:
            raise outcome

    bus = make_bus(tmp_path, flaky)
    bus.put_events([entry()])
    assert bus.wait_idle()
    assert [d["attempts"] for d in bus.deliveries] == [2]
    assert bus.dead_letters.records == []


def test_invalid_entries_are_reported_per_entry(tmp_path: Path) -> None:
    bus = make_bus(tmp_path, lambda *a: None)
    result = bus.put_events(
        [entry(), {"Source": "x", "DetailType": "y", "Detail": "{not json"}, entry(bus="nope")]
    )
    assert result["FailedEntryCount"] == 2
    assert "EventId" in result["Entries"][0]
    assert result["Entries"][1]["ErrorCode"] == "MalformedDetail"
    assert result["Entries"][2]["ErrorCode"] == "ResourceNotFoundException"


def test_put_events_takes_one_to_ten_entries(tmp_path: Path) -> None:
    bus = make_bus(tmp_path, lambda *a: None)
    with pytest.raises(PutEventsError):
        bus.put_events([])
    with pytest.raises(PutEventsError):
        bus.put_events([entry()] * 11)


def test_a_retry_waits_on_a_timer_so_other_events_are_not_held_up(tmp_path: Path) -> None:
    """While a dependency is down, failed deliveries wait for their retry: more of them than the bus has
    workers must not hold up an event whose target answers (a worker sleeping through the backoff did)."""
    delivered = threading.Event()

    def invoke(_: str, event: dict[str, Any]) -> None:
        if event["detail"]["op"] == "stop.ok":
            delivered.set()
            return
        raise RuntimeError("the store is down")

    bus = make_bus(tmp_path, invoke, attempts=2)
    bus.backoff_s = 2.0
    bus.put_events([entry("stop.fails") for _ in range(6)])
    bus.put_events([entry("stop.ok")])
    assert delivered.wait(1.0), "the answering target waited behind the retries' backoff"
    assert not bus.wait_idle(0.2)  # the retries are still waiting, and count as in flight
    assert bus.wait_idle(5.0)
    assert len(bus.dead_letters.records) == 6
