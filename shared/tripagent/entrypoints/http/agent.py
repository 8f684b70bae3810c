"""The trip agent over HTTP (AgentChatFunction): ``POST /trips/{tripId}/agent/chat`` answers with the AI
SDK UI message stream (``agent_stream``; streamed by ``agent_asgi``, buffered here for the HTTP API, which
cannot stream a Python function's response), ``GET .../agent/chat/stream`` reattaches to the reply being
written, ``POST .../agent/turns/{turnId}/stop`` stops it, ``GET .../agent/messages`` returns the shared
history as UI messages (``agent_messages``), and ``POST .../agent/mentions`` runs the same pipeline
without a stream.
"""

from __future__ import annotations

import re
import time

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from tripagent.entrypoints import ui_stream
from tripagent.entrypoints.http.agent_asgi import asgi_app
from tripagent.entrypoints.http.agent_messages import ui_messages
from tripagent.entrypoints.http.agent_models import (
    MentionAccepted,
    MentionRequest,
    MessagesResponse,
    TurnStopped,
)
from tripagent.entrypoints.http.agent_stream import chat_stream, resume_stream
from tripagent.entrypoints.http.api import JSON, current_caller, require_json_body
from tripagent.errors import AiUnavailable

BUFFERED_FOLLOW_S = 25.0
router = Router()
__all__ = ["asgi_app", "router"]


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
    "/trips/<tripId>/agent/chat/stream",
    summary="Reattach to the reply being written (the AI SDK's resume): 204 when nothing is",
    tags=["agent"],
    responses={
        200: {"description": "text/event-stream", "content": {"text/event-stream": {}}},
        204: {"description": "No reply is being written"},
    },
)
def agent_chat_resume(tripId: str, id: str | None = None) -> Response[str]:  # noqa: N803
    """The buffered path replays what is stored and follows it for at most 25 s (the HTTP API's limit);
    the streamed path follows it to its end."""
    stream = resume_stream(current_caller(router).user_id, tripId, id, time.time() + BUFFERED_FOLLOW_S)
    if stream is None:
        return Response(status_code=204, body="")
    return Response(status_code=200, headers=dict(ui_stream.HEADERS), body=b"".join(stream).decode())


@router.post(
    "/trips/<tripId>/agent/turns/<turnId>/stop",
    summary="Stop the agent's reply being written (members who may edit)",
    tags=["agent"],
    responses={
        200: {"description": "The turn had already ended"},
        202: {"description": "Stopping: it ends at the model's next word, stored as stopped"},
    },
)
def agent_turn_stop(tripId: str, turnId: str) -> Response[TurnStopped]:  # noqa: N803
    from tripagent.bootstrap import agent_turns

    stream = agent_turns().stop(current_caller(router).user_id, tripId, turnId)
    return Response(
        status_code=200 if stream.ended else 202,
        content_type=JSON,
        body=TurnStopped(turnId=turnId, status=stream.status, stopRequestedBy=stream.stop_requested_by),
    )


@router.get(
    "/trips/<tripId>/agent/messages", summary="The trip's shared agent history as UI messages", tags=["agent"]
)
def agent_messages(tripId: str, after: int = 0) -> MessagesResponse:  # noqa: N803
    """Open approvals come back in the ``approval-requested`` state, so a reloaded page can still answer
    them; decided ones in their final state, read from the same store as the suggestions."""
    from tripagent.bootstrap import proposal_store, trip_agent

    agent = trip_agent()
    agent.open(current_caller(router).user_id, tripId)
    turns = agent.sessions.turns(tripId, after=after)
    proposes = any(t.data.get("toolCalls") for t in turns)
    proposals = proposal_store().of_trip(tripId, "approval") if proposes else {}
    return MessagesResponse(messages=ui_messages(turns, proposals, agent.clock.now_iso()))


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
