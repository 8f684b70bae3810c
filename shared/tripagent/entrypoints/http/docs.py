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


def _with_contract_errors(document: dict[str, Any], public: frozenset[tuple[str, str]]) -> dict[str, Any]:
    """Describe errors as the contract's ``{error, message, details}`` and mark the unauthenticated routes."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas["Error"] = ERROR_SCHEMA
    error_ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses["422"] = {"description": "Validation error (`validation_error`)", **error_ref}
            if (method.upper(), path) in public:
                operation["security"] = []
            else:
                responses["401"] = {"description": "Missing or invalid token (`unauthorized`)", **error_ref}
    return document


@router.get("/openapi.json", summary="This document", tags=["system"])
def get_openapi() -> Response[dict[str, Any]]:
    return Response(status_code=200, content_type=JSON, body=openapi_document())
