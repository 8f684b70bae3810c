"""Geocoders other than the embedded gazetteer, behind the same ``PlaceFinder`` interface: Nominatim and
Photon over httpx (base URL configurable) and Amazon Location Service (``geo-places``) through boto3.
Their candidates go through the same decision (``domain.places.decide``): found, ambiguous or not found.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

import httpx

from tripagent.domain.places import (
    NotFound,
    Place,
    SearchOutcome,
    candidate,
    decide,
    normalize,
    quality,
)
from tripagent.errors import GeocoderUnavailable

if TYPE_CHECKING:
    from mypy_boto3_geo_places import LocationServicePlacesV2Client

PLACE_TYPES = {
    "city",
    "town",
    "village",
    "hamlet",
    "suburb",
    "locality",
    "municipality",
    "neighbourhood",
    "quarter",
    "district",
    "county",
    "state",
}


def _place_id(source: str, key: str) -> int:
    return -(zlib.crc32(f"{source}:{key}".encode()) or 1)  # negative: not a gazetteer id


def _rank(query: str, places: list[tuple[Place, str]], near: tuple[float, float] | None) -> SearchOutcome:
    norm = normalize(query)
    candidates = [
        candidate(place, normalize(name), quality(norm, normalize(name)), near) for place, name in places
    ]
    candidates.sort(key=lambda c: c.score, reverse=True)
    return decide(query, candidates) or NotFound(query, tuple(c.place.label for c in candidates[:5]))


class _HttpGeocoder:
    def __init__(
        self,
        base_url: str,
        *,
        timeout_s: float = 5.0,
        user_agent: str = "Tripagent/0.1",
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            timeout=timeout_s,
            headers={"user-agent": user_agent},
            transport=transport,
        )

    def _get(self, path: str, params: dict[str, Any]) -> Any:
        try:
            response = self._http.get(path, params=params)
            response.raise_for_status()
            return response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise GeocoderUnavailable(f"The geocoder failed ({type(exc).__name__}).") from exc


class NominatimGeocoder(_HttpGeocoder):
    def search(
        self, query: str, *, near: tuple[float, float] | None = None, categories: tuple[str, ...] = ("place",)
    ) -> SearchOutcome:
        params: dict[str, Any] = {
            "q": query,
            "format": "jsonv2",
            "limit": 8,
            "addressdetails": 1,
            "accept-language": "en",
        }
        if near:
            params["viewbox"] = f"{near[1] - 1},{near[0] + 1},{near[1] + 1},{near[0] - 1}"
        places = []
        for hit in self._get("/search", params):
            kind = hit.get("type") or hit.get("addresstype") or "place"
            category = (
                "place" if kind in PLACE_TYPES or hit.get("category") in ("place", "boundary") else "poi"
            )
            if categories and category not in categories:
                continue
            name = hit.get("name") or hit.get("display_name", "").split(",")[0]
            country = (hit.get("address") or {}).get("country")
            importance = float(hit.get("importance") or 0.3)
            places.append(
                (
                    Place(
                        _place_id("nominatim", str(hit.get("osm_id"))),
                        name,
                        kind,
                        category,
                        float(hit["lat"]),
                        float(hit["lon"]),
                        importance,
                        country,
                    ),
                    name,
                )
            )
        return _rank(query, places, near)


class PhotonGeocoder(_HttpGeocoder):
    def search(
        self, query: str, *, near: tuple[float, float] | None = None, categories: tuple[str, ...] = ("place",)
    ) -> SearchOutcome:
        params: dict[str, Any] = {"q": query, "limit": 8, "lang": "en"}
        if near:
            params |= {"lat": near[0], "lon": near[1]}
        places = []
        for feature in self._get("/api", params).get("features", []):
            props = feature.get("properties") or {}
            lon, lat = feature["geometry"]["coordinates"]
            kind = props.get("osm_value") or props.get("type") or "place"
            category = "place" if props.get("osm_key") == "place" or kind in PLACE_TYPES else "poi"
            if categories and category not in categories:
                continue
            importance = {"city": 0.8, "town": 0.6, "village": 0.4}.get(kind, 0.3)
            places.append(
                (
                    Place(
                        _place_id("photon", str(props.get("osm_id"))),
                        props.get("name", ""),
                        kind,
                        category,
                        float(lat),
                        float(lon),
                        importance,
                        props.get("country"),
                    ),
                    props.get("name", ""),
                )
            )
        return _rank(query, places, near)


class AmazonLocationGeocoder:
    def __init__(self, client: LocationServicePlacesV2Client) -> None:
        self._client = client

    def search(
        self, query: str, *, near: tuple[float, float] | None = None, categories: tuple[str, ...] = ("place",)
    ) -> SearchOutcome:
        from botocore.exceptions import BotoCoreError, ClientError

        kwargs: dict[str, Any] = {"QueryText": query, "MaxResults": 8, "Language": "en"}
        kwargs["BiasPosition"] = [near[1], near[0]] if near else [0.0, 0.0]
        try:
            items = self._client.search_text(**kwargs).get("ResultItems", [])
        except (BotoCoreError, ClientError) as exc:
            raise GeocoderUnavailable(f"Amazon Location failed ({type(exc).__name__}).") from exc
        places = []
        for item in items:
            lon, lat = item["Position"]
            kind = str(item.get("PlaceType", "place")).lower()
            category = "place" if kind in PLACE_TYPES else "poi"
            if categories and category not in categories:
                continue
            name = item.get("Title", "").split(",")[0]
            country = ((item.get("Address") or {}).get("Country") or {}).get("Name")
            importance = 0.8 if kind in ("city", "locality") else 0.4
            places.append(
                (
                    Place(
                        _place_id("amazon", item.get("PlaceId", name)),
                        name,
                        kind,
                        category,
                        float(lat),
                        float(lon),
                        importance,
                        country,
                    ),
                    name,
                )
            )
        return _rank(query, places, near)
