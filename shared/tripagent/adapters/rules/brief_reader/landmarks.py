"""Landmarks people name instead of the district or village they are in ("from the Oodi library", "up to
the rock church", "near Caldea", "le musée du tabac"): the well-known sights of the areas we route, in the
words visitors use for them (English, French, Finnish, Catalan), each with the place a local would say it
is in. The OSM extracts we route carry few of them, and by their local names only; the famous ones are
data (the served region's places index, from the extracts' ``NAME.places.json``), as a geocoder's POI
names would be. Keys and places are normalized text."""

from __future__ import annotations

import re

from tripagent.adapters.rules.brief_reader import vocabulary
from tripagent.adapters.rules.brief_reader.patterns import lazy, one_of

LANDMARKS: dict[str, str] = vocabulary.aliases()["landmarks"]
# "the Oodi library", "le musée du tabac": the landmark, its article with it
LANDMARK = lazy(
    r"\b(?:(?:the|le|la|l|les) )?(?P<landmark>" + one_of(re.escape(name) for name in LANDMARKS) + r")\b"
)


def landmarks_as_places(norm: str) -> str:
    """A normalized text with each landmark it names said as the place it is in."""
    return LANDMARK.sub(lambda said: LANDMARKS[said.group("landmark")], norm)
