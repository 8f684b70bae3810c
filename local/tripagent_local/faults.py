"""Faults injected into the functions the stack's event sources invoke (the stream pollers, the queue
pollers and the bus's targets), for the soak and for anyone who wants to watch the system heal.

With probability ``rate``, an invocation does its work on the records before a random point of its batch
and then fails there, as a function that dies mid-batch would (a timeout, an out-of-memory kill, a bug on
one record):

- ``crash``: the invocation errors, so the source retries the whole batch, records already processed
  included (a consumer that is not idempotent does their work twice);
- ``partial``: when the source reports item failures, the function answers the rest of the batch as
  ``batchItemFailures`` (what Powertools' batch processor answers when a record raises), so the source
  retries from there.

A record fails by injection at most ``per_record`` times, fewer than any source's retries, so a healthy
system loses nothing: what the soak checks. (A record that fails every time is dead-lettered, as the
bus's and the gateway's tests show.)
"""

from __future__ import annotations

import collections
import random
import threading
from collections.abc import Callable
from typing import Any

from tripagent_local.lambdas import FunctionError

Invoke = Callable[[str, dict[str, Any]], Any]


class ConsumerFaults:
    def __init__(
        self, reports_item_failures: set[str], *, per_record: int = 2, seed: int | None = None
    ) -> None:
        self._reports = reports_item_failures  # functions whose batch sources take batchItemFailures
        self._per_record = per_record
        self._random = random.Random(seed)  # noqa: S311 - where a fault lands, not a secret
        self._lock = threading.Lock()
        self.rate = 0.0
        self._failed: collections.Counter[str] = collections.Counter()  # record id → injected failures
        self.injected: collections.Counter[str] = collections.Counter()  # "function mode" → how many

    def set(self, rate: float) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError("a fault rate is between 0 and 1")
        with self._lock:
            self.rate = rate

    def describe(self) -> dict[str, Any]:
        with self._lock:
            return {"rate": self.rate, "injected": dict(self.injected)}

    def wrap(self, invoke: Invoke) -> Invoke:
        def invoke_with_faults(function_id: str, event: dict[str, Any]) -> Any:
            return self._invoke(invoke, function_id, event)

        return invoke_with_faults

    def _invoke(self, invoke: Invoke, function_id: str, event: dict[str, Any]) -> Any:
        records = event.get("Records")
        batch: list[dict[str, Any]] = records if isinstance(records, list) and records else [event]
        plan = self._plan(function_id, batch, item_failures=bool(records) and function_id in self._reports)
        if plan is None:
            return invoke(function_id, event)
        point, mode = plan
        if point > 0:  # the work done before the failure is real
            done = invoke(function_id, {**event, "Records": batch[:point]} if records else event)
        else:
            done = None
        if mode == "crash":
            raise FunctionError(
                function_id,
                {"errorType": "Injected.Crash", "errorMessage": f"died after {point} of {len(batch)}"},
            )
        reported = (done or {}).get("batchItemFailures") or [] if isinstance(done, dict) else []
        rest = [{"itemIdentifier": _record_id(r)} for r in batch[point:]]
        return {"batchItemFailures": [*reported, *rest]}

    def _plan(
        self, function_id: str, batch: list[dict[str, Any]], *, item_failures: bool
    ) -> tuple[int, str] | None:
        """Where this invocation fails and how, or None to run it whole. Counts the records it fails.
        ``item_failures``: the batch comes from a source that reads ``batchItemFailures`` (a bus event
        does not, even to a function that has such a source too)."""
        with self._lock:
            if self.rate <= 0 or self._random.random() >= self.rate:
                return None
            partial = item_failures and self._random.random() < 0.5
            mode = "partial" if partial else "crash"
            point = self._random.randrange(len(batch) + (0 if partial else 1))  # a crash may follow the last
            failed = batch[point:] if partial else batch
            ids = [_record_id(r) for r in failed]
            if any(self._failed[i] >= self._per_record for i in ids):
                return None
            for i in ids:
                self._failed[i] += 1
            self.injected[f"{function_id} {mode}"] += 1
            return point, mode


def _record_id(record: dict[str, Any]) -> str:
    """A record's identity for its source: a stream record's sequence number, a queue message's id, an
    EventBridge event's id."""
    if "dynamodb" in record:
        return str(record["dynamodb"].get("SequenceNumber"))
    return str(record.get("messageId") or record.get("id") or id(record))
