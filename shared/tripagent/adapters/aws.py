"""boto3 clients, built once per cold start, with the local stack's endpoint overrides."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config
from botocore.exceptions import (
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ReadTimeoutError,
)

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_events import EventBridgeClient
    from mypy_boto3_kms import KMSClient
    from mypy_boto3_sqs import SQSClient

# Fail fast inside a Lambda's time budget; standard retry mode backs off with jitter on throttling.
_CONFIG = Config(connect_timeout=2, read_timeout=5, retries={"mode": "standard", "max_attempts": 3})


UNREACHABLE = (EndpointConnectionError, ConnectTimeoutError, ReadTimeoutError, ConnectionClosedError)


def unreachable(exc: BaseException) -> bool:
    """An AWS service (or the local engine standing in for it) did not answer, after the client's own
    retries: a dependency failing, not a bug of ours."""
    return isinstance(exc, UNREACHABLE)


@cache
def dynamodb_client(region: str, endpoint_url: str | None = None) -> DynamoDBClient:
    return boto3.client("dynamodb", region_name=region, endpoint_url=endpoint_url, config=_CONFIG)


@cache
def events_client(region: str, endpoint_url: str | None = None) -> EventBridgeClient:
    return boto3.client("events", region_name=region, endpoint_url=endpoint_url, config=_CONFIG)


@cache
def kms_client(region: str, endpoint_url: str | None = None) -> KMSClient:
    return boto3.client("kms", region_name=region, endpoint_url=endpoint_url, config=_CONFIG)


@cache
def bedrock_runtime_client(region: str, read_timeout_s: float = 60.0) -> BedrockRuntimeClient:
    # One attempt, whose reads wait at most the call's timeout: the provider retries within its deadline
    # (boto3's retries would also retry a read timeout, three times over).
    config = Config(connect_timeout=5, read_timeout=read_timeout_s, retries={"total_max_attempts": 1})
    return boto3.client("bedrock-runtime", region_name=region, config=config)


@cache
def sqs_client(region: str, endpoint_url: str | None = None) -> SQSClient:
    return boto3.client("sqs", region_name=region, endpoint_url=endpoint_url, config=_CONFIG)


@cache
def management_api_client(region: str, endpoint_url: str) -> Any:
    """API Gateway's Management API for one WebSocket stage (``https://{api}.execute-api.../{stage}``)."""
    return boto3.client(
        "apigatewaymanagementapi", region_name=region, endpoint_url=endpoint_url, config=_CONFIG
    )


@cache
def s3_client(region: str) -> Any:
    return boto3.client("s3", region_name=region, config=_CONFIG)


@cache
def ssm_client(region: str) -> Any:
    return boto3.client("ssm", region_name=region, config=_CONFIG)
