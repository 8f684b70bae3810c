"""Local SQS queues and their Lambda event source mappings, from template.yaml.

The SQS API (JSON protocol: ``X-Amz-Target: AmazonSQS.*``, as boto3 speaks it) for the calls our code
makes: ``SendMessage``, ``SendMessageBatch``, ``GetQueueUrl``, ``GetQueueAttributes``. Queues keep the
template's ``DelaySeconds``, FIFO semantics (deduplication on ``MessageDeduplicationId`` for 5 minutes;
one batch in flight per message group, in order) and ``RedrivePolicy.maxReceiveCount``. A poller per
queue with an event source mapping invokes the function with ``{"Records": [...]}`` shaped as Lambda
delivers them, honours ``ReportBatchItemFailures`` (for FIFO, a failed record returns the rest of its
group), and writes messages past their receive count to the dead-letter log.
"""

from __future__ import annotations

import hashlib
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tripagent_local.awsjson import AwsApiError
from tripagent_local.deadletters import DeadLetterLog
from tripagent_local.lambdas import ACCOUNT, REGION
from tripagent_local.template import QueueSource, QueueSpec

DEDUPLICATION_WINDOW_S = 300
# A failed message comes back after its visibility timeout: AWS's is minutes (the reviewer's queue: 360 s);
# here 2 s after the first failure, doubling to 16 s, so a queue's receives outlast a dependency's
# outage of about half a minute (a maxReceiveCount of 5 reaches its fifth receive 30 s after the first).
LOCAL_VISIBILITY_S = 2.0
LOCAL_VISIBILITY_CAP_S = 16.0


class SqsError(AwsApiError):
    pass


@dataclass
class Message:
    message_id: str
    body: str
    group_id: str | None
    dedup_id: str | None
    sent_at: float
    visible_at: float
    receive_count: int = 0


class LocalQueue:
    def __init__(self, spec: QueueSpec, url: str) -> None:
        self.spec = spec
        self.url = url
        self.arn = f"arn:aws:sqs:{REGION}:{ACCOUNT}:{spec.name}"
        self.messages: list[Message] = []
        self.in_flight_groups: set[str] = set()
        self.dedup: dict[str, float] = {}
        self.sent = 0
        self.lock = threading.Lock()

    def send(self, entry: dict[str, Any]) -> dict[str, Any]:
        body = entry.get("MessageBody")
        if not body:
            raise SqsError("InvalidParameterValue", "MessageBody is required.")
        group = entry.get("MessageGroupId")
        dedup = entry.get("MessageDeduplicationId")
        if self.spec.fifo and not group:
            raise SqsError("MissingParameter", "MessageGroupId is required for FIFO queues.")
        if self.spec.fifo and not dedup:
            raise SqsError("InvalidParameterValue", "MessageDeduplicationId is required (no content-based).")
        digest = hashlib.md5(body.encode(), usedforsecurity=False).hexdigest()
        now = time.time()
        with self.lock:
            if self.spec.fifo and dedup:
                self.dedup = {k: t for k, t in self.dedup.items() if now - t < DEDUPLICATION_WINDOW_S}
                if dedup in self.dedup:  # accepted, not enqueued again (as SQS answers)
                    return {
                        "MessageId": str(uuid.uuid5(uuid.NAMESPACE_URL, dedup)),
                        "MD5OfMessageBody": digest,
                    }
                self.dedup[dedup] = now
            delay = self.spec.delay_s if self.spec.fifo else int(entry.get("DelaySeconds", self.spec.delay_s))
            message = Message(
                message_id=str(uuid.uuid5(uuid.NAMESPACE_URL, dedup)) if dedup else str(uuid.uuid4()),
                body=body,
                group_id=group,
                dedup_id=dedup,
                sent_at=now,
                visible_at=now + delay,
            )
            self.messages.append(message)
            self.sent += 1
        return {"MessageId": message.message_id, "MD5OfMessageBody": digest}

    def take(self, limit: int) -> list[Message]:
        """The next batch: visible messages, in order; for FIFO, only from groups with none in flight, and
        stopping a group at its first invisible message."""
        now = time.time()
        batch: list[Message] = []
        with self.lock:
            blocked = set(self.in_flight_groups)
            for message in self.messages:
                if len(batch) >= limit:
                    break
                group = message.group_id or ""
                if self.spec.fifo and group in blocked:
                    continue
                if message.visible_at > now:
                    if self.spec.fifo:
                        blocked.add(group)  # order within a group: nothing after an invisible message
                    continue
                batch.append(message)
            for message in batch:
                message.receive_count += 1
                message.visible_at = now + 3600  # in flight
                if self.spec.fifo:
                    self.in_flight_groups.add(message.group_id or "")
        return batch

    def settle(self, delivered: list[Message], failed: set[str]) -> list[Message]:
        """Delete what succeeded; return the failed ones to the queue; give back those out of receives."""
        exhausted = []
        now = time.time()
        with self.lock:
            for message in delivered:
                self.in_flight_groups.discard(message.group_id or "")
                if message.message_id not in failed:
                    self.messages.remove(message)
                    continue
                limit = self.spec.max_receive_count
                if limit is not None and message.receive_count >= limit:
                    self.messages.remove(message)
                    exhausted.append(message)
                else:
                    back_off = LOCAL_VISIBILITY_S * 2 ** (message.receive_count - 1)
                    message.visible_at = now + min(back_off, LOCAL_VISIBILITY_CAP_S)
        return exhausted

    def depth(self) -> int:
        with self.lock:
            return len(self.messages)


class LocalQueues:
    """Every queue of the template, the SQS API over them, and their pollers."""

    def __init__(
        self,
        specs: list[QueueSpec],
        sources: list[QueueSource],
        base_url: str,
        invoke: Callable[[str, dict[str, Any]], Any],
        dead_letters: DeadLetterLog,
        *,
        poll_s: float = 0.05,
    ) -> None:
        self.queues = {s.logical_id: LocalQueue(s, f"{base_url}/{ACCOUNT}/{s.name}") for s in specs}
        self.sources = sources
        self._invoke = invoke
        self.dead_letters = dead_letters
        self.invocations: list[dict[str, Any]] = []
        self._poll_s = poll_s
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._poll, args=(source,), name=f"sqs-{source.function_id}", daemon=True)
            for source in sources
        ]
        self._busy = 0
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ SQS API
    def by_url(self, url: str) -> LocalQueue:
        return self.by_name(url.rstrip("/").rsplit("/", 1)[-1])

    def by_name(self, name: str) -> LocalQueue:
        for queue in self.queues.values():
            if queue.spec.name == name:
                return queue
        raise SqsError("AWS.SimpleQueueService.NonExistentQueue", f"The queue {name} does not exist.")

    def handle(self, target: str, body: dict[str, Any]) -> dict[str, Any]:
        action = target.removeprefix("AmazonSQS.")
        if action == "SendMessage":
            return self.by_url(body.get("QueueUrl", "")).send(body)
        if action == "SendMessageBatch":
            queue = self.by_url(body.get("QueueUrl", ""))
            ok, failed = [], []
            for entry in body.get("Entries", []):
                try:
                    ok.append({"Id": entry["Id"], **queue.send(entry)})
                except SqsError as exc:
                    failed.append(
                        {"Id": entry.get("Id"), "Code": exc.code, "Message": str(exc), "SenderFault": True}
                    )
            return {"Successful": ok, "Failed": failed}
        if action == "GetQueueUrl":
            return {"QueueUrl": self.by_name(body.get("QueueName", "")).url}
        if action == "GetQueueAttributes":
            queue = self.by_url(body.get("QueueUrl", ""))
            return {
                "Attributes": {
                    "QueueArn": queue.arn,
                    "ApproximateNumberOfMessages": str(queue.depth()),
                    "DelaySeconds": str(queue.spec.delay_s),
                    "FifoQueue": str(queue.spec.fifo).lower(),
                }
            }
        raise SqsError("UnsupportedOperation", f"The local queues do not implement {action}.")

    # ------------------------------------------------------------------ event source mappings
    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _poll(self, source: QueueSource) -> None:
        queue = self.queues[source.queue_id]
        while not self._stop.is_set():
            with self._lock:
                self._busy += 1
            try:
                batch = queue.take(source.batch_size)
                if batch:
                    self._deliver(source, queue, batch)
            finally:
                with self._lock:
                    self._busy -= 1
            if not batch:
                time.sleep(self._poll_s)

    def _deliver(self, source: QueueSource, queue: LocalQueue, batch: list[Message]) -> None:
        event = {"Records": [self._record(queue, m) for m in batch]}
        failed: set[str] = set()
        error = ""
        try:
            result = self._invoke(source.function_id, event)
        except Exception:
            failed = {m.message_id for m in batch}
            error = traceback.format_exc(limit=5)
        else:
            if source.report_batch_item_failures and isinstance(result, dict):
                failed = {str(f.get("itemIdentifier")) for f in result.get("batchItemFailures") or []}
        with self._lock:
            self.invocations.append(
                {
                    "function": source.function_id,
                    "records": len(batch),
                    "failed": len(failed),
                    "at": time.time(),
                }
            )
        for message in queue.settle(batch, failed):
            record = {
                "queue": queue.spec.name,
                "function": source.function_id,
                "messageId": message.message_id,
                "body": message.body,
                "attempts": message.receive_count,
                "at": datetime.now(UTC).isoformat(),
                "error": error,
            }
            self.dead_letters.add(record)

    @staticmethod
    def _record(queue: LocalQueue, message: Message) -> dict[str, Any]:
        attributes = {
            "ApproximateReceiveCount": str(message.receive_count),
            "SentTimestamp": str(int(message.sent_at * 1000)),
            "SenderId": ACCOUNT,
            "ApproximateFirstReceiveTimestamp": str(int(time.time() * 1000)),
        }
        if message.group_id:
            attributes["MessageGroupId"] = message.group_id
        if message.dedup_id:
            attributes["MessageDeduplicationId"] = message.dedup_id
            attributes["SequenceNumber"] = str(int(message.sent_at * 1_000_000))
        return {
            "messageId": message.message_id,
            "receiptHandle": f"local-{message.message_id}-{message.receive_count}",
            "body": message.body,
            "attributes": attributes,
            "messageAttributes": {},
            "md5OfBody": hashlib.md5(message.body.encode(), usedforsecurity=False).hexdigest(),
            "eventSource": "aws:sqs",
            "eventSourceARN": queue.arn,
            "awsRegion": REGION,
        }

    def wait_idle(self, timeout_s: float = 30.0) -> bool:
        """Wait until every queue with a consumer is empty and no batch is in flight."""
        consumed = {s.queue_id for s in self.sources}
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self._lock:
                busy = self._busy
            if all(self.queues[q].depth() == 0 for q in consumed) and busy == 0:
                return True
            time.sleep(0.05)
        return False
