"""Use cases on the reviewer's shared suggestions: list them, approve or deny one.

A suggestion is a proposal (``application/proposals.py``): approving reads the caller's role (their
member item, not the whole trip), then claims it with one conditional write, so a loser costs two calls
however many approve at once; the winner applies exactly the displayed patch, attributed to them with the
suggestion as metadata, and the suggestion becomes ``applied`` in the trip's own transaction. A deny
hides the suggestion from the one who denied it only.
"""

from __future__ import annotations

from dataclasses import dataclass

from tripagent.application.ports import Clock
from tripagent.application.proposals import APPROVERS_ONLY, ProposalDecider, ProposalStore
from tripagent.application.sessions import SessionStore
from tripagent.application.trips import TRIP_NOT_FOUND
from tripagent.domain.ops import patch_in_words
from tripagent.domain.proposal import SuggestionView
from tripagent.domain.session import Turn, TurnMetadata
from tripagent.domain.trip import Role
from tripagent.errors import Forbidden, NotFound, ValidationFailed

SUGGESTION_NOT_FOUND = "Suggestion not found."


@dataclass(frozen=True)
class Suggestions:
    store: ProposalStore
    decider: ProposalDecider
    sessions: SessionStore
    clock: Clock

    def visible(self, caller: str, trip_id: str) -> list[SuggestionView]:
        if self.decider.role_of(trip_id, caller) is None:
            raise NotFound(TRIP_NOT_FOUND)  # members only: the same 404 as a missing trip
        return [SuggestionView.of(p) for p in self.store.visible(trip_id, caller, self.clock.now_iso())]

    def answer(
        self,
        caller: str,
        trip_id: str,
        suggestion_id: str,
        *,
        answer_id: str,
        approved: bool,
        reason: str = "",
    ) -> SuggestionView:
        if answer_id != suggestion_id:
            raise ValidationFailed(
                "The answer's id must be the suggestion's.", details=[{"loc": ["body", "id"]}]
            )
        role = self.decider.role_of(trip_id, caller)
        if role is None:
            raise NotFound(TRIP_NOT_FOUND)  # members only: the same 404 as a missing trip
        if not approved:
            hidden = self.store.hide(trip_id, suggestion_id, caller)  # for this member only
            if hidden is None:
                raise NotFound(SUGGESTION_NOT_FOUND)
            return SuggestionView.of(hidden)
        if not role.allows(Role.editor):  # every approval needs at least this (approver_role's floor)
            raise Forbidden(APPROVERS_ONLY)
        at = self.clock.now_iso()
        claimed = self.decider.claim(caller, trip_id, suggestion_id, at, "suggestion", SUGGESTION_NOT_FOUND)
        applied = self.decider.apply(
            caller, claimed, at, {"via": "suggestion", "suggestionId": suggestion_id}
        )
        patch = claimed.patch
        words = patch_in_words(patch.op, patch.args) if patch else "acknowledged"
        self.sessions.append(
            trip_id,
            Turn(
                role="event",
                kind="decision",
                text=f"{caller} approved the suggestion: {words}" + (f" ({reason})" if reason else ""),
                metadata=TurnMetadata(
                    actor=caller, at=at, source="threshold", tripVersion=applied.trip_version
                ),
                data={"suggestionId": suggestion_id, "decision": "applied"},
            ),
            dedupe_key=f"decision:{suggestion_id}",
        )
        return SuggestionView.of(applied.proposal)
