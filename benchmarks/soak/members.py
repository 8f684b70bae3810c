"""The simulated members: what each does (Locust tasks over the real mix) and what they saw (the ledger)."""

from __future__ import annotations

import collections
import itertools
import threading
from typing import Any

BRIEF = "2 days by road bike from Sant Julià de Lòria to Soldeu"
CHAT = "3 days gravel from Andorra la Vella to Canillo"
EXPECTED_503 = {"routing_unavailable", "dependency_unavailable", "ai_unavailable"}


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
            elif unanswered(status):
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


def member_class(ledger: Ledger, tokens: dict[str, str]) -> type:
    import gevent
    from locust import HttpUser, between, task

    numbers = itertools.count(1)  # one member per simulated user (their own rate limits and trip)

    class Member(HttpUser):
        wait_time = between(0.5, 1.5)  # a person reading between actions (the two editors still race)

        def on_start(self) -> None:
            self.name = f"soak{next(numbers)}"
            self.auth = {"Authorization": f"Bearer {tokens.setdefault(self.name, token_for(self.name))}"}
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
                elif unanswered(added.status_code):
                    ledger.op(self.trip_id, "unknown")
                self.editors.append({"Authorization": f"Bearer {token_for(editor)}"})
            ws_url = str(self.host).replace("http://", "ws://") + "/live"
            gevent.spawn(ledger.listen, ws_url, self.trip_id, tokens[self.name])

        def _post(self, path: str, body: dict[str, Any], name: str) -> Any:
            return self.client.post(path, json=body, headers=self.auth, name=name, catch_response=True)

        def _post_tolerating_refusals(self, path: str, body: dict[str, Any], name: str) -> None:
            """A request whose rate limit or failing dependency's typed answer is as designed."""
            with self._post(path, body, name) as response:
                if refused_as_designed(response):
                    response.success()
                self._check(response, name)

        def _check(self, response: Any, route: str) -> None:
            if response.status_code == 0:  # no answer at all: a dropped connection, never expected
                ledger.errors[(route, 0, "connection dropped")] += 1
            elif response.status_code >= 500:
                code = error_code(response)
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
            body = {"op": op, "args": args, "expectedVersion": self.version}
            with self._post(f"/trips/{self.trip_id}/ops", body, "POST ops") as response:
                if response.status_code == 200:
                    self.version = response.json()["trip"]["version"]
                    self.has_day = True
                    ledger.op(self.trip_id, "ok")
                    response.success()
                elif response.status_code == 409:  # as a client would: reload, and try again next time
                    self.version = response.json().get("currentVersion", self.version)
                    ledger.op(self.trip_id, "failed")
                    response.success()
                elif unanswered(response.status_code):
                    ledger.op(self.trip_id, "unknown")
                    if typed_503(response):
                        response.success()  # a typed answer while a dependency fails, as designed
                else:
                    ledger.op(self.trip_id, "failed")
                self._check(response, "POST ops")

        @task(2)
        def brief_chat(self) -> None:
            messages = [{"role": "user", "content": CHAT}]
            self._post_tolerating_refusals("/trips/ai-chat", {"messages": messages}, "POST ai-chat")

        @task(1)
        def generate(self) -> None:
            self._post_tolerating_refusals("/trips/ai-generate", {"brief": BRIEF}, "POST ai-generate")

        @task(1)
        def agent_chat(self) -> None:
            body = {
                "messages": [
                    {"id": "m1", "role": "user", "parts": [{"type": "text", "text": "what is the plan?"}]}
                ]
            }
            with self._post(f"/trips/{self.trip_id}/agent/chat", body, "POST agent/chat") as response:
                if refused_as_designed(response):
                    response.success()
                elif response.status_code == 200 and "[DONE]" not in response.text:
                    response.failure("the stream did not end")
                ledger.turn(self.trip_id, response.status_code)
                self._check(response, "POST agent/chat")

        @task(1)
        def mention(self) -> None:
            mention = {"text": "@agent how long is day 1?"}
            with self._post(f"/trips/{self.trip_id}/agent/mentions", mention, "POST mentions") as response:
                if refused_as_designed(response):
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
                if after is None or any(unanswered(s) for s in statuses):  # it may have been applied
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


def unanswered(status: int) -> bool:
    """A 5xx or no answer at all: what the request did is unknown to the member (it may have committed)."""
    return status >= 500 or status == 0


def refused_as_designed(response: Any) -> bool:
    """A rate limit (the member's, or the model's passed on) or a failing dependency's typed answer."""
    return response.status_code == 429 or typed_503(response)


def typed_503(response: Any) -> bool:
    """The typed answer of a failing dependency (a model's unusable reply is its 502)."""
    return response.status_code in (502, 503) and error_code(response) in EXPECTED_503


def error_code(response: Any) -> str:
    try:
        return str(response.json().get("error", ""))
    except ValueError:
        return ""


def token_for(user: str) -> str:
    from tripagent_local import devauth
    from tripagent_local.paths import STATE_DIR

    return devauth.mint_token(user, state_dir=STATE_DIR)
