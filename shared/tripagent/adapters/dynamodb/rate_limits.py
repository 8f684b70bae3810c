"""Per-caller rate limits in DynamoDB: one atomic counter per caller and fixed window."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

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
