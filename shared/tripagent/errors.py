"""Typed errors. Each carries the stable code and HTTP status of the contract (docs/api.md).

The HTTP layer maps them to ``{error, message, details}`` in one place; event consumers let them raise
so that Lambda retries and the on-failure destination see them.
"""

from __future__ import annotations

from typing import Any, ClassVar


class AppError(Exception):
    """Base of every error the API reports with a stable code."""

    code: ClassVar[str] = "internal_error"
    status: ClassVar[int] = 500

    def __init__(
        self,
        message: str,
        *,
        details: list[Any] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or []
        self.headers = headers or {}
        # Top-level fields the contract adds for some codes (for example ``currentVersion``).
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "details": self.details, **self.extra}


class InvalidJson(AppError):
    code, status = "invalid_json", 400


class Unauthorized(AppError):
    code, status = "unauthorized", 401


class Forbidden(AppError):
    code, status = "forbidden", 403


class NotFound(AppError):
    code, status = "not_found", 404


class PayloadTooLarge(AppError):
    code, status = "payload_too_large", 413


class ValidationFailed(AppError):
    code, status = "validation_error", 422


class RateLimited(AppError):
    code, status = "rate_limited", 429

    def __init__(self, message: str, *, retry_after_s: int) -> None:
        super().__init__(message, headers={"Retry-After": str(max(1, retry_after_s))})
        self.retry_after_s = retry_after_s


class BudgetExceeded(RateLimited):
    """The trip's daily token budget is spent: the agent answers this instead of calling the model."""

    code = "budget_exceeded"


class WriteConflict(AppError):
    """Another write to the same trip was in flight (a cancelled transaction): nothing was written."""

    code, status = "write_conflict", 409


class AlreadyDecided(AppError):
    """Someone decided first: the answer carries the decision, who made it and when."""

    code, status = "already_decided", 409


class StalePatch(AppError):
    code, status = "stale_patch", 409


class SuggestionExpired(AppError):
    code, status = "expired", 409


class ClaimLost(Exception):
    """The suggestion claimed with a trip's commit was no longer the committer's: nothing was written."""


class ConfigurationError(Exception):
    """Raised at cold start when the environment is missing or invalid: the function must not start."""


class RoutingUnavailable(AppError):
    code, status = "routing_unavailable", 503


class NoRoute(AppError):
    code, status = "no_route", 422


class VersionConflict(AppError):
    code, status = "version_conflict", 409

    def __init__(self, current_version: int) -> None:
        super().__init__(
            f"The trip has changed: it is at version {current_version}. Reload it and try again.",
            extra={"currentVersion": current_version},
        )
        self.current_version = current_version


class AiNotConfigured(AppError):
    code, status = "ai_not_configured", 422


class AiUnavailable(AppError):
    """The model provider could not answer (unreachable, overloaded, timed out)."""

    code, status = "ai_unavailable", 503


class AiBadResponse(AiUnavailable):
    """The provider answered something we cannot use, or refused our credentials."""

    status = 502


class AiAuthFailed(AiBadResponse):
    pass


class AiTimeout(AiUnavailable):
    pass


class AiRateLimited(RateLimited):
    """The provider is rate-limiting us; ``Retry-After`` passes its hint on."""


class NeedsMoreInfo(AppError):
    code, status = "needs_more_info", 422


class PlaceNotFound(AppError):
    code, status = "place_not_found", 422


class AmbiguousPlace(AppError):
    code, status = "ambiguous_place", 422


class OutOfCoverage(AppError):
    code, status = "out_of_coverage", 422


class AiUnparseable(AppError):
    code, status = "ai_unparseable", 422
