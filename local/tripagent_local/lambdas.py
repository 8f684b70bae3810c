"""The template's functions, run as Lambda runs them: each invocation in an execution environment of its
own function, one event at a time, scaled out with more environments.

An environment is a process (``runtime.py``) started with exactly the environment the template gives its
function (``LocalStack.function_environment``), so a variable missing from template.yaml fails locally as
it would in AWS, and nothing a module keeps (a resolver's current event, a logger's context, a cached
client or SQLite connection) is shared between two requests. A function keeps a pool of them: a warm one
serves the next event; when all are busy a new one starts, with its cold start, up to ``max_instances``,
past which the event waits for one to free (as async sources retry a throttled invoke); one past its
timeout is killed, as Lambda does, and the next event gets a fresh one.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import IO, Any

from tripagent_local.runtime import ACCOUNT, REGION, LambdaContext
from tripagent_local.template import FunctionSpec, Template

__all__ = ["ACCOUNT", "REGION", "FunctionError", "FunctionRegistry", "FunctionTimeout", "LambdaContext"]

INIT_LIMIT_S = 30  # Lambda allows 10 s; a 2-core machine starting several environments at once needs more
DEFAULT_MAX_INSTANCES = 4
# Streams have environments of their own, as in AWS where the Function URL's function serves them: a turn
# and the members watching it each hold one for the reply's length, and must not queue a stop behind them.
STREAM_MAX_INSTANCES = 16


class FunctionError(Exception):
    """The function raised (or could not start): Lambda's ``errorType`` / ``errorMessage``, and the trace."""

    def __init__(self, logical_id: str, error: dict[str, str]) -> None:
        self.error_type = error.get("errorType", "Error")
        self.error_message = error.get("errorMessage", "")
        super().__init__(
            f"{logical_id}: {self.error_type}: {self.error_message}\n{error.get('stackTrace', '')}".rstrip()
        )


class FunctionTimeout(FunctionError):
    def __init__(self, logical_id: str, timeout_s: float) -> None:
        super().__init__(
            logical_id,
            {"errorType": "Sandbox.Timedout", "errorMessage": f"Task timed out after {timeout_s} s"},
        )


class Instance:
    """One execution environment of one function."""

    def __init__(
        self, spec: FunctionSpec, template: Template, env: dict[str, str], log: IO[Any] | None
    ) -> None:
        self.spec = spec
        parent, child = socket.socketpair()
        code_root = template.path.parent / spec.code_uri
        self.process = subprocess.Popen(  # our own interpreter and module
            [
                sys.executable,
                "-m",
                "tripagent_local.runtime",
                str(child.fileno()),
                spec.logical_id,
                str(code_root),
                spec.module_file,
                spec.handler_name,
            ],
            env=env,
            cwd=code_root,
            pass_fds=[child.fileno()],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            process_group=0,  # a Ctrl-C in the terminal is the stack's, which stops us in order
        )
        child.close()
        self.conn = Connection(parent.detach())
        ready = self._receive(INIT_LIMIT_S, "init")
        if ready[0] != "ready":
            self.kill()
            raise FunctionError(spec.logical_id, ready[1])
        self.asgi_routes: tuple[str, ...] = tuple(ready[1]["asgiRoutes"])
        self.init_ms: float = ready[1]["initMs"]

    def _receive(self, timeout_s: float, what: str) -> Any:
        try:
            if self.conn.poll(timeout_s):
                return self.conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise FunctionError(
                self.spec.logical_id,
                {"errorType": "Runtime.ExitError", "errorMessage": f"the environment exited during {what}"},
            ) from None
        self.kill()
        raise FunctionTimeout(self.spec.logical_id, timeout_s)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def invoke(self, event: dict[str, Any], timeout_s: float) -> Any:
        self.conn.send(("invoke", json.dumps(event), timeout_s))
        answer = self._receive(timeout_s, "the invocation")
        if answer[0] == "error":
            raise FunctionError(self.spec.logical_id, answer[1])
        return json.loads(answer[1])

    def stream(self, scope: dict[str, Any], body: bytes, timeout_s: float) -> Iterator[dict[str, Any]]:
        """The ASGI messages of a streamed response, as the function sends them."""
        self.conn.send(("asgi", scope, body, timeout_s))
        deadline = time.monotonic() + timeout_s
        finished = False
        try:
            while True:
                try:
                    answer = self._receive(max(0.0, deadline - time.monotonic()), "the stream")
                except FunctionTimeout:
                    raise FunctionTimeout(self.spec.logical_id, timeout_s) from None
                if answer[0] == "asgi.send":
                    yield answer[1]
                elif answer[0] == "asgi.done":
                    finished = True
                    return
                else:
                    finished = True
                    raise FunctionError(self.spec.logical_id, answer[1])
        finally:
            if not finished:  # abandoned mid-stream: its rest must not reach the next event
                self.kill()

    def describe(self) -> dict[str, Any]:
        self.conn.send(("describe",))
        answer = self._receive(INIT_LIMIT_S, "describe")
        if answer[0] == "error":
            raise FunctionError(self.spec.logical_id, answer[1])
        described: dict[str, Any] = answer[1]
        return described

    def kill(self) -> None:
        if self.alive:
            self.process.kill()
        self.process.wait()
        self.conn.close()


@dataclass
class PoolStats:
    started: int = 0  # cold starts
    timeouts: int = 0
    live: int = 0
    busy: int = 0
    peak_busy: int = 0


class FunctionPool:
    """A function's execution environments: warm ones first, a new one while under the limit."""

    def __init__(self, start: Callable[[], Instance], max_instances: int) -> None:
        self._start = start
        self._max = max_instances
        self._idle: list[Instance] = []
        self._all: set[Instance] = set()
        self._starting = 0  # environments being started, counted against the limit
        self._cond = threading.Condition()
        self._closed = False
        self.stats = PoolStats()

    def acquire(self) -> Instance:
        with self._cond:
            while True:
                if self._closed:
                    raise RuntimeError("the local stack is stopping")
                while self._idle:
                    instance = self._idle.pop()  # the most recently used: the warmest
                    if instance.alive:
                        return self._busy(instance)
                    instance.kill()  # died while idle: reap it and close its socket
                    self._forget(instance)
                if len(self._all) + self._starting < self._max:
                    break
                self._cond.wait()
            self._starting += 1
        try:
            instance = self._start()
        except BaseException:
            with self._cond:
                self._starting -= 1
                self._cond.notify()
            raise
        with self._cond:
            self._starting -= 1
            self._all.add(instance)
            self.stats.started += 1
            return self._busy(instance)

    def _busy(self, instance: Instance) -> Instance:
        self.stats.busy += 1
        self.stats.peak_busy = max(self.stats.peak_busy, self.stats.busy)
        self.stats.live = len(self._all)
        return instance

    def _forget(self, instance: Instance) -> None:
        self._all.discard(instance)
        self.stats.live = len(self._all)

    def release(self, instance: Instance, *, timed_out: bool = False) -> None:
        with self._cond:
            self.stats.busy -= 1
            self.stats.timeouts += timed_out
            if instance.alive and not self._closed:
                self._idle.append(instance)
            else:
                self._forget(instance)
                if instance.alive:
                    instance.kill()
            self._cond.notify()

    def close(self) -> None:
        """Stop every environment, busy ones too (the stack is stopping: their events fail as AWS's would
        when an environment is shut down)."""
        with self._cond:
            self._closed = True
            everyone, self._idle = list(self._all), []
            self._cond.notify_all()
        for instance in everyone:
            instance.kill()


class FunctionRegistry:
    """The template's functions, each with its pool of execution environments; thread-safe."""

    def __init__(
        self,
        template: Template,
        environment_of: Callable[[str], dict[str, str]],
        *,
        max_instances: int = DEFAULT_MAX_INSTANCES,
        log: IO[Any] | None = None,
    ) -> None:
        self.template = template
        self.specs = template.functions()
        self.environment_of = environment_of
        self.max_instances = max_instances
        self.log = log  # where the functions' own output goes (None: this process's stdout and stderr)
        self._pools: dict[str, FunctionPool] = {}
        self._asgi_routes: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def pool(self, logical_id: str, *, streams: bool = False) -> FunctionPool:
        key = f"{logical_id}#streams" if streams else logical_id
        with self._lock:
            if self._closed:  # a late retry of the bus or a queue after stop starts nothing
                raise FunctionError(logical_id, {"errorType": "Stopped", "errorMessage": "the stack stopped"})
            if key not in self._pools:
                spec = self.specs[logical_id]
                if spec.web_adapter:
                    raise ValueError(f"{logical_id} runs behind the Lambda Web Adapter: its route serves it")
                self._pools[key] = FunctionPool(
                    lambda: Instance(spec, self.template, self.environment_of(logical_id), self.log),
                    max(self.max_instances, STREAM_MAX_INSTANCES) if streams else self.max_instances,
                )
            return self._pools[key]

    @contextmanager
    def instance(self, logical_id: str, *, streams: bool = False) -> Iterator[Instance]:
        pool = self.pool(logical_id, streams=streams)
        instance = pool.acquire()
        self._asgi_routes.setdefault(logical_id, instance.asgi_routes)
        timed_out = False
        try:
            yield instance
        except FunctionTimeout:
            timed_out = True
            raise
        finally:
            pool.release(instance, timed_out=timed_out)

    def invoke(self, logical_id: str, event: dict[str, Any]) -> Any:
        return self.invoke_timed(logical_id, event)[0]

    def invoke_timed(self, logical_id: str, event: dict[str, Any]) -> tuple[Any, float]:
        """The result, and how long the event waited for an environment (a free one, or a cold start):
        what Lambda, which scales out instead, would not make it wait beyond its init."""
        asked = time.monotonic()
        with self.instance(logical_id) as instance:
            waited = time.monotonic() - asked
            return instance.invoke(event, self.specs[logical_id].timeout), waited

    def stream(
        self, logical_id: str, scope: dict[str, Any], body: bytes, timeout_s: float
    ) -> Generator[Any, None, None]:
        """A streamed response, its environment held until the stream ends (or is abandoned)."""
        with self.instance(logical_id, streams=True) as instance:
            yield from instance.stream(scope, body, timeout_s)

    def asgi_routes(self, logical_id: str) -> tuple[str, ...]:
        """The routes a function streams (its module's ``asgi_routes``): known from its first cold start."""
        if logical_id not in self._asgi_routes:
            with self.instance(logical_id):
                pass
        return self._asgi_routes[logical_id]

    def describe(self, logical_id: str) -> dict[str, Any]:
        with self.instance(logical_id) as instance:
            return instance.describe()

    def stats(self, logical_id: str) -> PoolStats:
        return self.pool(logical_id).stats

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pools = list(self._pools.values())
            self._pools.clear()
        for pool in pools:
            pool.close()
