"""SuggestionExpiryFunction: every minute, open suggestions past their expiry become expired."""

from tripagent.entrypoints.events import expire_suggestions_handler
from tripagent.settings import table_settings

table_settings()  # fail at cold start on a bad environment
handler = expire_suggestions_handler
