"""``GET /openapi.json`` (no auth): the OpenAPI 3.1 document of the whole API, from its route models."""

from __future__ import annotations

from functools import cache
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from tripagent.entrypoints.http.api import JSON

router = Router()

TITLE = "Tripagent API"
VERSION = "1"
DESCRIPTION = (
    "Serverless backend of an AI trip-planning assistant. Every route needs `Authorization: Bearer <JWT>` "
    "unless its security list is empty. Errors are `{error, message, details}` with a stable `error` code."
)


@cache
def openapi_document() -> dict[str, Any]:
    from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer

    from tripagent.entrypoints.http.api import build_resolver
    from tripagent.entrypoints.http.catalog import all_routers

    resolver = build_resolver(*all_routers())
    schema = resolver.get_openapi_json_schema(
        title=TITLE,
        version=VERSION,
        description=DESCRIPTION,
        security_schemes={"bearerAuth": HTTPBearer(bearerFormat="JWT")},
        security=[{"bearerAuth": []}],
    )
    import json

    from tripagent.entrypoints.http.catalog import PUBLIC_ROUTES

    document: dict[str, Any] = json.loads(schema)
    return _with_contract_errors(document, PUBLIC_ROUTES)


ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Error",
    "required": ["error", "message", "details"],
    "properties": {
        "error": {"type": "string", "description": "Stable machine-readable code, e.g. `validation_error`."},
        "message": {"type": "string", "description": "A plain sentence for people."},
        "details": {"type": "array", "items": {}},
    },
    "additionalProperties": True,
}


GATEWAY_ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "GatewayError",
    "description": "API Gateway's own answer (its JWT authorizer), before any function runs.",
    "required": ["message"],
    "properties": {"message": {"type": "string"}},
}
AI_ROUTES = ("/trips/ai-chat", "/trips/ai-generate", "/agent/chat", "/agent/mentions")


def _errors_of(method: str, path: str, operation: dict[str, Any]) -> dict[str, str]:
    """The error answers a route can give (status → what), from what it reads and does."""
    errors = {"422": "Validation error (`validation_error`, and the typed 422s of docs/api.md)"}
    if "requestBody" in operation:
        errors["400"] = "The body is not valid UTF-8 JSON (`invalid_json`)"
        errors["415"] = "The body is not `application/json` (`unsupported_media_type`)"
    if "{tripId}" in path:
        errors["404"] = "No such trip, or not one of the caller's (`not_found`, the same for both)"
    if path == "/me/ai-provider":
        errors["404"] = "No provider of the caller's own (`not_found`)"
    if path == "/me/profile":
        errors["403"] = "The identity token is not valid, or not the caller's (`forbidden`)"
    if path == "/join/{token}":
        errors["404"] = "No such share link, or one revoked (`not_found`)"
    if path.endswith(("/invitations", "/share-links")):
        errors["403"] = "Only the trip's owners (`forbidden`)"
    if "{tripId}" in path and method != "get":
        errors["403"] = "The caller's role does not allow it (`forbidden`)"
        errors["409"] = "Decided or changed meanwhile (`version_conflict`, `already_decided`, ...)"
    if path == "/trips/ai-generate":
        errors["409"] = "The same Idempotency-Key is still being served (`request_in_progress`)"
    if any(path.endswith(route) for route in AI_ROUTES):
        errors["429"] = "Too many messages, or the day's budget is spent (`rate_limited`, ...)"
        errors["502"] = "The model provider answered something unusable (`ai_unavailable`)"
        errors["503"] = "A dependency is down (`ai_unavailable`, `routing_unavailable`, ...)"
    if (method, path) == ("get", "/trips"):
        errors["503"] = "The table throttled past our retries (`store_busy`)"
    return errors


def _with_contract_errors(document: dict[str, Any], public: frozenset[tuple[str, str]]) -> dict[str, Any]:
    """Describe every answer a route gives: the contract's errors as ``{error, message, details}``, the
    authorizer's 401 as API Gateway writes it, created resources as 201 and empty answers without a body;
    mark the unauthenticated routes."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas.pop("ResponseValidationError", None)  # Powertools' own, referenced by no route
    schemas["Error"] = ERROR_SCHEMA
    schemas["GatewayError"] = GATEWAY_ERROR_SCHEMA
    error_ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    gateway_ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/GatewayError"}}}}
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            if "201" in responses and "200" in responses:  # Powertools adds 200 from the return type
                responses["201"] = {**responses.pop("200"), "description": responses["201"]["description"]}
            for status in ("202", "204"):
                if status in responses and "200" in responses:
                    responses.pop("200")
            if "204" in responses:
                responses["204"].pop("content", None)  # nothing follows a 204
            for status, what in _errors_of(method, path, operation).items():
                responses.setdefault(status, {"description": what, **error_ref})
            responses["422"] = {"description": "Validation error (`validation_error`, ...)", **error_ref}
            if (method.upper(), path) in public:
                operation["security"] = []
            else:
                responses["401"] = {
                    "description": "Missing or invalid token (the authorizer's)",
                    **gateway_ref,
                }
    chat = document.get("paths", {}).get("/trips/{tripId}/agent/chat", {}).get("post")
    if chat is not None:  # the route reads its body itself (to stream it): say what it reads
        from tripagent.entrypoints.http.agent_models import ChatRequestBody

        body = ChatRequestBody.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(body.pop("$defs", {}))
        schemas["ChatRequestBody"] = body
        chat["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChatRequestBody"}}},
        }
        for status, what in _errors_of("post", "/trips/{tripId}/agent/chat", chat).items():
            chat["responses"].setdefault(status, {"description": what, **error_ref})
    return document


@router.get("/openapi.json", summary="This document", tags=["system"])
def get_openapi() -> Response[dict[str, Any]]:
    return Response(status_code=200, content_type=JSON, body=openapi_document())
