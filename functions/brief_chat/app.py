"""BriefChatFunction: ``POST /trips/ai-chat``."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.brief import router
from tripagent.settings import brief_chat_settings

brief_chat_settings()  # fail at cold start on a bad environment
resolver = build_resolver(router)
handler = http_handler(resolver)
