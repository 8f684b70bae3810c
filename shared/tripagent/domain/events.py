"""Domain events: what a committed change tells the rest of the system."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

OPERATION_EVENT_SOURCE = "tripagent.trips"
OPERATION_COMMITTED = "TripOperationCommitted"


class TripOperationCommitted(BaseModel):
    """``detail`` of the EventBridge event (docs/api.md); consumers deduplicate on ``operationId``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    operationId: str
    tripId: str
    tripVersion: int
    actor: str
    at: str
    op: str
    args: dict[str, Any]
    diff: list[dict[str, Any]]
    metadata: dict[str, Any] = {}
