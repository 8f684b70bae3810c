"""The local WebSocket API: the template's WebSocket routes on the gateway, as API Gateway serves them.

- ``ws://127.0.0.1:<port>/<stage>`` accepts connections; ``$connect`` runs the route's function with the
  handshake's headers and query string, and a status other than 200 refuses the connection with that
  status (a subprotocol the function returns in ``Sec-WebSocket-Protocol`` is echoed).
- Each text frame is routed by ``$request.body.action`` (else ``$default``); a two-way route sends the
  function's ``body`` back on the connection. Closing runs ``$disconnect``.
- The Management API the functions push through: ``POST /<stage>/@connections/{id}`` sends the request
  body to that connection, ``GET`` describes it, ``DELETE`` closes it; an unknown connection is 410
  ``GoneException``, as in AWS.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from tripagent_local.lambdas import FunctionRegistry
from tripagent_local.template import WebSocketApi


@dataclass
class Connection:
    connection_id: str
    send: Send
    connected_at: float
    source_ip: str


class LocalWebSocketApi:
    def __init__(self, api: WebSocketApi, functions: FunctionRegistry, domain: str) -> None:
        self.api = api
        self.functions = functions
        self._invocations = anyio.CapacityLimiter(64)
        self.domain = domain
        self.connections: dict[str, Connection] = {}

    @property
    def path(self) -> str:
        return f"/{self.api.stage}"

    def _event(self, route_key: str, event_type: str, connection_id: str, **extra: Any) -> dict[str, Any]:
        now_ms = int(time.time() * 1000)
        return {
            "requestContext": {
                "routeKey": route_key,
                "eventType": event_type,
                "connectionId": connection_id,
                "domainName": self.domain,
                "stage": self.api.stage,
                "apiId": "local",
                "requestId": str(uuid.uuid4()),
                "extendedRequestId": str(uuid.uuid4()),
                "messageDirection": "IN",
                "requestTimeEpoch": now_ms,
                "connectedAt": int(self.connections[connection_id].connected_at * 1000)
                if connection_id in self.connections
                else now_ms,
                "identity": {"sourceIp": "127.0.0.1"},
            },
            "isBase64Encoded": False,
            **extra,
        }

    async def _invoke(self, route_key: str, event: dict[str, Any]) -> dict[str, Any]:
        route = self.api.routes.get(route_key)
        if route is None:
            return {"statusCode": 200}
        result = await anyio.to_thread.run_sync(  # threads of its own, as the gateway's invocations
            self.functions.invoke, route.function_id, event, limiter=self._invocations
        )
        return result if isinstance(result, dict) else {"statusCode": 200}

    # ------------------------------------------------------------------ the WebSocket side
    async def serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        connection_id = uuid.uuid4().hex[:16]
        headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
        query = dict(parse_qsl(scope.get("query_string", b"").decode()))
        connect = self._event(
            "$connect", "CONNECT", connection_id, headers=headers, queryStringParameters=query or None
        )
        result = await self._invoke("$connect", connect)
        status = int(result.get("statusCode", 200))
        if status != 200:
            await self._refuse(scope, send, status, str(result.get("body") or ""))
            return
        protocol = {k.lower(): v for k, v in (result.get("headers") or {}).items()}.get(
            "sec-websocket-protocol"
        )
        await send({"type": "websocket.accept", "subprotocol": protocol})
        self.connections[connection_id] = Connection(connection_id, send, time.time(), "127.0.0.1")
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text") or (message.get("bytes") or b"").decode(errors="replace")
                await self._message(connection_id, text, send)
        finally:
            if self.connections.pop(connection_id, None) is not None:
                await self._invoke("$disconnect", self._event("$disconnect", "DISCONNECT", connection_id))

    async def _refuse(self, scope: Scope, send: Send, status: int, body: str) -> None:
        if "websocket.http.response" in scope.get("extensions", {}):
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": status,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            payload = json.dumps({"message": body or "Forbidden"}).encode()
            await send({"type": "websocket.http.response.body", "body": payload})
        else:
            await send({"type": "websocket.close", "code": 1008})

    async def _message(self, connection_id: str, text: str, send: Send) -> None:
        try:
            action = json.loads(text).get("action")
        except (json.JSONDecodeError, AttributeError):
            action = None
        route_key = action if isinstance(action, str) and action in self.api.routes else "$default"
        result = await self._invoke(route_key, self._event(route_key, "MESSAGE", connection_id, body=text))
        route = self.api.routes.get(route_key)
        if route is not None and route.two_way and result.get("body"):
            await send({"type": "websocket.send", "text": str(result["body"])})

    # ------------------------------------------------------------------ the Management API
    def management_path(self, path: str) -> str | None:
        prefix = f"{self.path}/@connections/"
        return unquote(path[len(prefix) :]) if path.startswith(prefix) else None

    async def manage(self, request: Request, connection_id: str) -> Response:
        connection = self.connections.get(connection_id)
        if connection is None:
            return _gone()
        if request.method == "POST":
            data = await request.body()
            try:
                await connection.send({"type": "websocket.send", "text": data.decode()})
            except (RuntimeError, OSError):
                self.connections.pop(connection_id, None)
                return _gone()
            return Response(status_code=200)
        if request.method == "DELETE":  # closed by the backend: API Gateway still sends $disconnect
            self.connections.pop(connection_id, None)
            await connection.send({"type": "websocket.close", "code": 1000})
            await self._invoke("$disconnect", self._event("$disconnect", "DISCONNECT", connection_id))
            return Response(status_code=204)
        return JSONResponse(
            {
                "ConnectedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(connection.connected_at)),
                "Identity": {"SourceIp": connection.source_ip},
                "LastActiveAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
        )

    def lose(self, connection_id: str) -> None:
        """Forget a connection without ``$disconnect``, as when a client vanishes and API Gateway's
        best-effort ``$disconnect`` never comes: the next push meets 410 Gone (tests use this)."""
        self.connections.pop(connection_id, None)


def _gone() -> Response:
    """What the Management API answers for a connection that is no longer there."""
    return JSONResponse({"message": "Gone"}, status_code=410, headers={"x-amzn-ErrorType": "GoneException"})
