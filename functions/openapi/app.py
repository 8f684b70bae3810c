"""OpenApiFunction: ``GET /openapi.json``."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.docs import router

resolver = build_resolver(router)
handler = http_handler(resolver)
