"""``POST /trips/{tripId}/agent/chat`` and ``GET /trips/{tripId}/agent/chat/stream`` (reattach to the turn
being written) streamed chunk by chunk, as an ASGI app: the local gateway serves them so, and in AWS the
Function URL behind the Lambda Web Adapter (where no authorizer stands in front, so the token is verified
here, with the same checks).

The stream is produced to its end even when the client goes away (a reload, a lost connection): the turn
is stored as it is written and the client reattaches; only a member's stop ends it early."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs

from tripagent.entrypoints import ui_stream
from tripagent.entrypoints.http.agent_stream import chat_stream, resume_stream
from tripagent.entrypoints.http.api import JSON, require_json_body
from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import AppError, DependencyUnavailable, NotFound, Unauthorized

CHAT_PATH = re.compile(r"^/trips/([A-Za-z0-9_\-]{1,64})/agent/chat(/stream)?$")
RESUME_LIMIT_S = 110.0  # a reader's copy ends before the function's timeout (the client reattaches)


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
    resuming = bool(found and found.group(2))
    if not found or scope.get("method") != ("GET" if resuming else "POST"):
        raise NotFound("No such resource.")
    return str(claims["sub"]), found.group(1)


def _stream_id(scope: dict[str, Any]) -> str | None:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    value = (query.get("id") or [""])[0]
    return value if re.fullmatch(r"[A-Za-z0-9_\-]{1,64}", value) else None


def _open(scope: dict[str, Any], body: bytes, gone: threading.Event) -> Iterator[bytes] | None:
    """Every check, then the stream (``None``: nothing to reattach to)."""
    caller, trip_id = _caller_and_trip(scope)
    if scope.get("method") == "GET":
        return resume_stream(caller, trip_id, _stream_id(scope), time.time() + RESUME_LIMIT_S, gone.is_set)
    content_type = next(
        (v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"content-type"), None
    )
    require_json_body(content_type, body)
    return chat_stream(caller, trip_id, body)


async def asgi_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A turn (POST) or a reader's copy of one (GET), streamed chunk by chunk."""
    if scope.get("type") != "http":
        return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    loop = asyncio.get_running_loop()
    gone = threading.Event()  # a reader that went away stops following (a turn goes on without its asker)
    watcher = asyncio.create_task(_disconnect(receive, gone)) if scope.get("method") == "GET" else None
    try:
        await _answer(loop, scope, body, send, gone)
    finally:
        if watcher is not None:
            watcher.cancel()


async def _disconnect(receive: Any, gone: threading.Event) -> None:
    while (await receive()).get("type") != "http.disconnect":
        pass
    gone.set()


async def _answer(
    loop: asyncio.AbstractEventLoop, scope: dict[str, Any], body: bytes, send: Any, gone: threading.Event
) -> None:
    try:
        stream = await loop.run_in_executor(None, _open, scope, body, gone)
    except Exception as exc:  # before the first byte: answered as JSON, as the buffered route does
        error = _typed(exc)
        payload = json.dumps(error.body()).encode()
        headers = [(b"content-type", JSON.encode())] + [
            (k.lower().encode(), v.encode()) for k, v in error.headers.items()
        ]
        await send({"type": "http.response.start", "status": status_of(error), "headers": headers})
        await send({"type": "http.response.body", "body": payload})
        return
    if stream is None:  # nothing being written: the AI SDK's "nothing to resume"
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return
    start = [(k.encode(), v.encode()) for k, v in ui_stream.HEADERS.items()]
    await send({"type": "http.response.start", "status": 200, "headers": start})
    await _relay(loop, stream, send, reader=scope.get("method") == "GET")


async def _relay(
    loop: asyncio.AbstractEventLoop, stream: Iterator[bytes], send: Any, *, reader: bool
) -> None:
    """Each chunk as it comes. A turn goes on to its end when its asker goes away (it is stored for
    whoever reattaches); a reader's copy stops with its reader."""
    attached = True
    while True:
        chunk = await loop.run_in_executor(None, next, stream, None)
        if chunk is None:
            break
        if not attached:
            continue
        try:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        except Exception:
            if reader:
                return
            attached = False
    if attached:
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
