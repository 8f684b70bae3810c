"""A trip list under throttling finishes or fails: it never silently misses trips."""

from __future__ import annotations

from typing import Any

import pytest
from tripagent.adapters.dynamodb import trips as trips_adapter
from tripagent.adapters.dynamodb.trips import DynamoTripRepository
from tripagent.domain.trip import Member, Role, Trip
from tripagent.errors import StoreBusy

TABLE = "t"


def _trip(trip_id: str) -> Trip:
    return Trip(
        tripId=trip_id,
        title=trip_id,
        members=[Member(userId="ana", role=Role.owner)],
        createdAt="2027-06-01T10:00:00.000Z",
        updatedAt="2027-06-01T10:00:00.000Z",
    )


class ThrottlingClient:
    """BatchGetItem that leaves ``held`` keys unprocessed for ``rounds`` calls, then answers them."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.calls = 0

    def batch_get_item(self, RequestItems: dict[str, Any]) -> dict[str, Any]:  # noqa: N803
        self.calls += 1
        keys = RequestItems[TABLE]["Keys"]
        answered, held = (keys, []) if self.calls > self.rounds else (keys[:1], keys[1:])
        if self.rounds >= 1_000:  # throttled for good: nothing comes back
            answered, held = [], keys
        docs = [{"doc": {"S": _trip(k["PK"]["S"].removeprefix("TRIP#")).model_dump_json()}} for k in answered]
        unprocessed = {TABLE: {**RequestItems[TABLE], "Keys": held}} if held else {}
        return {"Responses": {TABLE: docs}, "UnprocessedKeys": unprocessed}


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trips_adapter.time, "sleep", lambda _: None)


def test_keys_left_unprocessed_for_a_while_are_read_in_the_end() -> None:
    repo = DynamoTripRepository(ThrottlingClient(rounds=3), TABLE)  # type: ignore[arg-type]
    found = repo._batch_get(["a", "b", "c"])
    assert sorted(t.tripId for t in found) == ["a", "b", "c"]


def test_keys_still_unprocessed_after_every_attempt_raise_instead_of_being_dropped() -> None:
    client = ThrottlingClient(rounds=1_000)
    repo = DynamoTripRepository(client, TABLE)  # type: ignore[arg-type]
    with pytest.raises(StoreBusy):
        repo._batch_get(["a", "b", "c"])
    assert client.calls == trips_adapter.BATCH_ATTEMPTS
