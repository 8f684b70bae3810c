"""HealthFunction: ``GET /health``."""

from tripagent.bootstrap import health_probes
from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.health import router

health_probes()  # validate settings and build clients at cold start
resolver = build_resolver(router)
handler = http_handler(resolver)
