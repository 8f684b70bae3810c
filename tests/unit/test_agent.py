"""The trip agent's turn: the user turn is stored first, a failing provider ends the stream with an
error, the history sent to the model stays bounded and comes from the store."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tripagent.adapters.llm.rules import RulesProvider
from tripagent.application.agent import AgentDone, AgentFailed, AgentText, TripAgent
from tripagent.application.agent_history import HISTORY_CHAR_BUDGET, HISTORY_TURN_LIMIT, SUMMARY_CHAR_BUDGET
from tripagent.application.llm import ChatRequest
from tripagent.application.llm_stream import StreamEvent, TextDelta
from tripagent.application.trips import TripWorkspace
from tripagent.entrypoints import ui_stream
from tripagent.errors import AiUnavailable, DependencyUnavailable, NotFound

from tests.fixtures.fakes import FakeClock, FakeSessionStore, FakeTripRepository, SequentialIds


class FailingMidStream:
    name = "openai"

    def __init__(self) -> None:
        self.requests: list[ChatRequest] = []

    def chat(self, request: ChatRequest) -> Any:
        raise NotImplementedError

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        self.requests.append(request)
        yield TextDelta("Let me see")
        raise AiUnavailable("The model provider failed mid-stream: overloaded_error")


@pytest.fixture
def setup() -> tuple[TripAgent, FakeSessionStore, str]:
    workspace = TripWorkspace(FakeTripRepository(), FakeClock(), SequentialIds())
    trip = workspace.create_trip("ana", title="Andorra")
    sessions = FakeSessionStore()
    return TripAgent(workspace, sessions, FakeClock()), sessions, trip.tripId


def test_a_provider_failure_mid_stream_ends_with_an_error_and_keeps_the_user_turn(
    setup: tuple[TripAgent, FakeSessionStore, str],
) -> None:
    agent, sessions, trip_id = setup
    trip = agent.open("ana", trip_id)
    events = list(agent.chat("ana", trip, "is day 2 hard?", FailingMidStream(), "gpt"))
    assert events == [
        AgentText("Let me see"),
        AgentFailed("The model provider failed mid-stream: overloaded_error"),
    ]
    stored = sessions.turns(trip_id)
    assert [(t.role, t.text, t.metadata.actor) for t in stored] == [("user", "is day 2 hard?", "ana")]
    # the next turn does not reuse the failed turn's number
    list(agent.chat("ana", trip, "distance?", RulesProvider(), "rules"))
    assert [t.seq for t in sessions.turns(trip_id)] == [1, 2, 3]


def test_the_message_is_stored_before_a_reply_is_promised(
    setup: tuple[TripAgent, FakeSessionStore, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``chat`` stores the member's message before it returns the reply: the stream's 200 then means the
    message is kept, and a store that cannot take it fails the request itself (a typed 503), not the reply
    after its first byte (CI's soak saw a 200 whose message was never stored)."""
    agent, sessions, trip_id = setup
    trip = agent.open("ana", trip_id)
    reply = agent.chat("ana", trip, "is day 2 hard?", RulesProvider(), "rules")
    assert [(t.role, t.text) for t in sessions.turns(trip_id)] == [("user", "is day 2 hard?")]
    assert isinstance(list(reply)[-1], AgentDone)

    def store_down(*_: Any) -> int:
        raise DependencyUnavailable()

    # The store failing once the message is kept fails the reply (an error chunk after the 200), not the
    # request: the member must not send again what is stored.
    monkeypatch.setattr(sessions, "state", store_down)
    reply = agent.chat("ana", trip, "and day 3?", RulesProvider(), "rules")
    assert [t.text for t in sessions.turns(trip_id) if t.role == "user"] == ["is day 2 hard?", "and day 3?"]
    with pytest.raises(DependencyUnavailable):
        list(reply)

    monkeypatch.setattr(sessions, "append", store_down)
    with pytest.raises(DependencyUnavailable):
        agent.chat("ana", trip, "and day 4?", RulesProvider(), "rules")


def test_a_finished_turn_stores_the_reply_with_model_and_usage(
    setup: tuple[TripAgent, FakeSessionStore, str],
) -> None:
    agent, sessions, trip_id = setup
    events = list(
        agent.chat(
            "ana", agent.open("ana", trip_id), "distance?", RulesProvider(), "rules", message_id="msg_1"
        )
    )
    assert isinstance(events[-1], AgentDone)
    reply = sessions.turns(trip_id)[-1]
    assert (reply.role, reply.model, reply.usage, reply.data) == (
        "assistant",
        "rules",
        {"input": 0, "output": 0},
        {"messageId": "msg_1"},
    )


def test_non_members_are_refused_before_anything_is_stored(
    setup: tuple[TripAgent, FakeSessionStore, str],
) -> None:
    agent, sessions, trip_id = setup
    with pytest.raises(NotFound):
        agent.open("eve", trip_id)
    assert sessions.turns(trip_id) == []


def test_the_prompt_stays_bounded_however_long_the_session(
    setup: tuple[TripAgent, FakeSessionStore, str],
) -> None:
    agent, _sessions, trip_id = setup
    trip = agent.open("ana", trip_id)
    provider = FailingMidStream()
    sizes = {}
    for turn in range(1, 201):
        list(agent.chat("ana", trip, f"message {turn} " + "x" * 200, provider, "gpt"))
        if turn in (20, 200):
            request = provider.requests[-1]
            sizes[turn] = len(request.system) + sum(len(m.content) for m in request.messages)
    assert sizes[200] <= HISTORY_CHAR_BUDGET + SUMMARY_CHAR_BUDGET + 1500  # turns + summary + the trip
    assert sizes[200] / sizes[20] <= 2.0
    state = _sessions.state(trip_id)
    assert state.summary_up_to >= 200 - HISTORY_TURN_LIMIT  # the older turns were folded, up to recently
    assert "message 1 " not in state.summary  # the oldest lines left the bounded summary
    assert len(state.summary) <= SUMMARY_CHAR_BUDGET
    assert state.summary.splitlines()[-1].startswith(f"- #{state.summary_up_to} ana: message ")
    assert provider.requests[-1].messages[0].content.startswith("[summary of the earlier conversation")
    assert provider.requests[-1].messages[-1].content.endswith("x" * 200)  # the newest turn is always there


def test_stream_chunks_are_documented_ui_message_chunks() -> None:
    assert ui_stream.text_delta("t1", "hi") == b'data: {"type":"text-delta","id":"t1","delta":"hi"}\n\n'
    assert ui_stream.finish("stop") == b'data: {"type":"finish","finishReason":"stop"}\n\n'
    assert ui_stream.DONE == b"data: [DONE]\n\n"
    assert ui_stream.HEADERS["x-vercel-ai-ui-message-stream"] == "v1"


def test_behind_a_function_url_the_function_verifies_the_token_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No authorizer stands in front of a Function URL: the same checks run in the function."""
    import time as clock

    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa
    from tripagent import bootstrap
    from tripagent.auth import TokenVerifier
    from tripagent.entrypoints.http.agent_asgi import _caller_and_trip
    from tripagent.errors import Unauthorized

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    verifier = TokenVerifier(
        issuer="https://idp.test/", audiences=["app"], key_for_kid=lambda kid: key.public_key()
    )
    monkeypatch.setattr(bootstrap, "token_verifier", lambda: verifier)

    def scope(token: str | None, path: str = "/trips/trp_1/agent/chat") -> dict[str, Any]:
        headers = [(b"authorization", f"Bearer {token}".encode())] if token else []
        return {"type": "http", "method": "POST", "path": path, "headers": headers}

    good = jwt.encode(
        {"sub": "ana", "iss": "https://idp.test/", "aud": "app", "exp": int(clock.time()) + 60},
        key,
        algorithm="RS256",
        headers={"kid": "k"},
    )
    assert _caller_and_trip(scope(good)) == ("ana", "trp_1")
    expired = jwt.encode(
        {"sub": "ana", "iss": "https://idp.test/", "aud": "app", "exp": int(clock.time()) - 5},
        key,
        algorithm="RS256",
        headers={"kid": "k"},
    )
    for bad in (None, "garbage", expired):
        with pytest.raises(Unauthorized):
            _caller_and_trip(scope(bad))
    with pytest.raises(NotFound):
        _caller_and_trip(scope(good, "/trips/trp_1/agent/other"))


class ToolCallingModel:
    """Asks for the trip every time: the loop must stop at its step bound."""

    name = "openai"

    def __init__(self) -> None:
        self.requests: list[ChatRequest] = []

    def chat(self, request: ChatRequest) -> Any:
        raise NotImplementedError

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        from tripagent.application.llm import ToolCall, Usage
        from tripagent.application.llm_stream import StreamFinished, ToolCallReady

        self.requests.append(request)
        if request.tools:
            yield ToolCallReady(ToolCall(f"c{len(self.requests)}", "get_trip", {}))
            yield StreamFinished("tool_calls", "gpt", Usage(5, 1))
        else:
            yield TextDelta("done")
            yield StreamFinished("stop", "gpt", Usage(5, 1))


def test_read_tools_run_at_once_and_the_loop_is_bounded(
    setup: tuple[TripAgent, FakeSessionStore, str],
) -> None:
    from dataclasses import replace

    from tripagent.adapters.places.gazetteer import Gazetteer
    from tripagent.application.agent import AgentStep, AgentToolCall, AgentToolResult
    from tripagent.application.agent_tools import ReadTools

    agent, sessions, trip_id = setup
    agent = replace(agent, tools=ReadTools(pois=Gazetteer()), max_tool_steps=3)
    model = ToolCallingModel()
    events = list(agent.chat("ana", agent.open("ana", trip_id), "what is planned?", model, "gpt"))
    assert [type(e).__name__ for e in events].count("AgentToolCall") == 3
    results = [e for e in events if isinstance(e, AgentToolResult)]
    assert results[0].output["title"] == "Andorra"
    assert sum(isinstance(e, AgentStep) for e in events) == 3
    assert isinstance(events[-1], AgentDone)
    assert model.requests[-1].tools == ()  # the last step may only answer
    assert [m.role for m in model.requests[1].messages][-2:] == ["assistant", "tool"]
    assert isinstance(events[0], AgentToolCall)
    assert sessions.turns(trip_id)[-1].text == "done"
    assert events[-1].usage.input_tokens == 20


class Talkative:
    """Streams many words; records how many it sent and whether its stream was closed early."""

    name = "openai"

    def __init__(self) -> None:
        self.sent = 0
        self.closed = False

    def chat(self, request: ChatRequest) -> Any:
        raise NotImplementedError

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        try:
            for i in range(1000):
                self.sent += 1
                yield TextDelta(f"word{i} ")
        except GeneratorExit:
            self.closed = True
            raise


def test_a_stopped_turn_closes_the_model_call_and_keeps_what_was_said(
    setup: tuple[TripAgent, FakeSessionStore, str],
) -> None:
    agent, sessions, trip_id = setup
    provider = Talkative()
    said: list[AgentText] = []

    def must_stop() -> str | None:
        return "stop" if len(said) >= 3 else None

    events = []
    for event in agent.chat(
        "ana", agent.open("ana", trip_id), "tell me everything", provider, "gpt", must_stop=must_stop
    ):
        events.append(event)
        if isinstance(event, AgentText):
            said.append(event)
    assert provider.closed
    assert provider.sent == 4
    done = events[-1]
    assert isinstance(done, AgentDone)
    assert done.stopped == "stop"
    reply = sessions.turns(trip_id)[-1]
    assert reply.role == "assistant"
    assert reply.text == "word0 word1 word2 "
    assert reply.data["stopped"] == "stop"
    assert reply.usage["input"] > 0
    assert reply.usage["output"] > 0


def test_a_turn_that_is_never_asked_to_stop_runs_to_its_end(
    setup: tuple[TripAgent, FakeSessionStore, str],
) -> None:
    agent, _, trip_id = setup
    provider = Talkative()
    events = list(agent.chat("ana", agent.open("ana", trip_id), "tell me", provider, "gpt"))
    assert provider.sent == 1000
    assert not provider.closed
    assert isinstance(events[-1], AgentFailed)  # (this provider never says how it finished)
