"""MeFunction: ``GET /me`` and ``/me/ai-provider``."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.me import router
from tripagent.settings import user_provider_settings

user_provider_settings()  # fail at cold start on a bad environment
resolver = build_resolver(router)
handler = http_handler(resolver)
