"""One Lambda execution environment: a process of its own that loads one function, with exactly the
environment the template gives it, and serves one event at a time (``lambdas.py`` starts and pools them).

Run as ``python -m tripagent_local.runtime <fd> <logical id> <code root> <module file> <handler>``; the
parent speaks over the socket ``fd`` (pickled messages, so that the function's own stdout stays its log):

- the child answers ``("ready", {initMs, asgiRoutes})`` once loaded, or ``("init_error", error)`` and exits;
- ``("invoke", event_json, timeout_s)`` → ``("result", result_json)`` or ``("error", error)``;
- ``("asgi", scope, body, timeout_s)`` → ``("asgi.send", message)``…, then ``("asgi.done",)`` or
  ``("error", error)``: the streamed route, chunk by chunk;
- ``("describe",)`` → ``("described", {callable, routes, asgiRoutes})`` for the template checks;
- end of file: the environment is shut down.

Events and results cross as JSON, as Lambda marshals them. Nothing here imports the stack.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import sys
import time
import traceback
import uuid
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from types import ModuleType
from typing import Any

REGION = "eu-west-1"
ACCOUNT = "000000000000"


@dataclass
class LambdaContext:
    """The attributes of the Lambda context object that Powertools and our handlers read."""

    function_name: str
    timeout_s: int
    memory_limit_in_mb: int = 512
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    function_version: str = "$LATEST"
    log_group_name: str = "/aws/lambda/local"
    log_stream_name: str = "local"
    _deadline: float = 0.0

    def __post_init__(self) -> None:
        self._deadline = time.monotonic() + self.timeout_s

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def load_module(logical_id: str, path: Path) -> ModuleType:
    module_spec = importlib.util.spec_from_file_location(f"tripagent_fn_{logical_id}", path)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def error_of(exc: BaseException) -> dict[str, str]:
    return {
        "errorType": type(exc).__name__,
        "errorMessage": str(exc),
        "stackTrace": "".join(traceback.format_exception(exc)),
    }


def _routes(module: ModuleType) -> list[list[str]] | None:
    resolver = getattr(module, "resolver", None)
    if resolver is None:
        return None
    paths = resolver.get_openapi_schema().paths or {}
    return sorted(
        [method.upper(), path]
        for path, item in paths.items()
        for method in ("get", "put", "post", "delete", "patch")
        if getattr(item, method, None) is not None
    )


def _stream(conn: Connection, app: Any, scope: dict[str, Any], body: bytes, context: LambdaContext) -> None:
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # no more body: wait for the end
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        conn.send(("asgi.send", message))

    asyncio.run(app(scope | {"aws.context": context}, receive, send))


def serve(conn: Connection, logical_id: str, module: ModuleType, handler_name: str) -> None:
    handler = getattr(module, handler_name, None)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        kind = message[0]
        try:
            if kind == "invoke":
                _, event_json, timeout_s = message
                if handler is None:
                    raise AttributeError(f"the module has no {handler_name}: it only streams")
                result = handler(json.loads(event_json), LambdaContext(logical_id, timeout_s))
                conn.send(("result", json.dumps(result)))
            elif kind == "asgi":
                _, scope, body, timeout_s = message
                _stream(conn, module.asgi_app, scope, body, LambdaContext(logical_id, timeout_s))
                conn.send(("asgi.done",))
            elif kind == "describe":
                described = {
                    "callable": callable(handler),
                    "routes": _routes(module),
                    "asgiRoutes": list(getattr(module, "asgi_routes", ())),
                }
                conn.send(("described", described))
        except Exception as exc:  # the function failed this event; the environment lives on
            conn.send(("error", error_of(exc)))


def main(argv: list[str]) -> int:
    fd, logical_id, code_root, module_file, handler_name = argv
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the stack's to handle: it stops us
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # a kill must not eat log lines
    conn = Connection(int(fd))
    os.chdir(code_root)
    started = time.perf_counter()
    try:
        module = load_module(logical_id, Path(code_root) / module_file)
        if not hasattr(module, handler_name) and not hasattr(module, "asgi_app"):  # Runtime.HandlerNotFound
            raise AttributeError(f"{module_file} has no {handler_name}")
    except BaseException as exc:
        conn.send(("init_error", error_of(exc)))
        return 1
    init_ms = (time.perf_counter() - started) * 1000
    conn.send(("ready", {"initMs": init_ms, "asgiRoutes": list(getattr(module, "asgi_routes", ()))}))
    serve(conn, logical_id, module, handler_name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
