"""The trip agent over HTTP (AgentChatFunction): ``POST /trips/{tripId}/agent/chat`` answers with the AI
SDK UI message stream, and ``GET /trips/{tripId}/agent/messages`` returns the shared history.

Two ways to serve the stream, one producer (:func:`chat_stream`): ``asgi_app`` streams chunk by chunk
(the local gateway; in AWS, a Function URL behind the Lambda Web Adapter), and the Powertools route
buffers the same bytes for the HTTP API, which cannot stream a Python function's response.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections.abc import Iterator
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tripagent.domain.proposal import Proposal
from tripagent.entrypoints import ui_stream
from tripagent.entrypoints.http.api import JSON, current_caller, require_json_body
from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import AiUnavailable, AppError, InvalidJson, NotFound, Unauthorized, ValidationFailed

router = Router()


class UIPart(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: str
    text: str | None = None


class UIMessage(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str = ""
    role: str
    parts: list[UIPart] = Field(default_factory=list)
    metadata: dict[str, Any] | None = None


class ChatRequestBody(BaseModel):
    """What AI SDK UI's DefaultChatTransport sends. Only the last user message is read: the history
    comes from the store, so forged assistant turns or tool results change nothing."""

    model_config = ConfigDict(extra="allow")

    id: str | None = None
    messages: list[UIMessage] = Field(min_length=1)
    trigger: str | None = None
    messageId: str | None = None


class HistoryMessage(BaseModel):
    """A UI message as ``useChat`` restores it: text, tool parts in their current state, data parts."""

    id: str
    role: str
    parts: list[dict[str, Any]]
    metadata: dict[str, Any]


class MessagesResponse(BaseModel):
    messages: list[HistoryMessage]


class MentionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=4000, description="The message that mentions @agent.")


class MentionAccepted(BaseModel):
    accepted: bool = True
    seq: int = Field(description="The sequence number of the agent's reply in the shared session.")


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
    as JSON); errors after it end the stream with an ``error`` chunk."""
    from tripagent.application.agent import (
        AgentApprovalRequest,
        AgentClarify,
        AgentDone,
        AgentFailed,
        AgentStep,
        AgentText,
        AgentToolCall,
        AgentToolResult,
    )
    from tripagent.bootstrap import model_name_for, trip_agent

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
    events = agent.chat(caller, trip, text, provider, model, message_id=message_id)

    def produce() -> Iterator[bytes]:
        part = ""  # the open text part, if any: text never continues across a step boundary
        yield ui_stream.start(message_id, metadata={"tripVersion": trip.version})
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
                yield ui_stream.finish(event.finish_reason, {"seq": event.seq, "model": event.model})
            elif isinstance(event, AgentFailed):
                yield ui_stream.error(event.message)
        yield ui_stream.DONE

    return produce()


@router.post(
    "/trips/<tripId>/agent/chat",
    summary="Talk to the trip's agent (AI SDK UI message stream)",
    tags=["agent"],
    responses={200: {"description": "text/event-stream", "content": {"text/event-stream": {}}}},
)
def agent_chat(tripId: str) -> Response[str]:  # noqa: N803
    """The buffered path for the HTTP API: the same stream, delivered at once."""
    event = router.current_event
    require_json_body(event.headers.get("content-type"), event.body)
    stream = chat_stream(current_caller(router).user_id, tripId, event.decoded_body or "")
    return Response(status_code=200, headers=dict(ui_stream.HEADERS), body=b"".join(stream).decode())


@router.get(
    "/trips/<tripId>/agent/messages", summary="The trip's shared agent history as UI messages", tags=["agent"]
)
def agent_messages(tripId: str, after: int = 0) -> MessagesResponse:  # noqa: N803
    """Open approvals come back in the ``approval-requested`` state, so a reloaded page can still answer
    them; decided ones in their final state, read from the same store as the suggestions."""
    from tripagent.bootstrap import proposal_store, trip_agent

    agent = trip_agent()
    agent.open(current_caller(router).user_id, tripId)
    messages = []
    now = agent.clock.now_iso()
    turns = agent.sessions.turns(tripId, after=after)
    proposals = (
        proposal_store().of_trip(tripId, "approval") if any(t.data.get("toolCalls") for t in turns) else {}
    )
    for turn in turns:
        metadata: dict[str, Any] = {"seq": turn.seq, **turn.metadata.model_dump()}
        if turn.role == "event":
            metadata["event"] = turn.kind
        parts: list[dict[str, Any]] = [{"type": "text", "text": turn.text}] if turn.text else []
        for call in turn.data.get("toolCalls", []):
            parts.append(tool_part(call, proposals.get(call["approvalId"]), now))
        if turn.data.get("clarify"):
            parts.append({"type": "data-clarify", "id": f"clarify_{turn.seq}", "data": turn.data["clarify"]})
        messages.append(
            HistoryMessage(
                id=str(turn.data.get("messageId") or f"m{turn.seq}"),
                role="assistant" if turn.role == "assistant" else "user",
                parts=parts,
                metadata=metadata,
            )
        )
    return MessagesResponse(messages=messages)


TOOL_ERRORS = {
    "failed": "Approved, but the change could not be applied.",
    "stale": "Approved, but the trip had changed since it was proposed: nothing was applied.",
    "expired": "The proposal expired.",
}


def tool_part(call: dict[str, Any], proposal: Proposal | None, now: str) -> dict[str, Any]:
    """A proposed write as the AI SDK shows it, in the state the store says (a claim in progress is still
    open: nothing has changed yet)."""
    part = {"type": f"tool-{call['toolName']}", "toolCallId": call["toolCallId"], "input": call["input"]}
    approval = {"id": call["approvalId"]}
    status = "expired" if proposal is None else proposal.client_status
    if status == "pending" and proposal is not None and not proposal.open_at(now):
        status = "expired"
    if status == "pending":
        return part | {"state": "approval-requested", "approval": approval}
    if status == "applied":
        return part | {
            "state": "output-available",
            "output": {"applied": True, "approvedBy": proposal.decidedBy if proposal else None},
            "approval": approval | {"approved": True},
        }
    if status == "denied":
        return part | {"state": "output-denied", "approval": approval | {"approved": False}}
    return part | {"state": "output-error", "errorText": TOOL_ERRORS[status]}


@router.post(
    "/trips/<tripId>/agent/mentions",
    summary="An @agent mention: the same pipeline as the chat, without a stream",
    tags=["agent"],
    responses={202: {"description": "Accepted: the reply lands in the shared session"}},
)
def agent_mention(tripId: str, body: MentionRequest) -> Response[MentionAccepted]:  # noqa: N803
    from tripagent.application.agent import AgentDone, AgentFailed
    from tripagent.bootstrap import model_name_for, trip_agent

    caller = current_caller(router).user_id
    agent = trip_agent()
    trip = agent.open(caller, tripId)
    agent.check_limits(caller, tripId)
    text = re.sub(r"^\s*@agent\b[\s,:]*", "", body.text, flags=re.IGNORECASE).strip() or body.text.strip()
    provider, model = model_name_for(caller)
    seq = 0
    for event in agent.chat(caller, trip, text, provider, model, source="mention"):
        if isinstance(event, AgentFailed):
            raise AiUnavailable(event.message)
        if isinstance(event, AgentDone):
            seq = event.seq
    return Response(status_code=202, content_type=JSON, body=MentionAccepted(seq=seq))


# ---------------------------------------------------------------------------- the streaming path
CHAT_PATH = re.compile(r"^/trips/([A-Za-z0-9_\-]{1,64})/agent/chat$")


def _caller_and_trip(scope: dict[str, Any]) -> tuple[str, str]:
    """Behind the HTTP API (and the local gateway) the authorizer's claims come with the event; behind a
    Function URL nothing stands in front, so the token is verified here, with the same checks."""
    event = scope.get("aws.event") or {}
    if event.get("requestContext", {}).get("authorizer"):
        claims = event["requestContext"]["authorizer"].get("jwt", {}).get("claims") or {}
        if not claims.get("sub"):
            raise Unauthorized("A valid bearer token is required.")
        return str(claims["sub"]), str((event.get("pathParameters") or {}).get("tripId", ""))
    from tripagent.bootstrap import token_verifier

    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    claims = token_verifier().verify_header(headers.get("authorization"))
    found = CHAT_PATH.match(scope.get("path", ""))
    if scope.get("method") != "POST" or not found:
        raise NotFound("No such resource.")
    return str(claims["sub"]), found.group(1)


async def asgi_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """POST /trips/{tripId}/agent/chat, streamed chunk by chunk."""
    if scope.get("type") != "http":
        return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    loop = asyncio.get_running_loop()
    try:
        caller, trip_id = await loop.run_in_executor(None, _caller_and_trip, scope)
        content_type = next(
            (v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"content-type"), None
        )
        require_json_body(content_type, body)
        stream = await loop.run_in_executor(None, chat_stream, caller, trip_id, body)
    except AppError as exc:
        payload = json.dumps(exc.body()).encode()
        headers = [(b"content-type", JSON.encode())] + [
            (k.lower().encode(), v.encode()) for k, v in exc.headers.items()
        ]
        await send({"type": "http.response.start", "status": status_of(exc), "headers": headers})
        await send({"type": "http.response.body", "body": payload})
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(k.encode(), v.encode()) for k, v in ui_stream.HEADERS.items()],
        }
    )
    while True:
        chunk = await loop.run_in_executor(None, next, stream, None)
        if chunk is None:
            break
        await send({"type": "http.response.body", "body": chunk, "more_body": True})
    await send({"type": "http.response.body", "body": b"", "more_body": False})


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
                )
            )
    if not answers:
        raise ValidationFailed("Nothing to continue: no answered approval in the last message.")
    outcomes = [
        approvals().answer(caller, trip_id, approval_id, call_id, arguments, approved)
        for approval_id, call_id, arguments, approved in answers
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
