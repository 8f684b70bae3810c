"""The template's schedules, locally: each ``rate(N unit)`` invokes its function every N units, first
after one period, as EventBridge does, with a "Scheduled Event". ``cron(...)`` is not emulated (none of our
schedules uses it); such a schedule is reported and skipped."""

from __future__ import annotations

import logging
import re
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from tripagent_local.lambdas import ACCOUNT, REGION
from tripagent_local.template import Schedule

RATE = re.compile(r"^rate\((\d+)\s+(minute|minutes|hour|hours|day|days)\)$")
SECONDS = {"minute": 60, "hour": 3600, "day": 86400}
log = logging.getLogger("tripagent.scheduler")


def period_s(expression: str) -> int | None:
    found = RATE.match(expression.strip())
    if not found:
        return None
    return int(found.group(1)) * SECONDS[found.group(2).rstrip("s")]


class LocalScheduler:
    def __init__(self, schedules: list[Schedule], invoke: Callable[[str, dict[str, Any]], Any]) -> None:
        self._invoke = invoke
        self._stop = threading.Event()
        self._threads = []
        for schedule in schedules:
            period = period_s(schedule.expression)
            if period is None:
                log.warning(
                    "%s.%s: %s is not emulated locally",
                    schedule.function_id,
                    schedule.name,
                    schedule.expression,
                )
                continue
            self._threads.append(
                threading.Thread(
                    target=self._run, args=(schedule, period), name=f"schedule-{schedule.name}", daemon=True
                )
            )

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self, schedule: Schedule, period: int) -> None:
        while not self._stop.wait(period):
            event = {
                "version": "0",
                "id": str(uuid.uuid4()),
                "detail-type": "Scheduled Event",
                "source": "aws.events",
                "account": ACCOUNT,
                "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "region": REGION,
                "resources": [
                    f"arn:aws:events:{REGION}:{ACCOUNT}:rule/{schedule.function_id}-{schedule.name}"
                ],
                "detail": {},
            }
            try:
                self._invoke(schedule.function_id, event)
            except Exception:
                log.exception("%s.%s failed", schedule.function_id, schedule.name)
