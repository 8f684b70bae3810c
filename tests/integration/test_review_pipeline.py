"""The reviewer's pipeline on DynamoDB Local and the local FIFO queue: redeliveries create nothing new,
a burst is reviewed in one model call, and the whole loop runs from an operation event to a suggestion."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from tripagent.adapters.aws import dynamodb_client
from tripagent.application.review import Reviewer
from tripagent.application.trips import TripWorkspace
from tripagent.domain.events import TripOperationCommitted
from tripagent.errors import DependencyUnavailable
from tripagent_local.queues import LocalQueues
from tripagent_local.stack import LocalStack

from tests.fixtures.review import CountingRules, review_pipeline


def pipeline(
    stack: LocalStack, tmp_path: Path, window_s: int = 1
) -> tuple[Reviewer, TripWorkspace, CountingRules, LocalQueues]:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    return review_pipeline(client, next(iter(stack.table_names.values())), tmp_path / "dl.jsonl", window_s)


def lodging_clash(workspace: TripWorkspace) -> tuple[str, list[TripOperationCommitted]]:
    trip = workspace.create_trip("ana", title="Review")
    workspace.run_operation("ana", trip.tripId, "add_day", {})
    events = []
    for name in ("Hotel A", "Hotel B"):
        outcome = workspace.run_operation(
            "ana", trip.tripId, "add_stop", {"dayIndex": 0, "name": name, "kind": "lodging"}
        )
        assert outcome.event is not None
        events.append(outcome.event)
    return trip.tripId, events


def test_the_same_operation_delivered_100_times_makes_one_suggestion_and_one_call(
    local_stack: LocalStack, tmp_path: Path
) -> None:
    reviewer, workspace, model, queues = pipeline(local_stack, tmp_path)
    try:
        trip_id, (first, second) = lodging_clash(workspace)
        reviewer.enlist(first)
        with ThreadPoolExecutor(max_workers=20) as pool:
            list(pool.map(lambda _: reviewer.enlist(second), range(100)))
        assert queues.wait_idle(30)
        assert model.calls == 1
        visible = reviewer.proposals.visible(trip_id, "ana", "2000-01-01T00:00:00.000Z")
        assert len(visible) == 1
        assert queues.queues["ReviewQueue"].sent == 2  # the other 99 were deduplicated on the operation id
        reviewer.enlist(second)  # after its review: not even queued
        assert queues.queues["ReviewQueue"].sent == 2
    finally:
        queues.stop()


def test_a_review_that_fails_after_its_claim_is_done_by_the_queues_retry(
    local_stack: LocalStack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fails between the claim and the review (CI's soak: one operation left ``reviewing``). The
    queue's retry, seconds later, takes the claim over: a trip's reviews run one at a time, so the claim
    was the failed run's. With a lease it would wait 300 s, past every retry, for the trip's next edit."""
    reviewer, workspace, model, queues = pipeline(local_stack, tmp_path)
    try:
        trip_id, (first, second) = lodging_clash(workspace)
        get, release = reviewer.trips.get, reviewer.ledger.release
        failures: list[str] = []

        def down_once(trip: str) -> Any:  # the store goes down after the claim...
            if not failures:
                failures.append(trip)
                raise DependencyUnavailable()
            return get(trip)

        def still_down(trip: str, operation_ids: list[str]) -> None:  # ...and the claim cannot be given back
            if len(failures) == 1:
                failures.append("release")
                raise DependencyUnavailable()
            release(trip, operation_ids)

        monkeypatch.setattr(reviewer.trips, "get", down_once)
        monkeypatch.setattr(reviewer.ledger, "release", still_down)
        reviewer.enlist(first)
        reviewer.enlist(second)
        assert queues.wait_idle(30)
        assert failures == [trip_id, "release"]
        assert model.calls == 1
        assert len(reviewer.proposals.visible(trip_id, "ana", "2000-01-01T00:00:00.000Z")) == 1
        assert reviewer.enlist(first) is False  # reviewed: not queued again
    finally:
        queues.stop()


def test_a_burst_of_ten_operations_is_one_model_call(local_stack: LocalStack, tmp_path: Path) -> None:
    reviewer, workspace, model, queues = pipeline(local_stack, tmp_path, window_s=2)
    try:
        trip = workspace.create_trip("ana", title="Burst")
        workspace.run_operation("ana", trip.tripId, "add_day", {})
        for i in range(10):
            outcome = workspace.run_operation(
                "ana", trip.tripId, "add_stop", {"dayIndex": 0, "name": f"Stop {i}", "kind": "poi"}
            )
            assert outcome.event is not None
            reviewer.enlist(outcome.event)
        assert queues.wait_idle(30)
        assert model.calls == 1
        query = json.loads(reviewer.sessions.recent(trip.tripId, limit=1)[0].model_dump_json())
        assert len(query["data"]["operationIds"]) == 10
    finally:
        queues.stop()


def test_the_loop_from_an_operation_to_an_approved_suggestion_on_the_local_stack(
    local_stack: LocalStack,
) -> None:
    """Through the gateway: ops → outbox → stream → bus → reviewer → FIFO queue → review → suggestion."""
    import time

    from tripagent_local import devauth

    url = local_stack.url
    auth = {"Authorization": f"Bearer {devauth.mint_token('ana', state_dir=local_stack.config.state_dir)}"}
    ben = {"Authorization": f"Bearer {devauth.mint_token('ben', state_dir=local_stack.config.state_dir)}"}
    trip = httpx.post(f"{url}/trips", headers=auth, json={"title": "Loop"}).json()
    version = trip["version"]
    for op, args in [
        ("add_member", {"userId": "ben", "role": "editor"}),
        ("add_day", {}),
        ("add_stop", {"dayIndex": 0, "name": "Hotel A", "kind": "lodging"}),
        ("add_stop", {"dayIndex": 0, "name": "Hotel B", "kind": "lodging"}),
    ]:
        response = httpx.post(
            f"{url}/trips/{trip['tripId']}/ops",
            headers=auth,
            json={"op": op, "args": args, "expectedVersion": version},
        )
        assert response.status_code == 200, response.text
        version = response.json()["trip"]["version"]
    deadline = time.monotonic() + 30
    suggestions: list[dict[str, Any]] = []
    while time.monotonic() < deadline and not suggestions:
        suggestions = httpx.get(f"{url}/trips/{trip['tripId']}/agent/suggestions", headers=ben).json()[
            "suggestions"
        ]
        time.sleep(0.3)
    assert len(suggestions) == 1
    s = suggestions[0]
    assert s["pendingPatch"]["op"] == "remove_stop"
    answer = httpx.post(
        f"{url}/trips/{trip['tripId']}/agent/suggestions/{s['suggestionId']}/approve",
        headers=ben,
        json={"id": s["suggestionId"], "approved": True},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["suggestion"]["status"] == "applied"
    again = httpx.post(
        f"{url}/trips/{trip['tripId']}/agent/suggestions/{s['suggestionId']}/approve",
        headers=auth,
        json={"id": s["suggestionId"], "approved": True},
    )
    assert again.status_code == 409
    assert again.json()["error"] == "already_decided"
    assert again.json()["decidedBy"] == "ben"
    stops = httpx.get(f"{url}/trips/{trip['tripId']}", headers=auth).json()["stops"]
    assert [x["name"] for x in stops] == ["Hotel A"]
    history = httpx.get(f"{url}/trips/{trip['tripId']}/agent/messages", headers=auth).json()["messages"]
    sources = [m["metadata"]["source"] for m in history]
    assert "threshold" in sources
