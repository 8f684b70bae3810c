"""``POST /trips/ai-chat``: one turn of the stateless brief chat (BriefChatFunction)."""

from __future__ import annotations

import datetime as dt
import time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, ConfigDict, Field, field_validator

from tripagent.application.brief_chat import BriefReply, ChatTurn
from tripagent.domain.brief import Locale
from tripagent.entrypoints.http.api import current_caller
from tripagent.errors import PayloadTooLarge

router = Router()


class BriefChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    messages: list[ChatTurn] = Field(
        min_length=1, description="The whole conversation so far; the last turn is the user's."
    )
    locale: Locale = "en"
    timeZone: str = Field(
        default="UTC",
        max_length=64,
        description="The rider's IANA time zone (Europe/Paris): dates like “tomorrow” are the rider's.",
        examples=["Europe/Paris"],
    )

    @field_validator("timeZone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r} (an IANA name such as Europe/Paris)") from None
        return value


class Area(BaseModel):
    name: str
    label: str = Field(description="How people call it: said in replies and errors.")
    bbox: tuple[float, float, float, float] = Field(description="west, south, east, north (degrees)")


class RegionsResponse(BaseModel):
    areas: list[Area] = Field(description="The areas routes can be planned in.")


@router.get("/regions", summary="The areas routes can be planned in", tags=["brief"])
def served_regions() -> RegionsResponse:
    """The region this deployment serves, area by area (one per OpenStreetMap extract it was built from):
    what a map shows before a trip has a route, and what a brief may name."""
    from tripagent.bootstrap import gazetteer

    return RegionsResponse(
        areas=[Area(name=a.region, label=a.label, bbox=a.bbox) for a in gazetteer().regions()]
    )


@router.post("/trips/ai-chat", summary="One turn of the brief chat", tags=["brief"])
def brief_chat_turn(body: BriefChatRequest) -> BriefReply:
    from tripagent.bootstrap import brief_chat, model_name_for
    from tripagent.settings import brief_chat_settings

    if len((router.current_event.body or "").encode()) > brief_chat_settings().max_body_bytes:
        raise PayloadTooLarge("The conversation is too large.")
    return brief_chat().handle(
        current_caller(router).user_id,
        body.messages,
        body.locale,
        model_name_for,
        now=time.time(),
        today=dt.datetime.now(ZoneInfo(body.timeZone)).date(),
        time_zone=body.timeZone,
    )
