"""GenerateFunction: ``POST /trips/ai-generate``."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.generate import router
from tripagent.settings import generate_settings

generate_settings()  # fail at cold start on a bad environment
resolver = build_resolver(router)
handler = http_handler(resolver)
