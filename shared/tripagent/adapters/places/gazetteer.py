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
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

from tripagent.domain.places import (
    Ambiguous,
    Candidate,
    Found,
    NotFound,
    Place,
    SearchOutcome,
    distance_km,
    normalize,
)

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "data" / "places.sqlite"
MATCH_FLOOR = 0.85  # below this similarity a name is not a match, only a suggestion
AMBIGUITY_MARGIN = 0.06  # candidates within this score of the best are too close to call
DOMINANCE = 0.04  # an importance lead this large (about twice the population) settles a tie of names
ARTICLES = {"les", "la", "el", "els", "l", "le", "los", "las", "lo", "il", "the"}


@dataclass(frozen=True, slots=True)
class Region:
    region: str
    label: str
    bbox: tuple[float, float, float, float]  # west, south, east, north


class Gazetteer:
    def __init__(self, path: Path = DEFAULT_PATH) -> None:
        self._path = path
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            with self._lock:
                if self._db is None:
                    uri = f"file:{self._path}?mode=ro&immutable=1"
                    self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        return self._db

    # ------------------------------------------------------------------ lookup
    def place(self, place_id: int) -> Place:
        row = self.db.execute("SELECT * FROM places WHERE id = ?", (place_id,)).fetchone()
        return _place(row)

    def regions(self) -> list[Region]:
        return [Region(r, label, tuple(json.loads(bbox))) for r, label, bbox in
                self.db.execute("SELECT region, label, bbox FROM regions")]

    def covered_region(self, lat: float, lon: float) -> str | None:
        cell = float(self.db.execute("SELECT value FROM meta WHERE key = 'cell_deg'").fetchone()[0])
        row = self.db.execute("SELECT region FROM coverage WHERE x = ? AND y = ?",
                              (math.floor(lon / cell), math.floor(lat / cell))).fetchone()
        return str(row[0]) if row else None

    # ------------------------------------------------------------------ search
    def candidates(self, query: str, *, near: tuple[float, float] | None = None, limit: int = 8,
                   categories: tuple[str, ...] = ("place",)) -> list[Candidate]:
        norm = normalize(query)
        if not norm:
            return []
        # Exact names and names the query begins (a B-tree range scan), then, only if those leave the
        # question open, names sharing the query's rarest trigrams.
        rows = self.db.execute(
            "SELECT place_id, norm FROM names WHERE norm = ? OR (norm > ? AND norm < ?)",
            (norm, norm + " ", norm + " \uffff"),
        ).fetchall()
        if not any(name == norm for _, name in rows):
            rows += self._fuzzy(norm)
        best: dict[int, tuple[float, str]] = {}
        for place_id, name in rows:
            quality = _quality(norm, name)
            if quality > best.get(place_id, (0.0, ""))[0]:
                best[place_id] = (quality, name)
        scored = []
        for place_id, (quality, name) in sorted(best.items(), key=lambda kv: kv[1][0], reverse=True)[:40]:
            place = self.place(place_id)
            if categories and place.category not in categories:
                continue
            score = 0.75 * quality + 0.25 * place.importance
            if near is not None:
                score += 0.1 * math.exp(-distance_km(near[0], near[1], place.lat, place.lon) / 50)
            scored.append(Candidate(place, round(score, 4), name))
        scored.sort(key=lambda c: c.score, reverse=True)
        return scored[:limit]

    def _fuzzy(self, norm: str) -> list[tuple[int, str]]:
        grams = sorted({norm[i : i + 3] for i in range(len(norm) - 2)})
        if not grams:
            return []
        # The rarest trigrams say most: a typo spoils a few trigrams, the rare ones that remain find the name.
        placeholders = ",".join("?" * len(grams))
        counts = dict(self.db.execute(
            f"SELECT term, doc FROM names_vocab WHERE term IN ({placeholders})", grams).fetchall())  # noqa: S608
        rare = sorted((g for g in grams if g in counts), key=lambda g: counts[g])[:6]
        if not rare:
            return []
        expression = " OR ".join('"' + g.replace('"', '""') + '"' for g in rare)
        return self.db.execute("SELECT place_id, norm FROM names_fts WHERE names_fts MATCH ? LIMIT 400",
                               (expression,)).fetchall()

    def search(self, query: str, *, near: tuple[float, float] | None = None,
               categories: tuple[str, ...] = ("place",)) -> SearchOutcome:
        norm = normalize(query)
        candidates = [c for c in self.candidates(query, near=near, categories=categories)
                      if _quality(norm, c.matched_name) >= MATCH_FLOOR]
        if not candidates:
            return self._not_found(query, categories)
        top = candidates[0]
        # Too close to call: several strong readings of the name (exact or the start of a longer name)
        # whose scores are within the margin.
        # A namesake that matches no better and is several times smaller is no rival (Barcelona, Spain over
        # Barcelona, Venezuela); a place whose name matches better is one (Santa Coloma, the village).
        top_quality = _quality(norm, top.matched_name)
        rivals = [c for c in candidates if c is top or (
            _quality(norm, c.matched_name) >= 0.9 and top.score - c.score <= AMBIGUITY_MARGIN
            and not (_quality(norm, c.matched_name) <= top_quality
                     and top.place.importance - c.place.importance >= DOMINANCE))]
        distinct = _distinct(rivals)
        if len(distinct) > 1:
            return Ambiguous(query, tuple(distinct[:5]))
        return Found(top.place, top.score, tuple(candidates[1:4]))

    def _not_found(self, query: str, categories: tuple[str, ...]) -> NotFound:
        norm = normalize(query)
        loose = self.candidates(query, categories=categories, limit=8)
        suggestions = tuple(dict.fromkeys(
            c.place.label for c in loose if _quality(norm, c.matched_name) >= 0.6))[:5]
        by_word: dict[str, tuple[str, ...]] = {}
        words = [w for w in norm.split() if len(w) >= 3]
        if len(words) > 1:
            for word in words:
                hits = [c.place.label for c in self.candidates(word, categories=categories, limit=3)
                        if _quality(word, c.matched_name) >= MATCH_FLOOR]
                if hits:
                    by_word[word] = tuple(hits)
        return NotFound(query, suggestions, by_word)

def _quality(query: str, name: str) -> float:
    """1.0 for the same name; 0.9 when the query is the start of the name (a shortened name); otherwise
    the similarity of the two strings (Indel ratio: typos, missing letters)."""
    if query == name or _bare(query) == _bare(name):  # "Escaldes" is "les Escaldes"
        return 1.0
    if name.startswith(query + " ") and len(query) >= 4:
        return 0.9
    return float(fuzz.ratio(query, name)) / 100


def _bare(name: str) -> str:
    words = name.split()
    return " ".join(words[1:]) if len(words) > 1 and words[0] in ARTICLES else name


def _distinct(candidates: list[Candidate]) -> list[Candidate]:
    """One candidate per real place: the same town twice (OSM node and city list, 2 km apart) is one."""
    out: list[Candidate] = []
    for c in candidates:
        if all(distance_km(c.place.lat, c.place.lon, o.place.lat, o.place.lon) > 5 for o in out):
            out.append(c)
    return out


def _place(row: tuple[object, ...]) -> Place:
    place_id, name, kind, category, lat, lon, importance, country, region = row
    return Place(int(place_id), str(name), str(kind), str(category), float(lat), float(lon),  # type: ignore[arg-type]
                 float(importance), str(country) if country else None, str(region) if region else None)  # type: ignore[arg-type]
