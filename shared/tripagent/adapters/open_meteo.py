"""Weather from Open-Meteo's forecast API over httpx (base URL configurable; no key needed)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import httpx

from tripagent.errors import WeatherUnavailable

DEFAULT_BASE_URL = "https://api.open-meteo.com"
DAILY = (
    "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max,"
    "wind_speed_10m_max"
)


class OpenMeteoWeather:
    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout_s: float = 5.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout_s, transport=transport)

    def daily(self, lat: float, lon: float, day: dt.date) -> dict[str, Any] | None:
        """The day's forecast at a point, or ``None`` when the day is outside the forecast's range."""
        params: dict[str, str | float] = {
            "latitude": round(lat, 4),
            "longitude": round(lon, 4),
            "daily": DAILY,
            "timezone": "auto",
            "start_date": day.isoformat(),
            "end_date": day.isoformat(),
        }
        try:
            response = self._http.get("/v1/forecast", params=params)
        except httpx.HTTPError as exc:
            raise WeatherUnavailable(f"The weather service is unreachable ({type(exc).__name__}).") from exc
        if response.status_code == 400:  # Open-Meteo answers 400 for dates beyond its forecast
            return None
        if response.status_code >= 400:
            raise WeatherUnavailable(f"The weather service failed (HTTP {response.status_code}).")
        try:
            payload = response.json()
        except ValueError as exc:
            raise WeatherUnavailable("The weather service answered something that is not JSON.") from exc
        if not isinstance(payload, dict):
            raise WeatherUnavailable("The weather service gave an unexpected answer.")
        daily = payload.get("daily")
        if not isinstance(daily, dict) or not daily.get("time"):
            return None
        return {key: values[0] for key, values in daily.items() if isinstance(values, list) and values}
