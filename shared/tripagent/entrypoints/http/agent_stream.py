"""The agent chat as the AI SDK UI message stream: one producer (:func:`chat_stream`) for both ways of
serving it, the streamed ASGI path (``agent_asgi``) and the buffered Powertools route (``agent``). Errors
before the first byte are raised (and answered as JSON); errors after it end the stream with an ``error``
chunk. A continuation (the answers to approval requests) decides each on the stored proposal, then goes
on with the same assistant message."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
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
from tripagent.application.agent_streams import TurnRecorder, TurnStatus, follow
from tripagent.entrypoints import ui_stream
from tripagent.entrypoints.http.agent_models import ChatRequestBody, UIMessage
from tripagent.errors import AppError, DependencyUnavailable, InvalidJson, ValidationFailed

MAX_REASON = 300  # a denial's reason, as the agent reads it


def _new_text(body: ChatRequestBody) -> str:
    last = body.messages[-1]
    if last.role != "user":
        raise ValidationFailed(
            "The last message must be the user's.", details=[{"loc": ["body", "messages", -1]}]
        )
    text = "".join(p.text or "" for p in last.parts if p.type == "text").strip()
    if not text:
        raise ValidationFailed(
            "The message has no text.", details=[{"loc": ["body", "messages", -1, "parts"]}]
        )
    if len(text) > 4000:
        raise ValidationFailed("The message is longer than 4000 characters.")
    return text


def chat_stream(caller: str, trip_id: str, raw_body: str | bytes) -> Iterator[bytes]:
    """Check everything, then return the stream. Errors before the first byte are raised (and answered
    as JSON); errors after it end the stream with an ``error`` chunk. A new turn's stream is stored as it
    is produced (``application/agent_streams``): it goes on to its end if the asker goes away, and any
    member can read it meanwhile; a member's stop, or the turn's own time limit, ends it early."""
    from tripagent.bootstrap import agent_turns, model_name_for, trip_agent
    from tripagent.settings import agent_settings

    try:
        body = ChatRequestBody.model_validate_json(raw_body or b"{}")
    except ValidationError as exc:
        if any(e["type"] == "json_invalid" for e in exc.errors()):
            raise InvalidJson("The request body is not valid JSON.") from exc
        raise ValidationFailed(
            "The request does not match the schema.",
            details=[{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()],
        ) from exc
    agent = trip_agent()
    if body.messages[-1].role == "assistant":  # the answers to approval requests: a continuation
        agent.open(caller, trip_id)  # members only, as for any message
        return _continuation(caller, trip_id, body.messages[-1])
    text = _new_text(body)
    trip = agent.open(caller, trip_id)  # 404 for non-members, before anything is stored
    agent.check_limits(caller, trip_id)  # 429 rate_limited or budget_exceeded, before any model call
    provider, model = model_name_for(caller)  # ai_not_configured, before anything is stored
    message_id = "msg_" + secrets.token_hex(8)
    recorder = TurnRecorder(
        agent_turns().store, trip_id, message_id, time.time, deadline_s=agent_settings().turn_limit_s
    )
    recorder.start(caller, text)  # a store that cannot take it: a typed 503 before the first byte
    try:  # the message is stored before the first byte too: a 200 means it is kept
        events = agent.chat(
            caller,
            trip,
            text,
            provider,
            model,
            message_id=message_id,
            must_stop=lambda: recorder.stop_reason if recorder.must_stop else None,
        )
    except Exception:
        _quietly(recorder.finish, "failed")  # (readers attached already see it end, not go stale)
        raise
    # Who asked what travels with the reply: a member who attaches to it (a reload, a second device, a
    # watcher) shows the question above it, however the attaching raced the question's storing.
    metadata = {"tripVersion": trip.version, "streamId": message_id, "askedBy": caller, "asked": text}
    outcome: list[TurnStatus] = []
    return _recorded(_ui_chunks(events, message_id, metadata, outcome), recorder, outcome)


def _ui_chunks(
    events: Iterator[AgentEvent], message_id: str, metadata: dict[str, Any], outcome: list[TurnStatus]
) -> Iterator[bytes]:
    """The agent's events as UI-message chunks; ``outcome`` gets how the turn ended."""
    part = ""  # the open text part, if any: text never continues across a step boundary
    yield ui_stream.start(message_id, metadata=metadata)
    yield ui_stream.start_step()
    for event in events:
        if isinstance(event, AgentText):
            if not part:
                part = "t_" + secrets.token_hex(6)
                yield ui_stream.text_start(part)
            yield ui_stream.text_delta(part, event.delta)
            continue
        if part:
            yield ui_stream.text_end(part)
            part = ""
        if isinstance(event, AgentToolCall):
            yield ui_stream.tool_input_start(event.call.id, event.call.name)
            yield ui_stream.tool_input_available(event.call.id, event.call.name, event.call.arguments)
        elif isinstance(event, AgentToolResult):
            yield ui_stream.tool_output_available(event.call_id, event.output)
        elif isinstance(event, AgentStep):
            yield ui_stream.finish_step()
            yield ui_stream.start_step()
        elif isinstance(event, AgentApprovalRequest):
            yield ui_stream.tool_approval_request(event.approval_id, event.call_id)
        elif isinstance(event, AgentClarify):
            yield ui_stream.data_part("clarify", event.data, part_id="clarify_" + message_id)
        elif isinstance(event, AgentDone):
            yield ui_stream.finish_step()
            ended: dict[str, Any] = {"seq": event.seq, "model": event.model}
            if event.stopped:
                ended["stopped"] = event.stopped
            outcome.append("stopped" if event.stopped else "finished")
            yield ui_stream.finish(event.finish_reason, ended)
        elif isinstance(event, AgentFailed):
            outcome.append("failed")
            yield ui_stream.error(event.code, event.message)
    yield ui_stream.DONE


def _recorded(chunks: Iterator[bytes], recorder: TurnRecorder, outcome: list[TurnStatus]) -> Iterator[bytes]:
    """Each chunk stored (batched) as it is sent. A fault mid-stream ends the stream, the asker's copy and
    the stored one alike, with a typed error chunk, never a cut; the fault is logged with its trace."""
    from tripagent.observability import logger

    try:
        for chunk in chunks:
            _quietly(recorder.write, chunk)
            yield chunk
    except Exception as exc:
        logger.exception("agent turn failed mid-stream", extra={"streamId": recorder.stream_id})
        code, message = _fault(exc)
        tail = ui_stream.error(code, message) + ui_stream.DONE
        _quietly(recorder.write, tail)
        _quietly(recorder.finish, "failed")
        yield tail
        return
    finally:  # (closed before its end, or never run: the turn still ends, and its beat stops)
        _quietly(recorder.finish, outcome[-1] if outcome else "failed")


def _fault(exc: Exception) -> tuple[str, str]:
    from tripagent.adapters.aws import unreachable

    if isinstance(exc, AppError):
        return exc.code, exc.message
    if unreachable(exc):
        unavailable = DependencyUnavailable()
        return unavailable.code, unavailable.message
    return "internal_error", "The reply could not be finished. Try again."


def _quietly(write: Any, *args: Any) -> None:
    """The store failing must not cut the asker's stream: readers then see the turn end as lost."""
    from tripagent.observability import logger

    try:
        write(*args)
    except Exception:
        logger.exception("the turn's stream could not be stored")


def resume_stream(
    caller: str,
    trip_id: str,
    stream_id: str | None,
    until: float | None,
    gone: Callable[[], bool] = lambda: False,
) -> Iterator[bytes] | None:
    """A turn being written, from its first chunk and then as it is written (``None``: nothing is, 204).
    A writer that died ends the copy with a typed error chunk."""
    from tripagent.bootstrap import agent_turns
    from tripagent.settings import agent_settings

    turns = agent_turns()
    stream = turns.readable(caller, trip_id, stream_id)  # 404 for non-members
    if stream is None:
        return None

    def interrupted() -> list[bytes]:
        message = "The reply was interrupted before it was finished. Ask again."
        return [ui_stream.error("reply_interrupted", message), ui_stream.DONE]

    copy = follow(
        turns.store,
        stream,
        now=time.time,
        sleep=time.sleep,
        interrupted=interrupted,
        stale_s=agent_settings().stream_stale_s,
        until=until,
        gone=gone,
    )
    return _ended_in_words(copy)


def _ended_in_words(copy: Iterator[bytes]) -> Iterator[bytes]:
    """A reader's copy that cannot go on (the store failing) ends with a typed error chunk, not a cut."""
    from tripagent.observability import logger

    try:
        yield from copy
    except Exception as exc:
        logger.exception("a reader's copy of a turn failed")
        yield ui_stream.error(*_fault(exc)) + ui_stream.DONE


def _continuation(caller: str, trip_id: str, message: UIMessage) -> Iterator[bytes]:
    """Decide each approval answer on the stored record, then continue the same assistant message."""
    from tripagent.bootstrap import approvals

    answers = []
    for part in message.parts:
        extra = part.model_extra or {}
        approval = extra.get("approval") or {}
        if (
            part.type.startswith("tool-")
            and extra.get("state") == "approval-responded"
            and approval.get("id")
        ):
            answers.append(
                (
                    str(approval["id"]),
                    str(extra.get("toolCallId", "")),
                    dict(extra.get("input") or {}),
                    bool(approval.get("approved")),
                    " ".join(str(approval.get("reason") or "").split())[:MAX_REASON],
                )
            )
    if not answers:
        raise ValidationFailed("Nothing to continue: no answered approval in the last message.")
    outcomes = [
        approvals().answer(caller, trip_id, approval_id, call_id, arguments, approved, reason=reason)
        for approval_id, call_id, arguments, approved, reason in answers
    ]

    def produce() -> Iterator[bytes]:
        yield ui_stream.start()  # no new messageId: the same assistant message goes on
        yield ui_stream.start_step()
        lines = []
        for outcome in outcomes:
            if outcome.result == "applied" and outcome.detail.get("alreadyDecided"):
                yield ui_stream.tool_output_available(outcome.toolCallId, outcome.detail)
                lines.append(f"Already applied by {outcome.detail['approvedBy']}.")
            elif outcome.result == "applied":
                yield ui_stream.tool_output_available(outcome.toolCallId, outcome.detail)
                lines.append(f"Done (trip version {outcome.detail['tripVersion']}).")
            elif outcome.result == "denied":
                yield ui_stream.tool_output_denied(outcome.toolCallId)
                lines.append("Not applied: denied.")
            else:
                reason = str(outcome.detail.get("reason") or outcome.detail.get("message") or "refused")
                said = f"Not applied: {reason.rstrip('.')}."
                yield ui_stream.tool_output_error(outcome.toolCallId, said)
                lines.append(said)
        part = "t_" + secrets.token_hex(6)
        yield ui_stream.text_start(part)
        yield ui_stream.text_delta(part, " ".join(lines))
        yield ui_stream.text_end(part)
        yield ui_stream.finish_step()
        yield ui_stream.finish("stop")
        yield ui_stream.DONE

    return produce()
