"""Every HTTP router of the API, by the function that serves it.

The single list the OpenAPI document is generated from; ``tests/infra`` checks it against the routes of
``template.yaml`` so that the document, the template and the handlers cannot drift apart.
"""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router

# Routes served without the JWT authorizer (``Auth: Authorizer: NONE`` in template.yaml).
PUBLIC_ROUTES: frozenset[tuple[str, str]] = frozenset({("GET", "/health"), ("GET", "/openapi.json")})


def routers_by_function() -> dict[str, tuple[Router, ...]]:
    """Function logical id in template.yaml → its routers. Imported here, when asked (the OpenAPI function
    describes them all; ``docs`` itself imports this module)."""
    from tripagent.entrypoints.http import (
        agent,
        brief,
        docs,
        generate,
        health,
        me,
        people,
        suggestions,
        trips,
    )

    return {
        "HealthFunction": (health.router,),
        "MeFunction": (me.router,),
        "OpenApiFunction": (docs.router,),
        "TripsFunction": (trips.router, people.router),
        "BriefChatFunction": (brief.router,),
        "GenerateFunction": (generate.router,),
        "AgentChatFunction": (agent.router,),
        "SuggestionsFunction": (suggestions.router,),
    }


def all_routers() -> list[Router]:
    return [router for routers in routers_by_function().values() for router in routers]
