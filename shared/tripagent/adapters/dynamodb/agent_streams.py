"""Agent replies as they are written, in the single table (``application/agent_streams``).

Under ``AGENTSTREAM#<trip>``: ``LATEST`` names the trip's newest turn; per turn, ``0META`` holds its status
(the only item the notifier hears about: its insert and its end), ``1BEAT`` the writer's beat, the stop
request and whether the turn has ended, and ``2C#…`` the batches of chunks. A batch is stored only after a
beat whose condition says the turn is still on, and ending a turn writes both status items in one
transaction, each conditional: a turn ends once, and a reader can end it only on the very beat it saw.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import after_transactions, condition_failed, transaction_cancelled
from tripagent.adapters.dynamodb.keys import (
    LATEST_TURN_STREAM,
    turn_chunk_part,
    turn_stream_pk,
    turn_stream_sk,
)
from tripagent.application.agent_streams import RETENTION_S, StoredBatch, TurnStatus, TurnStream

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

META, BEAT = "0META", "1BEAT"
END_ATTEMPTS = 5
LAST_CHUNK = 9_999_999


class DynamoTurnStreamStore:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def _key(self, trip_id: str, stream_id: str, part: str) -> dict[str, Any]:
        return {"PK": {"S": turn_stream_pk(trip_id)}, "SK": {"S": turn_stream_sk(stream_id, part)}}

    def open(self, stream: TurnStream, expires_at: int) -> None:
        ttl = {"N": str(expires_at)}
        meta = self._key(stream.trip_id, stream.stream_id, META) | {
            "type": {"S": "agentturn"},
            "tripId": {"S": stream.trip_id},
            "streamId": {"S": stream.stream_id},
            "by": {"S": stream.by},
            "status": {"S": stream.status},
            "startedAt": {"N": repr(stream.started_at)},
            "asked": {"S": stream.asked},
            "ttl": ttl,
        }
        beat = self._key(stream.trip_id, stream.stream_id, BEAT) | {
            "type": {"S": "agentbeat"},
            "beatAt": {"N": repr(stream.beat_at)},
            "ttl": ttl,
        }
        latest = {
            "PK": {"S": turn_stream_pk(stream.trip_id)},
            "SK": {"S": LATEST_TURN_STREAM},
            "type": {"S": "agentlatest"},
            "streamId": {"S": stream.stream_id},
            "ttl": ttl,
        }
        self._db.transact_write_items(
            TransactItems=[
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": meta,
                        "ConditionExpression": "attribute_not_exists(PK)",
                    }
                },
                {"Put": {"TableName": self._table, "Item": beat}},
                {"Put": {"TableName": self._table, "Item": latest}},
            ]
        )

    def beat(self, trip_id: str, stream_id: str, now: float) -> TurnStream | None:
        try:
            response = self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, stream_id, BEAT),
                UpdateExpression="SET beatAt = :now",
                ConditionExpression="attribute_exists(PK) AND attribute_not_exists(ended)",
                ExpressionAttributeValues={":now": {"N": repr(now)}},
                ReturnValues="ALL_NEW",
            )
        except ClientError as exc:
            if condition_failed(exc):
                return None
            raise
        beat = response["Attributes"]
        return TurnStream(
            trip_id,
            stream_id,
            "",
            "active",
            0.0,
            float(beat["beatAt"]["N"]),
            beat.get("stopRequestedBy", {}).get("S"),
        )

    def append(self, trip_id: str, stream_id: str, batch: StoredBatch, now: float) -> TurnStream | None:
        stream = self.beat(trip_id, stream_id, now)
        if stream is None:
            return None  # ended by a reader: nothing more is stored
        self._db.put_item(
            TableName=self._table,
            Item=self._key(trip_id, stream_id, turn_chunk_part(batch.first))
            | {
                "type": {"S": "agentchunk"},
                "count": {"N": str(batch.count)},
                "data": {"B": batch.data},
                "ttl": {"N": str(int(now) + RETENTION_S)},
            },
        )
        return stream

    def _end(self, items: list[Any]) -> bool:
        """The turn's two status items ended together; ``False`` when a condition failed (it had ended,
        or, for a reader, the writer beat meanwhile)."""
        for attempt in range(END_ATTEMPTS):
            try:
                self._db.transact_write_items(TransactItems=items)
            except ClientError as exc:
                reasons = {r.get("Code") for r in exc.response.get("CancellationReasons") or []}
                if transaction_cancelled(exc) and "ConditionalCheckFailed" in reasons:
                    return False
                if (
                    transaction_cancelled(exc)
                    and "TransactionConflict" in reasons
                    and attempt < END_ATTEMPTS - 1
                ):
                    time.sleep(0.02 * (attempt + 1))  # a batch or a stop in flight on the same items
                    continue
                raise
            return True
        return False

    def _end_items(  # noqa: PLR0917
        self,
        trip_id: str,
        stream_id: str,
        status: TurnStatus,
        now: float,
        beat_condition: str,
        values: dict[str, Any],
    ) -> list[Any]:
        return [
            {
                "Update": {
                    "TableName": self._table,
                    "Key": self._key(trip_id, stream_id, META),
                    "UpdateExpression": "SET #status = :status, endedAt = :now",
                    "ConditionExpression": "#status = :active",
                    "ExpressionAttributeNames": {"#status": "status"},
                    "ExpressionAttributeValues": {
                        ":status": {"S": status},
                        ":now": {"N": repr(now)},
                        ":active": {"S": "active"},
                    },
                }
            },
            {
                "Update": {
                    "TableName": self._table,
                    "Key": self._key(trip_id, stream_id, BEAT),
                    "UpdateExpression": "SET ended = :yes",
                    "ConditionExpression": beat_condition,
                    "ExpressionAttributeValues": {":yes": {"BOOL": True}, **values},
                }
            },
        ]

    def end(self, trip_id: str, stream_id: str, status: TurnStatus, now: float) -> bool:
        return self._end(self._end_items(trip_id, stream_id, status, now, "attribute_not_exists(ended)", {}))

    def end_if_stale(self, trip_id: str, stream_id: str, beat_at: float, now: float) -> bool:
        return self._end(
            self._end_items(
                trip_id,
                stream_id,
                "lost",
                now,
                "attribute_not_exists(ended) AND beatAt = :seen",
                {":seen": {"N": repr(beat_at)}},
            )
        )

    def request_stop(self, trip_id: str, stream_id: str, by: str) -> TurnStream | None:
        try:
            after_transactions(
                lambda: self._db.update_item(
                    TableName=self._table,
                    Key=self._key(trip_id, stream_id, BEAT),
                    UpdateExpression="SET stopRequestedBy = :by",
                    ConditionExpression="attribute_exists(PK) AND attribute_not_exists(ended) "
                    "AND attribute_not_exists(stopRequestedBy)",
                    ExpressionAttributeValues={":by": {"S": by}},
                )
            )  # (an end in flight on the item: a moment later the answer is clear)
        except ClientError as exc:
            if not condition_failed(exc):
                raise
        return self.get(trip_id, stream_id)

    def get(self, trip_id: str, stream_id: str) -> TurnStream | None:
        items = self._db.query(
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND SK BETWEEN :meta AND :beat",
            ExpressionAttributeValues={
                ":pk": {"S": turn_stream_pk(trip_id)},
                ":meta": {"S": turn_stream_sk(stream_id, META)},
                ":beat": {"S": turn_stream_sk(stream_id, BEAT)},
            },
            ConsistentRead=True,
        )["Items"]
        meta = next((i for i in items if i["SK"]["S"].endswith(META)), None)
        beat = next((i for i in items if i["SK"]["S"].endswith(BEAT)), None)
        if meta is None or beat is None:
            return None
        return TurnStream(
            trip_id=trip_id,
            stream_id=stream_id,
            by=meta["by"]["S"],
            status=meta["status"]["S"],  # type: ignore[arg-type]
            started_at=float(meta["startedAt"]["N"]),
            beat_at=float(beat["beatAt"]["N"]),
            stop_requested_by=beat.get("stopRequestedBy", {}).get("S"),
            asked=meta.get("asked", {}).get("S", ""),
        )

    def latest(self, trip_id: str) -> TurnStream | None:
        item = self._db.get_item(
            TableName=self._table,
            Key={"PK": {"S": turn_stream_pk(trip_id)}, "SK": {"S": LATEST_TURN_STREAM}},
            ConsistentRead=True,
        ).get("Item")
        return self.get(trip_id, item["streamId"]["S"]) if item else None

    def batches(self, trip_id: str, stream_id: str, after: int) -> list[StoredBatch]:
        items = self._db.query(
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND SK BETWEEN :lo AND :hi",
            ExpressionAttributeValues={
                ":pk": {"S": turn_stream_pk(trip_id)},
                ":lo": {"S": turn_stream_sk(stream_id, turn_chunk_part(after))},
                ":hi": {"S": turn_stream_sk(stream_id, turn_chunk_part(LAST_CHUNK))},
            },
            ConsistentRead=True,
        )["Items"]
        return [
            StoredBatch(
                int(item["SK"]["S"].rsplit("#", 1)[1]), int(item["count"]["N"]), bytes(item["data"]["B"])
            )
            for item in items
        ]
