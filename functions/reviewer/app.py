"""ReviewerFunction: whitelisted operation events are enlisted for review; the FIFO queue's messages wake
the review of their trip (one model call for everything awaiting review)."""

from tripagent.entrypoints.events import reviewer_handler
from tripagent.settings import review_settings

review_settings()  # fail at cold start on a bad environment
handler = reviewer_handler
