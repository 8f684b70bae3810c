"""The HTTP status of each typed error: the one place the contract's codes meet HTTP (docs/api.md).

An error class not listed takes the status of its nearest listed base, so a new subclass cannot be
answered with a status nobody chose; ``AppError`` itself is a 500.
"""

from __future__ import annotations

from http import HTTPStatus

from tripagent import errors as e

STATUS_OF: dict[type[e.AppError], int] = {
    e.AppError: HTTPStatus.INTERNAL_SERVER_ERROR,
    e.InvalidJson: HTTPStatus.BAD_REQUEST,
    e.Unauthorized: HTTPStatus.UNAUTHORIZED,
    e.Forbidden: HTTPStatus.FORBIDDEN,
    e.NotFound: HTTPStatus.NOT_FOUND,
    e.PayloadTooLarge: HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
    e.UnsupportedMediaType: HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
    e.ValidationFailed: HTTPStatus.UNPROCESSABLE_ENTITY,
    e.RateLimited: HTTPStatus.TOO_MANY_REQUESTS,
    e.StoreBusy: HTTPStatus.SERVICE_UNAVAILABLE,
    e.DependencyUnavailable: HTTPStatus.SERVICE_UNAVAILABLE,
    e.WriteConflict: HTTPStatus.CONFLICT,
    e.AlreadyDecided: HTTPStatus.CONFLICT,
    e.StalePatch: HTTPStatus.CONFLICT,
    e.SuggestionExpired: HTTPStatus.CONFLICT,
    e.VersionConflict: HTTPStatus.CONFLICT,
    e.RoutingUnavailable: HTTPStatus.SERVICE_UNAVAILABLE,
    e.NoRoute: HTTPStatus.UNPROCESSABLE_ENTITY,
    e.AiNotConfigured: HTTPStatus.UNPROCESSABLE_ENTITY,
    e.AiUnavailable: HTTPStatus.SERVICE_UNAVAILABLE,
    e.AiBadResponse: HTTPStatus.BAD_GATEWAY,
    e.NeedsMoreInfo: HTTPStatus.UNPROCESSABLE_ENTITY,
    e.PlaceNotFound: HTTPStatus.UNPROCESSABLE_ENTITY,
    e.AmbiguousPlace: HTTPStatus.UNPROCESSABLE_ENTITY,
    e.OutOfCoverage: HTTPStatus.UNPROCESSABLE_ENTITY,
    e.AiUnparseable: HTTPStatus.UNPROCESSABLE_ENTITY,
    e.GeocoderUnavailable: HTTPStatus.SERVICE_UNAVAILABLE,
    e.RequestInProgress: HTTPStatus.CONFLICT,
    e.WeatherUnavailable: HTTPStatus.SERVICE_UNAVAILABLE,
}


def status_of(error: e.AppError) -> int:
    for cls in type(error).__mro__:
        if cls in STATUS_OF:
            return int(STATUS_OF[cls])
    return int(HTTPStatus.INTERNAL_SERVER_ERROR)
