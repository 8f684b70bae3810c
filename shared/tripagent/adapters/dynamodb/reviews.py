"""The reviewer's ledger, in the trip's session partition: one item per reviewed operation
(``REVIEWOP#<operationId>``): ``queued`` → ``reviewing`` (claimed) → ``reviewed``. The suggestions it
raises are proposals (``adapters/dynamodb/proposals.py``).

A trip's reviews run one at a time: they come from its message group of the FIFO queue, which hands out
nothing more of a group while a message of it is in flight (and its visibility timeout outlasts the
function's). So a claim a review finds was left by a run that failed or timed out, whatever its age: it is
taken over at once. (A 300 s lease did no harm in AWS, whose retry comes after the 360 s visibility
timeout; the local queue retries within seconds, found the claim held, and nothing reviewed those
operations until the trip's next one.)"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import condition_failed
from tripagent.adapters.dynamodb.keys import review_op_sk, session_pk
from tripagent.adapters.dynamodb.paging import query_items
from tripagent.domain.events import TripOperationCommitted

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from tripagent.application.review import Enlisted

LEDGER_RETENTION_S = 7 * 86400


class DynamoReviewLedger:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def enlist(self, event: TripOperationCommitted) -> Enlisted:
        item: Any = {
            "PK": {"S": session_pk(event.tripId)},
            "SK": {"S": review_op_sk(event.operationId)},
            "type": {"S": "review-op"},
            "status": {"S": "queued"},
            "doc": {"S": event.model_dump_json()},
            "ttl": {"N": str(int(time.time()) + LEDGER_RETENTION_S)},
        }
        try:
            self._db.put_item(
                TableName=self._table,
                Item=item,
                ConditionExpression="attribute_not_exists(PK)",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as exc:
            if not condition_failed(exc):
                raise
            old: Any = exc.response.get("Item") or {}
            return "reviewed" if old.get("status", {}).get("S") == "reviewed" else "queued"
        return "new"

    def claim(self, trip_id: str) -> list[TripOperationCommitted]:
        now = int(time.time())
        items = list(  # reviewed items stay a week: page through them
            query_items(
                self._db,
                TableName=self._table,
                KeyConditionExpression="PK = :pk AND begins_with(SK, :op)",
                FilterExpression="#status <> :reviewed",  # queued, or left claimed by a run that failed
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":pk": {"S": session_pk(trip_id)},
                    ":op": {"S": review_op_sk("")},
                    ":reviewed": {"S": "reviewed"},
                },
                ConsistentRead=True,
            )
        )
        claimed = []
        for item in items:
            try:
                self._db.update_item(
                    TableName=self._table,
                    Key={"PK": item["PK"], "SK": item["SK"]},
                    UpdateExpression="SET #status = :reviewing, claimedAt = :now",
                    ConditionExpression="#status = :seen "
                    "AND (attribute_not_exists(claimedAt) OR claimedAt = :was)",
                    ExpressionAttributeNames={"#status": "status"},
                    ExpressionAttributeValues={
                        ":reviewing": {"S": "reviewing"},
                        ":now": {"N": str(now)},
                        ":seen": item["status"],
                        ":was": item.get("claimedAt", {"N": "0"}),
                    },
                )
            except ClientError as exc:
                if condition_failed(exc):
                    continue  # another review took it
                raise
            claimed.append(TripOperationCommitted.model_validate_json(item["doc"]["S"]))
        return sorted(claimed, key=lambda e: (e.tripVersion, e.at))

    def release(self, trip_id: str, operation_ids: list[str]) -> None:
        for operation_id in operation_ids:
            try:
                self._db.update_item(
                    TableName=self._table,
                    Key={"PK": {"S": session_pk(trip_id)}, "SK": {"S": review_op_sk(operation_id)}},
                    UpdateExpression="SET #status = :queued REMOVE claimedAt",
                    ConditionExpression="#status = :reviewing",
                    ExpressionAttributeNames={"#status": "status"},
                    ExpressionAttributeValues={":queued": {"S": "queued"}, ":reviewing": {"S": "reviewing"}},
                )
            except ClientError as exc:
                if not condition_failed(exc):
                    raise

    def done(self, trip_id: str, operation_ids: list[str]) -> None:
        for operation_id in operation_ids:
            self._db.update_item(
                TableName=self._table,
                Key={"PK": {"S": session_pk(trip_id)}, "SK": {"S": review_op_sk(operation_id)}},
                UpdateExpression="SET #status = :reviewed REMOVE doc",  # the marker is all that must stay
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={":reviewed": {"S": "reviewed"}},
            )
