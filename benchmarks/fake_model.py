"""An OpenAI-compatible model server on loopback, for the soak's model fault (``make soak`` with
``SOAK_FAULT=model``): configured as the deployment's provider (``AI_PROVIDER=openai``, ``AI_BASE_URL``),
it answers ``POST /v1/chat/completions``, streamed or not, in one of these modes, set by
``POST /_fake/mode {"mode": ...}``:

- ``healthy``: a short valid answer per task, recognised by its system prompt: the brief chat's verdict
  (a reply, nothing collected), the soak's generation brief as a trip spec, the reviewer's decision made
  from the findings its query carries (as the ``rules`` reviewer makes it), and a line of text for the
  agent;
- ``slow``: answers only after ``SLOW_S``, past any sensible ``AI_TIMEOUT_S``;
- ``5xx``: 503; ``429``: 429 with ``Retry-After: 1``;
- ``garbage``: 200 with a body that is not JSON (and, streamed, events that are not);
- ``long``: as ``healthy``, but the agent's answer is a long reply streamed a word every ``WORD_S``, for
  watching a reply being written and stopping it: ``GET /_fake/stats`` says how many words were sent and
  how many streams the client closed before their end (a stop cancels the call upstream).

It knows the soak's briefs, not the world: it stands in for a provider's failures, not for a model.
With ``--script FILE`` (``tests/fixtures/models/understood.json``) it also stands in for a model that
understands: the brief chat's conversations the script holds are answered, at their last turn, with the
script's understanding (or its literal ``answer``: a wrong place, a value out of bounds, half a JSON
object), as structured output.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from tripagent_local.server import KEEP_ALIVE_S

MODES = ("healthy", "slow", "5xx", "429", "garbage", "long")
SLOW_S = 30.0
WORD_S = 0.1
LONG_WORDS = 400  # about 40 s at WORD_S: far longer than any test waits
SOAK_SPEC = {"start": "Sant Julià de Lòria", "end": "Soldeu", "durationDays": 2, "profile": "road"}


class FakeModel:
    def __init__(self, script: dict[tuple[str, ...], Any] | None = None) -> None:
        self.script = script or {}
        self.mode = "healthy"
        self.calls: dict[str, int] = dict.fromkeys(MODES, 0)
        self.words_sent = 0
        self.closed_early = 0

    async def set_mode(self, request: Request) -> Response:
        mode = (await request.json()).get("mode")
        if mode not in MODES:
            return JSONResponse({"error": f"mode is one of {', '.join(MODES)}"}, status_code=400)
        self.mode = mode
        return JSONResponse({"mode": mode, "calls": self.calls})

    async def stats(self, _: Request) -> Response:
        return JSONResponse({"wordsSent": self.words_sent, "closedEarly": self.closed_early})

    async def completions(self, request: Request) -> Response:
        body = await request.json()
        mode = self.mode
        self.calls[mode] += 1
        if mode == "slow":
            await asyncio.sleep(SLOW_S)
        elif mode == "5xx":
            return JSONResponse({"error": {"message": "overloaded"}}, status_code=503)
        elif mode == "429":
            return JSONResponse(
                {"error": {"message": "slow down"}}, status_code=429, headers={"Retry-After": "1"}
            )
        elif mode == "garbage":
            if body.get("stream"):
                return StreamingResponse(_garbage_events(), media_type="text/event-stream")
            return PlainTextResponse("<html>upstream proxy error</html>", status_code=200)
        text = answer(body, self.script)
        if mode == "long" and body.get("stream") and text == AGENT_LINE:
            return StreamingResponse(self._trickle(body), media_type="text/event-stream")
        prompt_tokens = sum(len(str(m.get("content") or "")) for m in body.get("messages", [])) // 4
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": max(1, len(text) // 4)}
        if body.get("stream"):
            return StreamingResponse(_events(text, usage), media_type="text/event-stream")
        message = {"role": "assistant", "content": text}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return JSONResponse({"model": "fake", "choices": [choice], "usage": usage})

    async def _trickle(self, body: dict[str, Any]) -> Any:
        prompt_tokens = sum(len(str(m.get("content") or "")) for m in body.get("messages", [])) // 4
        try:
            for i in range(LONG_WORDS):
                word = f"word{i}" if i % 10 else f"Part {i // 10 + 1}:"
                chunk = {"model": "fake", "choices": [{"index": 0, "delta": {"content": word + " "}}]}
                yield f"data: {json.dumps(chunk)}\n\n"
                self.words_sent += 1
                await asyncio.sleep(WORD_S)
        except (asyncio.CancelledError, GeneratorExit):
            self.closed_early += 1
            raise
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": LONG_WORDS * 2}
        end = {
            "model": "fake",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            "usage": usage,
        }
        yield f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n"


def load_script(path: Path) -> dict[tuple[str, ...], Any]:
    """A script's conversations by their user turns."""
    doc = json.loads(path.read_text())
    return {tuple(c["turns"]): c for c in doc["conversations"]}


def scripted_understanding(messages: list[dict[str, Any]], script: dict[tuple[str, ...], Any]) -> str:
    """The brief chat's answer to a conversation of the script: what it says at its last turn, a plain
    acknowledgement before (nothing understood yet); a conversation it does not hold, a question."""
    said = [str(m.get("content") or "") for m in messages if m.get("role") == "user"]
    conversation = script.get(tuple(said))
    if conversation is None:
        started = any(key[: len(said)] == tuple(said) for key in script)
        reply = "Noted." if started else "Where would you like to start?"
        return json.dumps({"reply": reply, "readyToGenerate": False, "collected": {}})
    if "answer" in conversation:
        answer = conversation["answer"]
        return answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
    return json.dumps(
        {
            "reply": "Here is what I have: " + json.dumps(conversation["expected"], ensure_ascii=False),
            "readyToGenerate": conversation["ready"],
            "collected": conversation["expected"],
        },
        ensure_ascii=False,
    )


def answer(body: dict[str, Any], script: dict[tuple[str, ...], Any] | None = None) -> str:
    from tripagent.application.generate import SPEC_SYSTEM
    from tripagent.application.review import REVIEWER_PROMPT

    messages = body.get("messages") or []
    system = next((m["content"] for m in messages if m.get("role") == "system"), "")
    last = str(messages[-1].get("content") or "") if messages else ""
    if system.startswith(REVIEWER_PROMPT[:80]):
        return _review(json.loads(last))
    if system == SPEC_SYSTEM:
        return json.dumps(SOAK_SPEC)
    if (body.get("response_format") or {}).get("json_schema", {}).get("name") == "brief_understanding":
        return scripted_understanding(messages, script or {})
    return AGENT_LINE


AGENT_LINE = "Here is the plan as it stands."


def _review(query: dict[str, Any]) -> str:
    """The decision the ``rules`` reviewer makes from the same findings (the query carries them)."""
    from tripagent.adapters.rules.review import review_by_rules
    from tripagent.application.llm import ChatOptions, ChatRequest

    context = {"findings": query.get("findings") or [], "tripVersion": query.get("tripVersion", 0)}
    request = ChatRequest(
        model="fake",
        system="",
        messages=(),
        options=ChatOptions(max_output_tokens=500, task="review"),
        context=context,
    )
    return review_by_rules(request).text


async def _events(text: str, usage: dict[str, int]) -> Any:
    for word in text.split(" "):
        chunk = {"model": "fake", "choices": [{"index": 0, "delta": {"content": word + " "}}]}
        yield f"data: {json.dumps(chunk)}\n\n"
    end = {"model": "fake", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": usage}
    yield f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n"


async def _garbage_events() -> Any:
    yield 'data: {"choices": [{"delta": {"content": "Hel"\n\n'
    yield "data: <html>upstream proxy error</html>\n\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fake_model")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--script", type=Path, help="conversations to answer as a model that understands")
    args = parser.parse_args()
    fake = FakeModel(load_script(args.script) if args.script else None)
    app = Starlette(
        routes=[
            Route("/v1/chat/completions", fake.completions, methods=["POST"]),
            Route("/_fake/mode", fake.set_mode, methods=["POST"]),
            Route("/_fake/stats", fake.stats, methods=["GET"]),
        ]
    )
    # Keep-alive as long as the gateway's: the provider adapter's pooled connection idle past uvicorn's
    # 5 s would race the server's close into an ai_unavailable.
    server = uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)
    server.timeout_keep_alive = KEEP_ALIVE_S
    uvicorn.Server(server).run()


if __name__ == "__main__":
    main()
