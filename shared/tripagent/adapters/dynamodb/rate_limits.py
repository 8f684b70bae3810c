"""Per-caller rate limits in DynamoDB: one atomic counter per caller and fixed window."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from tripagent.adapters.dynamodb.keys import rate_pk

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


class DynamoRateLimiter:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def hit(self, key: str, *, limit: int, window_s: int) -> int | None:
        """Count one request; ``None`` when within ``limit``, else the seconds until the window ends."""
        now = time.time()
        window = int(now // window_s)
        ends = (window + 1) * window_s
        response = self._db.update_item(
            TableName=self._table,
            Key={"PK": {"S": rate_pk(key)}, "SK": {"S": f"W#{window}"}},
            UpdateExpression="ADD hits :one SET #ttl = :ttl, #type = :type",
            ExpressionAttributeNames={"#ttl": "ttl", "#type": "type"},
            ExpressionAttributeValues={
                ":one": {"N": "1"},
                ":ttl": {"N": str(ends + 60)},
                ":type": {"S": "rate"},
            },
            ReturnValues="UPDATED_NEW",
        )
        hits = int(response["Attributes"]["hits"]["N"])
        return None if hits <= limit else max(1, math.ceil(ends - now))


class DynamoTokenBudget:
    """Tokens spent per key (a trip and a day): an atomic counter, checked before each model call."""

    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def _key(self, key: str) -> Any:
        return {"PK": {"S": rate_pk(key)}, "SK": {"S": "TOKENS"}}

    def spent(self, key: str) -> int:
        item = self._db.get_item(TableName=self._table, Key=self._key(key), ConsistentRead=True).get("Item")
        return int(item["tokens"]["N"]) if item else 0

    def spend(self, key: str, tokens: int) -> None:
        self._db.update_item(
            TableName=self._table,
            Key=self._key(key),
            UpdateExpression="ADD tokens :n SET #ttl = :ttl, #type = :type",
            ExpressionAttributeNames={"#ttl": "ttl", "#type": "type"},
            ExpressionAttributeValues={
                ":n": {"N": str(tokens)},
                ":ttl": {"N": str(int(time.time()) + 2 * 86400)},  # the key names its day
                ":type": {"S": "budget"},
            },
        )
