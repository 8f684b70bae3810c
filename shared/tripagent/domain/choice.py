"""Which option of a numbered question a reply chooses: the one parser for the brief chat's and the
agent's clarifications.

By number ("2", "#2", "option 2", "n° 2"), by ordinal or number word, in English or French ("the second
one", "la deuxième", "two", "deux"), or by name: every word the reply keeps, once fillers are dropped,
appears in the option's label ("Canillo" for "Canillo (<country>)"), or the reply is close to the option's
name in spelling ("Canilo"). ``None`` when it names no option or several: then it is a new message, not
an answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tripagent.domain.places import normalize, quality

ORDINALS: dict[str, int] = {
    "first": 1, "one": 1, "premier": 1, "premiere": 1, "un": 1, "une": 1,
    "second": 2, "two": 2, "deuxieme": 2, "seconde": 2, "deux": 2,
    "third": 3, "three": 3, "troisieme": 3, "trois": 3,
    "fourth": 4, "four": 4, "quatrieme": 4, "quatre": 4,
    "fifth": 5, "five": 5, "cinquieme": 5, "cinq": 5,
}  # fmt: skip
FILLER = frozenset(
    [
        "the",
        "le",
        "la",
        "l",
        "one",
        "option",
        "number",
        "no",
        "n",
        "nr",
        "numero",
        "it",
        "s",
        "is",
        "c",
        "est",
        "celle",
        "celui",
        "ci",
        "please",
        "svp",
        "plutot",
        "choice",
        "choix",
        "i",
        "take",
        "want",
        "prends",
        "je",
        "veux",
        "ok",
        "obviously",
        "lol",
        "haha",
        "evidemment",
        "yes",
        "yeah",
        "oui",
        "sure",
        "thanks",
        "merci",
    ]
)


# Answers by description: "the French village", "celle de France", "the Spanish one". The words that
# name a country or a kind of place are read as our labels say them (in English)
@cache
def _described() -> dict[str, str]:
    """The words of descriptions, from data (``data/vocabulary/descriptions.json``)."""
    words = json.loads((Path(__file__).parents[1] / "data" / "vocabulary" / "descriptions.json").read_text())
    return {**words["countries"], **words["kinds"]}


# Words that say where or which, not what: dropped from a description ("the one in the Pyrenees")
LINKING = frozenset(
    ["in", "en", "d", "de", "du", "of", "from", "that", "which", "qui", "a", "an", "un", "une"]
)
# What follows these is the option not meant: "the French village, not the one near Barcelona"
NOT_MEANT = re.compile(r"\s(?:not|pas|non|rather than|plutot que|but not|instead of|au lieu de)\b.*$")
NEGATED = re.compile(r"^(?:no |non )?(?:not|pas|surtout pas)\s+")
NUMBER = re.compile(r"^#?(\d{1,2})(?:st|nd|rd|th|e|er|eme)?$")
SIMILAR = 0.8  # quality() from which a misspelt name still names its option
STEM = 6  # letters two words share to be one word's forms ("argentine", "argentin" and "argentina")


@dataclass(frozen=True, slots=True)
class Option:
    name: str  # what the option is called ("Canillo")
    label: str = ""  # how it was shown ("Canillo (<country>)"); the name when empty


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[^\w#]+", normalize(text)) if w]


def _by_number(kept: list[str], count: int) -> int | None:
    """ "2", "#2", "the second", "deux": the option of that number, when there is one."""
    if len(kept) != 1:
        return None
    number = NUMBER.match(kept[0])
    index = int(number.group(1)) if number else ORDINALS.get(kept[0], 0)
    return index if 1 <= index <= count else None


_UNSURE = re.compile(
    r"\b(?:no|not|neither|none|wait|non|pas|aucun\w*|ni|idea|idk|sais|days?|jours?|km|nights?|nuits?)\b"
)
_NUMBER_FIRST = re.compile(r"^\s*#?(\d{1,2})\s*[,.):-]\s*(.+)$")


def _number_then_words(reply: str, options: list[Option]) -> int | None:
    """ "1, the french one obviously lol": an option's number set apart, then words that say the same
    option or nothing more (not "1 day", "1.5 days", "2 - no wait, the first one", "3) no idea")."""
    said = _NUMBER_FIRST.match(reply[:200])
    if said is None or not 1 <= (index := int(said.group(1))) <= len(options):
        return None
    rest = said.group(2)
    if rest[:1].isdigit() or _UNSURE.search(normalize(rest)):  # (no recursion on "1,1,1,...")
        return None
    if not [w for w in _words(rest) if w not in FILLER]:
        return index
    return index if choose(rest, options) == index else None


def _the_other(said: str, options: list[Option], negations: int) -> int | None:
    """Of two options, the one a reply does not refuse ("not the Spanish one"): none of more than two."""
    if len(options) != 2 or not said:
        return None
    refused = choose(said, options)
    return None if refused is None else (3 - refused if negations % 2 else refused)


def choose(reply: str, options: list[Option]) -> int | None:
    """The 1-based number of the option ``reply`` chooses, or ``None``."""
    said, negations = normalize(reply), 0
    while negated := NEGATED.match(said):  # "not the Spanish one" (as many "not" as a reply holds)
        said, negations = said[negated.end() :], negations + 1
    if negations:
        return _the_other(said, options, negations)
    words = _words(reply)
    exact = [i for i, o in enumerate(options, 1) if _words(o.name) == words]
    if len(exact) == 1:  # the name itself, articles and all ("La Massana", "Le Pas")
        return exact[0]
    kept = [w for w in words if w not in FILLER] or words
    # "2", "the second"; "1, the french one obviously"
    if (index := _by_number(kept, len(options)) or _number_then_words(reply, options)) is not None:
        return index
    # An option's whole name said, and no longer name of another: "Santa Coloma de Gramenet, près de
    # Barcelone" (both names hold "Santa Coloma")
    said = f" {' '.join(words)} "
    names = [
        (len(_words(o.name)), i) for i, o in enumerate(options, 1) if f" {' '.join(_words(o.name))} " in said
    ]
    if names and [n for n, _ in names].count(max(names)[0]) == 1:
        return max(names)[1]
    meant = _words(NOT_MEANT.sub("", normalize(reply)))
    kept = [_described().get(w, w) for w in meant if w not in FILLER and w not in LINKING] or kept
    named = [w for w in kept if len(w) > 2 or w.isdigit()]
    if not named:
        return None
    text = " ".join(named)
    labels = [normalize(o.label or o.name) + " " + normalize(o.name) for o in options]

    def fits(word: str, label: str) -> bool:
        """The word is in the label, or shares its stem with one of the label's words: a country's adjective
        or French name that begins as its name does ("the argentine one", "celle d'Argentine")."""
        return (
            word in label.split()
            or word in label
            or (len(word) >= STEM and any(w[:STEM] == word[:STEM] for w in label.split() if len(w) >= STEM))
        )

    containing = [i for i, label in enumerate(labels, 1) if all(fits(w, label) for w in named)]
    if len(containing) == 1:
        return containing[0]
    # A description with words of its own: "je parle du village français", "the French one obviously".
    # Most of its words must be in the labels, so a new message that names a country is still a message.
    telling = [w for w in named if any(fits(w, label) for label in labels)]
    if not containing and telling and 2 * len(telling) >= len(named):
        described = [i for i, label in enumerate(labels, 1) if all(fits(w, label) for w in telling)]
        if len(described) == 1:
            return described[0]
    exact = [i for i, o in enumerate(options, 1) if normalize(o.name) == text]
    if len(exact) == 1:
        return exact[0]
    if containing:
        return None  # several options fit: ask again rather than guess
    scores = sorted(((quality(text, normalize(o.name)), i) for i, o in enumerate(options, 1)), reverse=True)
    if scores and scores[0][0] >= SIMILAR and (len(scores) == 1 or scores[1][0] < scores[0][0]):
        return scores[0][1]
    return None
