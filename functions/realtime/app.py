"""RealtimeFunction: the WebSocket API's routes ($connect, $disconnect, subscribe, unsubscribe, $default)."""

from tripagent.entrypoints.realtime import websocket_handler
from tripagent.settings import realtime_settings

realtime_settings()  # fail at cold start on a bad environment
handler = websocket_handler
