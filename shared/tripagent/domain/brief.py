"""The trip brief: what a rider has told us so far, whoever read it (a model, or the offline reader).

``Collected`` is the one place the brief's bounds are said; the server holds every provider's
understanding to them (``Collected.lenient``) before anything else is checked.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

Profile = Literal["road", "gravel", "mountain", "touring", "hybrid", "e-bike"]
# How hard the rider wants it: relaxed (easy riding, climbs avoided), steady, brisk (hills welcome)
Pace = Literal["relaxed", "steady", "brisk"]
Locale = Literal["en", "fr"]
PROFILES: tuple[Profile, ...] = ("road", "gravel", "mountain", "touring", "hybrid", "e-bike")
# What a trip cannot be planned without ("end" is satisfied by a round trip). The bike is not one: a brief
# without it is planned for a touring bike (generation's default), and the reply says so.
ESSENTIALS = ("start", "end", "durationDays")
DEFAULT_PROFILE: Profile = "touring"
MAX_DAYS = 30  # the longest trip generation plans: a brief the chat calls ready is one it accepts
MAX_STOPS = 20  # stops a brief may name (each is geocoded, and the brief travels in every turn)
MAX_NOTES_CHARS = 500
PLACE_SLOTS = ("start", "end", "via")


class Collected(BaseModel):
    model_config = ConfigDict(extra="ignore")

    start: str | None = None
    end: str | None = None
    via: list[str] = Field(default_factory=list)
    durationDays: int | None = Field(default=None, ge=1, le=MAX_DAYS)
    profile: Profile | None = None
    startDate: dt.date | None = None
    dailyDistanceKm: float | None = Field(default=None, gt=0, le=400)
    dailyClimbM: float | None = Field(default=None, gt=0, le=6000)  # the most climbing a day, in metres
    pace: Pace | None = None
    roundTrip: bool = False
    accommodation: Literal["hotel", "camping", "hostel", "hut", "any"] | None = None
    notes: str | None = None

    def missing(self) -> list[str]:
        absent = []
        for slot in ESSENTIALS:
            if slot == "end" and (self.end or self.roundTrip):
                continue
            if getattr(self, slot) in (None, ""):
                absent.append(slot)
        return absent

    def merged(self, other: Collected) -> Collected:
        """``other``'s known values over this one's (later turns refine earlier ones)."""
        values = self.model_dump()
        for key, value in other.model_dump().items():
            if value not in (None, "", [], False):
                values[key] = value
        return Collected.model_validate(values)

    def places(self) -> list[str]:
        """Every place the brief names: its start, its stops, its end."""
        return [name for name in [self.start, *self.via, self.end] if name]

    @classmethod
    def lenient(cls, data: Any) -> tuple[Collected, list[Refused]]:
        """What an untrusted reader (a model) answered, slot by slot: each value the bounds accept is kept,
        each they refuse is dropped and said (``Refused``), so one bad slot never costs the others."""
        if not isinstance(data, dict):
            return cls(), []
        kept: dict[str, Any] = {}
        refused: list[Refused] = []
        for key, raw in data.items():
            if key not in cls.model_fields or raw is None:
                continue
            value = _as_said(key, raw)
            try:
                if key == "durationDays" and not (isinstance(value, int) and not isinstance(value, bool)):
                    raise ValueError("not a number of days")  # (pydantic's lax mode reads true as 1)
                cls.model_validate({key: value})
            except (ValidationError, ValueError) as exc:
                reason = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
                refused.append(Refused(key, raw, reason))
                continue
            kept[key] = value
        return cls.model_validate(kept), refused


def _as_said(key: str, raw: Any) -> Any:
    """A value as a reader may write it, in the slot's own form: "Gravel" is gravel, "Encamp, Canillo"
    two stops, a place's surrounding blanks gone, long notes cut."""
    if key == "durationDays" and isinstance(raw, str) and raw.strip().isdigit():
        return int(raw)
    if isinstance(raw, str):
        raw = raw.strip()
        if key in ("profile", "accommodation"):
            return raw.lower()
        if key in ("start", "end"):
            return raw or None
        if key == "notes":
            return raw[:MAX_NOTES_CHARS]
        if key == "via":
            return [stop.strip() for stop in raw.split(",") if stop.strip()]
    if key == "durationDays" and isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if key == "via" and isinstance(raw, list):  # a stop that is no name: that stop only
        return [v.strip() for v in raw if isinstance(v, str) and v.strip()]
    return raw


@dataclass(frozen=True)
class Refused:
    """A value the brief's bounds refuse ("45 days", "a dailyDistanceKm of 900"), and why."""

    slot: str
    value: Any
    reason: str
