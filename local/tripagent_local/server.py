"""Serve the gateway on a background thread (tests and benchmarks); `tripagent dev` runs it in front."""

from __future__ import annotations

import threading
import time
from types import TracebackType

import uvicorn

from tripagent_local.gateway import create_app
from tripagent_local.stack import LocalStack

# How long an idle keep-alive connection stays open (uvicorn's default is 5 s, nginx's 75 s). A client
# that reuses a pooled connection at the moment the server closes it sees the connection reset with
# nothing answered: with 5 s, the soak's second editor (its own pooled connection, idle between two
# suggestions) lost about one approval in 150 that way. Clients keep connections idle far longer.
KEEP_ALIVE_S = 75
SHUTDOWN_GRACE_S = 5


def gateway_config(stack: LocalStack, port: int) -> uvicorn.Config:
    """The one way the gateway is served, by `tripagent dev` and in the background alike."""
    return uvicorn.Config(
        create_app(stack),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        timeout_keep_alive=KEEP_ALIVE_S,
        # Ctrl-C waits this long for open requests, not for a streamed reply to end (up to 110 s).
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
    )


class BackgroundGateway:
    def __init__(self, stack: LocalStack) -> None:
        self.stack = stack
        self.server = uvicorn.Server(gateway_config(stack, stack.config.port))
        self.thread = threading.Thread(target=self.server.run, name="gateway", daemon=True)

    def __enter__(self) -> BackgroundGateway:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the local gateway did not start")
            time.sleep(0.02)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.server.should_exit = True
        self.thread.join(5)
