"""The baseline of the cold-import benchmark: the smallest useful Powertools + boto3 handler."""

from typing import Any

import boto3
from aws_lambda_powertools import Logger

logger = Logger()
dynamodb = boto3.client("dynamodb")


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return {"statusCode": 200, "body": "{}"}
