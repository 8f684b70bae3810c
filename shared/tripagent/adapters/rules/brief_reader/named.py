"""The offline reader's ways of finding the places a brief names without a word for their role: names
typed in a row, a phrase that begins with a place, the village by a lake, a place named anywhere."""

from __future__ import annotations

import re
from collections.abc import Callable

from tripagent.adapters.rules.brief_reader.patterns import lazy
from tripagent.adapters.rules.brief_reader.place_reading import (
    beside_feature,
    far_fetched,
    is_setting,
)
from tripagent.adapters.rules.brief_reader.place_words import NOT_PLACES
from tripagent.adapters.rules.brief_reader.places import names_said
from tripagent.domain.places import Found, Place, SearchOutcome, bare_name, normalize

NAMES_LOOKED_UP = (
    60  # phrases looked up at most: a remote geocoder answers each, and 4,000 characters hold thousands
)


_ROW_JOINS = {"&", "+", "/", "n", "and", "et", "puis", "then", "y", "-"}
_LONGEST_NAME = 5  # words
_ROW_WORDS = 12


def ours_by_name(piece: str, outcome: SearchOutcome) -> bool:
    """A place we route that the piece names by its very name (or the name it was found by)."""
    if not isinstance(outcome, Found) or outcome.place.region is None or piece in NOT_PLACES:
        return False
    name = normalize(outcome.place.name)
    return piece in (name, bare_name(name), outcome.matched)


def names_in_a_row(search: Callable[[str], SearchOutcome], text: str) -> list[str] | None:
    """Two or more places we route typed one after the other with no comma ("via la massana ordino canillo
    soldeu", "la massana & encamp", "soldeu n grau roig"), each by its very name: each name, in
    order. None unless the whole phrase is such names (and the words that join them), and none when the
    whole names a place ("les escaldes engordany")."""
    words = normalize(text.replace("&", " & ").replace("+", " + ")).split()
    # (at most _ROW_WORDS words, each position tried with the longest name first: a bounded number of
    # lookups, as a geocoder may be remote)
    if not 2 <= len(words) <= _ROW_WORDS or isinstance(search(" ".join(words)), Found):
        return None
    found: list[str] = []
    at = 0
    while at < len(words):
        if words[at] in _ROW_JOINS and found:
            at += 1
            continue
        for size in range(min(_LONGEST_NAME, len(words) - at), 0, -1):
            piece = " ".join(words[at : at + size])
            if ours_by_name(piece, search(piece)):
                found.append(piece)
                at += size
                break
        else:
            return None
    return found if len(found) >= 2 else None


def trimmed_to_ours(search: Callable[[str], SearchOutcome], text: str) -> Found | None:
    """A phrase that names nothing whole, but that is a place we route by its very name followed by other
    words ("eira n back", "Arinsal is", "Hakaniemi market"), or preceded by words that only say where in
    it ("by Aixirivall", "central Tampere", "d'abord les Escaldes", "the Kallio church"): that place.
    Only a place we route: a piece of a phrase is too weak a reason to name a place abroad."""
    said = normalize(text)
    if _UNDECIDED.search(said) or _NEGATED.search(said):  # "between Soldeu and El Tarter", "not Canillo"
        return None
    words = said.split()
    heads = [" ".join(words[:-k]) for k in range(1, len(words))]
    # (a name of two words or more after any words: "1d recon sant julia → arinsal", "trajet sant julià")
    tails = [
        " ".join(words[k:])
        for k in range(1, len(words))
        if set(words[:k]) <= _ONLY_WHERE or len(words) - k >= 2
    ]
    for piece in [*heads, *tails][:TRIMS_LOOKED_UP]:
        outcome = search(piece)
        if isinstance(outcome, Found) and (
            ours_by_name(piece, outcome)
            # (the first words of a longer name, two or more: "sant julia" of Sant Julià de Lòria)
            or (
                piece in tails
                and " " in piece
                and outcome.place.region is not None
                and piece not in NOT_PLACES
                and normalize(outcome.place.name).startswith(piece + " ")
            )
        ):
            return outcome
    return None


def named_by_feature(search: Callable[[str], SearchOutcome], text: str) -> SearchOutcome | None:
    """The place a phrase names by the lake, park or church it has ("le lac d'Engolasters": Engolasters),
    where nothing has the whole name: a place we route, or a town abroad by its very name (the lake of
    Banyoles is out of coverage), never a resemblance abroad ("le parc de l'Esplanade" is no Esplanada,
    Brazil). The brief chat and generation's rules alike."""
    village = beside_feature(text)
    if village == text:
        return None
    outcome = search(village)
    if isinstance(outcome, Found) and outcome.place.region is None and far_fetched(outcome, village):
        return None
    return outcome


_NEGATED = lazy(r"\b(?:not|no|pas|non|sans|without|never|jamais|avoid|eviter|except|sauf)\b")
# words before a name that only say where in it or when: "by", "central", "d'abord", "the"
_ONLY_WHERE = {
    "by", "central", "downtown", "old", "town", "centre", "center", "d", "abord", "tout", "the", "near",
    "around", "up", "down", "past", "then", "first", "puis", "ensuite", "et", "and", "via", "le", "la",
    "les", "l", "through", "thru", "over", "to", "in", "at", "a", "au", "vers",
}  # fmt: skip


TRIMS_LOOKED_UP = 6  # the pieces of a phrase looked up, at most (each a lookup)


def place_named_anywhere(
    search: Callable[[str], SearchOutcome], texts: list[str], taken: set[str], *, settings: bool = True
) -> Place | None:
    """Where no word says where a trip starts: the first place we route that the texts name by its very
    name (or without its article), and that is not already taken as its end or a via point ("my
    brother's flat, in Juberri, is where the fun begins"). The brief chat and generation's rules alike."""
    named = places_named_anywhere(search, _decided(texts), taken, first=True, settings=settings)
    return named[0] if named else None


def _decided(texts: list[str], *, questions: bool = True) -> list[str]:
    """The sentences of the texts that decide something: not "Encamp or Canillo, not sure yet" (nor,
    unless ``questions``, a question: "is Eira nice?")."""
    return [
        sentence
        for text in texts
        for sentence in re.split(r"(?<=[.!?;\n])", text)
        if not _UNDECIDED.search(normalize(sentence)) and (questions or "?" not in sentence)
    ]


def end_named_anywhere(
    search: Callable[[str], SearchOutcome], texts: list[str], taken: set[str], *, settings: bool = True
) -> Place | None:
    """Where a trip that is no loop has a start but no word says where it ends: the last place we route
    the texts name by its very name that is not taken (the start, a via point, a start said and
    corrected, a stop taken out): "We go out from La Massana and we arrive to Pas de la Casa"."""
    named = places_named_anywhere(search, _decided(texts, questions=False), taken, settings=settings)
    return named[-1] if named else None


_UNDECIDED = lazy(
    r"\b(?:or|ou|maybe|perhaps|peut etre|not sure|pas sur|undecided|sais pas|no idea|aucune idee|either"
    r"|soit|decid\w*|hesit\w*|might|could|pourrait|would be nice|agree\w*|d accord"
    r"|(?:deciding|decide|choose|choosing|torn|choisir) between|choisir entre)\b"
)


def places_named_anywhere(
    search: Callable[[str], SearchOutcome],
    texts: list[str],
    taken: set[str],
    *,
    first: bool = False,
    settings: bool = True,
) -> list[Place]:
    """The places we route the texts name by their very names (or without their article), once each, in
    the order said, those in ``taken`` (normalized names) aside, and unless ``settings`` the names of a
    whole area ("a ride in Tampere", ``is_setting``); only the ``first`` one, looked up no further (a
    geocoder may be remote)."""
    runs = list(dict.fromkeys(run for text in texts for run in names_said(text)))
    places: dict[int, Place] = {}
    for run in runs[:NAMES_LOOKED_UP]:
        outcome = search(run)
        if isinstance(outcome, Found) and outcome.place.region is not None:
            if not settings and is_setting(outcome.place):
                continue
            name = normalize(outcome.place.name)
            if run in (name, bare_name(name)) and name not in taken and bare_name(name) not in taken:
                places.setdefault(outcome.place.place_id, outcome.place)
                if first:
                    break
    return list(places.values())
