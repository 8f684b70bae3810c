"""Every item of a Query, page after page: boto3's paginator carries ``LastEvaluatedKey`` over for us."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def query_items(db: DynamoDBClient, **query: Any) -> Iterator[dict[str, Any]]:
    """The items ``query`` matches, lazily: a caller that stops early reads no further page."""
    for page in db.get_paginator("query").paginate(**query):
        yield from page.get("Items", [])
