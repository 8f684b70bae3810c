"""Operation events onto the EventBridge bus."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tripagent.domain.events import OPERATION_COMMITTED, OPERATION_EVENT_SOURCE, TripOperationCommitted

if TYPE_CHECKING:
    from mypy_boto3_events import EventBridgeClient
    from mypy_boto3_events.type_defs import PutEventsRequestEntryTypeDef

MAX_ENTRIES = 10  # PutEvents' limit per call


class EventBridgePublisher:
    def __init__(self, client: EventBridgeClient, bus_name: str) -> None:
        self._client = client
        self._bus = bus_name

    def publish(self, events: list[TripOperationCommitted]) -> list[str | None]:
        outcome: list[str | None] = []
        for start in range(0, len(events), MAX_ENTRIES):
            batch = events[start : start + MAX_ENTRIES]
            entries: list[PutEventsRequestEntryTypeDef] = [
                {
                    "Source": OPERATION_EVENT_SOURCE,
                    "DetailType": OPERATION_COMMITTED,
                    "Detail": event.model_dump_json(),
                    "EventBusName": self._bus,
                    "Resources": [],
                }
                for event in batch
            ]
            response = self._client.put_events(Entries=entries)
            for entry in response["Entries"]:
                outcome.append(
                    None if "EventId" in entry else f"{entry.get('ErrorCode')}: {entry.get('ErrorMessage')}"
                )
        return outcome
