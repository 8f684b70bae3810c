"""Serve the gateway on a background thread (tests and benchmarks); `tripagent dev` runs it in front."""

from __future__ import annotations

import threading
import time
from types import TracebackType

import uvicorn

from tripagent_local.gateway import create_app
from tripagent_local.stack import LocalStack


class BackgroundGateway:
    def __init__(self, stack: LocalStack) -> None:
        self.stack = stack
        config = uvicorn.Config(
            create_app(stack), host="127.0.0.1", port=stack.config.port, log_level="warning", access_log=False
        )
        self.server = uvicorn.Server(config)
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
