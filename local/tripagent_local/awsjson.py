"""What the local EventBridge, KMS and SQS have in common: boto3 calls them with the AWS JSON protocol
(``POST``, ``X-Amz-Target: Service.Action``, a JSON body) and expects errors as ``{"__type", "message"}``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class AwsApiError(Exception):
    """An error the API answers with 400 and its code (``__type``), as AWS does."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class AwsJsonService:
    handle: Callable[[str, dict[str, Any]], Any]  # (target, payload) → the JSON answer
    json_version: str  # of the content type: application/x-amz-json-<version>
