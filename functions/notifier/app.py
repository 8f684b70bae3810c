"""NotifierFunction: the table's stream → pushes to the WebSocket subscribers of each trip."""

from tripagent.entrypoints.realtime import notifier_handler
from tripagent.settings import realtime_settings

realtime_settings()  # fail at cold start on a bad environment
handler = notifier_handler
