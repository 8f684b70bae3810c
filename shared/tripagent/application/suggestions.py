"""Use cases on the reviewer's shared suggestions: list them, approve or deny one.

Approving applies exactly the displayed patch through the ops use case, attributed to the approving
member with the suggestion as metadata. The suggestion moves from pending to applied in the same atomic
write as the trip: the first approval wins, every later one gets ``already_decided`` with the decision,
who made it and when. A deny hides the suggestion from the one who denied it only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tripagent.application.ports import Clock, SuggestionClaim
from tripagent.application.review import SuggestionStore, patch_in_words
from tripagent.application.sessions import SessionStore
from tripagent.application.trips import TripWorkspace
from tripagent.domain.ops import REGISTRY
from tripagent.domain.review import Suggestion
from tripagent.domain.session import Turn, TurnMetadata
from tripagent.domain.trip import Role
from tripagent.errors import (
    AlreadyDecided,
    ClaimLost,
    CommitContention,
    Forbidden,
    NotFound,
    StalePatch,
    SuggestionExpired,
    ValidationFailed,
    VersionConflict,
)

CONTENTION_RETRIES = 5


@dataclass(frozen=True)
class Suggestions:
    store: SuggestionStore
    workspace: TripWorkspace
    sessions: SessionStore
    clock: Clock

    def visible(self, caller: str, trip_id: str) -> list[Suggestion]:
        self.workspace.get_trip(caller, trip_id)  # members only: the same 404 as a missing trip
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
        trip = self.workspace.get_trip(caller, trip_id)
        suggestion = self.store.get(trip_id, suggestion_id)
        if suggestion is None:
            raise NotFound("Suggestion not found.")
        if not approved:
            self.store.deny(trip_id, suggestion_id, caller)  # for this member only
            return suggestion
        role = trip.role_of(caller)
        needed = (
            REGISTRY[suggestion.pendingPatch.op].required_role if suggestion.pendingPatch else Role.editor
        )
        if role is None or not role.allows(max(needed, Role.editor, key=lambda r: r.rank)):
            raise Forbidden("Only editors and owners can approve a suggestion.")
        self._still_open(suggestion)
        for attempt in range(CONTENTION_RETRIES):
            try:
                return self._apply(caller, suggestion, reason)
            except CommitContention:
                time.sleep(0.01 * (attempt + 1))
                self._still_open(self.store.get(trip_id, suggestion_id) or suggestion)
        raise AlreadyDecided("The suggestion is being decided by someone else; reload it.")

    def _still_open(self, suggestion: Suggestion) -> None:
        now = self.clock.now_iso()
        if suggestion.status == "pending" and suggestion.expiresAt <= now:
            self.store.settle(suggestion.tripId, suggestion.suggestionId, "expired", "system", now)
            raise SuggestionExpired("The suggestion has expired.", extra={"expiresAt": suggestion.expiresAt})
        if suggestion.status == "expired":
            raise SuggestionExpired("The suggestion has expired.", extra={"expiresAt": suggestion.expiresAt})
        if suggestion.status != "pending":
            raise decided(suggestion)

    def _apply(self, caller: str, suggestion: Suggestion, reason: str) -> Suggestion:
        trip_id, suggestion_id = suggestion.tripId, suggestion.suggestionId
        at = self.clock.now_iso()
        patch = suggestion.pendingPatch
        claim = SuggestionClaim(trip_id, suggestion_id, caller, at)
        if patch is None:  # nothing to change: approving acknowledges it
            if not self.store.settle(trip_id, suggestion_id, "applied", caller, at):
                raise decided(self.store.get(trip_id, suggestion_id) or suggestion)
            version = self.workspace.get_trip(caller, trip_id).version
        else:
            try:
                outcome = self.workspace.run_operation(
                    caller,
                    trip_id,
                    patch.op,
                    patch.args,
                    expected_version=patch.expectedVersion,
                    metadata={"via": "suggestion", "suggestionId": suggestion_id},
                    claim=claim,
                )
            except ClaimLost:
                raise decided(self.store.get(trip_id, suggestion_id) or suggestion) from None
            except VersionConflict as exc:
                # The trip moved on since the suggestion: it no longer applies, unless someone else's
                # approval is what moved it (then theirs is the decision).
                if self.store.settle(trip_id, suggestion_id, "stale", caller, at):
                    raise StalePatch(
                        "The trip changed since this suggestion; ask the agent again.",
                        extra={
                            "currentVersion": exc.current_version,
                            "expectedVersion": patch.expectedVersion,
                        },
                    ) from exc
                raise decided(self.store.get(trip_id, suggestion_id) or suggestion) from exc
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
        return self.store.get(trip_id, suggestion_id) or suggestion


def decided(suggestion: Suggestion) -> AlreadyDecided | StalePatch:
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
