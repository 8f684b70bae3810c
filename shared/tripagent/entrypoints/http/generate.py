"""``POST /trips/ai-generate``: from a brief to a routed multi-day trip (GenerateFunction)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, ConfigDict, Field

from tripagent.domain.brief import Collected, Locale
from tripagent.domain.trip import Trip
from tripagent.entrypoints.http.api import JSON, current_caller

router = Router()


class GenerateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    brief: str = Field(min_length=1, max_length=20_000)
    locale: Locale = "en"
    collected: Collected | None = Field(default=None, description="Hints from the brief chat; they win.")


class GenerateResponse(BaseModel):
    outcome: str = "generated"
    trip: Trip


@router.post(
    "/trips/ai-generate",
    summary="Generate a routed trip from a brief",
    tags=["brief"],
    responses={201: {"description": "Generated"}},
)
def generate_trip(body: GenerateRequest) -> Response[GenerateResponse]:
    from tripagent.bootstrap import generator, model_name_for
    from tripagent.settings import generate_settings

    caller = current_caller(router).user_id
    provider, model = model_name_for(caller)  # ai_not_configured before anything else

    def work() -> dict[str, Any]:
        trip = generator().generate(
            caller, body.brief, body.collected, provider, model, today=dt.datetime.now(dt.UTC).date()
        )
        return {"outcome": "generated", "trip": trip.model_dump(mode="json", by_alias=True)}

    key = router.current_event.headers.get("idempotency-key")
    if key:
        from tripagent.adapters.idempotency import once

        s = generate_settings()
        payload = body.model_dump(mode="json")
        result = once(
            {"caller": caller, "key": key, "payload": payload},
            work,
            table_name=s.table_name,
            region=s.region,
            endpoint_url=s.dynamodb_endpoint_url,
            lambda_context=router.lambda_context,
        )
    else:
        result = work()
    return Response(status_code=201, content_type=JSON, body=GenerateResponse.model_validate(result))
