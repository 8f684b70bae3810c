"""The reviewer's shared suggestions over HTTP (SuggestionsFunction): list them, approve or deny one."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, ConfigDict, Field

from tripagent.domain.proposal import SuggestionView
from tripagent.entrypoints.http.api import current_caller

router = Router()


class SuggestionsResponse(BaseModel):
    suggestions: list[SuggestionView]


class SuggestionAnswer(BaseModel):
    """The same shape as an AI SDK tool approval."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=64, description="The suggestion's id (must match the path).")
    approved: bool
    reason: str | None = Field(None, max_length=500)


class SuggestionResponse(BaseModel):
    suggestion: SuggestionView


@router.get(
    "/trips/<tripId>/agent/suggestions",
    summary="Pending suggestions of the reviewer, minus those the caller denied",
    tags=["agent"],
)
def list_suggestions(tripId: str) -> SuggestionsResponse:  # noqa: N803
    from tripagent.bootstrap import suggestions

    return SuggestionsResponse(suggestions=suggestions().visible(current_caller(router).user_id, tripId))


@router.post(
    "/trips/<tripId>/agent/suggestions/<suggestionId>/approve",
    summary="Approve (apply the patch, first approval wins) or deny (hide it for the caller) a suggestion",
    tags=["agent"],
)
def answer_suggestion(tripId: str, suggestionId: str, body: SuggestionAnswer) -> SuggestionResponse:  # noqa: N803
    from tripagent.bootstrap import suggestions

    suggestion = suggestions().answer(
        current_caller(router).user_id,
        tripId,
        suggestionId,
        answer_id=body.id,
        approved=body.approved,
        reason=body.reason or "",
    )
    return SuggestionResponse(suggestion=suggestion)
