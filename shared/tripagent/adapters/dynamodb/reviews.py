"""The reviewer's ledger and the shared suggestions, in the trip's session partition.

Ledger: one item per reviewed operation (``REVIEWOP#<operationId>``): ``queued`` → ``reviewing`` (claimed,
with a lease) → ``reviewed``. Suggestions: ``SUGGESTION#<id>`` with ``status``, ``decidedBy``, ``decidedAt``
and the set of members who denied it as attributes; the rest of the suggestion as a JSON document.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import after_transactions, condition_failed
from tripagent.adapters.dynamodb.keys import OPEN_SUGGESTIONS, review_op_sk, session_pk, suggestion_sk
from tripagent.adapters.dynamodb.paging import query_items
from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.review import ClaimOutcome, Suggestion
from tripagent.domain.times import epoch

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from tripagent.application.review import Enlisted

LEDGER_RETENTION_S = 7 * 86400
CLAIM_LEASE_S = 300  # longer than the reviewer's timeout: a claim older than this belonged to a dead run
KEEP_DECIDED_S = 7 * 86400


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
                FilterExpression="#status = :queued OR (#status = :reviewing AND claimedAt < :lease)",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":pk": {"S": session_pk(trip_id)},
                    ":op": {"S": review_op_sk("")},
                    ":queued": {"S": "queued"},
                    ":reviewing": {"S": "reviewing"},
                    ":lease": {"N": str(now - CLAIM_LEASE_S)},
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


class DynamoSuggestionStore:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def _key(self, trip_id: str, suggestion_id: str) -> Any:
        return {"PK": {"S": session_pk(trip_id)}, "SK": {"S": suggestion_sk(suggestion_id)}}

    def create(self, suggestion: Suggestion) -> bool:
        expires = epoch(suggestion.expiresAt)
        static = suggestion.model_dump(mode="json", exclude={"status", "decidedBy", "decidedAt"})
        item: Any = {
            **self._key(suggestion.tripId, suggestion.suggestionId),
            "type": {"S": "suggestion"},
            "status": {"S": suggestion.status},
            "expiresAt": {"S": suggestion.expiresAt},
            "doc": {"S": json.dumps(static)},
            "ttl": {"N": str(expires + KEEP_DECIDED_S)},
            "GSI1PK": {"S": OPEN_SUGGESTIONS},
            "GSI1SK": {"S": f"{suggestion.expiresAt}#{suggestion.tripId}#{suggestion.suggestionId}"},
        }
        try:
            self._db.put_item(
                TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(PK)"
            )
        except ClientError as exc:
            if condition_failed(exc):
                return False
            raise
        return True

    def claim(self, trip_id: str, suggestion_id: str, by: str, at: str) -> ClaimOutcome | None:
        return after_transactions(lambda: self._claim_once(trip_id, suggestion_id, by, at))

    def _claim_once(self, trip_id: str, suggestion_id: str, by: str, at: str) -> ClaimOutcome | None:
        now = int(time.time())
        try:
            won = self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, suggestion_id),
                UpdateExpression="SET #status = :approved, decidedBy = :by, decidedAt = :at, "
                "claimedAt = :now",
                ConditionExpression="expiresAt > :at AND "
                "(#status = :pending OR (#status = :approved AND claimedAt < :lease))",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":approved": {"S": "approved"},
                    ":pending": {"S": "pending"},
                    ":by": {"S": by},
                    ":at": {"S": at},
                    ":now": {"N": str(now)},
                    ":lease": {"N": str(now - CLAIM_LEASE_S)},
                },
                ReturnValues="ALL_NEW",
                # The loser learns the decision, who made it and when, from the same call.
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as exc:
            if not condition_failed(exc):
                raise
            old: Any = exc.response.get("Item")
            return ClaimOutcome(won=False, suggestion=self.read_item(old)) if old else None
        return ClaimOutcome(won=True, suggestion=self.read_item(won["Attributes"]))

    def finish(self, trip_id: str, suggestion_id: str, by: str, status: str, at: str) -> None:
        reopen = status == "pending"
        try:
            self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, suggestion_id),
                UpdateExpression="SET #status = :status REMOVE decidedBy, decidedAt, claimedAt"
                if reopen
                else "SET #status = :status, decidedAt = :at REMOVE GSI1PK, GSI1SK",
                ConditionExpression="#status = :approved AND decidedBy = :by",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":status": {"S": status},
                    ":approved": {"S": "approved"},
                    ":by": {"S": by},
                }
                | ({} if reopen else {":at": {"S": at}}),
            )
        except ClientError as exc:
            if not condition_failed(exc):
                raise  # a lost claim: whoever holds it now decides

    @staticmethod
    def read_item(item: Any) -> Suggestion:
        doc = json.loads(item["doc"]["S"])
        doc["status"] = item["status"]["S"]
        doc["decidedBy"] = item.get("decidedBy", {}).get("S")
        doc["decidedAt"] = item.get("decidedAt", {}).get("S")
        return Suggestion.model_validate(doc)

    def get(self, trip_id: str, suggestion_id: str) -> Suggestion | None:
        item = self._db.get_item(
            TableName=self._table, Key=self._key(trip_id, suggestion_id), ConsistentRead=True
        ).get("Item")
        return self.read_item(item) if item else None

    def visible(self, trip_id: str, user_id: str, now: str) -> list[Suggestion]:
        # Decided suggestions stay a week, so the filter may leave pages empty: read every page.
        items = query_items(
            self._db,
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :sug)",
            FilterExpression="#status = :pending AND expiresAt > :now AND NOT contains(deniedBy, :me)",
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues={
                ":pk": {"S": session_pk(trip_id)},
                ":sug": {"S": suggestion_sk("")},
                ":pending": {"S": "pending"},
                ":now": {"S": now},
                ":me": {"S": user_id},
            },
            ConsistentRead=True,
        )
        found = [self.read_item(i) for i in items]
        return sorted(found, key=lambda s: s.createdAt, reverse=True)

    def due(self, now: str) -> list[tuple[str, str]]:
        """(trip id, suggestion id) of the open suggestions whose expiry has passed, oldest first."""
        due = query_items(
            self._db,
            TableName=self._table,
            IndexName="GSI1",
            KeyConditionExpression="GSI1PK = :open AND GSI1SK < :now",
            ExpressionAttributeValues={":open": {"S": OPEN_SUGGESTIONS}, ":now": {"S": now}},
            ProjectionExpression="PK, SK",
        )
        return [
            (i["PK"]["S"].removeprefix(session_pk("")), i["SK"]["S"].removeprefix(suggestion_sk("")))
            for i in due
        ]

    def deny(self, trip_id: str, suggestion_id: str, user_id: str) -> Suggestion | None:
        return after_transactions(lambda: self._deny_once(trip_id, suggestion_id, user_id))

    def _deny_once(self, trip_id: str, suggestion_id: str, user_id: str) -> Suggestion | None:
        try:
            denied = self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, suggestion_id),
                UpdateExpression="ADD deniedBy :me",
                ConditionExpression="attribute_exists(PK)",
                ExpressionAttributeValues={":me": {"SS": [user_id]}},
                ReturnValues="ALL_NEW",
            )
        except ClientError as exc:
            if condition_failed(exc):
                return None
            raise
        return self.read_item(denied["Attributes"])

    def settle(self, trip_id: str, suggestion_id: str, status: str, by: str, at: str) -> bool:
        now = int(time.time())
        try:
            self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, suggestion_id),
                UpdateExpression="SET #status = :status, decidedBy = :by, decidedAt = :at "
                "REMOVE GSI1PK, GSI1SK",
                # A claim whose holder died is settled too: past the expiry nobody may take it over.
                ConditionExpression="#status = :pending OR (#status = :approved AND claimedAt < :lease)",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":status": {"S": status},
                    ":pending": {"S": "pending"},
                    ":approved": {"S": "approved"},
                    ":lease": {"N": str(now - CLAIM_LEASE_S)},
                    ":by": {"S": by},
                    ":at": {"S": at},
                },
            )
        except ClientError as exc:
            if condition_failed(exc):
                return False
            raise
        return True
