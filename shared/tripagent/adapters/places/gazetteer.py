"""The embedded gazetteer: SQLite (FTS5 trigram index) built from the OSM extracts and world cities.

Search is case-, accent- and punctuation-insensitive (names are normalized at build time and query
time), typo-tolerant (candidates come from shared trigrams, then are scored by similarity), multilingual
(every ``name:xx`` variant is indexed), ranked by match quality and importance, with an optional
proximity bias. The file opens read-only and lazily, on the first query.
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tripagent.domain.places import (
    MATCH_FLOOR,
    Candidate,
    Found,
    NotFound,
    Place,
    SearchOutcome,
    candidate,
    decide,
    label_name,
    normalize,
    quality,
)


@dataclass(frozen=True, slots=True)
class Region:
    region: str
    label: str
    bbox: tuple[float, float, float, float]  # west, south, east, north


class Gazetteer:
    def __init__(self, path: Path | None = None) -> None:
        self._path = path  # the served region's index when none is given (region_bundle)
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        # The index is read-only: a search's answer never changes, and one request often asks twice
        # (the brief's reading, then the pipeline's geocoding).
        self._cell: float | None = None
        self._answers: dict[tuple[str, tuple[float, float] | None, tuple[str, ...]], SearchOutcome] = {}

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            with self._lock:
                if self._db is None:
                    if self._path is None:
                        from tripagent.adapters.places.region_bundle import places_file

                        self._path = places_file()
                    uri = f"file:{self._path}?mode=ro&immutable=1"
                    self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        return self._db

    def forget(self) -> None:
        """Drop remembered answers (benchmarks measure searches, not the memo)."""
        self._answers.clear()

    # ------------------------------------------------------------------ lookup
    def place(self, place_id: int) -> Place:
        row = self.db.execute("SELECT * FROM places WHERE id = ?", (place_id,)).fetchone()
        return _place(row)

    def regions(self) -> Sequence[Region]:
        return [
            Region(r, label, tuple(json.loads(bbox)))
            for r, label, bbox in self.db.execute("SELECT region, label, bbox FROM regions")
        ]

    def _cell_deg(self) -> float:
        """The coverage grid's cell size, read once: the coverage guard asks for every point."""
        if self._cell is None:
            self._cell = float(self.db.execute("SELECT value FROM meta WHERE key = 'cell_deg'").fetchone()[0])
        return self._cell

    def has_heights(self, region: str) -> bool:
        """Whether the region's routing tiles carry heights (it was built with elevation tiles covering it);
        an index that does not say is taken to."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'heights'").fetchone()
        return row is None or region in json.loads(row[0])

    def region_labels(self) -> dict[str, str]:
        return {r.region: r.label for r in self.regions()}

    def within(
        self, south: float, west: float, north: float, east: float, categories: tuple[str, ...]
    ) -> list[Place]:
        placeholders = ",".join("?" * len(categories))
        rows = self.db.execute(
            # the places the extracts route only (the world's towns are for names, not for stops): the
            # partial index then scans a latitude band of the extracts, not of the world
            f"SELECT * FROM places WHERE lat BETWEEN ? AND ? AND lon BETWEEN ? AND ? "  # noqa: S608 - only "?"s
            f"AND region IS NOT NULL AND category IN ({placeholders})",
            (south, north, west, east, *categories),
        ).fetchall()
        return [_place(row) for row in rows]

    def covered_region(self, lat: float, lon: float) -> str | None:
        cell = self._cell_deg()
        row = self.db.execute(
            "SELECT region FROM coverage WHERE x = ? AND y = ?",
            (math.floor(lon / cell), math.floor(lat / cell)),
        ).fetchone()
        return str(row[0]) if row else None

    # ------------------------------------------------------------------ search
    def candidates(
        self,
        query: str,
        *,
        near: tuple[float, float] | None = None,
        limit: int = 8,
        categories: tuple[str, ...] = ("place",),
    ) -> list[Candidate]:
        norm = normalize(query)
        if not norm:
            return []
        # Exact names and names the query begins (a B-tree range scan), then, only if those leave the
        # question open, names sharing the query's rarest trigrams.
        rows = self.db.execute(
            "SELECT place_id, norm FROM names WHERE norm = ? OR (norm > ? AND norm < ?) "
            "UNION ALL SELECT place_id, norm FROM exact_names WHERE norm = ?",  # towns abroad: exact only
            (norm, norm + " ", norm + " \uffff", norm),
        ).fetchall()
        # A name found only abroad may be a typo of one we route ("Orino", Italy, for Ordino): look further
        if not any(name == norm and self.place(place_id).region is not None for place_id, name in rows):
            rows += self._fuzzy(norm)
        best: dict[int, tuple[float, str]] = {}
        for place_id, name in rows:
            match = quality(norm, name)
            if match > best.get(place_id, (0.0, ""))[0]:
                best[place_id] = (match, name)
        scored = []
        for place_id, (match, name) in sorted(best.items(), key=lambda kv: kv[1][0], reverse=True)[:40]:
            place = self.place(place_id)
            if categories and place.category not in categories:
                continue
            scored.append(candidate(place, name, match, near))
        scored.sort(key=lambda c: c.score, reverse=True)
        return scored[:limit]

    def _fuzzy(self, norm: str) -> list[tuple[int, str]]:
        grams = sorted({norm[i : i + 3] for i in range(len(norm) - 2)})
        if not grams:
            return []
        # The rarest trigrams say most: a typo spoils a few trigrams, the rare ones that remain find the name.
        placeholders = ",".join("?" * len(grams))
        counts = dict(
            self.db.execute(
                f"SELECT term, doc FROM names_vocab WHERE term IN ({placeholders})",  # noqa: S608 - only "?"s
                grams,
            ).fetchall()
        )
        rare = sorted((g for g in grams if g in counts), key=lambda g: counts[g])[:6]
        if not rare:
            return []
        expression = " OR ".join('"' + g.replace('"', '""') + '"' for g in rare)
        return self.db.execute(
            "SELECT place_id, norm FROM names_fts WHERE names_fts MATCH ? ORDER BY rank LIMIT 150",
            (expression,),
        ).fetchall()

    def search(
        self, query: str, *, near: tuple[float, float] | None = None, categories: tuple[str, ...] = ("place",)
    ) -> SearchOutcome:
        key = (query, near, categories)
        if key not in self._answers:
            if len(self._answers) > 4096:
                self._answers.clear()
            found = self._labelled(query, near, categories) or decide(
                query, self.candidates(query, near=near, categories=categories)
            )
            self._answers[key] = found or self._not_found(query, categories)
        return self._answers[key]

    def _labelled(
        self, query: str, near: tuple[float, float] | None, categories: tuple[str, ...]
    ) -> Found | None:
        """One of our own labels names exactly one place: the candidate of its name with that label."""
        name = label_name(query)
        if name is None:
            return None
        wanted = normalize(query)
        same = [
            c
            for c in self.candidates(name, near=near, categories=categories)
            if normalize(c.place.label) == wanted
        ]
        return Found(same[0].place, 1.0) if len(same) == 1 else None

    def _not_found(self, query: str, categories: tuple[str, ...]) -> NotFound:
        norm = normalize(query)
        loose = self.candidates(query, categories=categories, limit=8)
        close = [c for c in loose if quality(norm, c.matched_name) >= 0.5][:5]
        suggestions = tuple(dict.fromkeys(c.place.label for c in close))
        by_word: dict[str, tuple[str, ...]] = {}
        words = [w for w in norm.split() if len(w) >= 3]
        if len(words) > 1:
            for word in words:
                hits = [
                    c.place.label
                    for c in self.candidates(word, categories=categories, limit=3)
                    if quality(word, c.matched_name) >= MATCH_FLOOR
                ]
                if hits:
                    by_word[word] = tuple(hits)
        return NotFound(query, suggestions, by_word, tuple(close))


def _place(row: Any) -> Place:
    place_id, name, kind, category, lat, lon, importance, country, region = row
    return Place(
        int(place_id),
        str(name),
        str(kind),
        str(category),
        float(lat),
        float(lon),
        float(importance),
        str(country) if country else None,
        str(region) if region else None,
    )
