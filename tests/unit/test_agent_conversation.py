"""The agent's conversation rules: numbered clarifications that resume their action, a new message that
denies open proposals, the per-user rate limit and the trip's daily token budget, the rolling summary."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from tripagent.adapters.llm.rules import RulesProvider
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.application.agent import (
    AgentApprovalRequest,
    AgentClarify,
    AgentEvent,
    AgentLimits,
    AgentText,
    AgentToolCall,
    TripAgent,
)
from tripagent.application.agent_tools import ReadTools
from tripagent.application.approvals import Approvals
from tripagent.application.clarify import CLARIFY_TTL_S, Choice, PendingIntent, resolve
from tripagent.application.proposals import ProposalDecider
from tripagent.application.trips import TripWorkspace
from tripagent.domain.proposal import Proposal
from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import BudgetExceeded, RateLimited

from tests.fixtures.fakes import (
    FakeClock,
    FakeProposalStore,
    FakeSessionStore,
    FakeTripRepository,
    SequentialIds,
)


@dataclass
class World:
    agent: TripAgent
    sessions: FakeSessionStore
    approvals: FakeProposalStore
    use_case: Approvals
    workspace: TripWorkspace
    trip_id: str
    clock: FakeClock

    def say(self, who: str, text: str) -> list[AgentEvent]:
        trip = self.agent.open(who, self.trip_id)
        return list(self.agent.chat(who, trip, text, RulesProvider(), "rules", message_id="msg"))

    def stops(self) -> list[tuple[str, int]]:
        trip = self.workspace.get_trip("ana", self.trip_id)
        return [(s.name, s.dayIndex) for s in trip.stops]


@pytest.fixture
def world() -> World:
    workspace = TripWorkspace(FakeTripRepository(), FakeClock(), SequentialIds())
    trip = workspace.create_trip("ana", title="Andorra")
    for op, args in [
        ("add_member", {"userId": "ben", "role": "editor"}),
        ("add_day", {}),
        ("add_day", {}),
        ("add_stop", {"dayIndex": 0, "name": "Museu del Tabac", "kind": "activity"}),
        ("add_stop", {"dayIndex": 0, "name": "Lunch at Borda", "kind": "food"}),
        ("add_stop", {"dayIndex": 0, "name": "Museu de l'Automobil", "kind": "activity"}),
    ]:
        workspace.run_operation("ana", trip.tripId, op, args)
    sessions, store, clock = FakeSessionStore(), FakeProposalStore(), FakeClock()
    workspace.trips.claims = store.commit_claim  # type: ignore[attr-defined]
    use_case = Approvals(ProposalDecider(store, workspace, workspace.clock), sessions)
    agent = TripAgent(workspace, sessions, clock, tools=ReadTools(pois=Gazetteer()), approvals=use_case)
    return World(agent, sessions, store, use_case, workspace, trip.tripId, clock)


def _pending(world: World) -> list[Proposal]:
    return [p for p in world.approvals.of_trip(world.trip_id, "approval").values() if p.status == "pending"]


def _approve_all(world: World, who: str) -> None:
    for pending in _pending(world):
        assert pending.patch is not None
        assert pending.toolCallId is not None
        outcome = world.use_case.answer(
            who, world.trip_id, pending.proposalId, pending.toolCallId, pending.patch.args, True
        )
        assert outcome.result == "applied", outcome


def test_two_museums_ask_which_and_the_number_moves_the_right_one(world: World) -> None:
    events = world.say("ana", "move the museum to day 2")
    clarify = [e for e in events if isinstance(e, AgentClarify)]
    assert len(clarify) == 1
    assert [o["label"] for o in clarify[0].data["options"]] == [
        "Museu del Tabac (day 1)",
        "Museu de l'Automobil (day 1)",
    ]
    assert not any(isinstance(e, AgentApprovalRequest) for e in events)  # no guess
    question = world.sessions.turns(world.trip_id)[-1]
    assert "1. Museu del Tabac" in question.text
    assert question.data["clarify"]["type"] == "choose_stop"

    events = world.say("ben", "2")
    calls = [e.call for e in events if isinstance(e, AgentToolCall)]
    assert [(c.name, c.arguments["dayIndex"]) for c in calls] == [("move_stop", 1)]
    assert any(isinstance(e, AgentApprovalRequest) for e in events)
    assert world.stops() == [("Museu del Tabac", 0), ("Lunch at Borda", 0), ("Museu de l'Automobil", 0)]
    _approve_all(world, "ben")  # nothing moved until an editor approved
    assert ("Museu de l'Automobil", 1) in world.stops()
    assert ("Museu del Tabac", 0) in world.stops()
    assert world.sessions.state(world.trip_id).pending_intent is None


def test_a_reply_by_name_resumes_too(world: World) -> None:
    world.say("ana", "move the museum to day 2")
    events = world.say("ana", "tabac")
    calls = [e.call for e in events if isinstance(e, AgentToolCall)]
    stop_id = next(
        s.stopId for s in world.workspace.get_trip("ana", world.trip_id).stops if "Tabac" in s.name
    )
    assert [(c.name, c.arguments) for c in calls] == [("move_stop", {"stopId": stop_id, "dayIndex": 1})]


def test_an_unrelated_reply_clears_the_question_and_is_a_new_message(world: World) -> None:
    world.say("ana", "move the museum to day 2")
    events = world.say("ana", "what is the plan?")
    assert not any(isinstance(e, (AgentToolCall, AgentClarify)) for e in events)
    assert "Day 1" in "".join(e.delta for e in events if isinstance(e, AgentText))
    assert world.sessions.state(world.trip_id).pending_intent is None
    events = world.say("ana", "2")  # too late: nothing is pending any more
    assert not any(isinstance(e, AgentToolCall) for e in events)


def test_an_expired_question_is_treated_as_new(world: World) -> None:
    world.say("ana", "move the museum to day 2")
    world.clock.advance(CLARIFY_TTL_S + 1)
    events = world.say("ana", "2")
    assert not any(isinstance(e, (AgentToolCall, AgentApprovalRequest)) for e in events)
    assert world.sessions.state(world.trip_id).pending_intent is None


def test_a_single_match_proposes_at_once(world: World) -> None:
    events = world.say("ana", "move the lunch to day 2")
    calls = [e.call for e in events if isinstance(e, AgentToolCall)]
    assert [(c.name, c.arguments["dayIndex"]) for c in calls] == [("move_stop", 1)]


def test_a_new_message_implicitly_denies_pending_proposals(world: World) -> None:
    world.say("ana", "move the lunch to day 2")
    [pending] = _pending(world)
    world.say("ben", "what is the plan?")
    assert _pending(world) == []
    assert world.approvals.items[pending.proposalId].status == "denied"
    decision = next(t for t in world.sessions.turns(world.trip_id) if t.kind == "decision")
    assert decision.metadata.actor == "ben"
    assert decision.data["decision"] == "denied"
    assert pending.patch is not None
    assert pending.toolCallId is not None
    outcome = world.use_case.answer(
        "ana", world.trip_id, pending.proposalId, pending.toolCallId, pending.patch.args, True
    )
    assert outcome.result == "refused"
    assert ("Lunch at Borda", 0) in world.stops()


def test_a_forged_question_from_the_model_cannot_name_unknown_tools() -> None:
    from tripagent.application.llm import ToolCall

    workspace = TripWorkspace(FakeTripRepository(), FakeClock(), SequentialIds())
    agent = TripAgent(workspace, FakeSessionStore(), FakeClock(), tools=ReadTools(pois=Gazetteer()))
    bad = ToolCall(
        "c1",
        "ask_clarification",
        {"question": "Which?", "candidates": [{"label": "a", "tool": "rm_rf", "arguments": {}}] * 2},
    )
    assert agent._intent_from(bad, "x") is None


def test_replies_resolve_by_number_ordinal_or_unique_name() -> None:
    intent = PendingIntent(
        question="Which?",
        candidates=[
            Choice(label="Museu del Tabac (day 1)", tool="t"),
            Choice(label="Museu Auto (day 1)", tool="t"),
        ],
    )
    assert resolve("2", intent) == intent.candidates[1]
    assert resolve("n° 1", intent) == intent.candidates[0]
    assert resolve("the second", intent) == intent.candidates[1]
    assert resolve("Tabac", intent) == intent.candidates[0]
    assert resolve("museu", intent) is None  # names both
    assert resolve("3", intent) is None
    assert resolve("what about lunch", intent) is None


@dataclass
class CountingLimiter:
    limit_hits: int
    hits: dict[str, int] = field(default_factory=dict)

    def hit(self, key: str, *, limit: int, window_s: int) -> int | None:
        self.hits[key] = self.hits.get(key, 0) + 1
        return None if self.hits[key] <= limit else 30


@dataclass
class MemoryBudget:
    used: dict[str, int] = field(default_factory=dict)

    def spent(self, key: str) -> int:
        return self.used.get(key, 0)

    def spend(self, key: str, tokens: int) -> None:
        self.used[key] = self.used.get(key, 0) + tokens


class MeteredModel:
    name = "openai"

    def __init__(self) -> None:
        self.calls = 0
        self.requests: list[Any] = []

    def chat(self, request: Any) -> Any:
        raise NotImplementedError

    def stream(self, request: Any) -> Any:
        from tripagent.application.llm import Usage
        from tripagent.application.llm_stream import StreamFinished, TextDelta

        self.calls += 1
        self.requests.append(request)
        yield TextDelta("ok")
        yield StreamFinished("stop", "gpt", Usage(600, 100))


def test_the_daily_token_budget_stops_model_calls(world: World) -> None:
    budget = MemoryBudget()
    agent = replace(
        world.agent, limits=AgentLimits(CountingLimiter(100), budget, rate_limit=100, daily_tokens=1000)
    )
    model = MeteredModel()
    trip = agent.open("ana", world.trip_id)

    def turn(caller: str) -> None:  # as the endpoint does: the limits first, then the model
        agent.check_limits(caller, world.trip_id)
        list(agent.chat(caller, trip, "hello", model, "gpt"))

    for _ in range(2):
        turn("ana")
    assert sum(budget.used.values()) == 1400
    with pytest.raises(BudgetExceeded) as raised:
        turn("ben")  # per trip, whoever asks
    assert raised.value.code == "budget_exceeded"
    assert status_of(raised.value) == 429
    assert model.calls == 2  # the third turn never reached the model
    world.clock.advance(86400)  # a new day, a new budget
    agent.check_limits("ana", world.trip_id)


def test_the_rate_limit_is_per_user(world: World) -> None:
    agent = replace(world.agent, limits=AgentLimits(CountingLimiter(2), MemoryBudget(), rate_limit=2))
    agent.check_limits("ana", world.trip_id)
    agent.check_limits("ana", world.trip_id)
    with pytest.raises(RateLimited) as raised:
        agent.check_limits("ana", world.trip_id)
    assert raised.value.code == "rate_limited"
    assert raised.value.headers["Retry-After"] == "30"
    agent.check_limits("ben", world.trip_id)


def test_older_turns_fold_into_a_rolling_summary_kept_with_the_session(world: World) -> None:
    for n in range(60):
        world.say("ana", f"note {n}: " + "we should think about the climb " * 6)
    state = world.sessions.state(world.trip_id)
    assert state.summary_up_to > 0
    assert "ana: note" in state.summary
    assert "note 0:" not in state.summary  # the oldest lines left the bounded summary
    model = MeteredModel()
    list(world.agent.chat("ana", world.agent.open("ana", world.trip_id), "and now?", model, "gpt"))
    assert state.summary.splitlines()[-1] in world.sessions.state(world.trip_id).summary
    prompt = model.requests[0].messages[0].content  # the summary reaches the model, as data
    assert prompt.startswith("[summary of the earlier conversation")
    assert "ana: note" in prompt


class WaterSeeker:
    """A model that looks for water within 200 m of the end of day 2, then answers in words."""

    name = "openai"

    def chat(self, request: Any) -> Any:
        raise NotImplementedError

    def stream(self, request: Any) -> Any:
        from tripagent.application.llm import ToolCall, Usage
        from tripagent.application.llm_stream import StreamFinished, TextDelta, ToolCallReady

        if request.messages[-1].role == "tool":
            yield TextDelta("Here is what I found.")
        else:
            args = {"dayIndex": 1, "where": "end", "category": "water", "radiusKm": 0.2}
            yield ToolCallReady(ToolCall("c1", "find_pois", args))
        yield StreamFinished("stop", "gpt", Usage(10, 5))


def test_a_search_that_finds_nothing_offers_its_alternatives_as_a_numbered_question() -> None:
    from tests.unit.test_agent_tools import trip as trip_with_a_stage

    workspace = TripWorkspace(FakeTripRepository(), FakeClock(), SequentialIds())
    staged = trip_with_a_stage()
    trip = workspace.create_trip("ana", title="Andorra", days=staged.days)
    sessions = FakeSessionStore()
    agent = TripAgent(workspace, sessions, FakeClock(), tools=ReadTools(pois=Gazetteer()))
    events = list(
        agent.chat(
            "ana", agent.open("ana", trip.tripId), "water near the end of day 2?", WaterSeeker(), "gpt"
        )
    )
    [clarify] = [e for e in events if isinstance(e, AgentClarify)]
    assert clarify.data["type"] == "poi_alternatives"
    labels = [o["label"] for o in clarify.data["options"]]
    assert labels[0].startswith("food instead of water")
    assert labels[-1] == "none of these"
    events = list(agent.chat("ana", agent.open("ana", trip.tripId), "1", WaterSeeker(), "gpt"))
    [call] = [e.call for e in events if isinstance(e, AgentToolCall)]
    assert call.arguments["category"] == "food"
    from tripagent.application.agent import AgentToolResult

    [result] = [e.output for e in events if isinstance(e, AgentToolResult)]
    assert result["results"]


class FailsOnTheSecondStep:
    """Reads the trip (a step that costs tokens), then fails: the tokens were still spent."""

    name = "openai"

    def chat(self, request: Any) -> Any:
        raise NotImplementedError

    def stream(self, request: Any) -> Any:
        from tripagent.application.llm import ToolCall, Usage
        from tripagent.application.llm_stream import StreamFinished, ToolCallReady
        from tripagent.errors import AiUnavailable

        if request.messages[-1].role == "tool":
            raise AiUnavailable("overloaded")
        yield ToolCallReady(ToolCall("c1", "get_trip", {}))
        yield StreamFinished("tool_calls", "gpt", Usage(900, 50))


def test_tokens_are_charged_even_when_the_turn_fails_or_the_client_leaves(world: World) -> None:
    budget = MemoryBudget()
    agent = replace(world.agent, limits=AgentLimits(CountingLimiter(100), budget, rate_limit=100))
    trip = agent.open("ana", world.trip_id)
    events = list(agent.chat("ana", trip, "what is planned?", FailsOnTheSecondStep(), "gpt"))
    assert type(events[-1]).__name__ == "AgentFailed"
    first = sum(budget.used.values())
    assert first > 950  # the 950 reported, and an estimate for the prompt of the step that failed
    stream = agent.chat("ana", trip, "hello", MeteredModel(), "gpt")
    next(stream)  # the first delta reached the client, which then went away
    stream.close()
    assert sum(budget.used.values()) > first  # no usage reported: an estimate from the prompt is charged


class EventsLandMeanwhile(FakeSessionStore):
    """Another process records an operation between the member's turn and the agent's reading."""

    def state(self, trip_id: str) -> Any:
        from tripagent.domain.session import Turn, TurnMetadata

        if self.turns_by_trip.get(trip_id) and self.turns_by_trip[trip_id][-1].role == "user":
            event = Turn(
                role="event",
                kind="operation",
                text="ana added stop 'Somewhere'",
                metadata=TurnMetadata(actor="ana", at="2027-06-01T10:00:00.000Z", source="operation"),
            )
            self.append(trip_id, event)
        return super().state(trip_id)


def test_the_members_message_ends_the_prompt_even_when_events_land_meanwhile(world: World) -> None:
    sessions = EventsLandMeanwhile()
    agent = replace(world.agent, sessions=sessions)
    events = list(
        agent.chat(
            "ana", agent.open("ana", world.trip_id), "move the lunch to day 2", RulesProvider(), "rules"
        )
    )
    assert [e.call.name for e in events if isinstance(e, AgentToolCall)] == ["move_stop"]
    assert [t.kind for t in sessions.turns(world.trip_id)][:2] == ["chat", "operation"]  # it was recorded
