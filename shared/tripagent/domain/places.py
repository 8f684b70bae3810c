"""Places: what a name means, and how sure we are.

A search has three outcomes: ``Found`` (one clear best place), ``Ambiguous`` (the best candidates are too
close to call: a numbered question for the user) and ``NotFound`` (with suggestions: close spellings,
and what each word alone finds). Names are compared after :func:`normalize`: case, accents and
punctuation do not matter.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

_SEPARATORS = re.compile(r"[\s\-‐‑‒–—_'’`.,/()]+")


def normalize(text: str) -> str:
    """``"Sant Julià de Lòria"`` → ``"sant julia de loria"``; ``"Andorre-la-Vieille"`` → ``"andorre la vieille"``."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    stripped = stripped.replace("ß", "ss").replace("ø", "o").replace("æ", "ae").replace("œ", "oe").replace("ł", "l")
    return _SEPARATORS.sub(" ", stripped).strip()


@dataclass(frozen=True, slots=True)
class Place:
    place_id: int
    name: str
    kind: str  # city, town, village, hamlet, suburb, locality, or a POI kind (hotel, camp_site, ...)
    category: str  # place, lodging, food, water, bike, culture, viewpoint, station
    lat: float
    lon: float
    importance: float  # 0..1
    country: str | None = None
    region: str | None = None  # the routing extract it lies in, when it does

    @property
    def label(self) -> str:
        kind = self.kind.replace("_", " ")
        return f"{self.name} ({kind}, {self.country})" if self.country else f"{self.name} ({kind})"


@dataclass(frozen=True, slots=True)
class Candidate:
    place: Place
    score: float  # 0..1, higher is better
    matched_name: str

    @property
    def index_label(self) -> str:
        return self.place.label


@dataclass(frozen=True, slots=True)
class Found:
    place: Place
    score: float
    alternatives: tuple[Candidate, ...] = ()
    outcome: Literal["found"] = "found"


@dataclass(frozen=True, slots=True)
class Ambiguous:
    query: str
    candidates: tuple[Candidate, ...]  # numbered from 1 in this order
    outcome: Literal["ambiguous"] = "ambiguous"

    def options(self) -> list[dict[str, object]]:
        return [{"index": i, "label": c.place.label, "placeId": c.place.place_id}
                for i, c in enumerate(self.candidates, start=1)]


@dataclass(frozen=True, slots=True)
class NotFound:
    query: str
    suggestions: tuple[str, ...] = ()
    by_word: dict[str, tuple[str, ...]] = field(default_factory=dict)
    outcome: Literal["not_found"] = "not_found"


SearchOutcome = Found | Ambiguous | NotFound


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance (haversine)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0088 * 2 * math.asin(math.sqrt(a))
