"""The soak (``make soak``): many members at once on a local stack of its own, for a bounded time, with
faults injected if asked; then the invariants, checked once the queues drain.

Locust drives it, headless, from this process (``locust.env.Environment``): each simulated member signs
in, creates a trip of their own with two editors, and loops over the real mix (reads, operations with
``expectedVersion`` whose 409s they handle as a client would, brief-chat turns, generations, agent chat
streams, mentions, and the reviewer's suggestions answered by both editors at once), pausing 0.5–1.5 s
between actions as a person would. First, one member alone runs the same mix, warm, for the p95 the
soak's is compared with. At the end it prints, per route, the requests, p50 / p95 / p99 and failures,
and checks:

- the soak's p95 at most 3× one member's (without faults);
- no 5xx but the typed 503 (or a model's 502) of a failing dependency, and none at all without a fault;
  a typed ``ai_*`` error within ``AI_TIMEOUT_S`` and 2 s;
- every operation a member saw succeed is in its trip exactly once and none it saw fail: the trip's
  version is its creation's plus one per success (plus at most the answers whose outcome it could not
  know: a 503 may come after the commit);
- every committed whitelisted operation reached the bus once (at least once under the store's and the
  consumers' faults), was recorded exactly once in its trip's session, reviewed (its ledger settled, none
  left queued or claimed) and is in at most one suggestion;
- every member's chat turn and mention accepted is in the session, once, and a mention's reply at the
  sequence number its 202 named; every session's turns have unique, increasing numbers;
- no suggestion has two winners, no trip moved more than once for one, and each trip's WebSocket
  subscriber stayed connected and heard every applied suggestion decided;
- no dead letter, and each fault's recovery within 10 s.

``--fault`` (``SOAK_FAULT``) names faults, each injected a third of the way in for a third of the run
(20 s at most): ``valhalla`` and ``dynamodb`` stop the engine and start it again (the store keeps its data
on disk), ``consumers`` makes 30 % of the consumers' invocations die mid-batch (``tripagent fault``),
``model`` makes the deployment's provider (``fake_model.py``) slow, 503, 429 and garbage in turn; ``all``
injects them together.
"""

from __future__ import annotations

# Locust runs on gevent, which must patch the standard library before anything imports ssl or sockets.
from gevent import monkey

monkey.patch_all()

import argparse
import collections
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

BRIEF = "2 days by road bike from Sant Julià de Lòria to Soldeu"
CHAT = "3 days gravel from Andorra la Vella to Canillo"
EXPECTED_503 = {"routing_unavailable", "dependency_unavailable", "ai_unavailable"}
ENGINES = ("valhalla", "dynamodb")
FAULTS = (*ENGINES, "consumers", "model")
# The model's failures, one after the other while its fault lasts (benchmarks/fake_model.py)
MODEL_FAULTS = ("slow", "5xx", "429", "garbage")
AI_TIMEOUT_S = 4.0  # the soak's stack holds every model call to this under the model fault
HEALTHY_REPLY = "Where would you like to start?"  # what the fake model's brief chat says when healthy
RECOVERY = {
    "valhalla": "generation worked again",
    "dynamodb": "a new operation reached the bus through the outbox",
    "consumers": "a new operation reached the bus through the outbox",
    "model": "the brief chat answered from the model",
}
CHILDREN: list[subprocess.Popen[bytes]] = []  # helper processes to end with the soak (the fake model)
ALONE_WARMUP_S, ALONE_S = 45.0, 30.0  # one member's run, before the soak: at most its warm-up, measured
# What a member's tasks call (not approvals, which wait for a suggestion, nor its first trip and editors)
TASK_ROUTES = {
    "GET /me", "GET /trips", "GET /trips/{id}", "GET suggestions", "POST ops", "POST ai-chat",
    "POST ai-generate", "POST agent/chat", "POST mentions",
}  # fmt: skip
LOAD_P95_GOAL = 3.0  # the soak's p95 against one member's, without faults
FAULT_MAX_S = 20.0  # a fault starts a third of the way in and lasts a third of the run, at most this
CONSUMER_FAULT_RATE = 0.3  # the share of consumer invocations that die mid-batch while the fault lasts


class Ledger:
    """What the members saw, for the invariants: per trip, the operations that succeeded and failed."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.trips: dict[str, dict[str, Any]] = {}
        self.turns: dict[str, dict[str, Any]] = {}  # per trip, the members' chat turns and mentions
        self.slowest_ai_error_s = 0.0  # the longest a typed ai_* error took to come back
        self.errors: collections.Counter[tuple[str, int, str]] = collections.Counter()
        self.recovered_after_s: dict[str, float] = {}  # by fault
        self.alone_p95_ms = 0.0  # the same mix's p95 with one member
        self.winners: collections.Counter[str] = collections.Counter()
        self.moved_too_far = 0
        self.suggestion_trip: dict[str, str] = {}
        self.unknown_answers: set[str] = set()  # answered while the store failed: applied or not
        # Per trip, the suggestions its subscriber heard decided, and the subscribers' dropped connections.
        self.heard_decided: dict[str, set[str]] = collections.defaultdict(set)
        self.subscribed: set[str] = set()
        self.dropped = 0
        self.drop_reasons: collections.Counter[str] = collections.Counter()
        self.listening = True

    def created(self, trip_id: str, version: int, auth: dict[str, str]) -> None:
        with self.lock:
            self.trips[trip_id] = {"created": version, "ok": 0, "failed": 0, "unknown": 0, "auth": auth}
            self.turns[trip_id] = {"accepted": 0, "unknown": 0, "seqs": set()}

    def turn(self, trip_id: str, status: int, seq: int | None = None) -> None:
        """A member's chat turn or mention: accepted (so it must be in the session), refused, or unknown."""
        with self.lock:
            seen = self.turns[trip_id]
            if status in (200, 202):
                seen["accepted"] += 1
                if seq is not None:
                    seen["seqs"].add(seq)
            elif status >= 500 or status == 0:
                seen["unknown"] += 1

    def op(self, trip_id: str, outcome: str) -> None:
        """``ok``, ``failed`` or ``unknown``: a 503 or a dropped answer while a dependency was failing may
        come after the write committed (or before it): the member cannot know, and neither can we."""
        with self.lock:
            self.trips[trip_id][outcome] += 1

    def answered(
        self, trip_id: str, suggestion_id: str, statuses: list[int], moved: int, known: bool = True
    ) -> None:
        """Two editors' answers to one suggestion: how many approvals won, and how far the trip moved
        (not ``known`` when an answer or the trip's read failed with the store)."""
        with self.lock:
            self.winners[suggestion_id] += statuses.count(200)
            self.suggestion_trip[suggestion_id] = trip_id
            if not known:
                self.unknown_answers.add(suggestion_id)
                return
            self.trips[trip_id]["ok"] += moved
            self.moved_too_far += moved > 1

    def listen(self, ws_url: str, trip_id: str, token: str) -> None:
        """A member's open trip page: one WebSocket subscribed to the trip for the whole soak (a greenlet),
        keeping which suggestions it heard decided."""
        import json

        import websocket

        try:
            # $connect and subscribe are invocations: a cold environment takes seconds under load.
            ws = websocket.create_connection(ws_url, subprotocols=["tripagent", token], timeout=30)
            ws.send(json.dumps({"action": "subscribe", "tripId": trip_id}))
            ws.settimeout(2)  # then wake every 2 s to see whether the soak is over
            while self.listening:
                try:
                    push = json.loads(ws.recv())
                except websocket.WebSocketTimeoutException:
                    continue
                if push.get("type") == "subscribed":
                    self.subscribed.add(trip_id)
                elif push.get("type") == "suggestion.updated" and push.get("status") == "applied":
                    self.heard_decided[trip_id].add(push["suggestionId"])
            ws.close()
        except Exception as exc:  # any failure of the channel is a dropped connection, counted
            self.dropped += 1
            self.drop_reasons[type(exc).__name__] += 1


def _user_class(ledger: Ledger, tokens: dict[str, str]) -> type:
    import gevent
    from locust import HttpUser, between, task

    numbers = itertools.count(1)  # one member per simulated user (their own rate limits and trip)

    class Member(HttpUser):
        wait_time = between(0.5, 1.5)  # a person reading between actions (the two editors still race)

        def on_start(self) -> None:
            self.name = f"soak{next(numbers)}"
            self.auth = {"Authorization": f"Bearer {tokens.setdefault(self.name, _token(self.name))}"}
            title = {"title": f"{self.name}'s trip"}
            created = self.client.post("/trips", json=title, headers=self.auth, name="POST /trips")
            body = created.json()
            self.trip_id, self.version = body["tripId"], body["version"]
            ledger.created(self.trip_id, self.version, self.auth)
            # Two editors who answer the reviewer's suggestions on this trip, at the same moment.
            self.editors = []
            for suffix in ("a", "b"):
                editor = f"{self.name}-{suffix}"
                member = {"userId": editor, "role": "editor"}
                added = self.client.post(
                    f"/trips/{self.trip_id}/members", json=member, headers=self.auth, name="POST members"
                )
                if added.status_code == 201:
                    self.version = added.json()["trip"]["version"]
                    ledger.op(self.trip_id, "ok")
                elif added.status_code >= 500 or added.status_code == 0:
                    ledger.op(self.trip_id, "unknown")
                self.editors.append({"Authorization": f"Bearer {_token(editor)}"})
            ws_url = str(self.host).replace("http://", "ws://") + "/live"
            gevent.spawn(ledger.listen, ws_url, self.trip_id, tokens[self.name])

        def _post(self, path: str, body: dict[str, Any], name: str) -> Any:
            return self.client.post(path, json=body, headers=self.auth, name=name, catch_response=True)

        def _check(self, response: Any, route: str) -> None:
            if response.status_code >= 500:
                code = _code(response)
                ledger.errors[(route, response.status_code, code)] += 1
                if code.startswith("ai_"):  # the function's time: not the wait for a free environment
                    waited = float(response.headers.get("x-local-environment-wait-ms", 0)) / 1000
                    took = response.elapsed.total_seconds() - waited
                    ledger.slowest_ai_error_s = max(ledger.slowest_ai_error_s, took)

        @task(6)
        def read(self) -> None:
            for path, name in [
                ("/me", "GET /me"),
                (f"/trips/{self.trip_id}", "GET /trips/{id}"),
                ("/trips", "GET /trips"),
            ]:
                self._check(self.client.get(path, headers=self.auth, name=name), name)

        @task(4)
        def operate(self) -> None:
            has_day = getattr(self, "has_day", False)
            args = {"dayIndex": 0, "name": "Coffee", "kind": "food"} if has_day else {}
            op = "add_stop" if has_day else "add_day"
            with self.client.post(
                f"/trips/{self.trip_id}/ops",
                json={"op": op, "args": args, "expectedVersion": self.version},
                headers=self.auth,
                name="POST ops",
                catch_response=True,
            ) as response:
                if response.status_code == 200:
                    self.version = response.json()["trip"]["version"]
                    self.has_day = True
                    ledger.op(self.trip_id, "ok")
                    response.success()
                elif response.status_code == 409:  # as a client would: reload, and try again next time
                    self.version = response.json().get("currentVersion", self.version)
                    ledger.op(self.trip_id, "failed")
                    response.success()
                elif response.status_code >= 500 or response.status_code == 0:
                    ledger.op(self.trip_id, "unknown")
                    if _typed_503(response):
                        response.success()  # a typed answer while a dependency fails, as designed
                else:
                    ledger.op(self.trip_id, "failed")
                self._check(response, "POST ops")

        @task(2)
        def brief_chat(self) -> None:
            messages = [{"role": "user", "content": CHAT}]
            with self.client.post(
                "/trips/ai-chat",
                json={"messages": messages},
                headers=self.auth,
                name="POST ai-chat",
                catch_response=True,
            ) as response:
                if response.status_code == 429:
                    response.success()  # the per-member rate limit (or the model's), as designed
                elif _typed_503(response):
                    response.success()
                self._check(response, "POST ai-chat")

        @task(1)
        def generate(self) -> None:
            with self.client.post(
                "/trips/ai-generate",
                json={"brief": BRIEF},
                headers=self.auth,
                name="POST ai-generate",
                catch_response=True,
            ) as response:
                if _typed_503(response):
                    response.success()
                elif response.status_code == 429:
                    response.success()  # the model's rate limit, passed on
                self._check(response, "POST ai-generate")

        @task(1)
        def agent_chat(self) -> None:
            body = {
                "messages": [
                    {"id": "m1", "role": "user", "parts": [{"type": "text", "text": "what is the plan?"}]}
                ]
            }
            with self.client.post(
                f"/trips/{self.trip_id}/agent/chat",
                json=body,
                headers=self.auth,
                name="POST agent/chat",
                catch_response=True,
            ) as response:
                if response.status_code == 429:
                    response.success()
                elif response.status_code == 200 and "[DONE]" not in response.text:
                    response.failure("the stream did not end")
                elif _typed_503(response):
                    response.success()
                ledger.turn(self.trip_id, response.status_code)
                self._check(response, "POST agent/chat")

        @task(1)
        def mention(self) -> None:
            mention = {"text": "@agent how long is day 1?"}
            with self._post(f"/trips/{self.trip_id}/agent/mentions", mention, "POST mentions") as response:
                if response.status_code == 429 or _typed_503(response):
                    response.success()
                seq = response.json().get("seq") if response.status_code == 202 else None
                ledger.turn(self.trip_id, response.status_code, seq)
                self._check(response, "POST mentions")

        @task(2)
        def answer_suggestions(self) -> None:
            """Both editors approve each open suggestion at once (or one denies, the other approves): one
            approval wins, the other learns it was decided; the trip moves by at most one version."""
            listed = self.client.get(
                f"/trips/{self.trip_id}/agent/suggestions", headers=self.editors[0], name="GET suggestions"
            )
            self._check(listed, "GET suggestions")
            if listed.status_code != 200:
                return
            for suggestion in listed.json()["suggestions"][:2]:
                sid = suggestion["suggestionId"]
                before = self._version()
                if before is None:
                    return
                deny_first = hash(sid) % 3 == 0
                answers = [
                    gevent.spawn(self._answer, sid, editor, approved=not (deny_first and i == 1))
                    for i, editor in enumerate(self.editors)
                ]
                gevent.joinall(answers)
                statuses = [a.value for a in answers]
                after = self._version()
                if after is None or any(s >= 500 or s == 0 for s in statuses):  # it may have been applied
                    ledger.op(self.trip_id, "unknown")
                    ledger.answered(self.trip_id, sid, statuses, 0, known=False)
                    self.version = after or before
                    continue
                moved = after - before
                ledger.answered(self.trip_id, sid, statuses, moved)
                self.version = before + moved

        def _answer(self, sid: str, editor: dict[str, str], *, approved: bool) -> int:
            path = f"/trips/{self.trip_id}/agent/suggestions/{sid}/approve"
            with self.client.post(
                path, json={"id": sid, "approved": approved}, headers=editor, name="POST approve",
                catch_response=True,
            ) as response:  # fmt: skip
                if response.status_code == 409:  # decided by the other editor first: as designed
                    response.success()
                self._check(response, "POST approve")
                return int(response.status_code) if approved else -1  # a denial never moves the trip

        def _version(self) -> int | None:
            trip = self.client.get(f"/trips/{self.trip_id}", headers=self.auth, name="GET /trips/{id}")
            self._check(trip, "GET /trips/{id}")
            return int(trip.json()["version"]) if trip.status_code == 200 else None

    return Member


def _typed_503(response: Any) -> bool:
    """The typed answer of a failing dependency (a model's unusable reply is its 502)."""
    return response.status_code in (502, 503) and _code(response) in EXPECTED_503


def _code(response: Any) -> str:
    try:
        return str(response.json().get("error", ""))
    except ValueError:
        return ""


def _token(user: str) -> str:
    from tripagent_local import devauth
    from tripagent_local.paths import STATE_DIR

    return devauth.mint_token(user, state_dir=STATE_DIR)


def _stored(
    dynamodb_port: int, trip_ids: list[str]
) -> tuple[dict[str, list[Any]], dict[str, list[Any]], dict[tuple[str, str], str]]:
    """Each trip's session turns, in order, its suggestions, and the reviewer's ledger (the status of each
    operation it enlisted), read from the stack's table itself."""
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.keys import review_op_sk, session_pk
    from tripagent.adapters.dynamodb.paging import query_items
    from tripagent.adapters.dynamodb.proposals import DynamoProposalStore
    from tripagent.adapters.dynamodb.sessions import DynamoSessionStore

    os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")  # DynamoDB Local takes any credentials
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{dynamodb_port}")
    (table,) = client.list_tables()["TableNames"]
    sessions = DynamoSessionStore(client, table, retention_s=86_400)
    proposals = DynamoProposalStore(client, table)
    turns: dict[str, list[Any]] = {}
    for trip_id in trip_ids:
        turns[trip_id] = []
        while page := sessions.turns(trip_id, after=turns[trip_id][-1].seq if turns[trip_id] else 0):
            turns[trip_id] += page
    reviews: dict[tuple[str, str], str] = {}
    for trip_id in trip_ids:
        items = query_items(
            client,
            TableName=table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :op)",
            ExpressionAttributeValues={":pk": {"S": session_pk(trip_id)}, ":op": {"S": review_op_sk("")}},
        )
        for item in items:
            reviews[(trip_id, item["SK"]["S"].removeprefix(review_op_sk("")))] = item["status"]["S"]
    return turns, {t: list(proposals.of_trip(t, "suggestion").values()) for t in trip_ids}, reviews


def _session_invariants(
    events: list[dict[str, Any]], turns: dict[str, list[Any]], suggestions: dict[str, list[Any]]
) -> tuple[int, int, int, int]:
    """Operations not recorded exactly once in their trip's session, sessions whose sequence numbers are
    not 1, 2, 3, ..., operations raised in two suggestions, and suggestions of operations never committed."""
    committed = {
        (e["detail"]["tripId"], e["detail"]["operationId"]) for e in events if "operationId" in e["detail"]
    }
    recorded = collections.Counter(
        (trip_id, t.data["operationId"])
        for trip_id, ts in turns.items()
        for t in ts
        if t.data.get("operationId")
    )
    not_once = sum(1 for key in committed if key[0] in turns and recorded[key] != 1)
    not_once += sum(1 for key in recorded if key not in committed)  # recorded, yet never committed
    # A deduplicated redelivery may leave a gap in the numbers (the counter moved before the dedupe
    # condition refused it): the numbers must be unique and increasing, not contiguous.
    out_of_order = sum(1 for ts in turns.values() if any(b.seq <= a.seq for a, b in itertools.pairwise(ts)))
    raised = collections.Counter(
        (trip_id, op) for trip_id, ps in suggestions.items() for p in ps for op in p.operationIds
    )
    twice = sum(1 for n in raised.values() if n > 1)
    unknown = sum(1 for key in raised if key not in committed)
    return not_once, out_of_order, twice, unknown


def _chat_invariants(ledger: Ledger, turns: dict[str, list[Any]]) -> tuple[int, int, int, int]:
    """The members' chat turns and mentions stored, those accepted (200 or 202) yet missing, those stored
    past what was accepted (beyond the answers whose outcome the member could not know), and the sequence
    numbers of mentions' replies that are not an assistant's turn of the trip."""
    stored = lost = doubled = missing = 0
    for trip_id, seen in ledger.turns.items():
        mine = [t for t in turns.get(trip_id, []) if t.role == "user" and t.kind in ("chat", "mention")]
        stored += len(mine)
        lost += max(0, seen["accepted"] - len(mine))
        doubled += max(0, len(mine) - seen["accepted"] - seen["unknown"])
        # A mention's 202 names the sequence number of the agent's reply to it
        replies = {t.seq for t in turns.get(trip_id, []) if t.role == "assistant"}
        missing += len(seen["seqs"] - replies)
    return stored, lost, doubled, missing


def _start_stack(log: Path, faults: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """``tripagent dev`` on free ports, a process of its own (Locust's gevent patches this one). With the
    store's fault, DynamoDB Local keeps its data on disk (a directory of the soak's own, emptied first), so
    that it survives its stop."""
    import shutil

    import httpx
    from tripagent_local.engines import free_port

    ports = {"PORT": free_port(), "DYNAMODB_PORT": free_port(), "VALHALLA_PORT": free_port()}
    env = {**os.environ, **{k: str(v) for k, v in ports.items()}}
    if "dynamodb" in faults:
        data = log.parent.parent / "soak-dynamodb"
        shutil.rmtree(data, ignore_errors=True)
        env["PERSIST_DIR"] = str(data)
    if "model" in faults:  # the deployment's provider: an OpenAI-compatible server that fails on command
        model_port = free_port()
        with (log.parent / "soak-model.log").open("wb") as out:
            model = subprocess.Popen(
                [sys.executable, "-m", "benchmarks.fake_model", "--port", str(model_port)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        CHILDREN.append(model)
        os.environ["SOAK_MODEL_URL"] = f"http://127.0.0.1:{model_port}"
        env |= {
            "AI_PROVIDER": "openai",
            "AI_MODEL": "fake",
            "AI_BASE_URL": f"http://127.0.0.1:{model_port}/v1",
            "AI_TIMEOUT_S": str(AI_TIMEOUT_S),
        }
    tripagent = Path(sys.executable).with_name("tripagent")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [tripagent, "dev", "--quiet"], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{ports['PORT']}"
    os.environ["SOAK_DYNAMODB_PORT"] = str(ports["DYNAMODB_PORT"])  # for the invariants read from the table
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"tripagent dev exited; see {log}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code in (200, 503):
                return process, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit(f"tripagent dev did not answer; see {log}")


def run(users: int, seconds: float, faults: list[str]) -> bool:
    from tripagent_local.paths import STATE_DIR

    log = STATE_DIR / "logs" / "soak-dev.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    process, url = _start_stack(log, faults)
    try:
        import gevent
        from locust.env import Environment

        ledger = Ledger()
        member = _user_class(ledger, {})
        ledger.alone_p95_ms = _one_member(member, url)
        # stop_timeout: a member finishes the request in flight, so that what it saw is what happened
        env = Environment(user_classes=[member], host=url, stop_timeout=30)
        runner = env.create_local_runner()
        runner.start(users, spawn_rate=max(1.0, users / 4))
        started = time.monotonic()
        if faults:
            lasting = min(seconds / 3, FAULT_MAX_S)
            gevent.sleep(seconds / 3)
            for name in faults:
                _break(url, name, lasting)
            gevent.sleep(lasting)
            for name in faults:
                _heal(url, name)
            recoveries = [gevent.spawn(_recovers, url, name) for name in faults]
            gevent.joinall(recoveries)
            ledger.recovered_after_s = {name: r.value for name, r in zip(faults, recoveries, strict=True)}
        gevent.sleep(max(0.0, seconds - (time.monotonic() - started)))
        members = runner.user_count
        runner.stop()  # waits, up to stop_timeout, for the requests in flight
        runner.quit()
        import httpx

        idle = bool(httpx.get(f"{url}/_local/idle?timeout=60", timeout=90).json()["idle"])
        gevent.sleep(3)  # the last pushes on their way (the stream delivers after the table wrote)
        ledger.listening = False
        gevent.sleep(2.5)  # each listener's recv times out and it closes its socket
        return report(env, url, ledger, members, faults, idle)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
        for child in CHILDREN:
            child.terminate()


def _one_member(member: type, url: str) -> float:
    """The p95 of the same mix with one member on the same stack, measured first: once every route has
    been called twice (its functions' first environments started), for ``ALONE_S``, with no pause between
    actions so that the p95 rests on a few hundred requests (one member alone has nobody to wait for)."""
    import gevent
    from locust import constant
    from locust.env import Environment

    alone = type("AloneMember", (member,), {"wait_time": constant(0.02)})
    env = Environment(user_classes=[alone], host=url, stop_timeout=30)
    runner = env.create_local_runner()
    runner.start(1, spawn_rate=1)
    warm_until = time.monotonic() + ALONE_WARMUP_S
    while time.monotonic() < warm_until:
        counts = {e.name: e.num_requests for e in env.stats.entries.values()}
        if all(counts.get(route, 0) >= 2 for route in TASK_ROUTES):
            break
        gevent.sleep(0.5)
    env.stats.reset_all()
    gevent.sleep(ALONE_S)
    runner.stop()
    runner.quit()
    return float(env.stats.total.get_response_time_percentile(0.95))


def _engine(url: str, action: str, name: str) -> None:
    import httpx

    httpx.post(f"{url}/_local/engines/{name}/{action}", timeout=60).raise_for_status()


def _break(url: str, fault: str, lasting_s: float) -> None:
    import gevent

    if fault in ENGINES:
        _engine(url, "stop", fault)
    elif fault == "consumers":
        _consumer_faults(url, CONSUMER_FAULT_RATE)
    elif fault == "model":  # each failure of the model in turn, for a share of the fault's time

        def cycle() -> None:
            for mode in MODEL_FAULTS:
                _model_mode(mode)
                gevent.sleep(lasting_s / len(MODEL_FAULTS))

        gevent.spawn(cycle)


def _heal(url: str, fault: str) -> None:
    if fault in ENGINES:
        _engine(url, "start", fault)
    elif fault == "consumers":
        _consumer_faults(url, 0.0)
    elif fault == "model":
        _model_mode("healthy")


def _model_mode(mode: str) -> None:
    import httpx

    httpx.post(
        f"{os.environ['SOAK_MODEL_URL']}/_fake/mode", json={"mode": mode}, timeout=10
    ).raise_for_status()


def _consumer_faults(url: str, rate: float) -> None:
    import httpx

    httpx.post(f"{url}/_local/faults/consumers", json={"rate": rate}, timeout=30).raise_for_status()


def _trip_with_a_reviewed_operation(url: str, headers: dict[str, str]) -> dict[str, Any] | None:
    """A new trip with a day and a stop (a whitelisted operation, which the outbox relays to the bus)."""
    import httpx

    created = httpx.post(f"{url}/trips", json={"title": "probe"}, headers=headers, timeout=30)
    if created.status_code != 201:
        return None
    trip: dict[str, Any] = created.json()
    for op, args in (("add_day", {}), ("add_stop", {"dayIndex": 0, "name": "Probe", "kind": "food"})):
        body = {"op": op, "args": args, "expectedVersion": trip["version"]}
        done = httpx.post(f"{url}/trips/{trip['tripId']}/ops", json=body, headers=headers, timeout=30)
        if done.status_code != 200:
            return None
        trip = done.json()["trip"]
    return trip


def _recovers(url: str, fault: str) -> float:
    """Seconds from a fault's end until what it broke works again: for Valhalla a generation succeeds; for
    the store and the consumers, an operation committed afterwards reaches the bus through the outbox (its
    stream and relay caught up)."""
    import httpx

    back = time.monotonic()
    headers = {"Authorization": f"Bearer {_token(f'soak-probe-{fault}')}"}
    trip: dict[str, Any] | None = None
    while time.monotonic() - back < 60:
        try:
            if fault == "model":
                chat = {"messages": [{"role": "user", "content": CHAT}]}
                response = httpx.post(f"{url}/trips/ai-chat", json=chat, headers=headers, timeout=30)
                if response.status_code == 200 and HEALTHY_REPLY in response.text:
                    return time.monotonic() - back
            elif fault == "valhalla":
                brief = {"brief": BRIEF}
                response = httpx.post(f"{url}/trips/ai-generate", json=brief, headers=headers, timeout=30)
                if response.status_code == 201:
                    return time.monotonic() - back
            elif trip is None:
                trip = _trip_with_a_reviewed_operation(url, headers)
            else:
                events = httpx.get(f"{url}/_local/events", timeout=30).json()["events"]
                if any(e["detail"].get("tripId") == trip["tripId"] for e in events):
                    return time.monotonic() - back
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    return float("inf")


def _print_routes(stats: Any, members: int, faults: list[str]) -> None:
    print(
        f"\nsoak: {members} members, {stats.total.num_requests} requests, {stats.total.total_rps:.1f} req/s"
        + (f", faults: {', '.join(faults)}" if faults else "")
    )
    print(f"  {'route':20} {'requests':>8} {'p50':>8} {'p95':>8} {'p99':>8}  failures")
    for entry in sorted(stats.entries.values(), key=lambda e: e.name):
        p50, p95, p99 = (entry.get_response_time_percentile(q) for q in (0.5, 0.95, 0.99))
        times = f"{p50:>6.0f}ms {p95:>6.0f}ms {p99:>6.0f}ms"
        print(f"  {entry.name:20} {entry.num_requests:>8} {times}  {entry.num_failures}")


def report(env: Any, url: str, ledger: Ledger, members: int, faults: list[str], idle: bool) -> bool:  # noqa: PLR0917
    import httpx

    _print_routes(env.stats, members, faults)
    bus = httpx.get(f"{url}/_local/events", timeout=30).json()["events"]
    turns, suggestions, reviews = _stored(int(os.environ["SOAK_DYNAMODB_PORT"]), list(ledger.trips))
    checks = [
        _load_figure(env.stats, ledger, faults),
        _errors_seen(ledger, faults),
        _trip_versions(url, ledger, bus, faults, idle),
        _sessions_and_reviews(ledger, bus, turns, suggestions, reviews),
        _suggestions_and_subscribers(ledger),
        _faults_healed(url, ledger),
    ]
    ok = all(checks)
    print("  invariants:", "ok" if ok else "FAILED")
    return ok


def _load_figure(stats: Any, ledger: Ledger, faults: list[str]) -> bool:
    """The soak's p95 against one member's: a goal without faults (with one, fast typed errors skew it)."""
    load_p95 = float(stats.total.get_response_time_percentile(0.95))
    ratio = load_p95 / max(ledger.alone_p95_ms, 1.0)
    print(
        f"  sustained {stats.total.total_rps:.1f} req/s with p95 {load_p95:.0f} ms, against "
        f"{ledger.alone_p95_ms:.0f} ms for one member: {ratio:.2f}× "
        f"(goal ≤ {LOAD_P95_GOAL:.0f}×, without faults)"
    )
    return bool(faults) or ratio <= LOAD_P95_GOAL


def _errors_seen(ledger: Ledger, faults: list[str]) -> bool:
    unexpected = {
        k: v for k, v in ledger.errors.items() if not (faults and k[1] in (502, 503) and k[2] in EXPECTED_503)
    }
    print(f"  5xx seen: {dict(ledger.errors) or 0}; unexpected: {unexpected or 0}")
    ok = not unexpected
    if "model" in faults:
        slowest = ledger.slowest_ai_error_s
        print(
            f"  the slowest typed ai_* error: {slowest:.1f} s in its function (goal: AI_TIMEOUT_S "
            f"{AI_TIMEOUT_S:.0f} s + 2 s; the wait for a free local environment not counted)"
        )
        ok &= slowest <= AI_TIMEOUT_S + 2
    return ok


def _trip_versions(
    url: str, ledger: Ledger, bus: list[dict[str, Any]], faults: list[str], idle: bool
) -> bool:
    """Every write a member saw succeed is in its trip once, perhaps some of those whose outcome it could
    not know, and no other; each operation reached the bus once (at least once under a fault that makes
    the outbox retry, whose consumers must then dedupe: the session and review checks show it)."""
    import httpx

    lost = doubled = 0
    unknown = sum(seen["unknown"] for seen in ledger.trips.values())
    for trip_id, seen in ledger.trips.items():
        version = httpx.get(f"{url}/trips/{trip_id}", headers=seen["auth"], timeout=30).json()["version"]
        expected = seen["created"] + seen["ok"]
        lost += max(0, expected - version)
        doubled += max(0, version - expected - seen["unknown"])
        if not expected <= version <= expected + seen["unknown"]:
            seen_now = {k: v for k, v in seen.items() if k != "auth"}
            print(f"  {trip_id}: saw {seen_now}, the trip is at version {version}")
    events = collections.Counter(e["detail"]["operationId"] for e in bus if "operationId" in e["detail"])
    twice = sum(1 for n in events.values() if n > 1)
    redelivery_ok = bool(set(faults) & {"dynamodb", "consumers"})
    print(
        f"  operations: lost {lost}, doubled {doubled}, outcome unknown to the member {unknown}; events on "
        f"the bus twice: {twice}{' (allowed: at least once under this fault)' if redelivery_ok else ''}; "
        f"drained: {idle}"
    )
    return lost == 0 and doubled == 0 and (twice == 0 or redelivery_ok) and idle


def _sessions_and_reviews(
    ledger: Ledger,
    bus: list[dict[str, Any]],
    turns: dict[str, list[Any]],
    suggestions: dict[str, list[Any]],
    reviews: dict[tuple[str, str], str],
) -> bool:
    not_once, out_of_order, raised_twice, unknown = _session_invariants(bus, turns, suggestions)
    # Every committed whitelisted operation reviewed, and its ledger settled (none left queued or claimed),
    # but those a suggestion applied: the reviewer does not review its own patches.
    unreviewed = collections.Counter(
        reviews.get(key, "never enlisted")
        for e in bus
        if "operationId" in e["detail"] and e["detail"].get("metadata", {}).get("via") != "suggestion"
        if (key := (e["detail"]["tripId"], e["detail"]["operationId"]))[0] in ledger.trips
        and reviews.get(key) != "reviewed"
    )
    members_turns, turns_lost, turns_doubled, seqs_missing = _chat_invariants(ledger, turns)
    print(
        f"  sessions: {sum(len(t) for t in turns.values())} turns; operations not recorded exactly once: "
        f"{not_once}; sessions out of sequence: {out_of_order}; operations in two suggestions: "
        f"{raised_twice}; suggestions of no committed operation: {unknown}"
    )
    print(
        f"  reviews: committed operations not reviewed {sum(unreviewed.values())}"
        f"{' ' + str(dict(unreviewed)) if unreviewed else ''}; members' chat turns and mentions stored "
        f"{members_turns}, accepted yet missing {turns_lost}, more than accepted {turns_doubled}, a "
        f"mention's reply not at its seq {seqs_missing}"
    )
    return not (not_once or out_of_order or raised_twice or unknown or unreviewed) and not (
        turns_lost or turns_doubled or seqs_missing
    )


def _suggestions_and_subscribers(ledger: Ledger) -> bool:
    answered, won = len(ledger.winners), sum(1 for n in ledger.winners.values() if n == 1)
    two_winners = sum(1 for n in ledger.winners.values() if n > 1)
    print(
        f"  suggestions answered by two editors at once: {answered}, applied {won}, with two winners "
        f"{two_winners}; a trip moved more than once by one: {ledger.moved_too_far}"
    )
    applied = [sid for sid, n in ledger.winners.items() if n == 1]
    unheard = [sid for sid in applied if sid not in ledger.heard_decided[ledger.suggestion_trip[sid]]]
    print(
        f"  subscribers: {len(ledger.subscribed)} of {len(ledger.trips)} trips, dropped {ledger.dropped}"
        f"{' ' + str(dict(ledger.drop_reasons)) if ledger.dropped else ''}; "
        f"applied suggestions their trip's subscriber did not hear decided: {len(unheard)}"
    )
    # At least one suggestion applied, or "every subscriber heard every decision" says nothing.
    heard = bool(applied) and not unheard
    return (
        heard
        and ledger.dropped == 0
        and len(ledger.subscribed) == len(ledger.trips)
        and not (two_winners or ledger.moved_too_far)
    )


def _faults_healed(url: str, ledger: Ledger) -> bool:
    """No dead letter (every fault here heals within the sources' retries: a dead letter is something
    lost), and each fault's recovery within its goal."""
    import httpx

    dead = httpx.get(f"{url}/_local/dead-letters", timeout=30).json()["deadLetters"]
    injected = httpx.get(f"{url}/_local/faults", timeout=30).json()["injected"]
    if injected:
        print(f"  consumer invocations failed mid-batch by injection: {sum(injected.values())} {injected}")
    print(f"  dead letters: {len(dead)}")
    ok = not dead
    for name, back in ledger.recovered_after_s.items():
        print(f"  {name}: {RECOVERY[name]} {back:.1f} s after the fault ended (goal ≤ 10 s)")
        ok &= back <= 10
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(prog="make soak")
    parser.add_argument("--users", type=int, default=int(os.environ.get("SOAK_USERS", "16")))
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", "120")))
    parser.add_argument(
        "--fault",
        default=os.environ.get("SOAK_FAULT", ""),
        help=f"{', '.join(FAULTS)}, several with commas, or all (together, from 1/3 to 2/3 of the run)",
    )
    args = parser.parse_args()
    faults = list(FAULTS) if args.fault == "all" else [f for f in args.fault.split(",") if f]
    if unknown := set(faults) - set(FAULTS):
        parser.error(f"no fault {', '.join(sorted(unknown))}: {', '.join(FAULTS)} or all")
    return 0 if run(args.users, args.seconds, faults) else 1


if __name__ == "__main__":
    sys.exit(main())
