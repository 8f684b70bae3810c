"""Human approval of the agent's write tools, decided on the server's own record.

A write tool call is stored as a pending approval (id, tool call, input digest, trip version, expiry,
the role it needs); nothing changes until a member with that role answers. An approval id we did not
issue, an input that differs, an expired approval or an approver without edit rights is refused (a
viewer's approval counts as a denial); the first answer wins.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from tripagent.application.sessions import SessionStore
from tripagent.application.trips import TripWorkspace
from tripagent.domain.ops import approver_role
from tripagent.domain.session import Turn, TurnMetadata
from tripagent.errors import AppError

APPROVAL_TTL_S = 15 * 60


class PendingApproval(BaseModel):
    approvalId: str
    tripId: str
    toolCallId: str
    toolName: str
    input: dict[str, Any]
    digest: str
    tripVersion: int
    expiresAt: int
    requestedBy: str
    messageId: str


class ApprovalStore(Protocol):
    def put(self, approval: PendingApproval) -> None: ...

    def get(self, trip_id: str, approval_id: str) -> tuple[PendingApproval, str] | None: ...

    def decide(self, trip_id: str, approval_id: str, status: str, by: str) -> bool: ...

    def pending(self, trip_id: str) -> list[PendingApproval]:
        """The trip's approvals still waiting for an answer."""
        ...

    def all(self, trip_id: str) -> dict[str, tuple[PendingApproval, str]]:
        """Every approval of the trip with its status, by approval id."""
        ...

    def failed(self, trip_id: str, approval_id: str, reason: str) -> None:
        """An approved call that could not be applied (approved → failed), so that history says so."""
        ...


def digest(arguments: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(arguments, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def decision_turn(
    pending: PendingApproval, decision: str, by: str, at: str, trip_version: int, *, why: str = ""
) -> Turn:
    """An approval's outcome, as a turn of the shared session."""
    because = f" ({why})" if why else ""
    return Turn(
        role="event",
        kind="decision",
        text=f"{by} {decision} the proposal {pending.toolName} {json.dumps(pending.input)}{because}",
        metadata=TurnMetadata(actor=by, at=at, source="chat", tripVersion=trip_version),
        data={"approvalId": pending.approvalId, "toolCallId": pending.toolCallId, "decision": decision},
    )


@dataclass(frozen=True, slots=True)
class ApprovalOutcome:
    toolCallId: str
    result: Literal["applied", "denied", "refused", "failed"]
    detail: dict[str, Any]


@dataclass(frozen=True)
class Approvals:
    store: ApprovalStore
    workspace: TripWorkspace
    sessions: SessionStore | None = None  # where decisions are recorded as turns

    def _record(self, pending: PendingApproval, decision: str, by: str, version: int, why: str = "") -> None:
        if self.sessions is not None:
            at = self.workspace.clock.now_iso()
            self.sessions.append(pending.tripId, decision_turn(pending, decision, by, at, version, why=why))

    def answer(  # noqa: PLR0917
        self,
        approver: str,
        trip_id: str,
        approval_id: str,
        tool_call_id: str,
        arguments: dict[str, Any],
        approved: bool,
        *,
        now: float,
    ) -> ApprovalOutcome:
        found = self.store.get(trip_id, approval_id)
        if found is None:
            return ApprovalOutcome(tool_call_id, "refused", {"reason": "unknown approval"})
        pending, status = found
        if status != "pending":
            return ApprovalOutcome(pending.toolCallId, "refused", {"reason": f"already {status}"})
        if pending.toolCallId != tool_call_id or digest(arguments) != pending.digest:
            return ApprovalOutcome(
                pending.toolCallId, "refused", {"reason": "the call differs from the one proposed"}
            )
        if now > pending.expiresAt:
            self.store.decide(trip_id, approval_id, "expired", approver)
            return ApprovalOutcome(pending.toolCallId, "refused", {"reason": "expired"})
        trip = self.workspace.get_trip(approver, trip_id)
        role = trip.role_of(approver)
        if not approved or role is None or not role.allows(approver_role(pending.toolName)):
            # A viewer's approval counts as a denial: the call does not run.
            won = self.store.decide(trip_id, approval_id, "denied", approver)
            if won:
                why = "answered no" if not approved else "no edit rights"
                self._record(pending, "denied", approver, trip.version, why)
            return ApprovalOutcome(pending.toolCallId, "denied" if won else "refused", {"by": approver})
        if not self.store.decide(trip_id, approval_id, "approved", approver):
            return ApprovalOutcome(pending.toolCallId, "refused", {"reason": "already decided"})
        version = trip.version  # apply_operation moves the trip on in place, even when its commit fails
        try:
            outcome = self.workspace.apply_operation(
                approver,
                trip,
                pending.toolName,
                pending.input,
                expected_version=pending.tripVersion,
                metadata={"via": "agent", "approvalId": approval_id, "proposedTo": pending.requestedBy},
            )
        except AppError as exc:
            self.store.failed(trip_id, approval_id, exc.code)
            self._record(pending, "approved", approver, version, f"but it failed: {exc.code}")
            return ApprovalOutcome(pending.toolCallId, "failed", {"error": exc.code, "message": exc.message})
        self._record(pending, "approved", approver, outcome.trip.version, "applied")
        return ApprovalOutcome(
            pending.toolCallId,
            "applied",
            {"applied": True, "tripVersion": outcome.trip.version, "approvedBy": approver},
        )
