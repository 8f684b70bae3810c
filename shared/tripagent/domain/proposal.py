"""A proposal: one change of the trip that waits for a human (docs/adr/0014-proposals.md).

Two sources make them: the agent's write tools (kind ``approval``: a member asked in the chat) and the
reviewer (kind ``suggestion``: a risk it found). Both are the same aggregate with the same life:

    pending ──claim──▶ claimed ──commit with the trip──▶ applied
       │                  ├── the trip moved on ──────▶ stale
       │                  ├── the change is refused ──▶ failed
       │                  └── anything else ──────────▶ pending (the claim is given back)
       ├── denied (an agent approval answered no)
       └── expired (past ``expiresAt``; also a claim whose holder died, once its lease is over)

``claimed`` is an approver's work in progress, nothing more: the trip has not changed, so clients see it
as ``pending``. ``applied`` is written in the trip's own transaction, so no state ever says applied
without the change in the trip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from tripagent.domain.ops import approver_role
from tripagent.domain.review import PendingPatch, Severity
from tripagent.domain.trip import Role

ProposalKind = Literal["approval", "suggestion"]
ProposalStatus = Literal["pending", "claimed", "applied", "denied", "stale", "expired", "failed"]
ClientStatus = Literal["pending", "applied", "denied", "stale", "expired", "failed"]
CLAIM_LEASE_S = 300  # longer than any function's timeout: a claim older than this belonged to a dead run


class Proposal(BaseModel):
    proposalId: str
    tripId: str
    kind: ProposalKind
    patch: PendingPatch | None  # None: a suggestion with nothing to apply (approving acknowledges it)
    approverRole: Role
    proposedBy: str  # the member the agent answered, or "agent" for the reviewer
    createdAt: str
    expiresAt: str
    status: ProposalStatus = "pending"
    decidedBy: str | None = None
    decidedAt: str | None = None
    failure: str | None = None  # the stable code of the error that made it ``failed``
    # The agent's: the tool call of the assistant message that proposed it.
    toolCallId: str | None = None
    messageId: str | None = None
    # The reviewer's: what it found, and which operations it reviewed.
    severity: Severity = "info"
    confidence: float = 1.0
    reason: str = ""
    suggestion: str = ""
    operationIds: list[str] = Field(default_factory=list)

    @property
    def client_status(self) -> ClientStatus:
        return "pending" if self.status == "claimed" else self.status

    def open_at(self, now: str) -> bool:
        """Still waiting for an answer at ``now`` (ISO): pending (or claimed) and not past its expiry."""
        return self.status in ("pending", "claimed") and now < self.expiresAt


def approver_role_for(patch: PendingPatch | None) -> Role:
    return approver_role(patch.op if patch else None)


@dataclass(frozen=True)
class ClaimOutcome:
    """How an approver's claim ended: ``won``, with the proposal as they now hold it; or lost, with the
    proposal as the winner (or the expiry) left it."""

    won: bool
    proposal: Proposal


class SuggestionView(BaseModel):
    """A suggestion as clients receive it (the list, the answer, the toast's payload)."""

    suggestionId: str
    tripId: str
    status: ClientStatus
    severity: Severity
    confidence: float
    reason: str
    suggestion: str
    pendingPatch: PendingPatch | None
    expiresAt: str
    createdAt: str
    decidedBy: str | None = None
    decidedAt: str | None = None
    operationIds: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, proposal: Proposal) -> SuggestionView:
        claimed = proposal.status == "claimed"  # not decided yet: nobody's name on it
        return cls(
            suggestionId=proposal.proposalId,
            tripId=proposal.tripId,
            status=proposal.client_status,
            severity=proposal.severity,
            confidence=proposal.confidence,
            reason=proposal.reason,
            suggestion=proposal.suggestion,
            pendingPatch=proposal.patch,
            expiresAt=proposal.expiresAt,
            createdAt=proposal.createdAt,
            decidedBy=None if claimed else proposal.decidedBy,
            decidedAt=None if claimed else proposal.decidedAt,
            operationIds=proposal.operationIds,
        )


def same_arguments(proposal: Proposal, arguments: dict[str, Any]) -> bool:
    """The call answered is the call proposed (the client's copy is no proof of what was proposed)."""
    return proposal.patch is not None and proposal.patch.args == arguments
