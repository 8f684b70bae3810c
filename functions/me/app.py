"""MeFunction: ``GET /me``."""

from tripagent.entrypoints.http.api import http_handler
from tripagent.entrypoints.http.me import router

handler = http_handler(router)
