"""Valhalla over HTTP (the container service in AWS, ``valhalla_service`` locally)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx

from tripagent.errors import NoRoute, RoutingUnavailable

# Valhalla answers 400 with these error codes when the graph has no path between the locations.
_NO_PATH_CODES = {442, 443, 171, 170}


@dataclass(frozen=True, slots=True)
class RouteSummary:
    distance_km: float
    duration_s: float
    shape: str  # encoded polyline, precision 6 (the first leg's when there are several: see ``legs``)
    legs: tuple[str, ...] = ()


class ValhallaClient:
    def __init__(self, base_url: str, *, timeout_s: float = 5.0, retries: int = 1) -> None:
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            timeout=httpx.Timeout(timeout_s, connect=min(2.0, timeout_s)),
            transport=httpx.HTTPTransport(retries=retries),  # retries connection failures only
        )

    def _post(self, action: str, body: dict[str, Any]) -> Any:
        try:
            response = self._http.post(f"/{action}", json=body)
        except httpx.HTTPError as exc:
            raise RoutingUnavailable(f"The routing service is unreachable ({type(exc).__name__}).") from exc
        if response.status_code >= 500:
            raise RoutingUnavailable(f"The routing service failed (HTTP {response.status_code}).")
        try:
            payload: Any = response.json()
        except ValueError as exc:  # a proxy's HTML page, a truncated body
            raise RoutingUnavailable("The routing service answered something that is not JSON.") from exc
        if response.status_code >= 400:
            if not isinstance(payload, dict):
                raise RoutingUnavailable(
                    f"The routing service refused the request (HTTP {response.status_code})."
                )
            if payload.get("error_code") in _NO_PATH_CODES:
                raise NoRoute(str(payload.get("error", "No route between these places.")))
            raise RoutingUnavailable(f"The routing service refused the request: {payload.get('error')}")
        return payload

    def route(
        self,
        points: list[tuple[float, float]],
        *,
        costing: str = "bicycle",
        options: dict[str, Any] | None = None,
    ) -> RouteSummary:
        body: dict[str, Any] = {
            "locations": [{"lat": lat, "lon": lon} for lat, lon in points],
            "costing": costing,
            "costing_options": {costing: options or {}},
            "units": "kilometers",
            "directions_type": "none",
        }
        answer = self._post("route", body)
        with _unexpected("route"):
            trip = answer["trip"]
            legs = tuple(str(leg["shape"]) for leg in trip["legs"])
            return RouteSummary(
                distance_km=float(trip["summary"]["length"]),
                duration_s=float(trip["summary"]["time"]),
                shape=legs[0],
                legs=legs,
            )

    def heights(self, shape: str, *, resample_m: int = 100) -> tuple[str, list[tuple[float, float | None]]]:
        """Elevation along an encoded line, every ``resample_m``: the resampled line and its
        ``(distance_m, height_m)`` pairs; ``height_m`` is None where Valhalla has no elevation tile
        (it answers null there), so such a route has no climbing figures rather than no route."""
        answer = self._post(
            "height", {"encoded_polyline": shape, "range": True, "resample_distance": resample_m}
        )
        with _unexpected("height"):
            return str(answer["encoded_polyline"]), [
                (float(d), None if h is None else float(h)) for d, h in answer["range_height"]
            ]

    def locate(
        self, points: list[tuple[float, float]], *, costing: str = "bicycle"
    ) -> list[tuple[float, float] | None]:
        """Where Valhalla would snap each point onto its graph, or ``None`` when nothing is near."""
        body = {"locations": [{"lat": lat, "lon": lon} for lat, lon in points], "costing": costing}
        answer: Any = self._post("locate", body)
        snapped: list[tuple[float, float] | None] = []
        with _unexpected("locate"):
            for location in answer:
                edges = location.get("edges") or []
                snapped.append(
                    (float(edges[0]["correlated_lat"]), float(edges[0]["correlated_lon"])) if edges else None
                )
        return snapped


@contextmanager
def _unexpected(action: str) -> Iterator[None]:
    """A 200 whose body is not the shape Valhalla documents is the service failing, not our bug."""
    try:
        yield
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise RoutingUnavailable(f"The routing service gave an unexpected {action} answer.") from exc
