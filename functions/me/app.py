"""MeFunction: ``GET /me``."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.me import router

resolver = build_resolver(router)
handler = http_handler(resolver)
