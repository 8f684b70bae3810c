"""The agent's read tools: they run at once and change nothing (write tools, generated from the ops
registry and approved by a member, come next). Each takes JSON arguments and returns JSON."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tripagent.application.llm import ToolSpec
from tripagent.application.places import PoiIndex, pois_near
from tripagent.application.ports import Router, Weather
from tripagent.domain.geo import decode_polyline
from tripagent.domain.trip import Trip
from tripagent.errors import AppError


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


class GetWeather(_Args):
    dayIndex: int = Field(ge=0, description="Which day (0 is the first); its date and its stage's end.")


class RouteBetweenStops(_Args):
    fromStopId: str
    toStopId: str


@dataclass(frozen=True)
class ReadTools:
    pois: PoiIndex
    weather: Weather | None = None
    router: Router | None = None

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
            ToolSpec(
                "get_weather",
                "The forecast for a day at the end of its stage (within the forecast's range).",
                GetWeather.model_json_schema(),
            ),
            ToolSpec(
                "route_between_stops",
                "Bicycle distance and time between two located stops.",
                RouteBetweenStops.model_json_schema(),
            ),
        )

    def run(self, name: str, arguments: dict[str, Any], trip: Trip) -> dict[str, Any]:
        handlers: dict[str, Callable[[dict[str, Any], Trip], dict[str, Any]]] = {
            "get_trip": self._get_trip,
            "find_pois": self._find_pois,
            "get_weather": self._get_weather,
            "route_between_stops": self._route_between_stops,
        }
        if name not in handlers:
            return {"error": f"unknown tool {name}"}
        try:
            return handlers[name](arguments, trip)
        except ValidationError as exc:
            return {"error": "invalid arguments", "details": [e["msg"] for e in exc.errors()]}
        except AppError as exc:  # a service behind a tool failed: the model hears it, the turn goes on
            return {"error": exc.message}

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
                {"kind": a.kind, "description": a.description, "value": a.value, "count": a.count}
                for a in result.alternatives
            ],
        }

    def _get_weather(self, arguments: dict[str, Any], trip: Trip) -> dict[str, Any]:
        args = GetWeather.model_validate(arguments)
        if self.weather is None:
            return {"error": "no weather service is configured"}
        if args.dayIndex >= len(trip.days):
            return {"error": f"the trip has {len(trip.days)} days"}
        day = trip.days[args.dayIndex]
        date = trip.date_of(args.dayIndex)
        if date is None or day.stage is None or not day.stage.polyline6:
            return {"error": "that day has no date or no stage yet"}
        lat, lon = decode_polyline(day.stage.polyline6)[-1]
        forecast = self.weather.daily(lat, lon, date)
        if forecast is None:
            return {
                "date": date.isoformat(),
                "place": day.stage.to,
                "forecast": None,
                "note": "outside the forecast's range (about 16 days ahead)",
            }
        return {"date": date.isoformat(), "place": day.stage.to, "forecast": forecast}

    def _route_between_stops(self, arguments: dict[str, Any], trip: Trip) -> dict[str, Any]:
        args = RouteBetweenStops.model_validate(arguments)
        if self.router is None:
            return {"error": "no router is configured"}
        ends = [trip.stop(args.fromStopId), trip.stop(args.toStopId)]
        if any(s.lat is None or s.lon is None for s in ends):
            return {"error": "both stops need a location"}
        route = self.router.route([(s.lat or 0.0, s.lon or 0.0) for s in ends])
        return {
            "from": ends[0].name,
            "to": ends[1].name,
            "distanceKm": round(route.distance_km, 2),
            "durationMin": round(route.duration_s / 60, 1),
        }
