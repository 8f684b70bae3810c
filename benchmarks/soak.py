"""The soak (``make soak``): many members at once on a local stack of its own, for a bounded time, with a
fault injected if asked; then the invariants, checked once the queues drain.

Locust drives it, headless, from this process (``locust.env.Environment``): each simulated member signs
in, creates a trip of their own, and loops over the real mix (reads, operations with ``expectedVersion``
whose 409s they handle as a client would, brief-chat turns, generations, agent chat streams, mentions).
At the end it prints, per route, the requests, p50 / p95 / p99 and the statuses seen, and checks:

- no 5xx but the typed 503s of a failing dependency (and none at all without a fault);
- every operation a member saw succeed is in its trip exactly once: the trip's version is its creation's
  plus one per operation that succeeded, and none of those that failed;
- every committed whitelisted operation reached the bus exactly once (its ``TripOperationCommitted``),
  was recorded exactly once in its trip's session, and is in at most one suggestion (reviewed once);
- every session's turns have unique, increasing sequence numbers;
- no suggestion has two winners, and no trip moved more than once for one.

``--fault valhalla`` stops Valhalla a third of the way in and starts it again at two thirds, and reports
how long generation took to work again once it was back. Each member's trip also has a WebSocket
subscriber for the whole soak, which must hear every suggestion of its trip decided, and never drop.
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


class Ledger:
    """What the members saw, for the invariants: per trip, the operations that succeeded and failed."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.trips: dict[str, dict[str, Any]] = {}
        self.errors: collections.Counter[tuple[str, int, str]] = collections.Counter()
        self.recovered_after_s: float | None = None
        self.winners: collections.Counter[str] = collections.Counter()
        self.moved_too_far = 0
        self.suggestion_trip: dict[str, str] = {}
        # Per trip, the suggestions its subscriber heard decided, and the subscribers' dropped connections.
        self.heard_decided: dict[str, set[str]] = collections.defaultdict(set)
        self.subscribed: set[str] = set()
        self.dropped = 0
        self.drop_reasons: collections.Counter[str] = collections.Counter()
        self.listening = True

    def created(self, trip_id: str, version: int, auth: dict[str, str]) -> None:
        with self.lock:
            self.trips[trip_id] = {"created": version, "ok": 0, "failed": 0, "auth": auth}

    def op(self, trip_id: str, ok: bool) -> None:
        with self.lock:
            self.trips[trip_id]["ok" if ok else "failed"] += 1

    def answered(self, trip_id: str, suggestion_id: str, statuses: list[int], moved: int) -> None:
        """Two editors' answers to one suggestion: how many approvals won, and how far the trip moved."""
        with self.lock:
            self.winners[suggestion_id] += statuses.count(200)
            self.suggestion_trip[suggestion_id] = trip_id
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
        wait_time = between(0.05, 0.3)

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
                    ledger.op(self.trip_id, True)
                self.editors.append({"Authorization": f"Bearer {_token(editor)}"})
            ws_url = str(self.host).replace("http://", "ws://") + "/live"
            gevent.spawn(ledger.listen, ws_url, self.trip_id, tokens[self.name])

        def _post(self, path: str, body: dict[str, Any], name: str) -> Any:
            return self.client.post(path, json=body, headers=self.auth, name=name, catch_response=True)

        def _check(self, response: Any, route: str) -> None:
            if response.status_code >= 500:
                code = _code(response)
                ledger.errors[(route, response.status_code, code)] += 1

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
                    ledger.op(self.trip_id, True)
                    response.success()
                elif response.status_code == 409:  # as a client would: reload, and try again next time
                    self.version = response.json().get("currentVersion", self.version)
                    ledger.op(self.trip_id, False)
                    response.success()
                else:
                    ledger.op(self.trip_id, False)
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
                    response.success()  # the per-member rate limit, as designed
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
                if response.status_code == 503 and _code(response) in EXPECTED_503:
                    response.success()
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
                self._check(response, "POST agent/chat")

        @task(1)
        def mention(self) -> None:
            mention = {"text": "@agent how long is day 1?"}
            with self._post(f"/trips/{self.trip_id}/agent/mentions", mention, "POST mentions") as response:
                if response.status_code == 429:
                    response.success()
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
                deny_first = hash(sid) % 3 == 0
                answers = [
                    gevent.spawn(self._answer, sid, editor, approved=not (deny_first and i == 1))
                    for i, editor in enumerate(self.editors)
                ]
                gevent.joinall(answers)
                statuses = [a.value for a in answers]
                moved = self._version() - before
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
                return int(response.status_code) if approved else 0

        def _version(self) -> int:
            trip = self.client.get(f"/trips/{self.trip_id}", headers=self.auth, name="GET /trips/{id}")
            return int(trip.json()["version"])

    return Member


def _code(response: Any) -> str:
    try:
        return str(response.json().get("error", ""))
    except ValueError:
        return ""


def _token(user: str) -> str:
    from tripagent_local import devauth
    from tripagent_local.paths import STATE_DIR

    return devauth.mint_token(user, state_dir=STATE_DIR)


def _stored(dynamodb_port: int, trip_ids: list[str]) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Each trip's session turns, in order, and its suggestions, read from the stack's table itself."""
    from tripagent.adapters.aws import dynamodb_client
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
    return turns, {t: list(proposals.of_trip(t, "suggestion").values()) for t in trip_ids}


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


def _start_stack(log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``tripagent dev`` on free ports, a process of its own (Locust's gevent patches this one)."""
    import httpx
    from tripagent_local.engines import free_port

    ports = {"PORT": free_port(), "DYNAMODB_PORT": free_port(), "VALHALLA_PORT": free_port()}
    env = {**os.environ, **{k: str(v) for k, v in ports.items()}}
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


def run(users: int, seconds: float, fault: str | None) -> bool:
    from tripagent_local.paths import STATE_DIR

    log = STATE_DIR / "logs" / "soak-dev.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    process, url = _start_stack(log)
    try:
        import gevent
        from locust.env import Environment

        ledger = Ledger()
        # stop_timeout: a member finishes the request in flight, so that what it saw is what happened
        env = Environment(user_classes=[_user_class(ledger, {})], host=url, stop_timeout=30)
        runner = env.create_local_runner()
        runner.start(users, spawn_rate=max(1.0, users / 4))
        started = time.monotonic()
        if fault == "valhalla":
            gevent.sleep(seconds / 3)
            _engine(url, "stop", "valhalla")
            gevent.sleep(seconds / 3)
            _engine(url, "start", "valhalla")
            ledger.recovered_after_s = _generation_recovers(url)
        gevent.sleep(max(0.0, seconds - (time.monotonic() - started)))
        members = runner.user_count
        runner.stop()  # waits, up to stop_timeout, for the requests in flight
        runner.quit()
        import httpx

        idle = bool(httpx.get(f"{url}/_local/idle?timeout=60", timeout=90).json()["idle"])
        gevent.sleep(3)  # the last pushes on their way (the stream delivers after the table wrote)
        ledger.listening = False
        gevent.sleep(2.5)  # each listener's recv times out and it closes its socket
        return report(env, url, ledger, members, fault, idle)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)


def _engine(url: str, action: str, name: str) -> None:
    import httpx

    httpx.post(f"{url}/_local/engines/{name}/{action}", timeout=60).raise_for_status()


def _generation_recovers(url: str) -> float:
    """Seconds from Valhalla's return until a generation succeeds again."""
    import httpx

    back = time.monotonic()
    headers = {"Authorization": f"Bearer {_token('soak-probe')}"}
    while time.monotonic() - back < 60:
        response = httpx.post(f"{url}/trips/ai-generate", json={"brief": BRIEF}, headers=headers, timeout=30)
        if response.status_code == 201:
            return time.monotonic() - back
        time.sleep(0.2)
    return float("inf")


def report(env: Any, url: str, ledger: Ledger, members: int, fault: str | None, idle: bool) -> bool:  # noqa: PLR0917
    import httpx

    stats = env.stats
    print(
        f"\nsoak: {members} members, {stats.total.num_requests} requests, {stats.total.total_rps:.1f} req/s"
        + (f", fault: {fault}" if fault else "")
    )
    print(f"  {'route':20} {'requests':>8} {'p50':>8} {'p95':>8} {'p99':>8}  failures")
    for entry in sorted(stats.entries.values(), key=lambda e: e.name):
        p50, p95, p99 = (entry.get_response_time_percentile(q) for q in (0.5, 0.95, 0.99))
        times = f"{p50:>6.0f}ms {p95:>6.0f}ms {p99:>6.0f}ms"
        print(f"  {entry.name:20} {entry.num_requests:>8} {times}  {entry.num_failures}")
    unexpected = {
        k: v for k, v in ledger.errors.items() if not (fault and k[1] == 503 and k[2] in EXPECTED_503)
    }
    print(f"  5xx seen: {dict(ledger.errors) or 0}; unexpected: {unexpected or 0}")
    lost = doubled = 0
    for trip_id, seen in ledger.trips.items():
        owner = httpx.get(f"{url}/trips/{trip_id}", headers=seen["auth"], timeout=30).json()
        expected = seen["created"] + seen["ok"]
        lost += max(0, expected - owner["version"])
        doubled += max(0, owner["version"] - expected)
        if owner["version"] != expected:
            seen_now = {k: v for k, v in seen.items() if k != "auth"}
            print(f"  {trip_id}: saw {seen_now}, the trip is at version {owner['version']}")
    bus = httpx.get(f"{url}/_local/events", timeout=30).json()["events"]
    events = collections.Counter(e["detail"]["operationId"] for e in bus if "operationId" in e["detail"])
    twice = sum(1 for n in events.values() if n > 1)
    print(f"  operations: lost {lost}, doubled {doubled}; events on the bus twice: {twice}; drained: {idle}")
    turns, suggestions = _stored(int(os.environ["SOAK_DYNAMODB_PORT"]), list(ledger.trips))
    not_once, out_of_order, raised_twice, unknown = _session_invariants(bus, turns, suggestions)
    stored = sum(len(t) for t in turns.values())
    print(
        f"  sessions: {stored} turns; operations not recorded exactly once: {not_once}; sessions out of "
        f"sequence: {out_of_order}; operations in two suggestions: {raised_twice}; suggestions of no "
        f"committed operation: {unknown}"
    )
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
    ok = not unexpected and lost == 0 and doubled == 0 and twice == 0 and idle
    # At least one suggestion applied, or "every subscriber heard every decision" says nothing.
    ok &= (
        bool(applied) and not unheard and ledger.dropped == 0 and len(ledger.subscribed) == len(ledger.trips)
    )
    ok &= two_winners == 0 and ledger.moved_too_far == 0
    ok &= not_once == 0 and out_of_order == 0 and raised_twice == 0 and unknown == 0
    if ledger.recovered_after_s is not None:
        back = ledger.recovered_after_s
        print(f"  generation worked again {back:.1f} s after Valhalla came back (goal ≤ 10 s)")
        ok &= ledger.recovered_after_s <= 10
    print("  invariants:", "ok" if ok else "FAILED")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(prog="make soak")
    parser.add_argument("--users", type=int, default=int(os.environ.get("SOAK_USERS", "16")))
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", "120")))
    parser.add_argument("--fault", choices=("valhalla",), default=os.environ.get("SOAK_FAULT") or None)
    args = parser.parse_args()
    return 0 if run(args.users, args.seconds, args.fault) else 1


if __name__ == "__main__":
    sys.exit(main())
