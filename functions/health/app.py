"""HealthFunction: ``GET /health``."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.health import router
from tripagent.settings import health_settings

health_settings()  # fail at cold start on a bad environment; clients are built on first use
resolver = build_resolver(router)
handler = http_handler(resolver)
