"""Use case: one turn of a trip's shared agent conversation, streamed.

The user turn is stored before the provider is called, so a failed call still leaves an honest record
and the next turn never reuses its number. The history comes from the store (never from the client,
``agent_history``); the system prompt is built on every turn from the trip and never stored
(``agent_prompt``). A turn is a few steps: the model speaks (or a clarification's answer resumes its
action), then its write calls become proposals, its read calls run, or its question waits on the session.

A new message implicitly denies the proposals still pending; an open clarification answered in time
resumes its action without asking the model again. Time comes from the one clock, ids from the one
generator, both injected.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from tripagent.application.agent_events import (
    AgentApprovalRequest,
    AgentClarify,
    AgentDone,
    AgentEvent,
    AgentFailed,
    AgentStep,
    AgentText,
    AgentToolCall,
    AgentToolResult,
)
from tripagent.application.agent_history import prompt_history
from tripagent.application.agent_prompt import estimate_tokens, system_prompt, write_tool_specs
from tripagent.application.agent_tools import ReadTools
from tripagent.application.approvals import Approvals
from tripagent.application.clarify import (
    CLARIFY_TOOL,
    CLARIFY_TTL_S,
    Choice,
    PendingIntent,
    clarify_tool_spec,
    resolve,
)
from tripagent.application.llm import (
    ChatOptions,
    ChatRequest,
    Message,
    ModelProvider,
    ToolCall,
    ToolSpec,
    Usage,
)
from tripagent.application.llm_stream import StreamFinished, TextDelta, ToolCallReady
from tripagent.application.ports import Clock, IdGenerator, RateLimiter, TokenBudget
from tripagent.application.sessions import SessionState, SessionStore
from tripagent.application.trips import TripWorkspace
from tripagent.domain.ops import REGISTRY
from tripagent.domain.session import Turn, TurnMetadata, TurnSource
from tripagent.domain.times import parse_iso
from tripagent.domain.trip import Trip
from tripagent.errors import AppError, BudgetExceeded, RateLimited

__all__ = [
    "AgentApprovalRequest",
    "AgentClarify",
    "AgentDone",
    "AgentEvent",
    "AgentFailed",
    "AgentLimits",
    "AgentStep",
    "AgentText",
    "AgentToolCall",
    "AgentToolResult",
    "TripAgent",
]


@dataclass
class _Meter:
    """Tokens the provider reported, and an estimate (characters / 4) for a step it never finished."""

    tokens: int = 0
    unreported: int = 0

    @property
    def total(self) -> int:
        return self.tokens + self.unreported


@dataclass(frozen=True)
class AgentLimits:
    """The brief chat's per-user rate limit, and a daily token budget per trip."""

    limiter: RateLimiter
    budget: TokenBudget
    rate_limit: int = 20
    rate_window_s: int = 60
    daily_tokens: int = 200_000


class _Stopped(Exception):
    """The turn was asked to stop (by a member, or by its own limits): what was said so far is kept."""


def _streamed(  # noqa: PLR0917
    provider: ModelProvider,
    request: ChatRequest,
    meter: _Meter,
    pieces: list[str],
    calls: list[ToolCall],
    must_stop: Callable[[], bool],
) -> Generator[AgentEvent, None, StreamFinished | None]:
    """One model call, relayed as it streams: text as it comes, tool calls as they are ready (a question
    for the member is not shown as a tool call). Collects the text and calls; returns how the provider
    finished, or ``None`` when it stopped without saying. The meter estimates what it has not reported.
    Asked to stop, it closes the provider's stream, which closes the call upstream: no more tokens."""
    finished: StreamFinished | None = None
    meter.unreported = estimate_tokens(request)
    stream = provider.stream(request)
    try:
        for event in stream:
            if must_stop():
                raise _Stopped
            if isinstance(event, TextDelta) and event.text:
                meter.unreported += len(event.text) // 4
                pieces.append(event.text)
                yield AgentText(event.text)
            elif isinstance(event, ToolCallReady):
                calls.append(event.call)
                if event.call.name != CLARIFY_TOOL:
                    yield AgentToolCall(event.call)
            elif isinstance(event, StreamFinished):
                finished = event
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    return finished


def _no_reason() -> str | None:
    return None


@dataclass(frozen=True)
class _Asked:
    """A member's message, stored: what its reply starts from."""

    caller: str
    trip: Trip
    text: str
    model: str
    message_id: str
    source: TurnSource
    seq: int | None  # (None only when a dedupe key found it stored already: never for a chat)


@dataclass
class _Turn:
    """What one turn has gathered so far, across its steps."""

    caller: str
    trip: Trip
    text: str
    message_id: str
    request: ChatRequest  # the model's request, its messages growing with each step
    said: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    model_used: str = ""
    finish_reason: str = "stop"
    stopped: str | None = None  # why the turn was cut short: "stop" (a member), "timeout", "length"
    data: dict[str, Any] = field(default_factory=dict)
    proposals: list[dict[str, Any]] = field(default_factory=list)

    def add(self, *messages: Message) -> None:
        self.request = replace(self.request, messages=self.request.messages + messages)


@dataclass(frozen=True)
class TripAgent:
    workspace: TripWorkspace
    sessions: SessionStore
    clock: Clock
    max_output_tokens: int = 800
    tools: ReadTools | None = None
    max_tool_steps: int = 4
    approvals: Approvals | None = None  # write tools are offered only with somewhere to keep approvals
    limits: AgentLimits | None = None

    @property
    def new_id(self) -> IdGenerator:
        return self.workspace.new_id

    def _now(self) -> dt.datetime:
        return parse_iso(self.clock.now_iso())

    def open(self, caller: str, trip_id: str) -> Trip:
        """Members only: anyone else gets the missing-trip answer, before anything is stored."""
        return self.workspace.get_trip(caller, trip_id)

    def check_limits(self, caller: str, trip_id: str) -> None:
        """Before anything is stored or any model is called: 429 ``rate_limited`` or ``budget_exceeded``."""
        if self.limits is None:
            return
        limits = self.limits
        retry = limits.limiter.hit(f"agent:{caller}", limit=limits.rate_limit, window_s=limits.rate_window_s)
        if retry is not None:
            raise RateLimited(f"Too many messages: try again in {retry} s.", retry_after_s=retry)
        if limits.budget.spent(self._budget_key(trip_id)) >= limits.daily_tokens:
            now = self._now()
            midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
            raise BudgetExceeded(
                "This trip has used its model budget for today.",
                retry_after_s=int((midnight - now).total_seconds()),
            )

    def _budget_key(self, trip_id: str) -> str:
        return f"tokens:{trip_id}:{self._now().date().isoformat()}"

    def chat(  # noqa: PLR0917
        self,
        caller: str,
        trip: Trip,
        text: str,
        provider: ModelProvider,
        model: str,
        message_id: str = "",
        source: TurnSource = "chat",
        must_stop: Callable[[], str | None] | None = None,
    ) -> Iterator[AgentEvent]:
        """One turn. The member's message is stored before this returns (a store that cannot take it
        raises here, before any reply is promised, so a reply begun means the message is kept); the reply
        is the iterator. The trip's token budget is charged with what the model used, however the reply
        ends: finished, stopped, failed mid-way, or abandoned by a client that went away. ``must_stop``
        says why the turn must end now (``None``: go on); it is asked between the model's events."""
        asked = self._store_message(caller, trip, text, model, message_id, source)
        return self._metered(asked, provider, must_stop or _no_reason)

    def _metered(
        self, asked: _Asked, provider: ModelProvider, must_stop: Callable[[], str | None]
    ) -> Iterator[AgentEvent]:
        meter = _Meter()
        try:
            yield from self._reply(asked, provider, meter, must_stop)
        finally:
            if self.limits is not None and meter.total:
                self.limits.budget.spend(self._budget_key(asked.trip.tripId), meter.total)

    def _store_message(  # noqa: PLR0917
        self, caller: str, trip: Trip, text: str, model: str, message_id: str, source: TurnSource
    ) -> _Asked:
        """The writes that come before a reply is promised, and nothing more: once the message is stored,
        whatever fails is the reply's failure (an error chunk), never the request's."""
        self._deny_pending(trip, caller)  # a new message answers any open proposal with "no"
        metadata = TurnMetadata(
            actor=caller, at=self.clock.now_iso(), source=source, tripVersion=trip.version
        )
        seq = self.sessions.append(trip.tripId, Turn(role="user", kind=source, text=text, metadata=metadata))
        return _Asked(caller, trip, text, model, message_id, source, seq)

    def _reply(
        self, asked: _Asked, provider: ModelProvider, meter: _Meter, must_stop: Callable[[], str | None]
    ) -> Iterator[AgentEvent]:
        # Read once the reply has begun: a store failing now ends the reply with an error, and the
        # message stays kept, as its answer said.
        trip, source = asked.trip, asked.source
        state = self.sessions.state(trip.tripId)
        forced = self._resumed_call(trip.tripId, state, asked.text)
        history = prompt_history(self.sessions, trip.tripId, state, upto=asked.seq)
        turn = _Turn(
            asked.caller,
            trip,
            asked.text,
            asked.message_id,
            self._request(trip, asked.caller, asked.model, history),
            model_used=asked.model,
            data={"messageId": asked.message_id} if asked.message_id else {},
        )
        pieces: list[str] = []
        try:
            for step in range(self.max_tool_steps + 1):
                if step:
                    yield AgentStep()
                pieces = []
                calls: list[ToolCall] = []
                if step == 0 and forced is not None:  # the clarification's answer resumes its action
                    calls.append(forced)
                    yield AgentToolCall(forced)
                else:
                    last = step == self.max_tool_steps  # the last step may only answer
                    offered = replace(turn.request, tools=()) if last else turn.request
                    if must_stop():
                        raise _Stopped
                    finished = yield from _streamed(
                        provider, offered, meter, pieces, calls, lambda: must_stop() is not None
                    )
                    if finished is None:
                        yield AgentFailed("The model stopped without finishing its answer.", "ai_unavailable")
                        return
                    turn.model_used = finished.model
                    turn.usage = Usage(
                        turn.usage.input_tokens + finished.usage.input_tokens,
                        turn.usage.output_tokens + finished.usage.output_tokens,
                    )
                    meter.tokens, meter.unreported = turn.usage.input_tokens + turn.usage.output_tokens, 0
                turn.said.append("".join(pieces))
                if not (yield from self._after_the_model(turn, "".join(pieces), calls)):
                    break
        except _Stopped:  # kept as far as it went, and counted as what the model was paid for
            turn.said.append("".join(pieces))
            turn.stopped = must_stop() or "stop"
            turn.usage = Usage(
                turn.usage.input_tokens + estimate_tokens(turn.request),
                turn.usage.output_tokens + sum(len(p) for p in pieces) // 4,
            )
        except AppError as exc:
            yield AgentFailed(exc.message, exc.code)
            return
        yield self._store_reply(turn, source)

    def _request(self, trip: Trip, caller: str, model: str, messages: list[Message]) -> ChatRequest:
        specs: tuple[ToolSpec, ...] = (self.tools.specs() if self.tools else ()) + (
            write_tool_specs() if self.approvals else ()
        )
        return ChatRequest(
            model=model,
            system=system_prompt(trip, self._now().date().isoformat()),  # the same for every step
            messages=tuple(messages),
            options=ChatOptions(max_output_tokens=self.max_output_tokens, temperature=0.3, task="agent"),
            tools=(*specs, clarify_tool_spec()),
            context={"trip": trip.model_dump(mode="json", by_alias=True), "caller": caller},
        )

    def _after_the_model(
        self, turn: _Turn, said: str, calls: list[ToolCall]
    ) -> Generator[AgentEvent, None, bool]:
        """What the model's calls lead to; ``True`` when the model must be called again (tool results)."""
        question = next((c for c in calls if c.name == CLARIFY_TOOL), None)
        intent = self._intent_from(question, turn.text) if question else None
        writes = [c for c in calls if c.name in REGISTRY]
        if intent is None and writes and self.approvals is not None:
            yield from self._propose(turn, writes)  # nothing changes until a member with edit rights answers
            return False
        reads = [c for c in calls if c.name not in REGISTRY and c.name != CLARIFY_TOOL]
        if intent is None and reads and self.tools is not None:
            turn.add(Message("assistant", said, tuple(reads)))
            for call in reads:  # read tools: they run at once and change nothing
                output = self.tools.run(call.name, call.arguments, turn.trip)
                yield AgentToolResult(call.id, output)
                turn.add(Message("tool", json.dumps(output, ensure_ascii=False), tool_call_id=call.id))
                intent = intent or alternatives_intent(call, output, turn.text)
        if intent is None and question is not None:  # a question we cannot use: the model tries again
            turn.add(Message("assistant", said, (question,)))
            turn.add(Message("tool", '{"error": "invalid clarification"}', tool_call_id=question.id))
            return True
        if intent is not None:  # ask instead of guessing; the intent waits on the session
            yield from self._ask(turn, intent)
            return False
        return bool(calls) and self.tools is not None

    def _propose(self, turn: _Turn, writes: list[ToolCall]) -> Iterator[AgentEvent]:
        assert self.approvals is not None
        for call in writes:
            approval_id = self.approvals.propose(
                turn.trip, call, requested_by=turn.caller, message_id=turn.message_id
            ).proposalId
            turn.proposals.append(
                {
                    "toolCallId": call.id,
                    "toolName": call.name,
                    "input": call.arguments,
                    "approvalId": approval_id,
                }
            )
            yield AgentApprovalRequest(call.id, approval_id)
        turn.finish_reason = "tool-calls"

    def _ask(self, turn: _Turn, intent: PendingIntent) -> Iterator[AgentEvent]:
        stamped = intent.model_copy(update={"createdAt": self._now().timestamp()})
        self.sessions.set_pending_intent(turn.trip.tripId, stamped.model_dump())
        question_text = stamped.numbered()
        turn.said.append(question_text)
        yield AgentText(("\n\n" if any(turn.said[:-1]) else "") + question_text)
        yield AgentClarify(stamped.ui_data())
        turn.data["clarify"] = stamped.ui_data()

    def _store_reply(self, turn: _Turn, source: TurnSource) -> AgentDone:
        if turn.proposals:
            turn.data["toolCalls"] = turn.proposals
        if turn.stopped:
            turn.data["stopped"] = turn.stopped
        reply = Turn(
            role="assistant",
            kind=source,
            text="\n\n".join(t for t in turn.said if t),
            model=turn.model_used,
            usage={"input": turn.usage.input_tokens, "output": turn.usage.output_tokens},
            data=turn.data,
            metadata=TurnMetadata(
                actor="agent", at=self.clock.now_iso(), source=source, tripVersion=turn.trip.version
            ),
        )
        seq = self.sessions.append(turn.trip.tripId, reply) or 0
        return AgentDone(seq, turn.model_used, turn.usage, turn.finish_reason, turn.stopped)

    def _resumed_call(self, trip_id: str, state: SessionState, reply: str) -> ToolCall | None:
        """An open clarification answered in time resumes its action; any other reply clears it."""
        if state.pending_intent is None:
            return None
        if not self.sessions.take_pending_intent(trip_id, state.pending_intent):
            return None  # another member's reply took it first
        try:
            intent = PendingIntent.model_validate(state.pending_intent)
        except ValidationError:
            return None
        if self._now().timestamp() - intent.createdAt > CLARIFY_TTL_S:
            return None  # expired: the reply is a new message
        choice = resolve(reply, intent)
        if choice is None:
            return None
        return ToolCall(self.new_id("call"), choice.tool, choice.arguments)

    def _intent_from(self, call: ToolCall, text: str) -> PendingIntent | None:
        """The model's question, validated like any untrusted input: its candidates must be our tools."""
        known = set(REGISTRY) | ({s.name for s in self.tools.specs()} if self.tools else set())
        try:
            intent = PendingIntent.model_validate(call.arguments | {"originalIntent": text, "createdAt": 0.0})
        except ValidationError:
            return None
        return intent if all(c.tool in known for c in intent.candidates) else None

    def _deny_pending(self, trip: Trip, caller: str) -> None:
        if self.approvals is not None:
            self.approvals.deny_open(caller, trip.tripId, trip.version, "a new message")


def alternatives_intent(call: ToolCall, output: dict[str, Any], text: str) -> PendingIntent | None:
    """A POI search that found nothing offers its alternatives as a numbered question."""
    if call.name != "find_pois" or output.get("results") or len(output.get("alternatives") or []) < 1:
        return None
    candidates = []
    for alternative in output["alternatives"][:8]:
        arguments = dict(call.arguments)
        if alternative["kind"] == "term":
            arguments["text"] = alternative["value"]
        elif alternative["kind"] == "category":
            arguments["category"] = None if alternative["value"] == "any kind" else alternative["value"]
        elif alternative["kind"] == "radius":
            arguments["radiusKm"] = alternative["value"]
        else:
            continue
        candidates.append(
            Choice(
                label=f"{alternative['description']} ({alternative['count']})",
                tool=call.name,
                arguments=arguments,
            )
        )
    if not candidates:
        return None
    candidates.append(Choice(label="none of these", tool="get_trip", arguments={}))
    return PendingIntent(
        type="poi_alternatives",
        question=f"Nothing found near {output.get('near')}. Try instead:",
        candidates=candidates,
        originalIntent=text,
    )
