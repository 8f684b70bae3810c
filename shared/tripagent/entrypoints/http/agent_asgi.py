"""``POST /trips/{tripId}/agent/chat`` streamed chunk by chunk, as an ASGI app: the local gateway serves it
so, and in AWS the Function URL behind the Lambda Web Adapter (where no authorizer stands in front, so
the token is verified here, with the same checks)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from tripagent.entrypoints import ui_stream
from tripagent.entrypoints.http.agent_stream import chat_stream
from tripagent.entrypoints.http.api import JSON, require_json_body
from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import AppError, DependencyUnavailable, NotFound, Unauthorized

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
    except Exception as exc:  # before the first byte: answered as JSON, as the buffered route does
        error = _typed(exc)
        payload = json.dumps(error.body()).encode()
        headers = [(b"content-type", JSON.encode())] + [
            (k.lower().encode(), v.encode()) for k, v in error.headers.items()
        ]
        await send({"type": "http.response.start", "status": status_of(error), "headers": headers})
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


def _typed(exc: Exception) -> AppError:
    """The error a client reads: ours as it is, a dependency that did not answer as a typed 503; anything
    else is a bug, raised for the runtime to report."""
    from tripagent.adapters.aws import unreachable

    if isinstance(exc, AppError):
        return exc
    if unreachable(exc):
        return DependencyUnavailable()
    raise exc
