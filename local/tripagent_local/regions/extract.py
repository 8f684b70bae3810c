"""What one OpenStreetMap extract holds for a region: its named places and the POIs riders stop at and
sleep in, the cells its roads cover, the names its boundaries give, and its header (read with pyosmium,
one pass)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import osmium

from tripagent_local.regions.errors import RegionBuildError

CELL_DEG = 0.01  # the coverage grid: about 1.1 km × 0.8 km at mid latitudes
ROUTABLE = frozenset(
    {
        "primary",
        "secondary",
        "tertiary",
        "unclassified",
        "residential",
        "service",
        "track",
        "cycleway",
        "path",
        "living_street",
        "trunk",
        "primary_link",
        "secondary_link",
        "tertiary_link",
        "road",
        "pedestrian",
        "footway",
        "bridleway",
    }
)
PLACE_IMPORTANCE = {
    "city": 0.8,
    "town": 0.6,
    "village": 0.4,
    "suburb": 0.35,
    "hamlet": 0.25,
    "neighbourhood": 0.2,
    "locality": 0.2,
    "isolated_dwelling": 0.1,
    "quarter": 0.3,
}
# OSM tag → (kind, category, importance): where riders sleep, eat, fill bottles, fix bikes, look around
POI_KINDS: dict[tuple[str, str], tuple[str, str, float]] = {
    ("tourism", "hotel"): ("hotel", "lodging", 0.3),
    ("tourism", "hostel"): ("hostel", "lodging", 0.25),
    ("tourism", "guest_house"): ("guest_house", "lodging", 0.25),
    ("tourism", "camp_site"): ("camp_site", "lodging", 0.25),
    ("tourism", "alpine_hut"): ("alpine_hut", "lodging", 0.2),
    ("amenity", "shelter"): ("shelter", "lodging", 0.1),
    ("tourism", "apartment"): ("apartment", "lodging", 0.2),
    ("tourism", "motel"): ("motel", "lodging", 0.25),
    ("amenity", "restaurant"): ("restaurant", "food", 0.2),
    ("amenity", "cafe"): ("cafe", "food", 0.2),
    ("amenity", "bar"): ("bar", "food", 0.1),
    ("amenity", "fast_food"): ("fast_food", "food", 0.1),
    ("shop", "supermarket"): ("supermarket", "food", 0.15),
    ("amenity", "drinking_water"): ("drinking_water", "water", 0.1),
    ("shop", "bicycle"): ("bicycle_shop", "bike", 0.2),
    ("amenity", "bicycle_repair_station"): ("bike_repair", "bike", 0.1),
    ("tourism", "museum"): ("museum", "culture", 0.3),
    ("tourism", "attraction"): ("attraction", "culture", 0.3),
    ("tourism", "artwork"): ("artwork", "culture", 0.1),
    ("amenity", "theatre"): ("theatre", "culture", 0.2),
    ("amenity", "arts_centre"): ("arts_centre", "culture", 0.2),
    ("historic", "*"): ("historic", "culture", 0.2),
    ("tourism", "viewpoint"): ("viewpoint", "viewpoint", 0.2),
    ("tourism", "picnic_site"): ("picnic_site", "viewpoint", 0.1),
    ("railway", "station"): ("railway_station", "station", 0.35),
    ("public_transport", "station"): ("station", "station", 0.3),
    ("tourism", "information"): ("information", "culture", 0.05),
}
LANGS = ("en", "fr", "ca", "es", "de", "it", "fi", "sv", "pt", "nl")


@dataclass
class Extras:
    """What an extract cannot say and a person can, as data beside it (``NAME.places.json``): the area's
    label, its country, names riders use that the extract lacks, villages at its doors, and the reader's
    words for its places. A region built without one is labelled from its own boundaries and places."""

    label: str | None = None
    country: str | None = None
    aliases: dict[str, list[str]] = field(default_factory=dict)
    doors: list[dict[str, Any]] = field(default_factory=list)
    names_at_the_doors: dict[str, list[str]] = field(default_factory=dict)
    reader: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def beside(cls, pbf: Path) -> Extras:
        path = sidecar(pbf)
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text())
        except ValueError as exc:
            raise RegionBuildError("bad_extras", f"{path} is not valid JSON: {exc}") from exc
        return cls(
            label=data.get("label"),
            country=data.get("country"),
            aliases=data.get("aliases", {}),
            doors=data.get("doors", []),
            names_at_the_doors=data.get("namesAtTheDoors", {}),
            reader=data.get("reader", {}),
        )


def area_name(pbf: Path) -> str:
    """An area is named after its file: ``andorra.osm.pbf`` is ``andorra``."""
    return pbf.name.split(".")[0].lower()


def sidecar(pbf: Path) -> Path:
    return pbf.with_name(area_name(pbf) + ".places.json")


@dataclass
class ExtractContents:
    places: list[dict[str, Any]]
    cells: set[tuple[int, int]]
    area_names: dict[str, list[str]]
    roads: int
    countries: dict[str, int]  # names of the country boundaries it holds, by admin level
    timestamp: str | None
    bbox: tuple[float, float, float, float] | None  # west, south, east, north, from the header

    def label(self, extras: Extras) -> str:
        """The area's name for people: the extras', else the country it is, else its largest place."""
        if extras.label:
            return extras.label
        if self.countries:
            return min(self.countries, key=lambda n: self.countries[n])
        towns = [p for p in self.places if p["category"] == "place"]
        return max(towns, key=lambda p: p["importance"])["names"][0] if towns else "the region"


def _kind(tags: Any) -> tuple[str, str, float] | None:
    place = tags.get("place")
    if place in PLACE_IMPORTANCE:
        importance = PLACE_IMPORTANCE[place]
        population = tags.get("population", "")
        if population.isdigit():
            importance = max(importance, min(1.0, math.log10(int(population) + 1) / 7))
        return place, "place", importance
    for (key, value), spec in POI_KINDS.items():
        if key in tags and (value == "*" or tags[key] == value):
            return spec
    return None


def names_of(tags: Any, aliases: dict[str, list[str]]) -> list[str]:
    names = [tags["name"]] + [
        tags[k] for k in ("alt_name", "official_name", "short_name", "old_name") if k in tags
    ]
    names += [tags[f"name:{lang}"] for lang in LANGS if f"name:{lang}" in tags]
    names += aliases.get(tags["name"], [])
    out: list[str] = []
    for name in names:
        for part in name.split(";"):
            if part.strip() and part.strip() not in out:
                out.append(part.strip())
    return out


class _Reader(osmium.SimpleHandler):
    def __init__(self, aliases: dict[str, list[str]]) -> None:
        super().__init__()
        self.aliases = aliases
        self.places: list[dict[str, Any]] = []
        self.cells: set[tuple[int, int]] = set()
        self.roads = 0
        self.countries: dict[str, int] = {}
        # District boundaries carry the names their place nodes may lack (a bilingual city's districts in
        # its second language): they lend them to the place of the same name
        self.area_names: dict[str, list[str]] = {}

    def _add(self, tags: Any, lat: float, lon: float, osm_id: str) -> None:
        if "name" not in tags:
            return
        spec = _kind(tags)
        if spec is None:
            return
        kind, category, importance = spec
        self.places.append(
            {
                "osm": osm_id,
                "names": names_of(tags, self.aliases),
                "kind": kind,
                "category": category,
                "lat": lat,
                "lon": lon,
                "importance": importance,
            }
        )

    def node(self, n: Any) -> None:
        self._add(n.tags, n.location.lat, n.location.lon, f"n{n.id}")

    def way(self, w: Any) -> None:
        coords = [(nd.location.lat, nd.location.lon) for nd in w.nodes if nd.location.valid()]
        if not coords:
            return
        if w.tags.get("highway") in ROUTABLE:
            self.roads += 1
            for lat, lon in coords:
                self.cells.add((math.floor(lon / CELL_DEG), math.floor(lat / CELL_DEG)))
        lat = sum(c[0] for c in coords) / len(coords)
        lon = sum(c[1] for c in coords) / len(coords)
        self._add(w.tags, lat, lon, f"w{w.id}")

    def relation(self, r: Any) -> None:
        if "name" not in r.tags or r.tags.get("boundary") != "administrative":
            return
        self.area_names.setdefault(r.tags["name"], []).extend(names_of(r.tags, self.aliases))
        if r.tags.get("admin_level") == "2":
            self.countries[r.tags.get("name:en", r.tags["name"])] = 2


def read_extract(pbf: Path, extras: Extras) -> ExtractContents:
    """Everything the index needs from one extract; a file that is not one stops the build."""
    if not pbf.is_file():
        raise RegionBuildError("missing_input", f"{pbf}: no such file")
    try:
        reader = osmium.io.Reader(str(pbf), osmium.osm.osm_entity_bits.NOTHING)
        header = reader.header()
        reader.close()
        handler = _Reader(extras.aliases)
        handler.apply_file(str(pbf), locations=True)
    except RuntimeError as exc:  # libosmium's errors: not a PBF, truncated, unknown format
        raise RegionBuildError(
            "not_a_pbf", f"{pbf} is not an OpenStreetMap extract osmium can read: {exc}"
        ) from exc
    if handler.roads == 0:
        raise RegionBuildError(
            "no_roads", f"{pbf} holds no road a bicycle can ride (highway=*): nothing to route"
        )
    box = header.box()
    bbox = (
        (box.bottom_left.lon, box.bottom_left.lat, box.top_right.lon, box.top_right.lat)
        if box.valid()
        else None
    )
    timestamp = header.get("osmosis_replication_timestamp") or header.get("timestamp") or None
    return ExtractContents(
        handler.places, handler.cells, handler.area_names, handler.roads, handler.countries, timestamp, bbox
    )
