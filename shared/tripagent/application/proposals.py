"""The one way a proposal (an agent approval or a reviewer suggestion) is decided and applied.

The first approval wins with one conditional write (pending and unexpired → claimed by the approver). The
winner then applies exactly the proposed patch with the trip version it names, and the proposal moves from
their claim to ``applied`` in the trip's own transaction: if the claim is no longer theirs, nothing is
written. Any failure before that commit gives the claim back or settles it — ``stale`` when the trip
moved on, ``failed`` when the change itself is refused, ``pending`` for anything else (a crash, a
throttled write) — so a proposal never reads as applied without its change in the trip. A claim whose
holder died stays ``claimed`` (shown as pending) until its lease ends; then anyone may take it over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from tripagent.application.ports import Clock, ProposalClaim
from tripagent.application.trips import TripWorkspace
from tripagent.domain.proposal import ClaimOutcome, Proposal, ProposalKind
from tripagent.domain.trip import Role
from tripagent.errors import (
    AlreadyDecided,
    AppError,
    ClaimLost,
    Forbidden,
    NotFound,
    StalePatch,
    SuggestionExpired,
    VersionConflict,
    WriteConflict,
)
from tripagent.observability import logger

APPROVERS_ONLY = "Only editors and owners can approve this change."


class ProposalStore(Protocol):
    def create(self, proposal: Proposal) -> bool:
        """Store a new proposal; ``False`` when one with that id exists already."""
        ...

    def get(self, trip_id: str, proposal_id: str) -> Proposal | None: ...

    def of_trip(self, trip_id: str, kind: ProposalKind) -> dict[str, Proposal]:
        """Every proposal of that kind the trip keeps (decided ones for a week), by id: one query."""
        ...

    def visible(self, trip_id: str, user_id: str, now: str) -> list[Proposal]:
        """Open suggestions (pending or claimed, unexpired) that ``user_id`` has not hidden, newest first."""
        ...

    def hide(self, trip_id: str, proposal_id: str, user_id: str) -> Proposal | None:
        """Hide a suggestion from ``user_id`` only; ``None`` when there is no such suggestion."""
        ...

    def due(self, now: str) -> list[tuple[str, str]]:
        """(trip id, proposal id) of the open proposals past their expiry, oldest first."""
        ...

    def settle(self, trip_id: str, proposal_id: str, status: str, by: str, at: str) -> bool:
        """pending (or a claim past its lease) → ``status`` (denied, expired); ``False`` when it was decided
        or is held."""
        ...

    def claim(
        self, trip_id: str, proposal_id: str, by: str, at: str, kind: ProposalKind
    ) -> ClaimOutcome | None:
        """pending and unexpired (or a claim past its lease) → claimed by ``by``; ``None``: no proposal of
        that kind (an agent approval is not answered as a suggestion, nor the reverse)."""
        ...

    def finish(
        self, trip_id: str, proposal_id: str, by: str, status: str, at: str, *, failure: str | None = None
    ) -> None:
        """``by``'s claim → ``status`` (pending gives it back); nothing when the claim is not theirs."""
        ...


@dataclass(frozen=True)
class Applied:
    proposal: Proposal
    trip_version: int


@dataclass(frozen=True)
class ProposalDecider:
    store: ProposalStore
    workspace: TripWorkspace
    clock: Clock

    def role_of(self, trip_id: str, caller: str) -> Role | None:
        return self.workspace.trips.role_of(trip_id, caller)  # the member item, not the whole trip

    def claim(  # noqa: PLR0917
        self, caller: str, trip_id: str, proposal_id: str, at: str, kind: ProposalKind, not_found: str
    ) -> Proposal:
        """The first approval wins; every later one gets the decision (``decided``) from the same write."""
        outcome = self.store.claim(trip_id, proposal_id, caller, at, kind)
        if outcome is None:
            raise NotFound(not_found)
        if not outcome.won:
            raise decided(self.expired_if_due(outcome.proposal, at))
        return outcome.proposal

    def apply(self, caller: str, proposal: Proposal, at: str, metadata: dict[str, Any]) -> Applied:
        """Ours to apply (we hold the claim): the patch, and our claim → applied, in one transaction."""
        trip_id, proposal_id = proposal.tripId, proposal.proposalId

        def finish_ours(status: str, failure: str | None = None) -> None:
            """Our claim → ``status`` (pending gives it back); never masking the first failure: should this
            write fail too, the lease frees the claim in the end."""
            try:
                self.store.finish(trip_id, proposal_id, caller, status, at, failure=failure)
            except Exception:
                logger.exception("could not finish a claim", extra={"proposalId": proposal_id})

        try:
            trip = self.workspace.get_trip(caller, trip_id)
            role = trip.role_of(caller)
            if role is None or not role.allows(proposal.approverRole):
                raise Forbidden(APPROVERS_ONLY)
        except BaseException:  # left the trip or lost the role since the check, or the read failed: let go
            finish_ours("pending")
            raise
        patch = proposal.patch
        if patch is None:  # nothing to change: approving acknowledges it
            finish_ours("applied")
            return Applied(_decided(proposal, "applied", caller, at), trip.version)
        try:
            outcome = self.workspace.apply_operation(
                caller,
                trip,
                patch.op,
                patch.args,
                expected_version=patch.expectedVersion,
                metadata=metadata,
                claim=ProposalClaim(trip_id, proposal_id, caller, at),
            )
        except ClaimLost:  # our claim outlived its lease and someone else took it over
            raise decided(self.store.get(trip_id, proposal_id) or proposal) from None
        except VersionConflict as exc:  # the trip moved on since the proposal: it no longer applies
            finish_ours("stale")
            raise StalePatch(
                "The trip changed since this was proposed; ask the agent again.",
                extra={"currentVersion": exc.current_version, "expectedVersion": patch.expectedVersion},
            ) from exc
        except WriteConflict:  # another write was in flight: nothing happened, someone may try again
            finish_ours("pending")
            raise
        except AppError as exc:  # the change itself is refused (invalid now, a rule of the trip)
            finish_ours("failed", failure=exc.code)
            raise
        except BaseException:  # a crash, a throttled or unreachable table: nothing was written
            finish_ours("pending")
            raise
        if not outcome.diff:  # the trip already says what the patch says: nothing to write but ours
            finish_ours("applied")
        return Applied(_decided(proposal, "applied", caller, at), outcome.trip.version)

    def expired_if_due(self, proposal: Proposal, now: str) -> Proposal:
        """A claim refused because the proposal is past its expiry settles it as expired (the sweep may
        not have run yet), unless an approver holds it: their approval, begun in time, decides."""
        if proposal.status not in ("pending", "claimed") or proposal.expiresAt > now:
            return proposal
        if not self.store.settle(proposal.tripId, proposal.proposalId, "expired", "system", now):
            return self.store.get(proposal.tripId, proposal.proposalId) or proposal
        return _decided(proposal, "expired", "system", now)


def _decided(proposal: Proposal, status: str, by: str, at: str) -> Proposal:
    return proposal.model_copy(update={"status": status, "decidedBy": by, "decidedAt": at})


def decided(proposal: Proposal) -> AppError:
    """The answer for everyone after the first decision: what it was, who made it and when."""
    if proposal.status == "expired":
        return SuggestionExpired("This has expired.", extra={"expiresAt": proposal.expiresAt})
    if proposal.status == "stale":
        return StalePatch(
            "The trip changed since this was proposed; ask the agent again.",
            extra={"decision": "stale", "decidedBy": proposal.decidedBy, "decidedAt": proposal.decidedAt},
        )
    if proposal.status in ("pending", "claimed"):  # held by someone else's approval in progress
        return AlreadyDecided(
            "Someone else is approving this right now.",
            extra={"decision": "pending", "decidedBy": None, "decidedAt": None},
        )
    return AlreadyDecided(
        f"Already {proposal.status} by {proposal.decidedBy}.",
        extra={"decision": proposal.status, "decidedBy": proposal.decidedBy, "decidedAt": proposal.decidedAt},
    )


def expire_due(store: ProposalStore, now: str) -> list[str]:
    """The sweep: every open proposal past its expiry becomes ``expired`` (and members hear it, through
    the stream). A claim in progress is left to its approver; a reopened one is swept next time."""
    expired = []
    for trip_id, proposal_id in store.due(now):
        if store.settle(trip_id, proposal_id, "expired", "system", now):
            expired.append(proposal_id)
    return expired
