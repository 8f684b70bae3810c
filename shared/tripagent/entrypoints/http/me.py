"""``GET /me``: the authenticated caller (later, their own model provider)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, Field

from tripagent.entrypoints.http.api import current_caller

router = Router()


class MeResponse(BaseModel):
    userId: str = Field(description="The caller: the `sub` claim of the verified token.")


@router.get("/me", summary="The authenticated caller", tags=["me"])
def get_me() -> MeResponse:
    return MeResponse(userId=current_caller(router).user_id)
