"""The trip aggregate: members and roles, days, stops, expenses, and a version.

Pure Python. Every change goes through a method that checks the invariants and returns the normalized
diff of what changed; the ops registry (``domain.ops``) is the only caller outside tests. The version is
bumped by the unit of work when a change commits, not here.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tripagent.errors import ValidationFailed

TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


class TripRuleViolation(ValidationFailed):
    """A change that would break one of the trip's invariants (422 ``validation_error``)."""


class Role(StrEnum):
    viewer = "viewer"
    editor = "editor"
    owner = "owner"

    @property
    def rank(self) -> int:
        return {"viewer": 0, "editor": 1, "owner": 2}[self.value]

    def allows(self, required: Role) -> bool:
        return self.rank >= required.rank


StopKind = Literal["activity", "lodging", "transport", "food", "poi"]
MAX_PROFILE_POINTS = 300  # a stage's heights: 100 m apart up to 30 km, further apart beyond (trip doc size)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Member(_Model):
    userId: str
    role: Role


class ElevationProfile(_Model):
    """Heights along a stage, every ``stepM`` metres from its start (the last one at its end)."""

    stepM: int = Field(gt=0)
    heightsM: list[int] = Field(min_length=2, max_length=MAX_PROFILE_POINTS + 1)


class Stage(_Model):
    from_: str = Field(alias="from")
    to: str
    distanceKm: float
    durationMin: float
    ascentM: float | None = None
    descentM: float | None = None
    polyline6: str = ""
    via: list[str] = Field(default_factory=list, description="The rider's stops this day passes, in order.")
    elevation: ElevationProfile | None = Field(default=None, description="Heights along it, when known.")


class Day(_Model):
    dayIndex: int
    date: dt.date | None = None
    city: str | None = None
    stage: Stage | None = None


class Stop(_Model):
    stopId: str
    dayIndex: int
    order: int
    name: str
    kind: StopKind
    lat: float | None = None
    lon: float | None = None
    startTime: str | None = None
    endTime: str | None = None
    outdoor: bool = False
    notes: str = ""


class Expense(_Model):
    expenseId: str
    label: str
    amount: Decimal
    currency: str
    payer: str
    participants: list[str]


class Route(_Model):
    distanceKm: float
    ascentM: float | None = None
    polyline6: str = ""


Change = dict[str, Any]  # {"entity", "id", "before", "after"}: one element of a normalized diff


def _dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json", by_alias=True)


def _changed(before: BaseModel, after: BaseModel) -> tuple[dict[str, Any], dict[str, Any]]:
    old, new = _dump(before), _dump(after)
    keys = [k for k in new if old.get(k) != new.get(k)]
    return {k: old.get(k) for k in keys}, {k: new[k] for k in keys}


class Trip(_Model):
    tripId: str
    title: str
    profile: str | None = None
    startDate: dt.date | None = None
    members: list[Member]
    days: list[Day] = Field(default_factory=list)
    stops: list[Stop] = Field(default_factory=list)
    expenses: list[Expense] = Field(default_factory=list)
    route: Route | None = None
    version: int = 1
    createdAt: str
    updatedAt: str

    # ------------------------------------------------------------------ queries
    def role_of(self, user_id: str) -> Role | None:
        return next((m.role for m in self.members if m.userId == user_id), None)

    def stop(self, stop_id: str) -> Stop:
        for stop in self.stops:
            if stop.stopId == stop_id:
                return stop
        raise TripRuleViolation(f"No stop {stop_id} in this trip.")

    def day(self, day_index: int) -> Day:
        if not 0 <= day_index < len(self.days):
            raise TripRuleViolation(f"Day {day_index} does not exist (the trip has {len(self.days)} days).")
        return self.days[day_index]

    def date_of(self, day_index: int) -> dt.date | None:
        """The day's own date, else the start date plus its index, else unknown."""
        own = self.days[day_index].date
        return own or (self.startDate + dt.timedelta(days=day_index) if self.startDate else None)

    def stops_on(self, day_index: int) -> list[Stop]:
        return sorted((s for s in self.stops if s.dayIndex == day_index), key=lambda s: s.order)

    def expense(self, expense_id: str) -> Expense:
        for expense in self.expenses:
            if expense.expenseId == expense_id:
                return expense
        raise TripRuleViolation(f"No expense {expense_id} in this trip.")

    # ------------------------------------------------------------------ stops
    def add_stop(self, stop: Stop, position: int | None = None) -> list[Change]:
        self.day(stop.dayIndex)
        _check_stop(stop)
        if any(s.stopId == stop.stopId for s in self.stops):
            raise TripRuleViolation(f"Stop {stop.stopId} already exists.")
        day_stops = self.stops_on(stop.dayIndex)
        at = len(day_stops) if position is None else max(0, min(position, len(day_stops)))
        day_stops.insert(at, stop)
        self.stops.append(stop)
        self._renumber(stop.dayIndex, day_stops)
        return [{"entity": "stop", "id": stop.stopId, "before": None, "after": _dump(stop)}]

    def edit_stop(self, stop_id: str, fields: dict[str, Any]) -> list[Change]:
        current = self.stop(stop_id)
        updated = current.model_copy(update=fields)
        updated = Stop.model_validate(_dump(updated))
        _check_stop(updated)
        before, after = _changed(current, updated)
        self.stops[self.stops.index(current)] = updated
        return [{"entity": "stop", "id": stop_id, "before": before, "after": after}] if after else []

    def remove_stop(self, stop_id: str) -> list[Change]:
        stop = self.stop(stop_id)
        self.stops.remove(stop)
        self._renumber(stop.dayIndex, self.stops_on(stop.dayIndex))
        return [{"entity": "stop", "id": stop_id, "before": _dump(stop), "after": None}]

    def move_stop(self, stop_id: str, day_index: int, position: int | None = None) -> list[Change]:
        stop = self.stop(stop_id)
        self.day(day_index)
        before = {"dayIndex": stop.dayIndex, "order": stop.order}
        source = [s for s in self.stops_on(stop.dayIndex) if s.stopId != stop_id]
        self._renumber(stop.dayIndex, source)
        target = [s for s in self.stops_on(day_index) if s.stopId != stop_id]
        at = len(target) if position is None else max(0, min(position, len(target)))
        stop.dayIndex = day_index
        target.insert(at, stop)
        self._renumber(day_index, target)
        return [
            {
                "entity": "stop",
                "id": stop_id,
                "before": before,
                "after": {"dayIndex": stop.dayIndex, "order": stop.order},
            }
        ]

    def reorder_stops(self, day_index: int, stop_ids: list[str]) -> list[Change]:
        current = self.stops_on(day_index)
        if sorted(stop_ids) != sorted(s.stopId for s in current) or len(set(stop_ids)) != len(stop_ids):
            raise TripRuleViolation(f"stopIds must list every stop of day {day_index} exactly once.")
        before = [s.stopId for s in current]
        by_id = {s.stopId: s for s in current}
        self._renumber(day_index, [by_id[i] for i in stop_ids])
        if before == stop_ids:
            return []
        return [
            {
                "entity": "day",
                "id": str(day_index),
                "before": {"stopOrder": before},
                "after": {"stopOrder": list(stop_ids)},
            }
        ]

    def _renumber(self, day_index: int, ordered: list[Stop]) -> None:
        for order, stop in enumerate(ordered):
            stop.dayIndex, stop.order = day_index, order

    # ------------------------------------------------------------------ days
    def add_day(self, city: str | None, day_date: dt.date | None, position: int | None) -> list[Change]:
        at = len(self.days) if position is None else max(0, min(position, len(self.days)))
        for stop in self.stops:
            if stop.dayIndex >= at:
                stop.dayIndex += 1
        self.days.insert(at, Day(dayIndex=at, date=day_date, city=city))
        self._reindex_days()
        return [{"entity": "day", "id": str(at), "before": None, "after": _dump(self.days[at])}]

    def remove_day(self, day_index: int) -> list[Change]:
        day = self.day(day_index)
        removed = self.stops_on(day_index)
        self.stops = [s for s in self.stops if s.dayIndex != day_index]
        for stop in self.stops:
            if stop.dayIndex > day_index:
                stop.dayIndex -= 1
        self.days.pop(day_index)
        self._reindex_days()
        changes: list[Change] = [{"entity": "day", "id": str(day_index), "before": _dump(day), "after": None}]
        changes += [{"entity": "stop", "id": s.stopId, "before": _dump(s), "after": None} for s in removed]
        return changes

    def reorder_days(self, order: list[int]) -> list[Change]:
        """Put the plans of the days (city, stage, stops) in a new order; dates stay with positions."""
        if sorted(order) != list(range(len(self.days))):
            raise TripRuleViolation(f"order must be a permutation of 0..{len(self.days) - 1}.")
        if order == list(range(len(self.days))):
            return []
        dates = [d.date for d in self.days]
        new_index = {old: new for new, old in enumerate(order)}
        self.days = [self.days[old] for old in order]
        for stop in self.stops:
            stop.dayIndex = new_index[stop.dayIndex]
        for day, day_date in zip(self.days, dates, strict=True):
            day.date = day_date
        self._reindex_days()
        return [
            {
                "entity": "trip",
                "id": self.tripId,
                "before": {"dayOrder": list(range(len(order)))},
                "after": {"dayOrder": list(order)},
            }
        ]

    def edit_day(self, day_index: int, fields: dict[str, Any]) -> list[Change]:
        current = self.day(day_index)
        updated = Day.model_validate({**_dump(current), **fields})
        before, after = _changed(current, updated)
        self.days[day_index] = updated
        return [{"entity": "day", "id": str(day_index), "before": before, "after": after}] if after else []

    def _reindex_days(self) -> None:
        for index, day in enumerate(self.days):
            day.dayIndex = index
            if self.startDate and day.date is None:
                day.date = self.startDate + dt.timedelta(days=index)

    # ------------------------------------------------------------------ expenses
    def add_expense(self, expense: Expense) -> list[Change]:
        if any(e.expenseId == expense.expenseId for e in self.expenses):
            raise TripRuleViolation(f"Expense {expense.expenseId} already exists.")
        self._check_expense(expense)
        self.expenses.append(expense)
        return [{"entity": "expense", "id": expense.expenseId, "before": None, "after": _dump(expense)}]

    def edit_expense(self, expense_id: str, fields: dict[str, Any]) -> list[Change]:
        current = self.expense(expense_id)
        updated = Expense.model_validate({**_dump(current), **fields})
        self._check_expense(updated)
        before, after = _changed(current, updated)
        self.expenses[self.expenses.index(current)] = updated
        return [{"entity": "expense", "id": expense_id, "before": before, "after": after}] if after else []

    def remove_expense(self, expense_id: str) -> list[Change]:
        expense = self.expense(expense_id)
        self.expenses.remove(expense)
        return [{"entity": "expense", "id": expense_id, "before": _dump(expense), "after": None}]

    def _check_expense(self, expense: Expense) -> None:
        members = {m.userId for m in self.members}
        if expense.amount <= 0:
            raise TripRuleViolation("An expense amount must be positive.")
        if not re.fullmatch(r"[A-Z]{3}", expense.currency):
            raise TripRuleViolation("currency must be an ISO 4217 code such as EUR.")
        if expense.payer not in members:
            raise TripRuleViolation(f"The payer {expense.payer} is not a member of this trip.")
        strangers = [p for p in expense.participants if p not in members]
        if strangers or not expense.participants:
            raise TripRuleViolation(
                f"Every participant must be a member (not: {', '.join(strangers) or 'none'})."
            )
        if len(set(expense.participants)) != len(expense.participants):
            raise TripRuleViolation("A participant is listed twice.")

    # ------------------------------------------------------------------ members
    def add_member(self, user_id: str, role: Role) -> list[Change]:
        if self.role_of(user_id) is not None:
            raise TripRuleViolation(f"{user_id} is already a member.")
        member = Member(userId=user_id, role=role)
        self.members.append(member)
        return [{"entity": "member", "id": user_id, "before": None, "after": _dump(member)}]

    def change_role(self, user_id: str, role: Role) -> list[Change]:
        current = self.role_of(user_id)
        if current is None:
            raise TripRuleViolation(f"{user_id} is not a member.")
        if current == Role.owner and role != Role.owner:
            self._keep_an_owner(user_id)
        for member in self.members:
            if member.userId == user_id:
                member.role = role
        if current == role:
            return []
        return [
            {
                "entity": "member",
                "id": user_id,
                "before": {"role": current.value},
                "after": {"role": role.value},
            }
        ]

    def remove_member(self, user_id: str) -> list[Change]:
        current = self.role_of(user_id)
        if current is None:
            raise TripRuleViolation(f"{user_id} is not a member.")
        if current == Role.owner:
            self._keep_an_owner(user_id)
        if any(user_id == e.payer or user_id in e.participants for e in self.expenses):
            raise TripRuleViolation(f"{user_id} pays for or shares an expense: change those expenses first.")
        self.members = [m for m in self.members if m.userId != user_id]
        return [{"entity": "member", "id": user_id, "before": {"role": current.value}, "after": None}]

    def _keep_an_owner(self, leaving: str) -> None:
        if not any(m.role == Role.owner and m.userId != leaving for m in self.members):
            raise TripRuleViolation("A trip keeps at least one owner.")


def _check_stop(stop: Stop) -> None:
    for name in ("startTime", "endTime"):
        value = getattr(stop, name)
        if value is not None and not TIME.match(value):
            raise TripRuleViolation(f"{name} must be HH:MM (24 h), not {value!r}.")
    if stop.startTime and stop.endTime and stop.endTime < stop.startTime:
        raise TripRuleViolation("A stop cannot end before it starts.")
    if (stop.lat is None) != (stop.lon is None):
        raise TripRuleViolation("lat and lon go together.")
    if (
        stop.lat is not None
        and stop.lon is not None
        and not (-90 <= stop.lat <= 90 and -180 <= stop.lon <= 180)
    ):
        raise TripRuleViolation("lat must be within ±90 and lon within ±180.")
    if not stop.name.strip():
        raise TripRuleViolation("A stop needs a name.")
