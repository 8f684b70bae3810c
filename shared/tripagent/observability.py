"""One place for logging, tracing and metrics (Powertools), configured by ``POWERTOOLS_*`` variables.

Every module logs through ``logger``; handlers are wrapped once by :func:`instrument`.

Tracing: the template turns on Lambda's active tracing, which records each invocation without any code
in the function. The X-Ray SDK behind Powertools' ``Tracer`` (subsegments for boto3 and httpx calls)
costs about 0.45 s of cold start (measured, docs/adr/0003-observability.md), so it is loaded only where
``TRIPAGENT_XRAY_SDK=true`` asks for it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging import correlation_paths

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

logger = Logger()
metrics = Metrics()

LambdaHandler = Callable[[dict[str, Any], Any], Any]


def xray_sdk_enabled() -> bool:
    return os.environ.get("TRIPAGENT_XRAY_SDK", "").lower() in ("1", "true", "yes")


@cache
def tracer() -> Tracer:
    from aws_lambda_powertools import Tracer

    return Tracer()


def instrument(handler: LambdaHandler, *, correlation_id_path: str | None = None) -> LambdaHandler:
    """Wrap a Lambda handler with the logger context, metric flushing and, if enabled, the X-Ray SDK."""
    wrapped = logger.inject_lambda_context(correlation_id_path=correlation_id_path, clear_state=True)(handler)
    if xray_sdk_enabled():
        wrapped = tracer().capture_lambda_handler(wrapped, capture_response=False)
    return metrics.log_metrics(wrapped)


def record_model_usage(
    provider: str, model: str, input_tokens: int, output_tokens: int, latency_ms: float
) -> None:
    """Token usage as a metric per provider and model (its own EMF document, so dimensions do not leak)."""
    from aws_lambda_powertools.metrics import MetricUnit, single_metric

    for name, value in (("ModelInputTokens", input_tokens), ("ModelOutputTokens", output_tokens)):
        with single_metric(
            name=name, unit=MetricUnit.Count, value=value, namespace=metrics.namespace
        ) as metric:
            metric.add_dimension(name="provider", value=provider)
            metric.add_dimension(name="model", value=model)
    logger.info(
        "model call",
        extra={
            "provider": provider,
            "model": model,
            "inputTokens": input_tokens,
            "outputTokens": output_tokens,
            "latencyMs": round(latency_ms, 1),
        },
    )


HTTP_CORRELATION_ID = correlation_paths.API_GATEWAY_HTTP
EVENTBRIDGE_CORRELATION_ID = correlation_paths.EVENT_BRIDGE
