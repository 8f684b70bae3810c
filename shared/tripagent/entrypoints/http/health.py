"""``GET /health`` (no auth): each engine's state; 503 when any is down."""

from __future__ import annotations

from typing import Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel

from tripagent.entrypoints.http.api import JSON

router = Router()


class EngineState(BaseModel):
    state: Literal["ok", "down"]
    latencyMs: float
    detail: str


class HealthResponse(BaseModel):
    status: Literal["ok", "degraded"]
    engines: dict[str, EngineState]


@router.get(
    "/health",
    summary="Each engine's state (no auth)",
    tags=["system"],
    responses={200: {"description": "All engines up"}, 503: {"description": "At least one engine down"}},
)
def get_health() -> Response[HealthResponse]:  # the model documents the body; Response sets the status
    from tripagent.application.health import check_health
    from tripagent.bootstrap import health_probes

    report = check_health(health_probes())
    body = HealthResponse(
        status="ok" if report.healthy else "degraded",
        engines={
            name: EngineState(state=r.state, latencyMs=r.latency_ms, detail=r.detail)
            for name, r in report.engines.items()
        },
    )
    return Response(
        status_code=200 if report.healthy else 503,
        content_type=JSON,
        body=body,
        headers={"Cache-Control": "no-store"},
    )
