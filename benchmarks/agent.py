"""The trip agent, on DynamoDB Local.

1. Prompt size: a long scripted session (a member's message, the agent's reply, 200 times); the prompt
   tokens sent at turn 200 against turn 20. Goal ≤ 1.3×: recent turns verbatim within a budget, older
   ones folded into the rolling summary.
2. Streaming: with a scripted streaming provider, the delay between the provider's first token and our
   first SSE byte carrying it, through the ASGI app that serves the stream. Goal ≤ 50 ms (p95 of 30).

Tokens are estimated as characters / 4, the same for both turns, so the ratio does not depend on it.
"""

from __future__ import annotations

import asyncio
import math
import os
import statistics
import time
from collections.abc import Iterator
from typing import Any

from benchmarks.stats import percentile

LINES = [
    "Could we leave a bit later on day {n}? The climb after lunch looks long in this heat.",
    "What about a stop for water before the pass, and is there a bike shop in the valley?",
    "I'd rather sleep somewhere quiet tonight; the campsite near the river had good reviews.",
    "Remind me how far today's stage is, and how much we climb before the first village.",
]
REPLY = (
    "Day {n} keeps its plan: the stage is about 38 km with 900 m of climbing, most of it after the "
    "village. Leaving an hour later still gets you to the pass before the afternoon storms the forecast "
    "mentions; there is a fountain at the last hairpin and a bike shop in the valley town. A member can "
    "approve the change if you want me to move the lunch stop earlier."
)


def _tokens(request: Any) -> int:
    chars = len(request.system) + sum(len(m.content) for m in request.messages)
    return math.ceil(chars / 4)


class Scripted:
    """Answers every turn with the same realistic reply, streamed word by word."""

    name = "openai"

    def __init__(self, first_token_delay_s: float = 0.0) -> None:
        self.requests: list[Any] = []
        self.delay = first_token_delay_s
        self.first_token_at = 0.0

    def chat(self, request: Any) -> Any:
        raise NotImplementedError

    def stream(self, request: Any) -> Iterator[Any]:
        from tripagent.application.llm import Usage
        from tripagent.application.llm_stream import StreamFinished, TextDelta

        self.requests.append(request)
        time.sleep(self.delay)
        words = REPLY.format(n=len(self.requests) % 5 + 1).split(" ")
        self.first_token_at = time.perf_counter()
        for i, word in enumerate(words):
            yield TextDelta(word if i == 0 else " " + word)
        yield StreamFinished("stop", "scripted", Usage(_tokens(request), len(words)))


def prompt_growth() -> tuple[int, int]:
    from tripagent.adapters.system import SystemClock
    from tripagent.application.agent import TripAgent
    from tripagent.bootstrap import session_store, trip_workspace

    workspace = trip_workspace()
    trip = workspace.create_trip("ana", title="Long session")
    agent = TripAgent(workspace=workspace, sessions=session_store(), clock=SystemClock())
    provider = Scripted()
    sizes = {}
    for turn in range(1, 201):
        text = LINES[turn % len(LINES)].format(n=turn % 5 + 1)
        for _ in agent.chat("ana", trip, text, provider, "scripted"):
            pass
        if turn in (20, 200):
            sizes[turn] = _tokens(provider.requests[-1])
    return sizes[20], sizes[200]


def first_byte_delays(runs: int = 30) -> list[float]:
    from tripagent import bootstrap
    from tripagent.entrypoints.http.agent_asgi import asgi_app

    trip = bootstrap.trip_workspace().create_trip("ana", title="Streaming")
    provider = Scripted(first_token_delay_s=0.02)
    bootstrap.model_name_for = lambda user_id: (provider, "scripted")
    body = (
        b'{"id":"c","messages":[{"id":"u","role":"user","parts":[{"type":"text","text":"is day 1 hard?"}]}]}'
    )
    scope = {
        "type": "http",
        "method": "POST",
        "path": f"/trips/{trip.tripId}/agent/chat",
        "headers": [],
        "aws.event": {
            "requestContext": {"authorizer": {"jwt": {"claims": {"sub": "ana"}}}},
            "pathParameters": {"tripId": trip.tripId},
        },
    }
    delays = []

    async def one() -> float:
        status = 0
        first_byte = 0.0
        provider.first_token_at = 0.0

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal first_byte, status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif not first_byte and b'"text-delta"' in message.get("body", b""):
                first_byte = time.perf_counter()

        await asgi_app(scope, receive, send)
        if status != 200 or not first_byte or not provider.first_token_at:  # a refusal measures nothing
            raise RuntimeError(f"the streamed chat did not stream (HTTP {status})")
        return (first_byte - provider.first_token_at) * 1000

    for _ in range(runs):
        delays.append(asyncio.run(one()))
    return delays


def report() -> bool:
    os.environ["AI_CHAT_RATE_LIMIT"] = "100000"  # a benchmark, not a flood of one member
    turn20, turn200 = prompt_growth()
    ratio = turn200 / turn20
    delays = first_byte_delays()
    p95 = percentile(delays, 0.95)
    print("agent (DynamoDB Local)")
    print(
        f"  prompt tokens, turn 200 / turn 20   {turn200} / {turn20}  ratio {ratio:4.2f}  goal ≤ 1.3  "
        f"{'ok' if ratio <= 1.3 else 'OVER'}"
    )
    print(
        f"  first token → first SSE byte        p50 {statistics.median(delays):.2f} ms, p95 {p95:.2f} ms  "
        f"goal ≤ 50 ms  ratio {p95 / 50:4.2f}  {'ok' if p95 <= 50 else 'OVER'}"
    )
    return ratio <= 1.3 and p95 <= 50
