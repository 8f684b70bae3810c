"""OutboxRelayFunction: committed operation events, from the table's stream to the event bus."""

from tripagent.entrypoints.streams import outbox_relay_handler
from tripagent.settings import bus_settings

bus_settings()  # fail at cold start on a bad environment
handler = outbox_relay_handler
