"""The local stack's consumer faults: a function that dies mid-batch, as the soak injects it."""

from __future__ import annotations

from typing import Any

import pytest
from tripagent_local.faults import ConsumerFaults
from tripagent_local.lambdas import FunctionError


def stream_batch(n: int) -> dict[str, Any]:
    return {"Records": [{"dynamodb": {"SequenceNumber": f"{i:021d}"}} for i in range(n)]}


class Consumer:
    """Records which records each invocation was given."""

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def __call__(self, function_id: str, event: dict[str, Any]) -> Any:
        self.seen.append([r["dynamodb"]["SequenceNumber"] for r in event["Records"]])
        return {"batchItemFailures": []}


def test_no_fault_by_default_the_batch_runs_whole() -> None:
    consumer = Consumer()
    invoke = ConsumerFaults(set()).wrap(consumer)
    assert invoke("F", stream_batch(4)) == {"batchItemFailures": []}
    assert [len(s) for s in consumer.seen] == [4]


def test_a_crash_runs_a_prefix_of_the_batch_for_real_then_fails_the_invocation() -> None:
    consumer = Consumer()
    faults = ConsumerFaults(set(), seed=1)
    faults.set(1.0)
    with pytest.raises(FunctionError, match=r"Injected\.Crash"):
        faults.wrap(consumer)("F", stream_batch(6))
    batch = [r["dynamodb"]["SequenceNumber"] for r in stream_batch(6)["Records"]]
    assert all(seen == batch[: len(seen)] for seen in consumer.seen)  # the work done was a prefix
    assert faults.describe()["injected"] == {"F crash": 1}


def test_a_source_that_takes_item_failures_may_be_answered_the_rest_of_the_batch_as_failed() -> None:
    batch = [r["dynamodb"]["SequenceNumber"] for r in stream_batch(5)["Records"]]
    faults = ConsumerFaults({"F"}, seed=0, per_record=100)
    faults.set(1.0)
    partial = 0
    for _ in range(20):
        consumer = Consumer()
        try:
            answer = faults.wrap(consumer)("F", stream_batch(5))
        except FunctionError:
            continue
        partial += 1
        done = consumer.seen[0] if consumer.seen else []
        assert done == batch[: len(done)]  # the records before the failure were processed
        assert [f["itemIdentifier"] for f in answer["batchItemFailures"]] == batch[len(done) :]
    assert 0 < partial < 20  # crashes and partial answers, both


def test_a_record_fails_by_injection_at_most_per_record_times_so_retries_heal() -> None:
    consumer = Consumer()
    faults = ConsumerFaults(set(), per_record=2, seed=3)
    faults.set(1.0)
    invoke = faults.wrap(consumer)
    outcomes = []
    for _ in range(4):  # a source retrying the same batch
        try:
            outcomes.append(invoke("F", stream_batch(3)))
        except FunctionError:
            outcomes.append("crashed")
    assert outcomes[:2] == ["crashed", "crashed"]
    assert outcomes[2:] == [{"batchItemFailures": []}] * 2
    assert consumer.seen[-1] == [r["dynamodb"]["SequenceNumber"] for r in stream_batch(3)["Records"]]


def test_a_bus_event_is_a_batch_of_one_that_only_crashes() -> None:
    """Even for a function whose queue source takes item failures: the bus would read an answer of
    failures as a success, and the event would be lost (the soak caught the injector doing that)."""
    faults = ConsumerFaults({"F"}, seed=5, per_record=100)
    faults.set(1.0)
    for n in range(20):
        calls: list[dict[str, Any]] = []
        event = {"id": f"event-{n}", "detail": {}}
        with pytest.raises(FunctionError):
            faults.wrap(lambda f, e, calls=calls: calls.append(e))("F", event)
        assert calls in ([], [event])  # died before the work, or after it


def test_a_rate_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        ConsumerFaults(set()).set(1.5)
