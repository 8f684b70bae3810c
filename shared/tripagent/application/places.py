"""Places use cases: find a place, say whether it can be routed, and find what a rider needs nearby or
along a stage."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from tripagent.domain.geo import LatLon, bbox, project
from tripagent.domain.places import (
    Place,
    SearchOutcome,
    distance_km,
    normalize,
)

# A category and what to try when it finds nothing.
BROADER: dict[str, str | None] = {
    "lodging": None,
    "food": None,
    "water": "food",
    "bike": None,
    "culture": None,
    "viewpoint": "culture",
    "station": None,
    "place": None,
}
POI_CATEGORIES = tuple(c for c in BROADER if c != "place")


class PlaceFinder(Protocol):
    """A geocoder: the embedded gazetteer, Nominatim, Photon or Amazon Location."""

    def search(
        self, query: str, *, near: tuple[float, float] | None = None, categories: tuple[str, ...] = ("place",)
    ) -> SearchOutcome: ...


class PoiIndex(Protocol):
    def within(
        self, south: float, west: float, north: float, east: float, categories: tuple[str, ...]
    ) -> list[Place]:
        """The places of these categories in the box, among those the routing data covers."""
        ...


class ServedArea(Protocol):
    @property
    def region(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def bbox(self) -> tuple[float, float, float, float]:  # west, south, east, north
        ...


class CoverageMap(Protocol):
    def covered_region(self, lat: float, lon: float) -> str | None: ...

    def region_labels(self) -> dict[str, str]: ...

    def has_heights(self, region: str) -> bool:
        """Whether routes there carry heights (the region was built with elevation covering it)."""
        ...

    def regions(self) -> Sequence[ServedArea]:
        """The areas routes can be planned in (the region's extracts), with their bounds."""
        ...


class Snapper(Protocol):
    def locate(
        self, points: list[tuple[float, float]], *, costing: str = "bicycle"
    ) -> list[tuple[float, float] | None]: ...


# ---------------------------------------------------------------------------- coverage
@dataclass(frozen=True, slots=True)
class Coverage:
    covered: bool
    region: str | None
    covered_regions: tuple[str, ...]
    snapped_m: float | None = None
    reason: str = ""


def check_coverage(point: LatLon, coverage: CoverageMap, router: Snapper, *, max_snap_m: float) -> Coverage:
    """Routable means: inside the area the routing data was built from, and snapped by the router onto a
    road within ``max_snap_m``. Valhalla alone would snap a point 15 km outside its extract onto the
    nearest road, so the first test is ours."""
    labels = coverage.region_labels()
    regions = tuple(labels.values())
    region = coverage.covered_region(*point)
    if region is None:
        return Coverage(False, None, regions, reason="outside the area the routing data covers")
    (snapped,) = router.locate([point])
    if snapped is None:
        return Coverage(False, labels.get(region, region), regions, reason="no road near this point")
    metres = distance_km(point[0], point[1], snapped[0], snapped[1]) * 1000
    if metres > max_snap_m:
        return Coverage(
            False,
            labels.get(region, region),
            regions,
            round(metres),
            f"the nearest road is {metres / 1000:.1f} km away",
        )
    return Coverage(True, labels.get(region, region), regions, round(metres))


# ---------------------------------------------------------------------------- points of interest
Search = Callable[[tuple[str, ...], list[str], float], list["PoiHit"]]  # categories, words, scale → hits


@dataclass(frozen=True, slots=True)
class PoiHit:
    place: Place
    distance_km: float  # from the point, or off the route
    along_km: float | None = None  # along the route, for corridor searches


@dataclass(frozen=True, slots=True)
class Alternative:
    kind: Literal["term", "category", "corridor", "radius", "stage"]
    description: str
    value: str | float
    count: int


@dataclass(frozen=True, slots=True)
class PoiResult:
    hits: tuple[PoiHit, ...]
    alternatives: tuple[Alternative, ...] = field(default_factory=tuple)

    @property
    def empty(self) -> bool:
        return not self.hits


def _matches(place: Place, words: list[str]) -> bool:
    name = normalize(place.name)
    return all(w in name or w in place.kind for w in words)


def _categories(category: str | None) -> tuple[str, ...]:
    return (category,) if category else POI_CATEGORIES


def pois_near(
    index: PoiIndex,
    point: LatLon,
    *,
    radius_km: float = 2.0,
    category: str | None = None,
    text: str = "",
    limit: int = 20,
) -> PoiResult:
    hits = _near(index, point, radius_km, _categories(category), normalize(text).split())
    if hits:
        return PoiResult(tuple(hits[:limit]))
    return PoiResult(
        (),
        tuple(
            _alternatives(
                lambda cats, words, scale: _near(index, point, radius_km * scale, cats, words),
                category,
                text,
                "radius",
                radius_km,
            )
        ),
    )


def pois_along(
    index: PoiIndex,
    line: list[LatLon],
    *,
    corridor_km: float = 2.0,
    category: str | None = None,
    text: str = "",
    limit: int = 50,
    other_stages: Mapping[str, list[LatLon]] | None = None,
) -> PoiResult:
    """POIs within ``corridor_km`` of the line, in the order a rider meets them. When nothing is found,
    the alternatives include the other stages (``other_stages``: a label such as "day 2" → its line)
    that would have something."""
    words = normalize(text).split()
    hits = _along(index, line, corridor_km, _categories(category), words)
    if hits:
        return PoiResult(tuple(hits[:limit]))
    alternatives = _alternatives(
        lambda cats, terms, scale: _along(index, line, corridor_km * scale, cats, terms),
        category,
        text,
        "corridor",
        corridor_km,
    )
    for label, other in (other_stages or {}).items():
        if count := len(_along(index, other, corridor_km, _categories(category), words)):
            alternatives.append(Alternative("stage", f"along {label} instead", label, count))
    return PoiResult((), tuple(alternatives))


def _near(
    index: PoiIndex, point: LatLon, radius_km: float, categories: tuple[str, ...], words: list[str]
) -> list[PoiHit]:
    south, west, north, east = bbox([point], radius_km)
    hits = []
    for place in index.within(south, west, north, east, categories):
        d = distance_km(point[0], point[1], place.lat, place.lon)
        if d <= radius_km and _matches(place, words):
            hits.append(PoiHit(place, round(d, 3)))
    return sorted(hits, key=lambda h: h.distance_km)


def _along(
    index: PoiIndex, line: list[LatLon], corridor_km: float, categories: tuple[str, ...], words: list[str]
) -> list[PoiHit]:
    south, west, north, east = bbox(line, corridor_km)
    hits = []
    for place in index.within(south, west, north, east, categories):
        where = project((place.lat, place.lon), line)
        if where.offset_km <= corridor_km and _matches(place, words):
            hits.append(PoiHit(place, round(where.offset_km, 3), round(where.along_km, 3)))
    return sorted(hits, key=lambda h: h.along_km or 0.0)


def _alternatives(
    search: Search, category: str | None, text: str, widen: Literal["radius", "corridor"], size_km: float
) -> list[Alternative]:
    """What would have found something: each search term alone, a broader category, a wider area."""
    words = normalize(text).split()
    categories = _categories(category)
    out: list[Alternative] = []
    if len(words) > 1:
        for word in words:
            if count := len(search(categories, [word], 1.0)):
                out.append(Alternative("term", f"just “{word}”", word, count))
    if category:
        broader = BROADER.get(category)
        wider, label = ((broader,), broader) if broader else (POI_CATEGORIES, "any kind")
        if count := len(search(wider, words, 1.0)):
            out.append(Alternative("category", f"{label} instead of {category}", label, count))
    if count := len(search(categories, words, 2.5)):
        out.append(Alternative(widen, f"within {size_km * 2.5:g} km", size_km * 2.5, count))
    return out


# The stop a place makes when someone adds it from the map: its kind, by the place's category
STOP_KIND = {
    "lodging": "lodging",
    "food": "food",
    "water": "food",
    "station": "transport",
    "culture": "activity",
    "viewpoint": "activity",
}


def named_point(index: PoiIndex, point: LatLon, *, radius_km: float = 1.0) -> PoiHit | None:
    """What a point on the map is called: the nearest town or place riders stop at within ``radius_km``
    (a stop added by a click is named from the places index, not "km 12")."""
    hits = _near(index, point, radius_km, ("place", *POI_CATEGORIES), [])
    return hits[0] if hits else None
