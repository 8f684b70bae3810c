"""OperationRecorderFunction: every committed operation becomes a turn of its trip's agent session."""

from tripagent.entrypoints.events import operation_recorder_handler
from tripagent.settings import session_settings

session_settings()  # fail at cold start on a bad environment
handler = operation_recorder_handler
