"""How an answer is scored against the corpus: one place per rule, so every provider is held to the same."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tripagent.domain.places import Found, label_name, normalize

SLOTS = (
    "start", "end", "via", "durationDays", "profile",
    "startDate", "dailyDistanceKm", "roundTrip", "accommodation",
)  # fmt: skip


def place_key(value: Any) -> str | None:
    """A place as the corpus names it: ``"Santa Coloma (village, Andorra)"`` is ``santa coloma``."""
    if not value:
        return None
    text = str(value)
    return normalize(label_name(text) or text)


@cache
def _place_of(name: str) -> int | None:
    """The bundled gazetteer's one place for a name, if it names one."""
    found = _gazetteer().search(name)
    return found.place.place_id if isinstance(found, Found) else None


@cache
def _gazetteer() -> Any:
    from tripagent.adapters.places.gazetteer import Gazetteer

    return Gazetteer()


def same_place(want: Any, have: Any) -> bool:
    """The same name, or another name of the same place ("Escaldes-Engordany" is "les Escaldes")."""
    if place_key(want) == place_key(have):
        return True
    if not want or not have:
        return False
    place = _place_of(str(want))
    return place is not None and place == _place_of(str(have))


def holds_a_value(slot: str, expected: dict[str, Any]) -> bool:
    """Whether the rider gave the slot a value (a loop's end is its start: no value of its own)."""
    if slot == "end" and expected.get("roundTrip"):
        return False
    return expected.get(slot) not in (None, "", [], False)


def slot_right(slot: str, expected: dict[str, Any], got: dict[str, Any]) -> bool:
    want, have = expected.get(slot), got.get(slot)
    if slot in ("start", "end"):
        if slot == "end" and expected.get("roundTrip"):  # a loop ends where it starts, said or not
            return have is None or same_place(expected.get("start"), have)
        return same_place(want, have)
    if slot == "via":
        return len(want or []) == len(have or []) and all(
            same_place(w, h) for w, h in zip(want or [], have or [], strict=True)
        )
    if slot == "dailyDistanceKm":
        return (want is None and have is None) or (
            want is not None and have is not None and round(float(want)) == round(float(have))
        )
    if slot == "roundTrip":
        return bool(want) == bool(have)
    if slot == "startDate":
        return (str(want) if want else None) == (str(have) if have else None)
    return want == have


@dataclass
class Tally:
    """Counts of one figure: right out of seen, and the ids that were wrong (to read, not to tune on)."""

    right: int = 0
    seen: int = 0
    wrong: list[str] = field(default_factory=list)

    def add(self, ok: bool, item_id: str) -> None:
        self.seen += 1
        self.right += ok
        if not ok:
            self.wrong.append(item_id)

    @property
    def rate(self) -> float:
        return self.right / self.seen if self.seen else float("nan")


@dataclass
class BinaryTally:
    """Precision and recall of a yes/no decision (the reviewer's "tell the members")."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    false_alarms: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    def add(self, expected: bool, got: bool, item_id: str) -> None:
        if expected and got:
            self.tp += 1
        elif got:
            self.fp += 1
            self.false_alarms.append(item_id)
        elif expected:
            self.fn += 1
            self.missed.append(item_id)
        else:
            self.tn += 1

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else float("nan")

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else float("nan")
