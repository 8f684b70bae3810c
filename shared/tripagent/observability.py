"""One place for logging, tracing and metrics (Powertools), configured by ``POWERTOOLS_*`` variables.

Every module logs through ``logger``; handlers are wrapped once by :func:`instrument`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.logging import correlation_paths

logger = Logger()
tracer = Tracer()
metrics = Metrics()

LambdaHandler = Callable[[dict[str, Any], Any], Any]


def instrument(handler: LambdaHandler, *, correlation_id_path: str | None = None) -> LambdaHandler:
    """Wrap a Lambda handler with the logger context, a trace segment and metric flushing."""
    wrapped = logger.inject_lambda_context(correlation_id_path=correlation_id_path, clear_state=True)(handler)
    wrapped = tracer.capture_lambda_handler(wrapped, capture_response=False)
    return metrics.log_metrics(wrapped)


HTTP_CORRELATION_ID = correlation_paths.API_GATEWAY_HTTP
EVENTBRIDGE_CORRELATION_ID = correlation_paths.EVENT_BRIDGE
