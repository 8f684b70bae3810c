"""The offline reader's judgements of a phrase and the place it found: a place named as the whole area a
trip is in, a phrase loosely read as a town abroad, a place out of the trip's reach, a sight seen on the
way, a place named by the lake or pass beside it, a name said short. Language and reading, not the
business: they live with the reader."""

from __future__ import annotations

from tripagent.adapters.rules.brief_reader.patterns import lazy
from tripagent.domain.places import (
    IMPLAUSIBLE,
    ROAD_FACTOR,
    Found,
    Place,
    SearchOutcome,
    bare_name,
    distance_km,
    normalize,
    quality,
    ridable_km,
)


def is_setting(place: Place) -> bool:
    """A place named as the whole area routed around it ("Tampere" for central Tampere): where a trip
    happens ("a ride in Tampere"), its start or end only when no district is said instead."""
    return place.region is not None and normalize(place.name) == place.region


def far_fetched(outcome: SearchOutcome, text: str) -> bool:
    """A loosely read phrase ("de Lòria", a piece of a longer name) found abroad under another name: not
    a place the rider named (Glória, Brazil, three letters from "Lòria"). One of its own names, in another
    language, is named ("Barcelone")."""
    if not isinstance(outcome, Found) or outcome.place.region is not None:
        return False
    said, name = normalize(text), normalize(outcome.place.name)
    return said not in (name, bare_name(name)) and not (
        outcome.matched and quality(said, outcome.matched) == 1.0
    )


def beyond_reach(place: Place, ours: list[Place], days: int, daily_km: float | None) -> bool:
    """A place that no ride of the trip's days could reach from the places of it we route (the measure of
    ``settled_by_the_trip``): "a couple from Cardiff" on a week of 45 km a day in the Pyrenees, "she's from
    Glasgow" on two days in Kallio. Toulouse, on five days to La Massana, is within reach: a place of
    the ride, and outside."""
    if days < 1 or not ours:
        return False
    nearest = min(distance_km(place.lat, place.lon, other.lat, other.lon) for other in ours)
    return ROAD_FACTOR * nearest >= IMPLAUSIBLE * ridable_km(days, daily_km)


_FEATURE = lazy(
    r"^(?:the |le |la |l |el |els )?(?:lake|lac|llac|estany|col|coll|port|pic|peak|mont|mount|parc|park|vall"
    r"|valley|vallee|riu|river|bridge|pont|church|eglise|esglesia|chapel|chapelle|sanctuary|sanctuaire|santuari)"
    r" (?:of |de |d |du |del |dels |des )?(?=\w)"
)


# What people see on the way, not where they go: "Kaivopuisto park", "the design museum", "the market"
_SIGHT = lazy(
    r"\b(?:park|parc|lake|lac|museum|musee|market|marche|church|eglise|chapel|chapelle|cathedral|cathedrale"
    r"|cafe|coffee|bakery|boulangerie|viewpoint|mirador|belvedere|beach|plage|harbour|harbor|castle|chateau"
    r"|spa|bridge|pont|tower|tour|waterfall|cascade|zoo|garden|jardin|square|shop|boutique)s?\b"
)


def names_a_sight(text: str) -> bool:
    """Whether a phrase names something people see on the way ("Kaivopuisto park", "the design museum")
    rather than a place: a stop not found by such a name is no question to ask."""
    return bool(_SIGHT.search(normalize(text)))


def beside_feature(text: str) -> str:
    """A place named by the lake, pass or church it has ("lac d'Engolasters", "the sanctuary of Meritxell"):
    the name without the feature's word, to look up where nothing has the whole name."""
    return _FEATURE.sub("", normalize(text)) or text


def shortened(text: str, names: list[str]) -> str | None:
    """The one name of ``names`` that ``text`` is the first words of: "Pas" for Pas de la Casa, said in
    full elsewhere in the same brief ("... park in Pas de la Casa ... back to Pas")."""
    said = normalize(text)
    full = {normalize(n) for n in names if normalize(n).startswith(said + " ")}
    return full.pop() if len(full) == 1 else None
