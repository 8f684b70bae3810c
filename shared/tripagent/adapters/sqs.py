"""The review queue: an SQS FIFO queue grouped by trip, deduplicated on the operation id."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient


class SqsReviewQueue:
    def __init__(self, client: SQSClient, queue_url: str) -> None:
        self._sqs = client
        self._url = queue_url

    def enqueue(self, trip_id: str, operation_id: str) -> None:
        # One group per trip: a trip's reviews never run side by side; the queue's delay lets a burst
        # gather before the first review claims it. The deduplication id absorbs redeliveries (5 min).
        self._sqs.send_message(
            QueueUrl=self._url,
            MessageBody=json.dumps({"tripId": trip_id, "operationId": operation_id}),
            MessageGroupId=trip_id,
            MessageDeduplicationId=operation_id,
        )
