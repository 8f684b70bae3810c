"""AgentChatFunction: the trip agent's chat (streamed through ``asgi_app``, buffered through ``handler``)
and its shared history."""

from tripagent.entrypoints.http.agent import asgi_app, router
from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.settings import agent_settings

agent_settings()  # fail at cold start on a bad environment
resolver = build_resolver(router)
handler = http_handler(resolver)
asgi_routes = frozenset({"POST /trips/{tripId}/agent/chat"})  # streamed locally and behind the web adapter
__all__ = ["asgi_app", "asgi_routes", "handler", "resolver"]
