"""The agent's read tools: they run at once and change nothing (write tools, generated from the ops
registry and approved by a member, come next). Each takes JSON arguments and returns JSON."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tripagent.application.llm import ToolSpec
from tripagent.application.places import PoiIndex, pois_near
from tripagent.domain.geo import decode_polyline
from tripagent.domain.trip import Trip


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GetTrip(_Args):
    pass


class FindPois(_Args):
    dayIndex: int = Field(ge=0, description="Which day (0 is the first).")
    where: Literal["start", "end"] = Field(
        "end", description="Around the start or the end of the day's stage."
    )
    category: Literal["lodging", "food", "water", "bike", "culture", "viewpoint", "station"] | None = None
    text: str = Field("", max_length=100, description="Words the name should contain.")
    radiusKm: float = Field(2.0, gt=0, le=20)


@dataclass(frozen=True)
class ReadTools:
    pois: PoiIndex

    def specs(self) -> tuple[ToolSpec, ...]:
        return (
            ToolSpec(
                "get_trip",
                "The trip as it is now: days, stages, stops, members' roles.",
                GetTrip.model_json_schema(),
            ),
            ToolSpec(
                "find_pois",
                "Places to sleep, eat, drink, repair a bike or visit near the start or end of a day's stage.",
                FindPois.model_json_schema(),
            ),
        )

    def run(self, name: str, arguments: dict[str, Any], trip: Trip) -> dict[str, Any]:
        handlers: dict[str, Callable[[dict[str, Any], Trip], dict[str, Any]]] = {
            "get_trip": self._get_trip,
            "find_pois": self._find_pois,
        }
        if name not in handlers:
            return {"error": f"unknown tool {name}"}
        try:
            return handlers[name](arguments, trip)
        except ValidationError as exc:
            return {"error": "invalid arguments", "details": [e["msg"] for e in exc.errors()]}

    def _get_trip(self, arguments: dict[str, Any], trip: Trip) -> dict[str, Any]:
        GetTrip.model_validate(arguments)
        return trip.model_dump(mode="json", by_alias=True, exclude={"members", "route"}) | {
            "roles": {m.userId: m.role.value for m in trip.members}
        }

    def _find_pois(self, arguments: dict[str, Any], trip: Trip) -> dict[str, Any]:
        args = FindPois.model_validate(arguments)
        if args.dayIndex >= len(trip.days) or trip.days[args.dayIndex].stage is None:
            return {"error": f"day {args.dayIndex + 1} has no stage yet"}
        stage = trip.days[args.dayIndex].stage
        assert stage is not None
        line = decode_polyline(stage.polyline6)
        point = line[-1] if args.where == "end" else line[0]
        result = pois_near(
            self.pois, point, radius_km=args.radiusKm, category=args.category, text=args.text, limit=8
        )
        return {
            "near": stage.to if args.where == "end" else stage.from_,
            "results": [
                {
                    "name": h.place.name,
                    "kind": h.place.kind,
                    "distanceKm": h.distance_km,
                    "lat": h.place.lat,
                    "lon": h.place.lon,
                }
                for h in result.hits
            ],
            "alternatives": [
                {"kind": a.kind, "description": a.description, "count": a.count} for a in result.alternatives
            ],
        }
