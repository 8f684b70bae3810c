"""``POST /trips/ai-chat``: one turn of the stateless brief chat (BriefChatFunction)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel, ConfigDict, Field, field_validator

from tripagent.application.brief_chat import BriefReply, ChatTurn
from tripagent.domain.brief import Locale
from tripagent.entrypoints.http.api import current_caller
from tripagent.errors import PayloadTooLarge, PlaceNotFound

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


class NamedPoint(BaseModel):
    name: str
    category: str = Field(description="place, lodging, food, water, bike, culture, viewpoint or station")
    stopKind: str = Field(description="The kind of stop it makes (activity, lodging, transport, food, poi).")
    lat: float
    lon: float
    distanceKm: float = Field(description="From the point asked about.")


@router.get("/places/near", summary="What a point on the map is called", tags=["brief"])
def place_near(
    lat: Annotated[float, Query(ge=-90, le=90)], lon: Annotated[float, Query(ge=-180, le=180)]
) -> NamedPoint:
    """The nearest town or place riders stop at within a kilometre of the point, from the served region's
    places index: the name a stop added by clicking the map takes. 404 ``place_not_found`` when none."""
    from tripagent.application.places import STOP_KIND, named_point
    from tripagent.bootstrap import gazetteer

    hit = named_point(gazetteer(), (lat, lon))
    if hit is None:
        raise PlaceNotFound("Nothing named within a kilometre of that point.")
    place = hit.place
    return NamedPoint(
        name=place.name,
        category=place.category,
        stopKind=STOP_KIND.get(place.category, "poi"),
        lat=place.lat,
        lon=place.lon,
        distanceKm=hit.distance_km,
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
