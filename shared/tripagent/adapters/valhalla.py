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
# Heights along a route come from the tiles (built in from SRTM); where they had none, Valhalla answers its
# floor, -500 m (interpolated: -499.9). No land is that low (the Dead Sea's shore is at -430 m).
_NO_HEIGHT_BELOW_M = -499.0


@dataclass(frozen=True, slots=True)
class RouteSummary:
    distance_km: float
    duration_s: float
    shape: str  # encoded polyline, precision 6 (the first leg's when there are several: see ``legs``)
    legs: tuple[str, ...] = ()
    # per leg, heights every ``height_interval_m`` along its shape, first and last point included (None:
    # no elevation there); empty when none was asked for
    leg_heights: tuple[tuple[float | None, ...], ...] = ()
    height_interval_m: float = 0.0


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
        height_interval_m: int | None = None,
    ) -> RouteSummary:
        """A route through ``points``; with ``height_interval_m``, its heights from the tiles (the service
        needs no elevation files at run time)."""
        body: dict[str, Any] = {
            "locations": [{"lat": lat, "lon": lon} for lat, lon in points],
            "costing": costing,
            "costing_options": {costing: options or {}},
            "units": "kilometers",
            "directions_type": "none",
        }
        if height_interval_m:
            body["elevation_interval"] = height_interval_m
        answer = self._post("route", body)
        with _unexpected("route"):
            trip = answer["trip"]
            legs = tuple(str(leg["shape"]) for leg in trip["legs"])
            heights = (
                tuple(
                    tuple(None if h is None or h < _NO_HEIGHT_BELOW_M else float(h) for h in leg["elevation"])
                    for leg in trip["legs"]
                )
                if height_interval_m
                else ()
            )
            return RouteSummary(
                distance_km=float(trip["summary"]["length"]),
                duration_s=float(trip["summary"]["time"]),
                shape=legs[0],
                legs=legs,
                leg_heights=heights,
                height_interval_m=float(height_interval_m or 0),
            )

    def status(self) -> str:
        """Valhalla's version and when its tiles were built (``/status``)."""
        try:
            response = self._http.get("/status")
        except httpx.HTTPError as exc:
            raise RoutingUnavailable(f"The routing service is unreachable ({type(exc).__name__}).") from exc
        if response.status_code != 200:
            raise RoutingUnavailable(f"The routing service failed (HTTP {response.status_code}).")
        with _unexpected("status"):
            body = response.json()
            return f"Valhalla {body['version']}, tiles of {body.get('tileset_last_modified', 'unknown date')}"

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
