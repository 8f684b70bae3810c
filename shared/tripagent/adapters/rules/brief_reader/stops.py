"""Where a stop said in an edit of the route goes: "add Canillo before Soldeu", "ajoute Aixovall juste
après le départ", "and Escaldes before Encamp", "Sispony after La Massana", "Escaldes first"."""

from __future__ import annotations

from tripagent.adapters.rules.brief_reader.patterns import lazy

# A turn that adds stops to those said before, whatever else it changes ("actually make it gravel and add
# Juberri on the way", "non, garde Canillo mais ajoute Encamp avant")
ADD_WORDS = r"add|adding|ajout\w*|rajout\w*|include|including|inclu\w*|remet\w*"
ADDED = lazy(rf"\b(?:{ADD_WORDS}|put \w+(?: \w+)? back)\b")
# what says where, after the stop's name: "Canillo before Soldeu", "Aixovall juste après le départ"
_FILLER = (
    r"(?:\s+(?:just|right|juste|please|pls|svp|stp|directly|straight|then|ensuite|is|comes|goes|vient|va))*"
)
_WHERE = lazy(
    r"^" + _FILLER + r"\s+(?P<cue>before|avant|after|apres)\s+(?:the |le |la |l |les )?"
    r"(?P<what>\w+(?: \w+){0,3})"
)
# ...or that it comes first: "Escaldes first", "at the very beginning", "au tout début", "d'abord"
_FIRST = lazy(
    r"^" + _FILLER + r"\s+(?:first|d abord|en premier|at the (?:very )?(?:beginning|start)"
    r"|au (?:tout )?debut)\b"
)
_START_WORDS = ("start", "depart", "beginning", "debut")
_END_WORDS = ("end", "finish", "arrivee", "fin")


def placed(
    said: list[tuple[str, str]], stops: list[str], norm: str, spellings: dict[str, set[str]]
) -> list[str]:
    """``stops`` with the stops a turn ``norm`` (normalized) names, each ``(name, as written)``, put where it
    says: before or after another stop, right after the start or last before the end, or first; a stop said
    with no place of its own goes just before the next one said that has ("ajoute Canillo puis Soldeu après
    Encamp"), else at the end, or stays where it was if it was one already. ``spellings`` holds, for the
    start (key ``"start"``), the end (``"end"``) and each stop, the normalized names it goes by."""
    stops = list(stops)
    waiting: list[str] = []
    for name, written in said:
        at = norm.find(written) if written else -1
        others = [s for s in stops if s != name]
        index = _index(norm[at + len(written) :], others, spellings) if at >= 0 else None
        if index is None:
            if name not in stops:  # (a stop said again with no place of its own stays where it was)
                waiting.append(name)
            continue
        stops = others
        stops[index:index] = [*waiting, name]
        waiting = []
    return [*stops, *waiting]


def _index(after: str, stops: list[str], spellings: dict[str, set[str]]) -> int | None:
    """Where in ``stops`` the words after a stop's name put it, if they say."""
    if _FIRST.match(after):
        return 0
    if not (where := _WHERE.match(after)):
        return None
    before, what = where["cue"] in ("before", "avant"), where["what"]

    def names(key: str) -> bool:
        return any(_says(what, name) for name in spellings.get(key, ()))

    if names("start") or what.startswith(_START_WORDS):
        return 0  # before or after the start: the first stop
    if names("end") or what.startswith(_END_WORDS):
        return len(stops)
    for i, other in enumerate(stops):
        if names(other):
            return i if before else i + 1
    return None


def _says(what: str, name: str) -> bool:
    """Whether the words after "before" name ``name`` ("soldeu"; "escaldes" for "les escaldes")."""
    first = what.split(maxsplit=1)[0]
    return bool(name) and (what.startswith(name) or (len(first) > 3 and first in name.split()))
