"""Use cases on the reviewer's shared suggestions: list them, approve or deny one.

Approving reads the caller's role (their member item, not the whole trip), then claims the suggestion
with one conditional write (pending and unexpired → approved by the caller): the first approval wins
there, and every later one gets ``already_decided`` with the decision, who made it and when, from that
same write, so a loser costs two calls however many approve at once. The winner loads the trip, then
applies exactly the displayed patch through the ops use case, attributed to them with the suggestion as
metadata; the suggestion moves from their claim to ``applied`` in the same atomic write as the trip (or
to ``stale`` when the trip moved on). A claim whose holder died is taken over after a lease. A deny hides
the suggestion from the one who denied it only.
"""

from __future__ import annotations

from dataclasses import dataclass

from tripagent.application.ports import Clock, SuggestionClaim
from tripagent.application.review import SuggestionStore
from tripagent.application.sessions import SessionStore
from tripagent.application.trips import TRIP_NOT_FOUND, TripWorkspace
from tripagent.domain.ops import approver_role, patch_in_words
from tripagent.domain.review import Suggestion
from tripagent.domain.session import Turn, TurnMetadata
from tripagent.domain.trip import Role
from tripagent.errors import (
    AlreadyDecided,
    AppError,
    ClaimLost,
    Forbidden,
    NotFound,
    StalePatch,
    SuggestionExpired,
    ValidationFailed,
    VersionConflict,
)

SUGGESTION_NOT_FOUND = "Suggestion not found."
APPROVERS_ONLY = "Only editors and owners can approve a suggestion."


@dataclass(frozen=True)
class Suggestions:
    store: SuggestionStore
    workspace: TripWorkspace
    sessions: SessionStore
    clock: Clock

    def visible(self, caller: str, trip_id: str) -> list[Suggestion]:
        if self.workspace.trips.role_of(trip_id, caller) is None:
            raise NotFound(TRIP_NOT_FOUND)  # members only: the same 404 as a missing trip
        return self.store.visible(trip_id, caller, self.clock.now_iso())

    def answer(
        self,
        caller: str,
        trip_id: str,
        suggestion_id: str,
        *,
        answer_id: str,
        approved: bool,
        reason: str = "",
    ) -> Suggestion:
        if answer_id != suggestion_id:
            raise ValidationFailed(
                "The answer's id must be the suggestion's.", details=[{"loc": ["body", "id"]}]
            )
        # Two calls decide a loser's answer: the caller's role (not the whole trip), then the claim, which
        # returns the suggestion either way. Only the winner loads the trip.
        role = self.workspace.trips.role_of(trip_id, caller)
        if role is None:
            raise NotFound(TRIP_NOT_FOUND)  # members only: the same 404 as a missing trip
        if not approved:
            denied = self.store.deny(trip_id, suggestion_id, caller)  # for this member only
            if denied is None:
                raise NotFound(SUGGESTION_NOT_FOUND)
            return denied
        if not role.allows(Role.editor):  # every approval needs at least this (approver_role's floor)
            raise Forbidden(APPROVERS_ONLY)
        at = self.clock.now_iso()
        claim = self.store.claim(trip_id, suggestion_id, caller, at)  # the first approval wins here
        if claim is None:
            raise NotFound(SUGGESTION_NOT_FOUND)
        if not claim.won:
            raise decided(self._expired_if_due(claim.suggestion, at))
        return self._apply(caller, claim.suggestion, reason, at)

    def _expired_if_due(self, suggestion: Suggestion, now: str) -> Suggestion:
        """A claim refused because the suggestion is past its expiry settles it as expired (the sweep may
        not have run yet), unless an approver holds it: their approval, begun in time, decides."""
        if suggestion.status not in ("pending", "approved") or suggestion.expiresAt > now:
            return suggestion
        if not self.store.settle(suggestion.tripId, suggestion.suggestionId, "expired", "system", now):
            return self.store.get(suggestion.tripId, suggestion.suggestionId) or suggestion
        return suggestion.model_copy(update={"status": "expired", "decidedBy": "system", "decidedAt": now})

    def _apply(self, caller: str, suggestion: Suggestion, reason: str, at: str) -> Suggestion:
        """Ours to apply: the patch runs with the trip version it names, and the suggestion moves from our
        claim to ``applied`` in the same write as the trip."""
        trip_id, suggestion_id = suggestion.tripId, suggestion.suggestionId
        patch = suggestion.pendingPatch
        try:
            trip = self.workspace.get_trip(caller, trip_id)
            role = trip.role_of(caller)
            if role is None or not role.allows(approver_role(patch.op if patch else None)):
                raise Forbidden(APPROVERS_ONLY)
        except Exception:  # left the trip or lost the role since the check, or the read failed: let go
            self.store.finish(trip_id, suggestion_id, caller, "pending", at)
            raise
        if patch is None:  # nothing to change: approving acknowledges it
            self.store.finish(trip_id, suggestion_id, caller, "applied", at)
            version = trip.version
        else:
            try:
                outcome = self.workspace.apply_operation(
                    caller,
                    trip,
                    patch.op,
                    patch.args,
                    expected_version=patch.expectedVersion,
                    metadata={"via": "suggestion", "suggestionId": suggestion_id},
                    claim=SuggestionClaim(trip_id, suggestion_id, caller, at),
                )
            except ClaimLost:  # our claim outlived its lease and someone else took it over
                raise decided(self.store.get(trip_id, suggestion_id) or suggestion) from None
            except VersionConflict as exc:  # the trip moved on since the suggestion: it no longer applies
                self.store.finish(trip_id, suggestion_id, caller, "stale", at)
                raise StalePatch(
                    "The trip changed since this suggestion; ask the agent again.",
                    extra={"currentVersion": exc.current_version, "expectedVersion": patch.expectedVersion},
                ) from exc
            except Exception:
                self.store.finish(trip_id, suggestion_id, caller, "pending", at)  # let someone try again
                raise
            if not outcome.diff:  # the trip already says what the patch says: nothing to write but ours
                self.store.finish(trip_id, suggestion_id, caller, "applied", at)
            version = outcome.trip.version
        words = patch_in_words(patch.op, patch.args) if patch else "acknowledged"
        self.sessions.append(
            trip_id,
            Turn(
                role="event",
                kind="decision",
                text=f"{caller} approved the suggestion: {words}" + (f" ({reason})" if reason else ""),
                metadata=TurnMetadata(actor=caller, at=at, source="threshold", tripVersion=version),
                data={"suggestionId": suggestion_id, "decision": "applied"},
            ),
            dedupe_key=f"decision:{suggestion_id}",
        )
        return suggestion.model_copy(update={"status": "applied", "decidedBy": caller, "decidedAt": at})


def decided(suggestion: Suggestion) -> AppError:
    """The answer for everyone after the first approval: the decision, who made it and when."""
    if suggestion.status == "expired":
        return SuggestionExpired("The suggestion has expired.", extra={"expiresAt": suggestion.expiresAt})
    if suggestion.status == "stale":
        return StalePatch(
            "The trip changed since this suggestion; ask the agent again.",
            extra={"decision": "stale", "decidedBy": suggestion.decidedBy, "decidedAt": suggestion.decidedAt},
        )
    return AlreadyDecided(
        f"Already {suggestion.status} by {suggestion.decidedBy}.",
        extra={
            "decision": suggestion.status,
            "decidedBy": suggestion.decidedBy,
            "decidedAt": suggestion.decidedAt,
        },
    )


def expire_due(store: SuggestionStore, now: str) -> list[str]:
    """The sweep: every open suggestion past its expiry becomes ``expired`` (and members hear it, through
    the stream). A claim in progress is left to its approver; a reopened one is swept next time."""
    expired = []
    for trip_id, suggestion_id in store.due(now):
        if store.settle(trip_id, suggestion_id, "expired", "system", now):
            expired.append(suggestion_id)
    return expired
