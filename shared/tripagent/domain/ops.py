"""The ops registry: every change to a trip, in one place.

An operation is a name, an argument model (extra fields forbidden, so ``version``, ``members`` or
``ownerId`` cannot ride along), the role it requires, whether it is on the high-risk whitelist (a
committed whitelisted operation emits ``TripOperationCommitted``), and the function that applies it to
the aggregate and returns the normalized diff. The HTTP ops endpoint, ``GET /trips/{tripId}/ops`` and the
agent's write tools are all generated from ``REGISTRY``: adding an operation is adding one entry.
Names are snake_case so that they are valid tool names for every model provider.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tripagent.domain.trip import Change, Expense, Role, Stop, StopKind, Trip

IdFactory = Callable[[str], str]  # prefix → a new unique id


class OpArgs(BaseModel):
    # (each operation's schema is built when it is first used: a function applies a few of the registry's)
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, defer_build=True)


@dataclass(frozen=True)
class Operation[A: OpArgs]:
    name: str
    summary: str
    args_model: type[A]
    required_role: Role
    high_risk: bool
    apply_fn: Callable[[Trip, A, IdFactory], list[Change]]

    def parse(self, raw: Any) -> A:
        return self.args_model.model_validate(raw)

    def apply(self, trip: Trip, args: OpArgs, new_id: IdFactory) -> list[Change]:
        assert isinstance(args, self.args_model)
        return self.apply_fn(trip, args, new_id)

    def json_schema(self) -> dict[str, Any]:
        return self.args_model.model_json_schema()


# ---------------------------------------------------------------------------- argument models
Name = Field(min_length=1, max_length=200)
Notes = Field(default="", max_length=2000)
DayIndex = Field(ge=0, le=365)
Position = Field(default=None, ge=0, description="Place in the day's order; the end when omitted.")


class AddStop(OpArgs):
    dayIndex: int = DayIndex
    name: str = Name
    kind: StopKind
    lat: float | None = Field(default=None, ge=-90, le=90)
    lon: float | None = Field(default=None, ge=-180, le=180)
    startTime: str | None = Field(default=None, pattern=r"^\d\d:\d\d$")
    endTime: str | None = Field(default=None, pattern=r"^\d\d:\d\d$")
    outdoor: bool = False
    notes: str = Notes
    position: int | None = Position


class EditStop(OpArgs):
    stopId: str
    name: str | None = Field(default=None, min_length=1, max_length=200)
    kind: StopKind | None = None
    lat: float | None = Field(default=None, ge=-90, le=90)
    lon: float | None = Field(default=None, ge=-180, le=180)
    startTime: str | None = Field(default=None, pattern=r"^\d\d:\d\d$")
    endTime: str | None = Field(default=None, pattern=r"^\d\d:\d\d$")
    outdoor: bool | None = None
    notes: str | None = Field(default=None, max_length=2000)


class StopRef(OpArgs):
    stopId: str


class MoveStop(OpArgs):
    stopId: str
    dayIndex: int = DayIndex
    position: int | None = Position


class ReorderStops(OpArgs):
    dayIndex: int = DayIndex
    stopIds: list[str] = Field(min_length=1)


class AddDay(OpArgs):
    city: str | None = Field(default=None, max_length=200)
    date: dt.date | None = None
    position: int | None = Field(
        default=None, ge=0, description="Index of the new day; the end when omitted."
    )


class DayRef(OpArgs):
    dayIndex: int = DayIndex


class ReorderDays(OpArgs):
    order: list[int] = Field(min_length=1, description="The current day indices in their new order.")


class EditDay(OpArgs):
    dayIndex: int = DayIndex
    date: dt.date | None = None
    city: str | None = Field(default=None, min_length=1, max_length=200)


class AddExpense(OpArgs):
    label: str = Name
    amount: Decimal = Field(gt=0, max_digits=12, decimal_places=2)
    currency: str = Field(default="EUR", pattern=r"^[A-Z]{3}$")
    payer: str
    participants: list[str] = Field(min_length=1)


class EditExpense(OpArgs):
    expenseId: str
    label: str | None = Field(default=None, min_length=1, max_length=200)
    amount: Decimal | None = Field(default=None, gt=0, max_digits=12, decimal_places=2)
    currency: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")
    payer: str | None = None
    participants: list[str] | None = Field(default=None, min_length=1)


class ExpenseRef(OpArgs):
    expenseId: str


class AddMember(OpArgs):
    userId: str = Field(min_length=1, max_length=128)
    role: Role


class ChangeRole(OpArgs):
    userId: str
    role: Role


class MemberRef(OpArgs):
    userId: str


def _fields(args: OpArgs, *, exclude: set[str]) -> dict[str, Any]:
    """The fields the caller actually set (``None`` means "not given" for edits)."""
    return {k: v for k, v in args.model_dump(exclude=exclude, exclude_unset=True).items() if v is not None}


# ---------------------------------------------------------------------------- the registry
def _add_stop(trip: Trip, a: AddStop, new_id: IdFactory) -> list[Change]:
    stop = Stop(stopId=new_id("stp"), order=0, **a.model_dump(exclude={"position"}))
    return trip.add_stop(stop, a.position)


_OPERATIONS: list[Operation[Any]] = [
    Operation("add_stop", "Add a stop to a day", AddStop, Role.editor, True, _add_stop),
    Operation(
        "edit_stop",
        "Change fields of a stop",
        EditStop,
        Role.editor,
        True,
        lambda t, a, _: t.edit_stop(a.stopId, _fields(a, exclude={"stopId"})),
    ),
    Operation(
        "remove_stop", "Remove a stop", StopRef, Role.editor, False, lambda t, a, _: t.remove_stop(a.stopId)
    ),
    Operation(
        "move_stop",
        "Move a stop to another day or position",
        MoveStop,
        Role.editor,
        True,
        lambda t, a, _: t.move_stop(a.stopId, a.dayIndex, a.position),
    ),
    Operation(
        "reorder_stops",
        "Put the stops of a day in a new order",
        ReorderStops,
        Role.editor,
        True,
        lambda t, a, _: t.reorder_stops(a.dayIndex, a.stopIds),
    ),
    Operation(
        "add_day",
        "Add a day",
        AddDay,
        Role.editor,
        False,
        lambda t, a, _: t.add_day(a.city, a.date, a.position),
    ),
    Operation(
        "remove_day",
        "Remove a day and its stops",
        DayRef,
        Role.editor,
        False,
        lambda t, a, _: t.remove_day(a.dayIndex),
    ),
    Operation(
        "reorder_days",
        "Put the days' plans in a new order",
        ReorderDays,
        Role.editor,
        True,
        lambda t, a, _: t.reorder_days(a.order),
    ),
    Operation(
        "edit_day",
        "Change a day's date or city",
        EditDay,
        Role.editor,
        True,
        lambda t, a, _: t.edit_day(a.dayIndex, _fields(a, exclude={"dayIndex"})),
    ),
    Operation(
        "add_expense",
        "Add an expense",
        AddExpense,
        Role.editor,
        True,
        lambda t, a, new_id: t.add_expense(Expense(expenseId=new_id("exp"), **a.model_dump())),
    ),
    Operation(
        "edit_expense",
        "Change an expense",
        EditExpense,
        Role.editor,
        True,
        lambda t, a, _: t.edit_expense(a.expenseId, _fields(a, exclude={"expenseId"})),
    ),
    Operation(
        "remove_expense",
        "Remove an expense",
        ExpenseRef,
        Role.editor,
        False,
        lambda t, a, _: t.remove_expense(a.expenseId),
    ),
    Operation(
        "add_member",
        "Invite a member with a role",
        AddMember,
        Role.owner,
        False,
        lambda t, a, _: t.add_member(a.userId, a.role),
    ),
    Operation(
        "change_role",
        "Change a member's role",
        ChangeRole,
        Role.owner,
        False,
        lambda t, a, _: t.change_role(a.userId, a.role),
    ),
    Operation(
        "remove_member",
        "Remove a member",
        MemberRef,
        Role.owner,
        False,
        lambda t, a, _: t.remove_member(a.userId),
    ),
]

REGISTRY: dict[str, Operation[Any]] = {op.name: op for op in _OPERATIONS}


def approver_role(op_name: str | None) -> Role:
    """Who may approve a proposed change: at least an editor, and at least the operation's own role."""
    needed = REGISTRY[op_name].required_role if op_name in REGISTRY else Role.editor
    return max(needed, Role.editor, key=lambda r: r.rank)


def patch_in_words(op: str, args: dict[str, Any]) -> str:
    """A proposed operation as a sentence, for toasts and the session."""
    words = REGISTRY[op].summary if op in REGISTRY else op
    details = ", ".join(f"{k} {v}" for k, v in args.items() if k not in ("stopId", "expenseId"))
    return f"{words}" + (f" ({details})" if details else "") + "."
