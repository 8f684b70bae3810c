from __future__ import annotations

from tripagent.application.sessions import record_operation
from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.session import Turn, describe_operation

EVENT = TripOperationCommitted(
    operationId="op_1",
    tripId="trp_1",
    tripVersion=5,
    actor="bob",
    at="2027-06-01T10:00:00.000Z",
    op="edit_day",
    args={"dayIndex": 1, "city": "Ordino"},
    diff=[{"entity": "day", "id": "1", "before": {"city": "Canillo"}, "after": {"city": "Ordino"}}],
)


def test_an_operation_is_described_for_people_and_the_model() -> None:
    text = describe_operation(EVENT)
    assert text == "bob changed day 1 (city: 'Canillo' → 'Ordino') [edit_day, trip version 5]"


def test_added_and_removed_entities_are_named() -> None:
    added = EVENT.model_copy(
        update={
            "op": "add_stop",
            "diff": [
                {"entity": "stop", "id": "stp_1", "before": None, "after": {"name": "Caldea"}},
                {"entity": "expense", "id": "exp_1", "before": {"label": "Taxi"}, "after": None},
            ],
        }
    )
    assert describe_operation(added).startswith("bob added stop 'Caldea'; removed expense 'Taxi'")


class RecordingStore:
    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.turns: list[Turn] = []

    def append(self, trip_id: str, turn: Turn, *, dedupe_key: str | None = None) -> int | None:
        if dedupe_key in self.keys:
            return None
        if dedupe_key:
            self.keys.add(dedupe_key)
        self.turns.append(turn.model_copy(update={"seq": len(self.turns) + 1}))
        return len(self.turns)

    def turns_of(self, trip_id: str) -> list[Turn]:
        return self.turns


def test_an_operation_becomes_one_event_turn_with_its_metadata_however_often_delivered() -> None:
    store = RecordingStore()
    assert record_operation(store, EVENT) == 1
    assert record_operation(store, EVENT) is None
    (turn,) = store.turns
    assert (turn.role, turn.kind) == ("event", "operation")
    assert turn.metadata.model_dump() == {
        "actor": "bob",
        "at": EVENT.at,
        "source": "operation",
        "tripVersion": 5,
    }
    assert turn.data["operationId"] == "op_1"
    assert turn.data["diff"] == EVENT.diff
