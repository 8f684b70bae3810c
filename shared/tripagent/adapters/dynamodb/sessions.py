"""The trip sessions in DynamoDB: a session item holding the sequence counter, one item per turn.

``append`` takes the next number from the counter (an atomic ``ADD``), then writes the turn and, when
asked, a dedupe marker in one transaction: two members writing at once get two numbers, and a
redelivered event writes nothing (its number is skipped: sequences increase strictly, with gaps).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import condition_failed
from tripagent.adapters.dynamodb.keys import (
    META,
    SESSIONS_BY_ACTIVITY,
    TURN_PREFIX,
    dedupe_sk,
    session_pk,
    turn_sk,
)
from tripagent.adapters.dynamodb.paging import query_items
from tripagent.application.sessions import SessionState
from tripagent.domain.session import Turn
from tripagent.domain.times import epoch

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


class DynamoSessionStore:
    def __init__(self, client: DynamoDBClient, table_name: str, *, retention_s: int) -> None:
        self._db = client
        self._table = table_name
        self._retention_s = retention_s

    def _next_seq(self, trip_id: str, at: str, expires: int) -> int:
        response = self._db.update_item(
            TableName=self._table,
            Key={"PK": {"S": session_pk(trip_id)}, "SK": {"S": META}},
            # GSI1 lists sessions by last activity, for the purge of idle ones.
            UpdateExpression="ADD seq :one SET lastActivity = :at, #ttl = :ttl, #type = :type, "
            "GSI1PK = :sessions, GSI1SK = :at",
            ExpressionAttributeNames={"#ttl": "ttl", "#type": "type"},
            ExpressionAttributeValues={
                ":one": {"N": "1"},
                ":at": {"S": at},
                ":ttl": {"N": str(expires)},
                ":type": {"S": "session"},
                ":sessions": {"S": SESSIONS_BY_ACTIVITY},
            },
            ReturnValues="UPDATED_NEW",
        )
        return int(response["Attributes"]["seq"]["N"])

    def append(self, trip_id: str, turn: Turn, *, dedupe_key: str | None = None) -> int | None:
        expires = epoch(turn.metadata.at) + self._retention_s
        seq = self._next_seq(trip_id, turn.metadata.at, expires)
        stored = turn.model_copy(update={"seq": seq})
        item: Any = {
            "PK": {"S": session_pk(trip_id)},
            "SK": {"S": turn_sk(seq)},
            "type": {"S": "turn"},
            "doc": {"S": stored.model_dump_json()},
            "ttl": {"N": str(expires)},
        }
        writes: list[Any] = [
            {
                "Put": {
                    "TableName": self._table,
                    "Item": item,
                    "ConditionExpression": "attribute_not_exists(PK)",
                }
            }
        ]
        if dedupe_key:
            marker = {
                "PK": {"S": session_pk(trip_id)},
                "SK": {"S": dedupe_sk(dedupe_key)},
                "type": {"S": "dedupe"},
                "seq": {"N": str(seq)},
                "ttl": {"N": str(expires)},
            }
            writes.append(
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": marker,
                        "ConditionExpression": "attribute_not_exists(PK)",
                    }
                }
            )
        try:
            self._db.transact_write_items(TransactItems=writes)
        except ClientError as exc:
            reasons = exc.response.get("CancellationReasons") or []
            if dedupe_key and len(reasons) > 1 and reasons[1].get("Code") == "ConditionalCheckFailed":
                return None
            raise
        return seq

    def turns(self, trip_id: str, *, after: int = 0, limit: int = 200) -> list[Turn]:
        response = self._db.query(
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND SK BETWEEN :lo AND :hi",
            # DynamoDB deletes expired items eventually (DynamoDB Local never does): filter them here.
            FilterExpression="#ttl > :now",
            ExpressionAttributeNames={"#ttl": "ttl"},
            ExpressionAttributeValues={
                ":pk": {"S": session_pk(trip_id)},
                ":lo": {"S": turn_sk(after + 1)},
                ":hi": {"S": turn_sk(10**12 - 1)},
                ":now": {"N": str(int(time.time()))},
            },
            Limit=limit,
            ConsistentRead=True,
        )
        return [Turn.model_validate(json.loads(i["doc"]["S"])) for i in response.get("Items", [])]

    def recent(self, trip_id: str, *, limit: int) -> list[Turn]:
        response = self._db.query(
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :turn)",
            FilterExpression="#ttl > :now",
            ExpressionAttributeNames={"#ttl": "ttl"},
            ExpressionAttributeValues={
                ":pk": {"S": session_pk(trip_id)},
                ":turn": {"S": TURN_PREFIX},
                ":now": {"N": str(int(time.time()))},
            },
            ScanIndexForward=False,  # newest first: the query reads only what it returns
            Limit=limit,
            ConsistentRead=True,
        )
        turns = [Turn.model_validate(json.loads(i["doc"]["S"])) for i in response.get("Items", [])]
        turns.reverse()
        return turns

    def _meta_key(self, trip_id: str) -> Any:
        return {"PK": {"S": session_pk(trip_id)}, "SK": {"S": META}}

    def state(self, trip_id: str) -> SessionState:
        item = self._db.get_item(TableName=self._table, Key=self._meta_key(trip_id), ConsistentRead=True).get(
            "Item"
        )
        if not item:
            return SessionState()
        pending = item.get("pendingIntent", {}).get("S")
        return SessionState(
            summary=item.get("summary", {}).get("S", ""),
            summary_up_to=int(item.get("summaryUpTo", {}).get("N", "0")),
            pending_intent=json.loads(pending) if pending else None,
        )

    def _update_meta(self, trip_id: str, **kwargs: Any) -> bool:
        try:
            self._db.update_item(TableName=self._table, Key=self._meta_key(trip_id), **kwargs)
        except ClientError as exc:
            if condition_failed(exc):
                return False
            raise
        return True

    def save_summary(self, trip_id: str, summary: str, up_to: int) -> None:
        self._update_meta(
            trip_id,
            UpdateExpression="SET summary = :summary, summaryUpTo = :upTo",
            ConditionExpression="attribute_exists(PK) AND (attribute_not_exists(summaryUpTo) "
            "OR summaryUpTo < :upTo)",
            ExpressionAttributeValues={":summary": {"S": summary}, ":upTo": {"N": str(up_to)}},
        )

    def set_pending_intent(self, trip_id: str, intent: dict[str, Any]) -> None:
        self._update_meta(
            trip_id,
            UpdateExpression="SET pendingIntent = :intent",
            ConditionExpression="attribute_exists(PK)",
            ExpressionAttributeValues={":intent": {"S": json.dumps(intent, sort_keys=True)}},
        )

    def take_pending_intent(self, trip_id: str, intent: dict[str, Any]) -> bool:
        return self._update_meta(
            trip_id,
            UpdateExpression="REMOVE pendingIntent",
            ConditionExpression="pendingIntent = :intent",
            ExpressionAttributeValues={":intent": {"S": json.dumps(intent, sort_keys=True)}},
        )

    def purge_idle(self, idle_before: str) -> list[str]:
        """Delete sessions whose last activity is before ``idle_before`` (ISO time), with all their items.
        The session item goes first, on condition that it is still idle, so a session that comes back to
        life during the purge keeps its turns."""
        idle = query_items(
            self._db,
            TableName=self._table,
            IndexName="GSI1",
            KeyConditionExpression="GSI1PK = :sessions AND GSI1SK < :before",
            ExpressionAttributeValues={
                ":sessions": {"S": SESSIONS_BY_ACTIVITY},
                ":before": {"S": idle_before},
            },
        )
        return [
            item["PK"]["S"].removeprefix(session_pk(""))
            for item in idle
            if self._purge_one(item["PK"]["S"], item["lastActivity"]["S"])
        ]

    def _purge_one(self, pk: str, seen_activity: str) -> bool:
        try:
            self._db.delete_item(
                TableName=self._table,
                Key={"PK": {"S": pk}, "SK": {"S": META}},
                ConditionExpression="lastActivity = :seen",
                ExpressionAttributeValues={":seen": {"S": seen_activity}},
            )
        except ClientError as exc:
            if condition_failed(exc):
                return False  # active again since the listing
            raise
        pages = self._db.get_paginator("query").paginate(
            TableName=self._table,
            KeyConditionExpression="PK = :pk",
            ExpressionAttributeValues={":pk": {"S": pk}},
            ProjectionExpression="PK, SK",
        )
        for page in pages:  # a page at a time: at most 25 deletes per batch
            keys = [{"PK": i["PK"], "SK": i["SK"]} for i in page.get("Items", [])]
            for start in range(0, len(keys), 25):
                request: Any = {
                    self._table: [{"DeleteRequest": {"Key": k}} for k in keys[start : start + 25]]
                }
                while request:
                    request = self._db.batch_write_item(RequestItems=request).get("UnprocessedItems") or {}
        return True
