"""The HTTP error mapping and caller context every API function shares."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, Field
from tripagent.entrypoints.http.api import build_resolver, current_caller, http_handler
from tripagent.entrypoints.http.statuses import STATUS_OF, status_of
from tripagent.errors import AppError, BudgetExceeded, Forbidden, RateLimited

from tests.fixtures.events import FakeLambdaContext, http_event

router = Router()


class Widget(BaseModel):
    name: str = Field(min_length=1)
    count: int


@router.post("/widgets")
def create_widget(widget: Widget) -> dict[str, Any]:
    return {"owner": current_caller(router).user_id, "name": widget.name}


@router.get("/forbidden")
def forbidden() -> dict[str, Any]:
    raise Forbidden("Viewers cannot do that.")


@router.get("/limited")
def limited() -> dict[str, Any]:
    raise RateLimited("Slow down.", retry_after_s=7)


@router.get("/table-down")
def table_down() -> dict[str, Any]:
    from botocore.exceptions import EndpointConnectionError

    raise EndpointConnectionError(endpoint_url="http://127.0.0.1:8011")


@router.get("/boom")
def boom() -> dict[str, Any]:
    raise RuntimeError("secret internals")


def call(event: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
    response = build_resolver(router).resolve(event, FakeLambdaContext())
    return response["statusCode"], json.loads(response["body"]), response.get("headers", {})


def test_a_valid_request_reaches_the_route_with_the_caller() -> None:
    status, body, _ = call(http_event("POST", "/widgets", body={"name": "x", "count": 1}))
    assert (status, body) == (200, {"owner": "alice", "name": "x"})


@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "image/png"])
def test_a_body_in_another_media_type_is_415_not_500(content_type: str) -> None:
    event = http_event("POST", "/widgets", raw_body='{"name": "x"}', headers={"content-type": content_type})
    status, body, _ = call(event)
    assert (status, body["error"]) == (415, "unsupported_media_type")


@pytest.mark.parametrize(
    ("content_type", "raw", "expected"),
    [
        ("multipart/form-data", "{}", (415, "unsupported_media_type")),  # no boundary: Powertools raised
        ("application/x-www-form-urlencoded", "name=x", (415, "unsupported_media_type")),
        ("application/json; charset=utf-8", '{"name": "x", "count": 1}', (200, None)),
    ],
)
def test_the_function_handler_refuses_bodies_it_cannot_read_before_any_route(
    content_type: str, raw: str, expected: tuple[int, str | None]
) -> None:
    handler = http_handler(build_resolver(router))
    event = http_event("POST", "/widgets", raw_body=raw, headers={"content-type": content_type})
    response = handler(event, FakeLambdaContext())
    assert (response["statusCode"], json.loads(response["body"]).get("error")) == expected


def test_the_function_handler_refuses_a_body_that_is_not_utf8() -> None:
    event = http_event("POST", "/widgets", raw_body=base64.b64encode(b"\xff\xfe").decode())
    event["isBase64Encoded"] = True
    response = http_handler(build_resolver(router))(event, FakeLambdaContext())
    assert (response["statusCode"], json.loads(response["body"])["error"]) == (400, "invalid_json")


def test_every_typed_error_has_a_chosen_status_not_the_500_fallback() -> None:
    # A new error class must be given its status at the edge (or inherit one from a listed base).
    for cls in _app_errors():
        if cls is not AppError:
            chosen = next(c for c in cls.__mro__ if c in STATUS_OF)
            assert chosen is not AppError, f"{cls.__name__} has no status in entrypoints/http/statuses.py"
    assert status_of(BudgetExceeded("spent", retry_after_s=1)) == 429  # by its base, RateLimited


def _app_errors() -> list[type[AppError]]:
    found, todo = [], [AppError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return found


@pytest.mark.parametrize("raw", ["{", "not json", '{"name": "x",}'])
def test_malformed_json_is_400_invalid_json(raw: str) -> None:
    status, body, _ = call(http_event("POST", "/widgets", raw_body=raw))
    assert status == 400
    assert body["error"] == "invalid_json"
    assert body["message"]


def test_a_schema_violation_is_422_with_details_that_do_not_echo_the_input() -> None:
    status, body, _ = call(http_event("POST", "/widgets", body={"name": "", "count": "sk-secret-value"}))
    assert status == 422
    assert body["error"] == "validation_error"
    locations = {tuple(d["loc"]) for d in body["details"]}
    assert ("body", "name") in locations
    assert ("body", "count") in locations
    assert "sk-secret-value" not in json.dumps(body)


def test_typed_errors_map_to_their_status_and_code() -> None:
    status, body, _ = call(http_event("GET", "/forbidden"))
    assert (status, body) == (
        403,
        {"error": "forbidden", "message": "Viewers cannot do that.", "details": []},
    )


def test_rate_limited_carries_retry_after() -> None:
    status, body, headers = call(http_event("GET", "/limited"))
    assert status == 429
    assert body["error"] == "rate_limited"
    assert headers["Retry-After"] == "7"


def test_an_unexpected_error_is_a_500_in_the_contract_shape_without_internals() -> None:
    status, body, _ = call(http_event("GET", "/boom"))
    assert status == 500
    assert body["error"] == "internal_error"
    assert "secret internals" not in json.dumps(body)


def test_an_unknown_route_is_404_not_found() -> None:
    status, body, _ = call(http_event("GET", "/nowhere"))
    assert (status, body["error"]) == (404, "not_found")


def test_a_route_reached_without_authorizer_claims_is_401() -> None:
    status, body, _ = call(http_event("POST", "/widgets", body={"name": "x", "count": 1}, sub=None))
    assert (status, body["error"]) == (401, "unauthorized")


def test_a_dependency_that_does_not_answer_is_a_typed_503_and_a_bug_stays_a_500() -> None:
    status, body, headers = call(http_event("GET", "/table-down"))
    assert (status, body["error"], headers["Retry-After"]) == (503, "dependency_unavailable", "5")
    status, body, _ = call(http_event("GET", "/boom"))
    assert (status, body["error"]) == (500, "internal_error")


def test_every_reference_of_the_openapi_document_resolves() -> None:
    """Clients are generated from this document (the web app's API types): a dangling $ref breaks them."""
    from tripagent.entrypoints.http.docs import openapi_document

    document = openapi_document()
    refs: list[str] = []

    def collect(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(document)
    schemas = document["components"]["schemas"]
    assert refs
    dangling = {r for r in refs if r.removeprefix("#/components/schemas/") not in schemas}
    assert not dangling
