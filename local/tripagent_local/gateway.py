"""The local API Gateway: the template's HTTP API routes on 127.0.0.1, as AWS would serve them.

- Routes, methods and path parameters come from the ``HttpApi`` events of template.yaml.
- The JWT authorizer is emulated (signature, iss, aud, exp; ``alg: none`` refused): 401 before any
  handler runs, with API Gateway's own body. Routes with ``Auth: Authorizer: NONE`` skip it.
- Each request becomes an API Gateway HTTP API v2.0 event, claims in
  ``requestContext.authorizer.jwt.claims`` (as strings, as AWS passes them), and the function's handler
  runs in an execution environment of its function (``lambdas.py``: a process of its own, one event at a
  time), killed past its timeout.
- A function whose module exports ``asgi_app`` and lists a route in ``asgi_routes`` (the streaming path)
  has that route served as ASGI, so its response streams to the client chunk by chunk, with the same
  v2.0 event in ``scope["aws.event"]``.
- Requests carrying ``X-Amz-Target: AWSEvents.*`` are EventBridge API calls for the local bus,
  ``TrentService.*`` KMS calls for the local key (``tripagent_local.kms``), and ``AmazonSQS.*`` SQS calls
  for the template's queues (``tripagent_local.queues``).
- The template's WebSocket API on ``ws://.../<stage>`` and its Management API
  (``tripagent_local.wsapi``).
- Extras: ``/docs`` (Swagger UI over ``/openapi.json``), ``/.well-known/jwks.json`` (the local key),
  ``/_local/deliveries`` and ``/_local/dead-letters`` (the bus's delivery log).
"""

from __future__ import annotations

import base64
import json
import logging
import time
import uuid
from datetime import UTC, datetime
from functools import cached_property
from typing import Any
from urllib.parse import parse_qsl

import anyio
import anyio.to_thread
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.types import Receive, Scope, Send
from tripagent.errors import Unauthorized

from tripagent_local import devauth, webapp
from tripagent_local.awsjson import AwsApiError, AwsJsonService
from tripagent_local.devoidc import DevOpenIdProvider
from tripagent_local.lambdas import ACCOUNT, FunctionError, FunctionTimeout
from tripagent_local.paths import REPO_ROOT
from tripagent_local.stack import LocalStack
from tripagent_local.template import HttpRoute

ENVIRONMENT_WAIT_HEADER = "x-local-environment-wait-ms"

# What an ASGI app may read of the request's scope: plain data that crosses into the environment's process.
ASGI_SCOPE_KEYS = (
    "type", "asgi", "http_version", "method", "scheme", "path", "raw_path", "query_string", "root_path",
    "headers", "client", "server",
)  # fmt: skip
ENGINE_NAMES = ("dynamodb", "valhalla")
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/gpx", "application/javascript")
SWAGGER_DIR = REPO_ROOT / "local" / "node_modules" / "swagger-ui-dist"


class Gateway:
    def __init__(self, stack: LocalStack) -> None:
        self.stack = stack
        # API Gateway prefers the most specific route: static segments before {parameters}.
        self.routes = [
            (route, route.regex())  # compiled once
            for route in sorted(stack.template.http_routes(), key=lambda r: (r.path.count("{"), -len(r.path)))
        ]
        self.cors = self._cors_config()
        # Invocations wait for an environment (and for its answer, up to the function's timeout) on threads
        # of their own: they must never use up the threads of the AWS APIs those same functions call back.
        self._invocations = anyio.CapacityLimiter(256)
        self.oidc = DevOpenIdProvider(stack.url, stack.config.state_dir)

    def _cors_config(self) -> dict[str, Any]:
        for res in self.stack.template.resources.values():
            if res.get("Type") == "AWS::Serverless::HttpApi":
                raw = res.get("Properties", {}).get("CorsConfiguration") or {}
                resolved = self.stack.template.resolve(raw, self.stack.context)
                return resolved if isinstance(resolved, dict) else {}
        return {}

    # ------------------------------------------------------------------ matching
    def match(self, method: str, path: str) -> tuple[HttpRoute, dict[str, str]] | None:
        for route, pattern in self.routes:
            found = pattern.match(path)
            if found and route.method in (method, "ANY"):
                return route, found.groupdict()
        return None

    # ------------------------------------------------------------------ ASGI entry
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            ws = self.stack.websocket
            if ws is not None and scope["path"] == ws.path:
                await ws.serve(scope, receive, send)
            else:
                await receive()
                await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        response = await self.dispatch(request, scope, receive, send)
        if response is not None:
            await response(scope, receive, send)

    async def dispatch(self, request: Request, scope: Scope, receive: Receive, send: Send) -> Response | None:
        target = request.headers.get("x-amz-target", "")
        service = self.aws_json_services.get(target.split(".", 1)[0]) if request.method == "POST" else None
        if service is not None:
            return await self.aws_json(request, target, service)
        ws = self.stack.websocket
        connection_id = ws.management_path(request.url.path) if ws is not None else None
        if ws is not None and connection_id is not None:
            return await ws.manage(request, connection_id)
        local = self.local_routes().get((request.method, request.url.path))
        if local is not None:
            local_response: Response = await local(request)
            return local_response
        if request.method == "OPTIONS" and self.cors:
            return self.preflight(request)
        matched = self.match(request.method, request.url.path)
        if matched is None:
            static = webapp.serve_static(request.url.path) if request.method in ("GET", "HEAD") else None
            return static or JSONResponse({"message": "Not Found"}, status_code=404)
        route, path_params = matched
        claims: dict[str, Any] | None = None
        if not route.public:
            try:
                claims = self.stack.verifier.verify_header(request.headers.get("authorization"))
            except Unauthorized:
                return JSONResponse(
                    {"message": "Unauthorized"},
                    status_code=401,
                    headers={"www-authenticate": 'Bearer error="invalid_token"'},
                )
        body = await request.body()
        event = build_http_event(request, route, path_params, claims, body)
        functions = self.stack.functions
        try:
            routes = await self._in_function_thread(functions.asgi_routes, route.function_id)
            streamed = route.route_key in routes
        except FunctionError:  # the function cannot even start (its cold start failed)
            return self._failed(route, "could not start", event)
        if streamed:
            await self.serve_asgi(route, event, body, scope, send)
            return None
        return with_cors(await self.invoke(route, event), self.cors, request)

    def _failed(self, route: HttpRoute, what: str, event: dict[str, Any]) -> Response:
        """API Gateway's 500, said in the log with why and the request's correlation id (the function's
        own log lines carry the same id)."""
        request_id = event.get("requestContext", {}).get("requestId", "")
        logging.getLogger("tripagent.gateway").exception(
            "%s %s (%s %s, correlation id %s)",
            route.function_id,
            what,
            route.route_key,
            event.get("rawPath"),
            request_id,
        )
        return JSONResponse(
            {"message": "Internal Server Error"}, status_code=500, headers={"apigw-requestid": request_id}
        )

    async def invoke(self, route: HttpRoute, event: dict[str, Any]) -> Response:
        """One invocation in an execution environment of the route's function; past its timeout the
        environment is killed (as Lambda does) and the client gets API Gateway's 503."""
        try:
            result, waited = await self._in_function_thread(
                self.stack.functions.invoke_timed, route.function_id, event
            )
        except FunctionTimeout:
            return _unavailable()
        except FunctionError:
            return self._failed(route, "failed", event)
        response = lambda_result_to_response(result)
        # Local only: how long the request waited for an execution environment of its function (the
        # soak tells the function's time from the local stack's limit on environments).
        response.headers[ENVIRONMENT_WAIT_HEADER] = f"{waited * 1000:.0f}"
        return response

    async def serve_asgi(
        self, route: HttpRoute, event: dict[str, Any], body: bytes, scope: Scope, send: Send
    ) -> None:
        """The streamed route: the function's ASGI messages, relayed as its environment sends them. Its
        deadline is that of the function serving the stream in AWS (the web adapter's, by code)."""
        inner = {key: scope[key] for key in ASGI_SCOPE_KEYS if key in scope} | {"aws.event": event}
        stream = self.stack.functions.stream(route.function_id, inner, body, self._stream_timeout(route))
        started = False
        try:
            while True:
                message = await self._in_function_thread(next, stream, None)
                if message is None:
                    break
                started = started or message.get("type") == "http.response.start"
                await send(message)
        except FunctionError as exc:  # API Gateway's answers: 503 past the timeout, else 500
            failed = (
                _unavailable()
                if isinstance(exc, FunctionTimeout)
                else self._failed(route, "stream failed", event)
            )
            if not started:
                await failed(scope, _no_body, send)
        finally:
            stream.close()

    async def _in_function_thread(self, call: Any, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(call, *args, limiter=self._invocations)

    def _stream_timeout(self, route: HttpRoute) -> int:
        specs = self.stack.functions.specs
        code = specs[route.function_id].code_uri
        adapters = [s.timeout for s in specs.values() if s.web_adapter and s.code_uri == code]
        return max(adapters, default=specs[route.function_id].timeout)

    # ------------------------------------------------------------------ extras
    @cached_property
    def aws_json_services(self) -> dict[str, AwsJsonService]:
        """The AWS APIs the gateway answers, by the service part of ``X-Amz-Target``."""
        return {
            "AWSEvents": AwsJsonService(self.stack.bus.handle, "1.1"),
            "TrentService": AwsJsonService(self.stack.kms.handle, "1.1"),
            "AmazonSQS": AwsJsonService(self.stack.queues.handle, "1.0"),
        }

    def local_routes(self) -> dict[tuple[str, str], Any]:
        return (
            {
                ("GET", "/docs"): self.docs,
                ("GET", "/.well-known/jwks.json"): self.jwks,
                ("GET", "/config.json"): self.web_config,
                ("GET", "/_local/events"): self.events,
                ("GET", "/_local/deliveries"): self.deliveries,
                ("GET", "/_local/dead-letters"): self.dead_letters,
                ("GET", "/_local/queues"): self.queue_activity,
                ("GET", "/_local/idle"): self.idle,
                ("GET", "/_local/faults"): self.faults,
                ("POST", "/_local/faults/consumers"): self.faults,
            }
            | {
                ("POST", f"/_local/engines/{name}/{action}"): self.engine
                for name in ENGINE_NAMES
                for action in ("stop", "start")
            }
            | {("GET", f"/docs/{name}"): self.swagger_asset for name in _SWAGGER_ASSETS}
            | self.oidc.routes()
        )

    async def jwks(self, _: Request) -> Response:
        return JSONResponse(devauth.jwks(self.stack.config.state_dir))

    async def web_config(self, _: Request) -> Response:
        ws = self.stack.websocket
        return webapp.config_response(self.stack.url, ws.path if ws is not None else None)

    async def events(self, _: Request) -> Response:
        return JSONResponse({"events": self.stack.bus.events})

    async def deliveries(self, _: Request) -> Response:
        return JSONResponse({"deliveries": self.stack.bus.deliveries})

    async def dead_letters(self, _: Request) -> Response:
        return JSONResponse({"deadLetters": self.stack.dead_letters.records})

    async def queue_activity(self, _: Request) -> Response:
        queues = self.stack.queues
        return JSONResponse(
            {
                "queues": {q.spec.name: {"depth": q.depth(), "sent": q.sent} for q in queues.queues.values()},
                "invocations": queues.invocations,
            }
        )

    async def engine(self, request: Request) -> Response:
        """Stop or start an engine of the running stack (``tripagent engine``): a fault, then healed."""
        _, _, _, name, action = request.url.path.split("/")
        stack = self.stack
        operation = stack.stop_engine if action == "stop" else stack.start_engine
        await self._in_function_thread(operation, name)
        return JSONResponse({"engine": name, "running": name in stack.engines})

    async def faults(self, request: Request) -> Response:
        """``POST {"rate": R}``: the share of consumer invocations that fail mid-batch (``tripagent fault``);
        either way, what has been injected so far."""
        faults = self.stack.faults
        if request.method == "POST":
            try:
                body = json.loads(await request.body() or b"{}")
                faults.set(float(body["rate"]))
            except (ValueError, KeyError, TypeError) as exc:
                return JSONResponse({"error": "validation_error", "message": f"rate: {exc}"}, status_code=400)
        return JSONResponse(faults.describe())

    async def idle(self, request: Request) -> Response:
        """``?timeout=S``: whether the bus, queues and stream pollers went quiet within S seconds."""
        timeout = min(float(request.query_params.get("timeout", "30")), 120.0)
        return JSONResponse({"idle": await self._in_function_thread(self.stack.wait_idle, timeout)})

    async def docs(self, _: Request) -> Response:
        return HTMLResponse(_SWAGGER_PAGE)

    async def swagger_asset(self, request: Request) -> Response:
        name = request.url.path.rsplit("/", 1)[-1]
        return FileResponse(SWAGGER_DIR / name)

    async def aws_json(self, request: Request, target: str, service: AwsJsonService) -> Response:
        """One call of an AWS JSON-protocol API (``X-Amz-Target: Service.Action``), as boto3 makes it."""
        try:
            payload = json.loads(await request.body() or b"{}")
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            error = {"__type": "SerializationException", "message": "The body is not a JSON object."}
            return JSONResponse(error, status_code=400)
        try:
            result = await run_in_threadpool(service.handle, target, payload)
        except AwsApiError as exc:
            return JSONResponse({"__type": exc.code, "message": str(exc)}, status_code=400)
        return JSONResponse(result, media_type=f"application/x-amz-json-{service.json_version}")

    def preflight(self, request: Request) -> Response:
        return with_cors(Response(status_code=204), self.cors, request, preflight=True)


_SWAGGER_ASSETS = (
    "swagger-ui.css",
    "swagger-ui-bundle.js",
    "swagger-ui-standalone-preset.js",
    "favicon-32x32.png",
)
_SWAGGER_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Tripagent API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.json", dom_id: "#ui", persistAuthorization: true});</script>
</body></html>"""


def _unavailable() -> Response:
    """API Gateway's answer to a function past its timeout."""
    return JSONResponse({"message": "Service Unavailable"}, status_code=503)


async def _no_body() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


def build_http_event(
    request: Request,
    route: HttpRoute,
    path_params: dict[str, str],
    claims: dict[str, Any] | None,
    body: bytes,
) -> dict[str, Any]:
    """An API Gateway HTTP API payload v2.0 event, as AWS builds it."""
    headers: dict[str, str] = {}
    cookies: list[str] = []
    for key, value in request.headers.items():
        if key == "cookie":
            cookies.extend(c.strip() for c in value.split(";") if c.strip())
            continue
        headers[key] = f"{headers[key]},{value}" if key in headers else value
    query: dict[str, str] = {}
    for key, value in parse_qsl(request.url.query, keep_blank_values=True):
        query[key] = f"{query[key]},{value}" if key in query else value
    now = datetime.now(UTC)
    content_type = request.headers.get("content-type", "")
    is_text = not body or any(content_type.startswith(t) for t in TEXT_TYPES) or content_type == ""
    try:
        text_body = body.decode() if is_text else None
    except UnicodeDecodeError:
        text_body = None
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route.route_key,
        "rawPath": request.url.path,
        "rawQueryString": request.url.query,
        "headers": headers,
        "requestContext": {
            "accountId": ACCOUNT,
            "apiId": "local",
            "domainName": request.url.hostname or "127.0.0.1",
            "domainPrefix": "local",
            "http": {
                "method": request.method,
                "path": request.url.path,
                "protocol": f"HTTP/{request.scope.get('http_version', '1.1')}",
                "sourceIp": request.client.host if request.client else "127.0.0.1",
                "userAgent": request.headers.get("user-agent", ""),
            },
            "requestId": str(uuid.uuid4()),
            "routeKey": route.route_key,
            "stage": "$default",
            "time": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
            "timeEpoch": int(time.time() * 1000),
        },
        "isBase64Encoded": False,
    }
    if cookies:
        event["cookies"] = cookies
    if query:
        event["queryStringParameters"] = query
    if path_params:
        event["pathParameters"] = path_params
    if claims is not None:
        event["requestContext"]["authorizer"] = {"jwt": {"claims": stringify_claims(claims), "scopes": None}}
    if body:
        if text_body is None:
            event["body"] = base64.b64encode(body).decode()
            event["isBase64Encoded"] = True
        else:
            event["body"] = text_body
    return event


def stringify_claims(claims: dict[str, Any]) -> dict[str, str]:
    """API Gateway hands claims to the function as strings; lists become ``[a b]``."""
    out = {}
    for key, value in claims.items():
        if isinstance(value, list):
            out[key] = "[" + " ".join(str(v) for v in value) + "]"
        elif isinstance(value, bool):
            out[key] = str(value).lower()
        else:
            out[key] = str(value)
    return out


def lambda_result_to_response(result: Any) -> Response:
    """Map a handler's return value as the HTTP API does for payload format 2.0."""
    if not isinstance(result, dict) or "statusCode" not in result:
        return JSONResponse(result)
    headers = {k.lower(): str(v) for k, v in (result.get("headers") or {}).items()}
    for key, values in (result.get("multiValueHeaders") or {}).items():
        headers[key.lower()] = ",".join(map(str, values))
    body = result.get("body") or ""
    raw = base64.b64decode(body) if result.get("isBase64Encoded") else str(body).encode()
    response = Response(raw, status_code=int(result["statusCode"]), headers=headers)
    for cookie in result.get("cookies") or []:
        response.headers.append("set-cookie", cookie)
    return response


def with_cors(
    response: Response, cors: dict[str, Any], request: Request, *, preflight: bool = False
) -> Response:
    origin = request.headers.get("origin")
    if not cors or not origin:
        return response
    allowed = cors.get("AllowOrigins") or []
    if "*" in allowed or origin in allowed:
        response.headers["access-control-allow-origin"] = "*" if "*" in allowed else origin
        if cors.get("ExposeHeaders"):
            response.headers["access-control-expose-headers"] = ",".join(cors["ExposeHeaders"])
        if preflight:
            response.headers["access-control-allow-methods"] = ",".join(cors.get("AllowMethods") or [])
            response.headers["access-control-allow-headers"] = ",".join(cors.get("AllowHeaders") or [])
            response.headers["access-control-max-age"] = str(cors.get("MaxAge", 0))
    return response


def create_app(stack: LocalStack) -> Gateway:
    return Gateway(stack)
