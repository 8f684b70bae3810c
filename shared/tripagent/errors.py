"""Typed errors. Each carries the stable code of the contract (docs/api.md), and no transport notion:
the HTTP status of each lives at the edge (``entrypoints.http.statuses``), which maps them to
``{error, message, details}`` in one place; event consumers let them raise so that Lambda retries and the
on-failure destination see them.
"""

from __future__ import annotations

from typing import Any, ClassVar


class AppError(Exception):
    """Base of every error the API reports with a stable code."""

    code: ClassVar[str] = "internal_error"

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
    code = "invalid_json"


class Unauthorized(AppError):
    code = "unauthorized"


class Forbidden(AppError):
    code = "forbidden"


class NotFound(AppError):
    code = "not_found"


class UnsupportedMediaType(AppError):
    """A body in a media type the route does not read (the API reads JSON)."""

    code = "unsupported_media_type"


class PayloadTooLarge(AppError):
    code = "payload_too_large"


class ValidationFailed(AppError):
    code = "validation_error"


class RateLimited(AppError):
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after_s: int) -> None:
        super().__init__(message, headers={"Retry-After": str(max(1, retry_after_s))})
        self.retry_after_s = retry_after_s


class BudgetExceeded(RateLimited):
    """The trip's daily token budget is spent: the agent answers this instead of calling the model."""

    code = "budget_exceeded"


class DependencyUnavailable(AppError):
    """A service the request needs (the table, the bus, a queue, the key service) did not answer."""

    code = "dependency_unavailable"

    def __init__(
        self, message: str = "A service this request needs is not answering; try again soon."
    ) -> None:
        super().__init__(message, headers={"Retry-After": "5"})


class StoreBusy(AppError):
    """The table throttled us past our retries: nothing is answered rather than a partial answer."""

    code = "store_busy"

    def __init__(self, message: str, *, retry_after_s: int) -> None:
        super().__init__(message, headers={"Retry-After": str(max(1, retry_after_s))})


class WriteConflict(AppError):
    """Another write to the same trip was in flight (a cancelled transaction): nothing was written."""

    code = "write_conflict"


class AlreadyDecided(AppError):
    """Someone decided first: the answer carries the decision, who made it and when."""

    code = "already_decided"


class StalePatch(AppError):
    code = "stale_patch"


class SuggestionExpired(AppError):
    code = "expired"


class ClaimLost(Exception):
    """The suggestion claimed with a trip's commit was no longer the committer's: nothing was written."""


class ConfigurationError(Exception):
    """Raised at cold start when the environment is missing or invalid: the function must not start."""


class RoutingUnavailable(AppError):
    code = "routing_unavailable"


class NoRoute(AppError):
    code = "no_route"


class VersionConflict(AppError):
    code = "version_conflict"

    def __init__(self, current_version: int) -> None:
        super().__init__(
            f"The trip has changed: it is at version {current_version}. Reload it and try again.",
            extra={"currentVersion": current_version},
        )
        self.current_version = current_version


class AiNotConfigured(AppError):
    code = "ai_not_configured"


class AiUnavailable(AppError):
    """The model provider could not answer (unreachable, overloaded, timed out)."""

    code = "ai_unavailable"


class AiBadResponse(AiUnavailable):
    """The provider answered something we cannot use, or refused our credentials."""


class AiAuthFailed(AiBadResponse):
    pass


class AiTimeout(AiUnavailable):
    pass


class AiRateLimited(RateLimited):
    """The provider is rate-limiting us; ``Retry-After`` passes its hint on."""


class NeedsMoreInfo(AppError):
    code = "needs_more_info"


class PlaceNotFound(AppError):
    code = "place_not_found"


class AmbiguousPlace(AppError):
    code = "ambiguous_place"


class OutOfCoverage(AppError):
    code = "out_of_coverage"


class AiUnparseable(AppError):
    code = "ai_unparseable"


class GeocoderUnavailable(AppError):
    """A remote geocoder could not answer."""

    code = "geocoding_unavailable"


class RequestInProgress(AppError):
    """A request with the same Idempotency-Key is still being served."""

    code = "request_in_progress"


class WeatherUnavailable(AppError):
    """The weather service could not answer."""

    code = "weather_unavailable"
