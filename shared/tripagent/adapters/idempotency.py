"""``Idempotency-Key``: a retried request returns the first answer (Powertools idempotency, stored in
our table under ``IDEMPOTENCY#<function>``, expiring through the table's TTL attribute)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyValidationError,
)

from tripagent.errors import RequestInProgress, ValidationFailed


@cache
def _persistence(table_name: str, region: str, endpoint_url: str | None) -> DynamoDBPersistenceLayer:
    from tripagent.adapters.aws import dynamodb_client

    return DynamoDBPersistenceLayer(
        table_name=table_name,
        key_attr="PK",
        sort_key_attr="SK",
        static_pk_value="IDEMPOTENCY#generate",
        expiry_attr="ttl",
        boto3_client=dynamodb_client(region, endpoint_url),
    )


def once(
    request: dict[str, Any],
    work: Callable[[], dict[str, Any]],
    *,
    table_name: str,
    region: str,
    endpoint_url: str | None,
    lambda_context: Any,
) -> dict[str, Any]:
    """Run ``work`` once per ``(caller, key)``; the same key with another payload is refused."""
    config = IdempotencyConfig(
        event_key_jmespath="[caller, key]",
        payload_validation_jmespath="payload",
        expires_after_seconds=24 * 3600,
    )
    if lambda_context is not None:
        config.register_lambda_context(lambda_context)

    @idempotent_function(
        data_keyword_argument="request",
        config=config,
        persistence_store=_persistence(table_name, region, endpoint_url),
    )
    def run(request: dict[str, Any]) -> dict[str, Any]:
        return work()

    try:
        result: dict[str, Any] = run(request=request)
    except IdempotencyValidationError as exc:
        raise ValidationFailed(
            "This Idempotency-Key was used for a different request.",
            details=[{"loc": ["header", "Idempotency-Key"]}],
        ) from exc
    except IdempotencyAlreadyInProgressError as exc:
        raise RequestInProgress("A request with this Idempotency-Key is still running.") from exc
    return result
