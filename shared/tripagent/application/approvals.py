"""Human approval of the agent's write tools, decided on the server's own record.

A write tool call is stored as a proposal of kind ``approval`` (``domain/proposal.py``): the operation
and its arguments, the trip version, the role that may approve it, its expiry. Nothing changes until a
member with that role answers, and the approval that wins applies the change in the trip's own
transaction (``application/proposals.py``), exactly as a reviewer suggestion does. An id we did not issue,
a call that differs from the one proposed, or an expired proposal is refused; a member without the
role, or an answer of no, denies it (for everyone: the call does not run); the first answer wins.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Literal

from tripagent.application.llm import ToolCall
from tripagent.application.proposals import ProposalDecider
from tripagent.application.sessions import SessionStore
from tripagent.domain.proposal import Proposal, approver_role_for, same_arguments
from tripagent.domain.review import PendingPatch
from tripagent.domain.session import Turn, TurnMetadata
from tripagent.domain.times import iso, parse_iso
from tripagent.domain.trip import Trip
from tripagent.errors import AppError, StalePatch

APPROVAL_TTL = dt.timedelta(minutes=15)


def decision_turn(
    proposal: Proposal, decision: str, by: str, at: str, trip_version: int, *, why: str = "", reason: str = ""
) -> Turn:
    """An approval's outcome, as a turn of the shared session."""
    because = f" ({why})" if why else ""
    patch = proposal.patch
    call = f"{patch.op} {json.dumps(patch.args)}" if patch else ""
    return Turn(
        role="event",
        kind="decision",
        text=f"{by} {decision} the proposal {call}{because}",
        metadata=TurnMetadata(actor=by, at=at, source="chat", tripVersion=trip_version),
        data={
            "approvalId": proposal.proposalId,
            "toolCallId": proposal.toolCallId,
            "decision": decision,
            "op": patch.op if patch else None,
            "args": patch.args if patch else {},
            "reason": reason,
        },
    )


@dataclass(frozen=True, slots=True)
class ApprovalOutcome:
    toolCallId: str
    result: Literal["applied", "denied", "refused", "failed"]
    detail: dict[str, Any]


@dataclass(frozen=True)
class Approvals:
    decider: ProposalDecider
    sessions: SessionStore | None = None  # where decisions are recorded as turns

    def _record(  # noqa: PLR0917
        self, proposal: Proposal, decision: str, by: str, version: int, why: str = "", reason: str = ""
    ) -> None:
        if self.sessions is not None:
            at = self.decider.clock.now_iso()
            turn = decision_turn(proposal, decision, by, at, version, why=why, reason=reason)
            self.sessions.append(proposal.tripId, turn)

    def propose(self, trip: Trip, call: ToolCall, *, requested_by: str, message_id: str) -> Proposal:
        """Keep a write tool call as a pending approval for the trip as it is: nothing changes until a
        member answers."""
        now = self.decider.clock.now_iso()
        patch = PendingPatch(op=call.name, args=call.arguments, expectedVersion=trip.version)
        proposal = Proposal(
            proposalId=self.decider.workspace.new_id("apr"),
            tripId=trip.tripId,
            kind="approval",
            patch=patch,
            approverRole=approver_role_for(patch),
            proposedBy=requested_by,
            createdAt=now,
            expiresAt=iso(parse_iso(now) + APPROVAL_TTL),
            toolCallId=call.id,
            messageId=message_id,
        )
        self.decider.store.create(proposal)
        return proposal

    def deny_open(self, caller: str, trip_id: str, trip_version: int, why: str) -> None:
        """Every approval still open on the trip → denied (a new message moves the conversation on)."""
        at = self.decider.clock.now_iso()
        for proposal in self.decider.store.of_trip(trip_id, "approval").values():
            if proposal.status == "pending" and self.decider.store.settle(
                trip_id, proposal.proposalId, "denied", caller, at
            ):
                self._record(proposal, "denied", caller, trip_version, why)

    def answer(  # noqa: PLR0917
        self,
        approver: str,
        trip_id: str,
        approval_id: str,
        tool_call_id: str,
        arguments: dict[str, Any],
        approved: bool,
        *,
        reason: str = "",
    ) -> ApprovalOutcome:
        """Decide on the stored proposal. A denial's ``reason`` goes into the session, where the agent
        reads it on its next turn."""
        store = self.decider.store
        at = self.decider.clock.now_iso()
        proposal = store.get(trip_id, approval_id)
        if proposal is None or proposal.kind != "approval":
            return ApprovalOutcome(tool_call_id, "refused", {"reason": "unknown approval"})
        call_id = proposal.toolCallId or tool_call_id
        if proposal.status == "applied":  # someone approved it first: the change is in the trip
            detail = {"applied": True, "approvedBy": proposal.decidedBy, "alreadyDecided": True}
            return ApprovalOutcome(call_id, "applied", detail)
        if proposal.status not in ("pending", "claimed"):  # a claim may have lapsed: the claim decides
            return ApprovalOutcome(call_id, "refused", {"reason": f"already {proposal.client_status}"})
        if proposal.toolCallId != tool_call_id or not same_arguments(proposal, arguments):
            return ApprovalOutcome(call_id, "refused", {"reason": "the call differs from the one proposed"})
        if not proposal.open_at(at):
            store.settle(trip_id, approval_id, "expired", "system", at)
            return ApprovalOutcome(call_id, "refused", {"reason": "expired"})
        role = self.decider.role_of(trip_id, approver)
        if role is None:
            return ApprovalOutcome(call_id, "refused", {"reason": "not a member of this trip"})
        if not approved or not role.allows(proposal.approverRole):
            # A viewer's approval counts as a denial: the call does not run.
            won = store.settle(trip_id, approval_id, "denied", approver, at)
            if won:
                why = "answered no" if not approved else "no edit rights"
                self._record(
                    proposal,
                    "denied",
                    approver,
                    proposal.patch.expectedVersion if proposal.patch else 0,
                    f"{why}: {reason}" if reason and not approved else why,
                    reason=reason if not approved else "",
                )
            return ApprovalOutcome(call_id, "denied" if won else "refused", {"by": approver})
        try:
            claimed = self.decider.claim(approver, trip_id, approval_id, at, "approval", "unknown approval")
        except AppError as exc:  # someone else decided or holds it: theirs to record
            return ApprovalOutcome(call_id, "refused", {"reason": exc.message})
        metadata = {"via": "agent", "approvalId": approval_id, "proposedTo": proposal.proposedBy}
        try:
            applied = self.decider.apply(approver, claimed, at, metadata)
        except StalePatch as exc:
            version = int(exc.extra.get("currentVersion") or _proposed_at(proposal))
            self._record(proposal, "approved", approver, version, "but the trip had changed")
            return ApprovalOutcome(call_id, "failed", {"error": exc.code, "message": exc.message})
        except AppError as exc:
            current = store.get(trip_id, approval_id)
            if current is not None and current.status == "failed":  # ours, and refused: say so once
                why = f"but it failed: {exc.code}"
                self._record(proposal, "approved", approver, _proposed_at(proposal), why)
                return ApprovalOutcome(call_id, "failed", {"error": exc.code, "message": exc.message})
            return ApprovalOutcome(call_id, "refused", {"reason": exc.message})
        self._record(proposal, "approved", approver, applied.trip_version, "applied")
        return ApprovalOutcome(
            call_id,
            "applied",
            {"applied": True, "tripVersion": applied.trip_version, "approvedBy": approver},
        )


def _proposed_at(proposal: Proposal) -> int:
    """The trip version the proposal was made at (the trip has not moved on through it)."""
    return proposal.patch.expectedVersion if proposal.patch else 0
