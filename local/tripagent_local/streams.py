"""DynamoDB stream event sources, locally: tail DynamoDB Local's stream of a table and invoke the
function the template names, as Lambda's event source mapping would.

Records are shaped as Lambda delivers them (``{"Records": [...]}`` with ``eventSourceARN``), filtered by
the mapping's ``FilterCriteria`` (the EventBridge pattern language, matched with moto's implementation),
delivered in order per shard in batches of ``BatchSize``. A failed batch is retried, backing off
exponentially (0.5 s doubling, at most 5 s apart), up to the mapping's ``MaximumRetryAttempts`` (at most
10 here); with ``ReportBatchItemFailures`` only from the first failed record on. After the retries the
records go to the dead-letter log, as the on-failure destination would receive them.
"""

from __future__ import annotations

import base64
import json
import sys
import threading
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from moto.events.models import EventPattern
from tripagent.adapters.retries import TryAgain, exponential, retrying

from tripagent_local.deadletters import DeadLetterLog
from tripagent_local.lambdas import REGION
from tripagent_local.template import StreamSource

# Enough to outlast an engine restarted within half a minute, and keep a poisoned record from blocking
# the shard for longer than about 40 s on a laptop.
LOCAL_MAX_RETRIES = 10


class StreamPoller:
    def __init__(
        self,
        streams_client: Any,
        stream_arn: str,
        source: StreamSource,
        invoke: Callable[[str, dict[str, Any]], Any],
        dead_letters: DeadLetterLog,
        *,
        poll_s: float = 0.1,
        backoff_s: float = 0.5,
        backoff_cap_s: float = 5.0,
        stream_arn_of: Callable[[], str] | None = None,
    ) -> None:
        self._client = streams_client
        self.stream_arn = stream_arn
        self.source = source
        self._invoke = invoke
        self.dead_letters = dead_letters
        self._poll_s = poll_s
        self._backoff_s = backoff_s
        self._backoff_cap_s = backoff_cap_s
        self._patterns = [EventPattern.load(json.dumps(f)) for f in source.filters]
        self._iterators: dict[str, str | None] = {}
        self._read_up_to: dict[str, str] = {}  # shard → the last sequence number read: where to resume
        self._stream_arn_of = stream_arn_of  # the table's stream now (a restarted engine may have a new one)
        self.delivered = 0  # batches handed to the function (or to the dead-letter log)
        self._quiet_since = 0.0  # when the latest cycle that found nothing began (monotonic)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"stream-{source.function_id}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    # ------------------------------------------------------------------ polling
    def _run(self) -> None:
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                busy = self._poll_once()
            except Exception as exc:  # the engine is down or the stream failed: not quiet, but do not spin
                print(f"stream {self.source.function_id}: {type(exc).__name__}: {exc}", file=sys.stderr)
                self._stop.wait(self._poll_s)
                self._resume_later()
                continue
            if not busy:
                self._quiet_since = began
                self._stop.wait(self._poll_s)

    def quiet_since(self, moment: float, timeout_s: float) -> bool:
        """Wait until a whole poll that began after ``moment`` found nothing to deliver."""
        deadline = time.monotonic() + timeout_s
        while self._quiet_since <= moment:
            if time.monotonic() > deadline or self._stop.is_set():
                return False
            time.sleep(0.02)
        return True

    def _resume_later(self) -> None:
        """After a failure, take new iterators from where each shard was read up to (a restarted engine
        invalidates the old ones), or from a new stream's start when the table came back with another."""
        self._iterators.clear()
        if self._stream_arn_of is None:
            return
        try:
            arn = self._stream_arn_of()
        except Exception:
            return  # still down: the next poll fails again and comes back here
        if arn != self.stream_arn:
            self.stream_arn, self._read_up_to = arn, {}

    def _refresh_shards(self) -> None:
        shards = self._client.describe_stream(StreamArn=self.stream_arn)["StreamDescription"]["Shards"]
        for shard in shards:
            shard_id = shard["ShardId"]
            if shard_id not in self._iterators:
                after = self._read_up_to.get(shard_id)
                position: dict[str, str] = (
                    {"ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": after}
                    if after
                    else {"ShardIteratorType": "TRIM_HORIZON"}
                )
                self._iterators[shard_id] = self._client.get_shard_iterator(
                    StreamArn=self.stream_arn, ShardId=shard_id, **position
                )["ShardIterator"]

    def _poll_once(self) -> bool:
        self._refresh_shards()
        busy = False
        for shard_id, iterator in list(self._iterators.items()):
            if iterator is None:
                continue  # a closed shard, read to its end
            response = self._client.get_records(ShardIterator=iterator, Limit=1000)
            self._iterators[shard_id] = response.get("NextShardIterator")
            raw = response.get("Records", [])
            if raw:
                self._read_up_to[shard_id] = raw[-1]["dynamodb"]["SequenceNumber"]
            records = [self._lambda_record(r) for r in raw]
            records = [r for r in records if self._matches(r)]
            for start in range(0, len(records), self.source.batch_size):
                self._deliver(records[start : start + self.source.batch_size])
                self.delivered += 1
            busy = busy or bool(records)
        return busy

    def _matches(self, record: dict[str, Any]) -> bool:
        return not self._patterns or any(p.matches_event(record) for p in self._patterns)  # type: ignore[arg-type]

    def _lambda_record(self, raw: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(json.dumps(raw, default=_epoch))
        record["eventSourceARN"] = self.stream_arn
        record.setdefault("awsRegion", REGION)
        return record

    # ------------------------------------------------------------------ delivery
    def _deliver(self, batch: list[dict[str, Any]]) -> None:
        pending = batch
        retries = min(self.source.max_retries if self.source.max_retries >= 0 else 10_000, LOCAL_MAX_RETRIES)
        try:
            for attempt in retrying(
                attempts=retries + 1,
                wait=exponential(self._backoff_s, self._backoff_cap_s),
                retry_on=lambda _: True,
            ):
                with attempt:
                    result = self._invoke(self.source.function_id, {"Records": pending})
                    failed = (
                        _first_failure(result, pending) if self.source.report_batch_item_failures else None
                    )
                    if failed is not None:  # only from the first failed record on, as Lambda retries
                        pending = pending[failed:]
                        raise TryAgain(
                            f"batchItemFailures from {pending[0]['dynamodb'].get('SequenceNumber')}"
                        )
            return
        except TryAgain as exc:
            error = str(exc.value)
        except Exception:
            error = traceback.format_exc(limit=5)
        record = {
            "source": f"{self.source.function_id}.{self.source.name}",
            "function": self.source.function_id,
            "status": "failed",
            "at": datetime.now(UTC).isoformat(),
            "records": pending,
            "error": error,
        }
        self.dead_letters.add(record)


def _first_failure(result: Any, batch: list[dict[str, Any]]) -> int | None:
    """Index of the first record the function reported as failed, or None when all succeeded."""
    failures = (result or {}).get("batchItemFailures") or [] if isinstance(result, dict) else []
    ids = {f.get("itemIdentifier") for f in failures}
    for index, record in enumerate(batch):
        if record["dynamodb"].get("SequenceNumber") in ids:
            return index
    return None


def _epoch(value: Any) -> Any:
    """What boto3 decodes that JSON cannot carry, as Lambda delivers it: times as epoch seconds and
    binary attributes (``B``, ``BS``) base64-encoded."""
    if isinstance(value, datetime):
        return int(value.timestamp())
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(value).decode()
    raise TypeError(f"not JSON serializable: {type(value).__name__}")
