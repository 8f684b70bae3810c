"""The HTTP side every API function shares: the resolver, the error mapping and the caller.

A function's ``app.py`` builds its resolver from its routers (:func:`build_resolver`) and exports it
beside the handler (:func:`http_handler`), so that tests can compare its routes with the template; the OpenAPI
function builds one resolver from every router (``entrypoints.http.catalog``) to describe the whole API.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)

from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import (
    AppError,
    DependencyUnavailable,
    InvalidJson,
    NotFound,
    Unauthorized,
    UnsupportedMediaType,
    ValidationFailed,
)
from tripagent.observability import HTTP_CORRELATION_ID, LambdaHandler, instrument, logger

JSON = "application/json"


def error_response(error: AppError) -> Response[Any]:
    return Response(
        status_code=status_of(error), content_type=JSON, body=error.body(), headers=dict(error.headers)
    )


def _validation_details(errors: Any) -> list[dict[str, Any]]:
    # Never echo the input back: it may hold a secret (an API key) or a very large body. Even a location
    # can be input (an unexpected field's name, a whole form-encoded body), so long ones are cut.
    def place(part: Any) -> Any:
        text = str(part)
        return part if isinstance(part, int) else (text if len(text) <= 40 else text[:20] + "…")

    return [
        {"loc": [place(p) for p in err.get("loc", ())], "msg": err.get("msg", ""), "type": err.get("type")}
        for err in errors
    ]


def build_resolver(*routers: Router) -> APIGatewayHttpResolver:
    resolver = APIGatewayHttpResolver(enable_validation=True)
    for router in routers:
        resolver.include_router(router)

    @resolver.exception_handler(AppError)
    def _app_error(exc: AppError) -> Response[Any]:
        status = status_of(exc)
        if status >= 500:
            logger.exception("request failed", extra={"error": exc.code})
        else:
            logger.info("request refused", extra={"error": exc.code, "status": status})
        return error_response(exc)

    # The function's handler refuses unreadable bodies first (``unreadable_body``); this covers a resolver
    # called directly. Powertools raises it reading the body: not the server failing, not a 500.
    @resolver.exception_handler(RequestUnsupportedContentType)
    def _unsupported_media_type(_: RequestUnsupportedContentType) -> Response[Any]:
        return error_response(unsupported_media_type())

    @resolver.exception_handler(RequestValidationError)
    def _invalid_request(exc: RequestValidationError) -> Response[Any]:
        errors = exc.errors()
        if any(err.get("type") == "json_invalid" for err in errors):
            return error_response(InvalidJson("The request body is not valid JSON."))
        return error_response(
            ValidationFailed("The request does not match the schema.", details=_validation_details(errors))
        )

    @resolver.not_found
    def _no_route(_: NotFoundError) -> Response[Any]:
        return error_response(NotFound("No such resource."))

    @resolver.exception_handler(Exception)
    def _unexpected(exc: Exception) -> Response[Any]:
        from tripagent.adapters.aws import unreachable  # only when something failed: no boto3 at cold start

        if unreachable(exc):  # a dependency down (the table, the bus): a typed 503, not our bug
            logger.warning("dependency unreachable", extra={"error": type(exc).__name__})
            return error_response(DependencyUnavailable())
        logger.exception("unhandled error")
        return Response(
            status_code=HTTPStatus.INTERNAL_SERVER_ERROR,
            content_type=JSON,
            body={"error": "internal_error", "message": "Something went wrong on our side.", "details": []},
        )

    return resolver


def unsupported_media_type() -> UnsupportedMediaType:
    return UnsupportedMediaType("The request body must be application/json.")


def require_json_body(content_type: str | None, body: bytes | str | None) -> None:
    """For a route that reads its body itself (no body model for Powertools to check): the same rule."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if body and media not in ("", JSON):
        raise unsupported_media_type()


def unreadable_body(event: dict[str, Any]) -> AppError | None:
    """The edge's one check of every body, before any route reads it: the API reads UTF-8 JSON only
    (Powertools would otherwise try a form or multipart parser, or fail decoding, and answer 500)."""
    body = event.get("body")
    if not body:
        return None
    headers = {k.lower(): v for k, v in (event.get("headers") or {}).items()}
    try:
        require_json_body(headers.get("content-type"), body)
    except UnsupportedMediaType as exc:
        return exc
    if event.get("isBase64Encoded"):
        try:
            base64.b64decode(body).decode()
        except (ValueError, UnicodeDecodeError):
            return InvalidJson("The request body is not valid UTF-8 JSON.")
    return None


def http_handler(resolver: APIGatewayHttpResolver) -> LambdaHandler:
    """The Lambda handler of an API function: resolve the event, with logging context and tracing."""

    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        refused = unreadable_body(event)
        if refused is not None:
            return {
                "statusCode": status_of(refused),
                "headers": {"Content-Type": JSON},
                "body": json.dumps(refused.body()),
                "isBase64Encoded": False,
            }
        return resolver.resolve(event, context)

    return instrument(handler, correlation_id_path=HTTP_CORRELATION_ID)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling: the JWT's ``sub`` as verified by the authorizer in front of the function."""

    user_id: str


def current_caller(router: Router | APIGatewayHttpResolver) -> Caller:
    event: dict[str, Any] = router.current_event.raw_event
    authorizer = (event.get("requestContext") or {}).get("authorizer") or {}
    claims = (authorizer.get("jwt") or {}).get("claims") or {}
    sub = claims.get("sub")
    if not isinstance(sub, str) or not sub:
        # Only reachable if a route is deployed without the authorizer: refuse rather than guess.
        raise Unauthorized("A valid bearer token is required.")
    return Caller(user_id=sub)
