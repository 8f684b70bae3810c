"""TripsFunction: the trip workspace (trips, members, the ops registry)."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.trips import router
from tripagent.settings import table_settings

table_settings()  # fail at cold start on a bad environment
resolver = build_resolver(router)
handler = http_handler(resolver)
