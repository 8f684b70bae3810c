"""The offline reader's vocabulary as data, loaded on first use: the words of each language it reads
(``en.json``, ``fr.json``: numbers, months, weekdays, shorthand, its replies) and what riders call the
served region's places otherwise (landmarks, abbreviations, short names: the region's data, which the
region build writes into its places index from the extracts' ``NAME.places.json``). A rule names a
section; the words are the data's. Numbers said in words get their value from ``text2num`` (a maintained
parser of English and French numerals), not from a table of ours."""

from __future__ import annotations

import json
import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

from text_to_num import alpha2digit, text2num

LANGUAGES = ("en", "fr")
_HERE = Path(__file__).parent
# The sections of the region's words the reader reads, empty for a region that has none
_REGION_SECTIONS: dict[str, Any] = {
    "landmarks": {},
    "abbreviations": {},
    "short_names": {},
    "cased_short_names": {},
    "centre_words": [],
    "countries": [],
}


@cache
def language(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((_HERE / f"{lang}.json").read_text())
    return data


def words(section: str) -> list[str]:
    """A section's words in every language, in the order the data gives them (English first)."""
    return [w for lang in LANGUAGES for w in language(lang).get(section, [])]


def table(section: str) -> dict[str, Any]:
    """A section's words and what each stands for, in every language."""
    return {w: v for lang in LANGUAGES for w, v in language(lang).get(section, {}).items()}


def in_language(lang: str, section: str) -> Any:
    """A section of one language (the reader's replies: its questions, bike and month names)."""
    return language(lang)[section]


@cache
def numbers() -> dict[str, int]:
    """The numbers riders write in words, and their values (``text2num``); "a" is one ("a week")."""
    values = {w: int(text2num(w, lang)) for lang in LANGUAGES for w in language(lang).get("numbers", [])}
    return values | dict.fromkeys(words("one_as_article"), 1)


@cache
def aliases() -> dict[str, Any]:
    """The served region's words for its places, from its places index."""
    from tripagent.adapters.places.region_bundle import places_file

    db = sqlite3.connect(f"file:{places_file()}?mode=ro&immutable=1", uri=True)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'reader_words'").fetchone()
    finally:
        db.close()
    data: dict[str, Any] = json.loads(row[0]) if row else {}
    return {k: data.get(k, empty) for k, empty in _REGION_SECTIONS.items()}


@cache
def days_of_the_month() -> dict[str, int]:
    """The days of a month riders write in words beside it ("the fourteenth of June", "le vingt et un
    mai"), and their values (``text2num``: cardinals; its ``alpha2digit``: ordinals, "fourteenth" 14th)."""
    days = {}
    for lang in LANGUAGES:
        for word in language(lang).get("days_of_the_month", []):
            days[word] = _value(word, lang)
    return days


def _value(word: str, lang: str) -> int:
    try:
        return int(text2num(word, lang))
    except ValueError:
        digits = alpha2digit(word, lang, 0).split()[0].rstrip("stndrhe")  # "14th", "1er", "21st"
        return int(digits)
