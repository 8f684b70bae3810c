"""A local EventBridge bus: ``PutEvents`` from real boto3 clients, rules and patterns from template.yaml.

Matching uses moto's implementation of EventBridge patterns (prefix, anything-but, numeric, exists, $or,
...). Delivery is asynchronous, like EventBridge → Lambda: each matching rule's function is invoked on a
worker thread; a failure is retried (``attempts`` in all: Lambda's two asynchronous retries, which AWS
makes about one and two minutes later, come here after ``backoff_s`` and twice that, 10 s and 20 s) and
then written to the dead-letter log (``.local/dead-letters.jsonl``, and ``GET /_local/dead-letters`` on
the gateway).
"""

from __future__ import annotations

import json
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from moto.events.models import EventPattern

from tripagent_local.awsjson import AwsApiError
from tripagent_local.deadletters import DeadLetterLog
from tripagent_local.lambdas import ACCOUNT, REGION


@dataclass(frozen=True)
class LocalRule:
    name: str
    function_id: str
    bus_name: str
    pattern: dict[str, Any]
    _compiled: EventPattern = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:  # the pattern is parsed once, not for every event
        object.__setattr__(self, "_compiled", EventPattern.load(json.dumps(self.pattern)))

    def matches(self, event: dict[str, Any]) -> bool:
        return bool(self._compiled.matches_event(event))  # type: ignore[arg-type]


class PutEventsError(AwsApiError):
    pass


class LocalEventBus:
    def __init__(
        self,
        bus_names: set[str],
        rules: list[LocalRule],
        invoke: Callable[[str, dict[str, Any]], Any],
        dead_letters: DeadLetterLog,
        *,
        attempts: int = 3,
        backoff_s: float = 10.0,
    ) -> None:
        self.bus_names = bus_names | {"default"}
        self.rules = rules
        self._invoke = invoke
        self.dead_letters = dead_letters
        self.attempts = attempts
        self.backoff_s = backoff_s
        self.deliveries: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []  # every event accepted, on any bus, for inspection
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="eventbus")
        self._pending: set[Future[None]] = set()
        self._waiting = 0  # failed deliveries waiting for their retry

    # ------------------------------------------------------------------ EventBridge API
    def handle(self, target: str, body: dict[str, Any]) -> dict[str, Any]:
        action = target.removeprefix("AWSEvents.")
        if action == "PutEvents":
            return self.put_events(body.get("Entries", []))
        if action == "DescribeEventBus":
            name = body.get("Name") or "default"
            if name not in self.bus_names:
                raise PutEventsError("ResourceNotFoundException", f"Event bus {name} does not exist.")
            return {"Name": name, "Arn": self.bus_arn(name)}
        raise PutEventsError("UnknownOperationException", f"The local bus does not implement {action}.")

    @staticmethod
    def bus_arn(name: str) -> str:
        return f"arn:aws:events:{REGION}:{ACCOUNT}:event-bus/{name}"

    def put_events(self, entries: list[dict[str, Any]]) -> dict[str, Any]:
        if not 1 <= len(entries) <= 10:
            raise PutEventsError("ValidationException", "PutEvents takes between 1 and 10 entries.")
        results: list[dict[str, Any]] = []
        for entry in entries:
            bus = (entry.get("EventBusName") or "default").rsplit("/", 1)[-1]
            missing = [k for k in ("Source", "DetailType", "Detail") if not entry.get(k)]
            if missing:
                results.append(
                    {"ErrorCode": "InvalidArgument", "ErrorMessage": f"Missing {', '.join(missing)}"}
                )
                continue
            if bus not in self.bus_names:
                results.append({"ErrorCode": "ResourceNotFoundException", "ErrorMessage": f"No bus {bus}"})
                continue
            try:
                detail = json.loads(entry["Detail"])
            except json.JSONDecodeError:
                results.append({"ErrorCode": "MalformedDetail", "ErrorMessage": "Detail is not valid JSON"})
                continue
            event = {
                "version": "0",
                "id": str(uuid.uuid4()),
                "detail-type": entry["DetailType"],
                "source": entry["Source"],
                "account": ACCOUNT,
                "time": _event_time(entry.get("Time")),
                "region": REGION,
                "resources": entry.get("Resources", []),
                "detail": detail,
            }
            self.publish(bus, event)
            results.append({"EventId": event["id"]})
        failed = sum(1 for r in results if "ErrorCode" in r)
        return {"FailedEntryCount": failed, "Entries": results}

    # ------------------------------------------------------------------ delivery
    def publish(self, bus: str, event: dict[str, Any]) -> list[str]:
        """Schedule delivery of ``event`` to every matching rule's function; return those functions."""
        with self._lock:
            self.events.append({"bus": bus, **event})
        targets = [r for r in self.rules if r.bus_name == bus and r.matches(event)]
        for rule in targets:
            self._submit(rule, event, 1)
        return [r.function_id for r in targets]

    def _submit(self, rule: LocalRule, event: dict[str, Any], attempt: int) -> None:
        future = self._pool.submit(self._deliver, rule, event, attempt)
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: Future[None]) -> None:
        with self._lock:
            self._pending.discard(future)

    def _deliver(self, rule: LocalRule, event: dict[str, Any], attempt: int) -> None:
        """One attempt. A failure waits for its retry on a timer, not on a worker: while a dependency is
        down, the other events keep their turn (Lambda's asynchronous retries come later, from a queue)."""
        try:
            self._invoke(rule.function_id, event)
        except Exception:
            if attempt < self.attempts:
                retry = threading.Timer(self.backoff_s * attempt, self._retry, (rule, event, attempt + 1))
                retry.daemon = True
                with self._lock:
                    self._waiting += 1
                retry.start()
                return
            error = traceback.format_exc(limit=5)
            self.dead_letters.add(self._record(rule, event, attempt, "failed", error))
            return
        delivered = self._record(rule, event, attempt, "delivered")
        with self._lock:
            self.deliveries.append(delivered)

    def _retry(self, rule: LocalRule, event: dict[str, Any], attempt: int) -> None:
        try:
            self._submit(rule, event, attempt)
        except RuntimeError:  # the bus shut down while the retry waited
            pass
        finally:
            with self._lock:
                self._waiting -= 1

    @staticmethod
    def _record(
        rule: LocalRule,
        event: dict[str, Any],
        attempts: int,
        status: str,
        error: str = "",
    ) -> dict[str, Any]:
        record = {
            "eventId": event["id"],
            "rule": rule.name,
            "function": rule.function_id,
            "status": status,
            "attempts": attempts,
            "at": datetime.now(UTC).isoformat(),
            "event": event,
        }
        if error:
            record["error"] = error
        return record

    def wait_idle(self, timeout_s: float = 10.0) -> bool:
        """Wait until no delivery is in flight (tests, and the CLI's put-event)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self._lock:
                if not self._pending and not self._waiting:
                    return True
            time.sleep(0.02)
        return False

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _event_time(value: Any) -> str:
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, str) and value:
        return value
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
