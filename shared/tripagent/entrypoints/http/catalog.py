"""Every HTTP router of the API, by the function that serves it.

The single list the OpenAPI document is generated from; ``tests/infra`` checks it against the routes of
``template.yaml`` so that the document, the template and the handlers cannot drift apart.
"""

from __future__ import annotations

import importlib

from aws_lambda_powertools.event_handler.api_gateway import Router

# Function logical id in template.yaml → module holding its ``router``.
ROUTER_MODULES: dict[str, str] = {
    "HealthFunction": "tripagent.entrypoints.http.health",
    "MeFunction": "tripagent.entrypoints.http.me",
    "OpenApiFunction": "tripagent.entrypoints.http.docs",
    "TripsFunction": "tripagent.entrypoints.http.trips",
    "BriefChatFunction": "tripagent.entrypoints.http.brief",
    "GenerateFunction": "tripagent.entrypoints.http.generate",
    "AgentChatFunction": "tripagent.entrypoints.http.agent",
    "SuggestionsFunction": "tripagent.entrypoints.http.suggestions",
}

# Routes served without the JWT authorizer (``Auth: Authorizer: NONE`` in template.yaml).
PUBLIC_ROUTES: frozenset[tuple[str, str]] = frozenset({("GET", "/health"), ("GET", "/openapi.json")})


def router_of(function_id: str) -> Router:
    router: Router = importlib.import_module(ROUTER_MODULES[function_id]).router
    return router


def all_routers() -> list[Router]:
    return [router_of(function_id) for function_id in ROUTER_MODULES]
