"""AgentChatFunction: the trip agent's chat (streamed through ``asgi_app``, buffered through ``handler``)
and its shared history."""

from tripagent.entrypoints.http.agent import asgi_app, router
from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.settings import agent_settings

agent_settings()  # fail at cold start on a bad environment
resolver = build_resolver(router)
handler = http_handler(resolver)
# Streamed locally and behind the web adapter: a turn, and reattaching to one.
asgi_routes = frozenset({"POST /trips/{tripId}/agent/chat", "GET /trips/{tripId}/agent/chat/stream"})
__all__ = ["asgi_app", "asgi_routes", "handler", "resolver"]
