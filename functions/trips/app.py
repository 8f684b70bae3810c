"""TripsFunction: the trip workspace (trips, members, the ops registry) and its people (names,
invitations, share links)."""

from tripagent.entrypoints.http.api import build_resolver, http_handler
from tripagent.entrypoints.http.people import router as people
from tripagent.entrypoints.http.trips import router
from tripagent.settings import table_settings

table_settings()  # fail at cold start on a bad environment
resolver = build_resolver(router, people)
handler = http_handler(resolver)
