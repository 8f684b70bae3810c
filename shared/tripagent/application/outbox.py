"""Use case: relay committed operation events from the outbox (the table's stream) to the bus."""

from __future__ import annotations

from tripagent.application.ports import EventPublisher
from tripagent.domain.events import TripOperationCommitted


class EventNotPublished(Exception):
    """Raised so that the stream record is retried and, in the end, sent to the on-failure destination."""


def relay(publisher: EventPublisher, details: list[str]) -> None:
    events = [TripOperationCommitted.model_validate_json(detail) for detail in details]
    failures = [reason for reason in publisher.publish(events) if reason]
    if failures:
        raise EventNotPublished("; ".join(failures))
