"""The session store on DynamoDB Local: concurrent turns never collide; redelivered events write once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.sessions import DynamoSessionStore
from tripagent.adapters.system import new_id
from tripagent.application.sessions import record_operation
from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.session import Turn, TurnMetadata
from tripagent_local.stack import LocalStack


def store(stack: LocalStack) -> DynamoSessionStore:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    return DynamoSessionStore(client, next(iter(stack.table_names.values())), retention_s=86400)


def chat_turn(who: str, text: str) -> Turn:
    return Turn(
        role="user",
        kind="chat",
        text=text,
        metadata=TurnMetadata(actor=who, at="2030-01-01T10:00:00.000Z", source="chat"),
    )


def test_two_members_talking_at_once_both_keep_their_turn_in_order(local_stack: LocalStack) -> None:
    sessions, trip_id = store(local_stack), new_id("trp")
    with ThreadPoolExecutor(max_workers=20) as pool:
        seqs = list(
            pool.map(lambda i: sessions.append(trip_id, chat_turn(f"m{i % 2}", f"hello {i}")), range(40))
        )
    assert sorted(seqs) == list(range(1, 41))  # type: ignore[type-var]
    turns = sessions.turns(trip_id)
    assert [t.seq for t in turns] == list(range(1, 41))
    assert {t.text for t in turns} == {f"hello {i}" for i in range(40)}
    assert [t.seq for t in sessions.turns(trip_id, after=38)] == [39, 40]


def test_an_operation_delivered_many_times_at_once_is_recorded_once(local_stack: LocalStack) -> None:
    sessions, trip_id = store(local_stack), new_id("trp")
    event = TripOperationCommitted(
        operationId=new_id("op"),
        tripId=trip_id,
        tripVersion=2,
        actor="bob",
        at="2030-01-01T10:00:00.000Z",
        op="add_day",
        args={},
        diff=[{"entity": "day", "id": "0", "before": None, "after": {"city": None}}],
    )
    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(lambda _: record_operation(sessions, event), range(10)))
    assert sum(r is not None for r in results) == 1
    assert [t.data["operationId"] for t in sessions.turns(trip_id)] == [event.operationId]


def test_expired_turns_are_not_read(local_stack: LocalStack) -> None:
    sessions, trip_id = store(local_stack), new_id("trp")
    old = Turn(
        role="user",
        kind="chat",
        text="long ago",
        metadata=TurnMetadata(actor="a", at="2001-01-01T00:00:00.000Z", source="chat"),
    )
    sessions.append(trip_id, old)
    sessions.append(trip_id, chat_turn("a", "now"))
    assert [t.text for t in sessions.turns(trip_id)] == ["now"]


def test_recent_turns_summary_and_a_pending_intent_taken_once(local_stack: LocalStack) -> None:
    sessions, trip_id = store(local_stack), new_id("trp")
    for i in range(30):
        sessions.append(trip_id, chat_turn("ana", f"turn {i}"))
    assert [t.text for t in sessions.recent(trip_id, limit=3)] == ["turn 27", "turn 28", "turn 29"]
    sessions.save_summary(trip_id, "- older", 10)
    sessions.save_summary(trip_id, "- stale writer", 5)  # a fold that lost the race changes nothing
    intent = {"type": "choose_stop", "question": "Which?", "createdAt": 1.0}
    sessions.set_pending_intent(trip_id, intent)
    state = sessions.state(trip_id)
    assert (state.summary, state.summary_up_to, state.pending_intent) == ("- older", 10, intent)
    with ThreadPoolExecutor(max_workers=8) as pool:  # two members answer "2" at once: one resumes
        taken = list(pool.map(lambda _: sessions.take_pending_intent(trip_id, intent), range(8)))
    assert taken.count(True) == 1
    assert sessions.state(trip_id).pending_intent is None


def test_the_token_budget_counts_concurrent_spending(local_stack: LocalStack) -> None:
    from tripagent.adapters.dynamodb.rate_limits import DynamoTokenBudget

    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{local_stack.config.dynamodb_port}")
    budget = DynamoTokenBudget(client, next(iter(local_stack.table_names.values())))
    key = f"tokens:{new_id('trp')}:2030-01-01"
    with ThreadPoolExecutor(max_workers=10) as pool:
        list(pool.map(lambda _: budget.spend(key, 125), range(40)))
    assert budget.spent(key) == 5000
    assert budget.spent(key + "x") == 0
