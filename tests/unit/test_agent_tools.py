"""The agent's read tools, and Open-Meteo behind the weather tool (respx)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import respx
from tripagent.adapters.open_meteo import OpenMeteoWeather
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.application.agent_tools import ReadTools
from tripagent.domain.geo import encode_polyline
from tripagent.domain.trip import Day, Member, Role, Stage, Stop, Trip
from tripagent.errors import WeatherUnavailable

FORECAST = {
    "daily": {
        "time": ["2027-06-13"],
        "weather_code": [61],
        "temperature_2m_max": [19.4],
        "temperature_2m_min": [8.1],
        "precipitation_sum": [6.2],
        "precipitation_probability_max": [80],
        "wind_speed_10m_max": [21.0],
    }
}


def trip() -> Trip:
    stage = Stage.model_validate(
        {
            "from": "Canillo",
            "to": "Soldeu",
            "distanceKm": 7.1,
            "durationMin": 40,
            "polyline6": encode_polyline([(42.566, 1.600), (42.5766, 1.6684)]),
        }
    )
    return Trip(
        tripId="trp_1",
        title="Andorra",
        startDate=dt.date(2027, 6, 12),
        members=[Member(userId="ana", role=Role.owner)],
        days=[Day(dayIndex=0), Day(dayIndex=1, stage=stage)],
        stops=[
            Stop(stopId="a", dayIndex=1, order=0, name="Canillo church", kind="poi", lat=42.566, lon=1.6),
            Stop(stopId="b", dayIndex=1, order=1, name="Soldeu", kind="poi", lat=42.5766, lon=1.6684),
            Stop(stopId="c", dayIndex=1, order=2, name="Somewhere", kind="poi"),
        ],
        createdAt="t",
        updatedAt="t",
    )


@respx.mock
def test_open_meteo_gives_the_days_forecast_at_the_end_of_its_stage() -> None:
    route = respx.get("https://weather.test/v1/forecast").mock(
        return_value=httpx.Response(200, json=FORECAST)
    )
    tools = ReadTools(pois=Gazetteer(), weather=OpenMeteoWeather("https://weather.test"))
    out = tools.run("get_weather", {"dayIndex": 1}, trip())
    assert out["date"] == "2027-06-13"
    assert out["place"] == "Soldeu"
    assert out["forecast"]["precipitation_probability_max"] == 80
    params = route.calls.last.request.url.params
    assert (params["start_date"], params["latitude"]) == ("2027-06-13", "42.5766")


@respx.mock
def test_a_day_beyond_the_forecast_and_a_failing_service() -> None:
    respx.get("https://weather.test/v1/forecast").mock(
        side_effect=[
            httpx.Response(400, json={"error": True, "reason": "out of allowed range"}),
            httpx.Response(502),
            httpx.Response(200, text="<html>captive portal</html>"),
            httpx.Response(200, json=["not", "an", "object"]),
        ]
    )
    weather = OpenMeteoWeather("https://weather.test")
    assert weather.daily(42.5, 1.6, dt.date(2030, 1, 1)) is None
    for reason in ("HTTP 502", "not JSON", "unexpected"):
        with pytest.raises(WeatherUnavailable, match=reason):
            weather.daily(42.5, 1.6, dt.date(2027, 6, 13))


@respx.mock
def test_a_failing_service_is_reported_to_the_model_not_raised() -> None:
    respx.get("https://weather.test/v1/forecast").mock(side_effect=httpx.ConnectError("down"))
    out = ReadTools(pois=Gazetteer(), weather=OpenMeteoWeather("https://weather.test")).run(
        "get_weather", {"dayIndex": 1}, trip()
    )
    assert "unreachable" in out["error"]


def test_route_between_stops_and_bad_arguments() -> None:
    @dataclass
    class Route:
        distance_km: float = 7.4
        duration_s: float = 1800

    class Router:
        def route(self, points: list[tuple[float, float]], **_: Any) -> Route:
            assert points == [(42.566, 1.6), (42.5766, 1.6684)]
            return Route()

    tools = ReadTools(pois=Gazetteer(), router=Router())
    assert tools.run("route_between_stops", {"fromStopId": "a", "toStopId": "b"}, trip()) == {
        "from": "Canillo church",
        "to": "Soldeu",
        "distanceKm": 7.4,
        "durationMin": 30.0,
    }
    assert (
        "location" in tools.run("route_between_stops", {"fromStopId": "a", "toStopId": "c"}, trip())["error"]
    )
    assert tools.run("find_pois", {"dayIndex": "x"}, trip())["error"] == "invalid arguments"
    assert tools.run("delete_everything", {}, trip()) == {"error": "unknown tool delete_everything"}
