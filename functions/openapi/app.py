"""OpenApiFunction: ``GET /openapi.json``."""

from tripagent.entrypoints.http.api import http_handler
from tripagent.entrypoints.http.docs import router

handler = http_handler(router)
