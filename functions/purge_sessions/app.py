"""PurgeSessionsFunction (scheduled): agent sessions idle past the retention window, deleted."""

from tripagent.entrypoints.events import purge_sessions_handler
from tripagent.settings import session_settings

session_settings()  # fail at cold start on a bad environment
handler = purge_sessions_handler
