"""SuggestionsFunction: the reviewer's shared suggestions - list, approve (first approval wins), deny."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.suggestions import router
from tripagent.settings import session_settings

session_settings()  # fail at cold start on a bad environment
resolver = build_resolver(router)
handler = http_handler(resolver)
