"""Pushes through the API Gateway Management API (``PostToConnection``); 410 means the client is gone."""

from __future__ import annotations

import json
from typing import Any

from botocore.exceptions import ClientError


class ManagementApiPusher:
    def __init__(self, client: Any) -> None:  # an ``apigatewaymanagementapi`` client for the stage's URL
        self._api = client

    def push(self, connection_id: str, message: dict[str, Any]) -> bool:
        try:
            self._api.post_to_connection(
                ConnectionId=connection_id, Data=json.dumps(message, ensure_ascii=False).encode()
            )
        except ClientError as exc:
            if exc.response["Error"]["Code"] in ("GoneException", "410"):
                return False
            raise
        return True
