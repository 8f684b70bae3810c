"""Proactive review and suggestions, on DynamoDB Local.

1. Approvals: the latency of a lone approval (30 of them, one after another) against 50 concurrent
   approvals of one suggestion (5 rounds). Goal: p99 of the concurrent ones ≤ 3× the lone one. Printed
   with two references measured in the same run: 50 concurrent approvals of 50 different suggestions (the
   same load without contention: what contention itself costs), and a bare DynamoDB Local write, lone and
   50 at once (what the engine on this machine does under that load, whatever the code).
2. Coalescing: model calls per burst of 10 operations on one trip (goal 1), through the real ledger and
   the local FIFO queue with a 1 s window.
"""

from __future__ import annotations

import contextlib
import json
import math
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

APPROVERS = 50


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def _world() -> tuple[Any, Any, Any, Any, str]:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.reviews import DynamoSuggestionStore
    from tripagent.adapters.system import SystemClock
    from tripagent.application.suggestions import Suggestions
    from tripagent.bootstrap import session_store, trip_workspace
    from tripagent.settings import table_settings

    s = table_settings()
    client = dynamodb_client(s.region, s.dynamodb_endpoint_url)
    store = DynamoSuggestionStore(client, s.table_name)
    workspace = trip_workspace()
    return (
        workspace,
        store,
        Suggestions(store, workspace, session_store(), SystemClock()),
        client,
        s.table_name,
    )


def _suggested(workspace: Any, store: Any, approvers: int) -> tuple[str, str]:
    from tripagent.adapters.system import new_id
    from tripagent.domain.review import PendingPatch, Suggestion
    from tripagent.domain.trip import Member, Role

    trip = workspace.create_trip("ana", title="Bench")
    trip.members += [Member(userId=f"m{i}", role=Role.editor) for i in range(approvers)]
    workspace.trips.commit(trip, expected_version=trip.version, membership_changed=set(), event=None)
    version = workspace.run_operation("ana", trip.tripId, "add_day", {"city": "Ordino"}).trip.version
    suggestion = Suggestion(
        suggestionId=new_id("sug"),
        tripId=trip.tripId,
        severity="warning",
        confidence=0.9,
        reason="bench",
        suggestion="Set day 1's city to Canillo.",
        pendingPatch=PendingPatch(
            op="edit_day", args={"dayIndex": 0, "city": "Canillo"}, expectedVersion=version
        ),
        expiresAt="2099-01-01T00:00:00.000Z",
        createdAt="2027-06-01T10:00:00.000Z",
    )
    store.create(suggestion)
    return trip.tripId, suggestion.suggestionId


def _timed(action: Callable[[], Any]) -> float:
    from tripagent.errors import AppError

    start = time.perf_counter()
    with contextlib.suppress(AppError):  # already_decided: the answer most concurrent approvers get
        action()
    return (time.perf_counter() - start) * 1000


def _at_once(actions: list[Callable[[], Any]]) -> list[float]:
    barrier = threading.Barrier(len(actions))

    def run(action: Callable[[], Any]) -> float:
        barrier.wait()
        return _timed(action)

    with ThreadPoolExecutor(max_workers=len(actions)) as pool:
        return list(pool.map(run, actions))


def approvals() -> dict[str, float]:
    workspace, store, suggestions, client, table = _world()

    def approve(user: str, trip_id: str, sid: str) -> Callable[[], Any]:
        return lambda: suggestions.answer(user, trip_id, sid, answer_id=sid, approved=True)

    lone = []
    for _ in range(30):
        trip_id, sid = _suggested(workspace, store, 1)
        lone.append(_timed(approve("m0", trip_id, sid)))
    contended: list[float] = []
    distinct: list[float] = []
    for _ in range(5):
        trip_id, sid = _suggested(workspace, store, APPROVERS)
        contended += _at_once([approve(f"m{i}", trip_id, sid) for i in range(APPROVERS)])
        pairs = [_suggested(workspace, store, 1) for _ in range(APPROVERS)]
        distinct += _at_once([approve("m0", t, s) for t, s in pairs])

    def write() -> Any:
        return client.update_item(
            TableName=table,
            Key={"PK": {"S": "BENCH#counter"}, "SK": {"S": "A"}},
            UpdateExpression="ADD n :one",
            ExpressionAttributeValues={":one": {"N": "1"}},
        )

    bare_lone = [_timed(write) for _ in range(50)]
    bare_many = [x for _ in range(5) for x in _at_once([write] * APPROVERS)]
    return {
        "lone": _p99(lone),
        "contended": _p99(contended),
        "distinct": _p99(distinct),
        "bare_lone": _p99(bare_lone),
        "bare_many": _p99(bare_many),
    }


def burst_calls() -> int:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.reviews import DynamoReviewLedger, DynamoSuggestionStore
    from tripagent.adapters.llm.rules import RulesProvider
    from tripagent.adapters.sqs import SqsReviewQueue
    from tripagent.adapters.system import SystemClock
    from tripagent.application.review import Reviewer
    from tripagent.bootstrap import session_store, trip_workspace
    from tripagent.settings import table_settings
    from tripagent_local.queues import LocalQueues
    from tripagent_local.template import QueueSource, QueueSpec

    calls = 0

    class Counting(RulesProvider):
        def chat(self, request: Any) -> Any:
            nonlocal calls
            calls += 1
            return super().chat(request)

    class Sender:  # boto3's send_message, onto a private queue (the stack's has its own consumer)
        def send_message(self, **kwargs: Any) -> Any:
            return queues.handle("AmazonSQS.SendMessage", kwargs)

    s = table_settings()
    client = dynamodb_client(s.region, s.dynamodb_endpoint_url)
    workspace = trip_workspace()
    reviewer: Reviewer | None = None

    def invoke(_: str, event: dict[str, Any]) -> dict[str, Any]:
        assert reviewer is not None
        for record in event["Records"]:
            reviewer.review(json.loads(record["body"])["tripId"])
        return {"batchItemFailures": []}

    spec = QueueSpec("Q", "bench.fifo", fifo=True, delay_s=1, max_receive_count=3)
    with tempfile.TemporaryDirectory() as tmp:
        queues = LocalQueues(
            [spec], [QueueSource("Reviewer", "Q", "Q", 10, True)], "http://local", invoke, Path(tmp) / "dl"
        )
        reviewer = Reviewer(
            trips=workspace.trips,
            ledger=DynamoReviewLedger(client, s.table_name),
            queue=SqsReviewQueue(Sender(), queues.queues["Q"].url),  # type: ignore[arg-type]
            suggestions=DynamoSuggestionStore(client, s.table_name),
            sessions=session_store(),
            clock=SystemClock(),
            model=lambda: (Counting(), "rules"),
        )
        queues.start()
        try:
            trip = workspace.create_trip("ana", title="Burst")
            workspace.run_operation("ana", trip.tripId, "add_day", {})
            for i in range(10):
                event = workspace.run_operation(
                    "ana", trip.tripId, "add_stop", {"dayIndex": 0, "name": f"Stop {i}", "kind": "poi"}
                ).event
                assert event is not None
                reviewer.enlist(event)
            queues.wait_idle(30)
        finally:
            queues.stop()
    return calls


def report() -> bool:
    m = approvals()
    ratio = m["contended"] / m["lone"]
    print("review and suggestions (DynamoDB Local)")
    print(
        f"  approval p99: lone {m['lone']:.0f} ms, 50 at once on one suggestion {m['contended']:.0f} ms  "
        f"ratio {ratio:4.2f}  goal ≤ 3  {'ok' if ratio <= 3 else 'OVER'}"
    )
    print(
        f"    same load on 50 different suggestions {m['distinct']:.0f} ms (contention costs "
        f"{m['contended'] / m['distinct']:.2f}×); a bare DynamoDB Local write: lone {m['bare_lone']:.0f} ms, "
        f"50 at once {m['bare_many']:.0f} ms ({m['bare_many'] / m['bare_lone']:.1f}× on this machine)"
    )
    calls = burst_calls()
    print(f"  model calls per burst of 10 operations   {calls}  goal 1  {'ok' if calls == 1 else 'OVER'}")
    return ratio <= 3 and calls == 1
