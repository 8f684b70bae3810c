"""WebSocket connections and their trip subscriptions in DynamoDB, with a TTL as the backstop.

``WS#<connectionId> / META``: the user and the trips followed. ``SUBS#<tripId> / WS#<connectionId>``: one
item per follower, so that a trip's followers are one query.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import transaction_cancelled
from tripagent.adapters.dynamodb.keys import META, connection_pk, subscribers_pk
from tripagent.adapters.dynamodb.paging import query_items

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


class DynamoConnectionStore:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def connect(self, connection_id: str, user_id: str, expires_at: int) -> None:
        self._db.put_item(
            TableName=self._table,
            Item={
                "PK": {"S": connection_pk(connection_id)},
                "SK": {"S": META},
                "type": {"S": "connection"},
                "userId": {"S": user_id},
                "ttl": {"N": str(expires_at)},
            },
        )

    def user_of(self, connection_id: str) -> str | None:
        item = self._db.get_item(
            TableName=self._table,
            Key={"PK": {"S": connection_pk(connection_id)}, "SK": {"S": META}},
            ConsistentRead=True,
        ).get("Item")
        if not item or int(item["ttl"]["N"]) < time.time():
            return None
        return item["userId"]["S"]

    def subscribe(self, connection_id: str, user_id: str, trip_id: str, expires_at: int) -> bool:
        try:
            self._subscribe(connection_id, user_id, trip_id, expires_at)
        except ClientError as exc:
            if transaction_cancelled(exc):
                return False  # the connection went away meanwhile ($disconnect won the race)
            raise
        return True

    def _subscribe(self, connection_id: str, user_id: str, trip_id: str, expires_at: int) -> None:
        self._db.transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": {"PK": {"S": connection_pk(connection_id)}, "SK": {"S": META}},
                        "UpdateExpression": "ADD trips :trip",
                        "ConditionExpression": "attribute_exists(PK)",
                        "ExpressionAttributeValues": {":trip": {"SS": [trip_id]}},
                    }
                },
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": {
                            "PK": {"S": subscribers_pk(trip_id)},
                            "SK": {"S": connection_pk(connection_id)},
                            "type": {"S": "subscription"},
                            "userId": {"S": user_id},
                            "connectionId": {"S": connection_id},
                            "ttl": {"N": str(expires_at)},
                        },
                    }
                },
            ]
        )

    def unsubscribe(self, connection_id: str, trip_id: str) -> None:
        self._db.delete_item(
            TableName=self._table,
            Key={"PK": {"S": subscribers_pk(trip_id)}, "SK": {"S": connection_pk(connection_id)}},
        )
        self._db.update_item(
            TableName=self._table,
            Key={"PK": {"S": connection_pk(connection_id)}, "SK": {"S": META}},
            UpdateExpression="DELETE trips :trip",
            ExpressionAttributeValues={":trip": {"SS": [trip_id]}},
        )

    def disconnect(self, connection_id: str) -> None:
        item = self._db.delete_item(
            TableName=self._table,
            Key={"PK": {"S": connection_pk(connection_id)}, "SK": {"S": META}},
            ReturnValues="ALL_OLD",
        ).get("Attributes")
        for trip_id in (item or {}).get("trips", {}).get("SS", []):
            self._db.delete_item(
                TableName=self._table,
                Key={"PK": {"S": subscribers_pk(trip_id)}, "SK": {"S": connection_pk(connection_id)}},
            )

    def subscribers(self, trip_id: str) -> list[tuple[str, str]]:
        followers = query_items(
            self._db,
            TableName=self._table,
            KeyConditionExpression="PK = :pk",
            FilterExpression="#ttl > :now",
            ExpressionAttributeNames={"#ttl": "ttl"},
            ExpressionAttributeValues={
                ":pk": {"S": subscribers_pk(trip_id)},
                ":now": {"N": str(int(time.time()))},
            },
        )
        return [(i["connectionId"]["S"], i["userId"]["S"]) for i in followers]
