"""End to end: `tripagent dev` (what `make dev` runs) as a separate process, spoken to over HTTP."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tripagent_local import devauth
from tripagent_local.engines import free_port
from tripagent_local.paths import REPO_ROOT

TRIPAGENT = Path(sys.executable).with_name("tripagent")


@dataclass
class DevServer:
    url: str
    process: subprocess.Popen[bytes]
    ports: dict[str, int]
    log: Path

    def token(self, user: str = "alice", **claims: object) -> str:
        return devauth.mint_token(user, state_dir=REPO_ROOT / ".local", **claims)

    def auth(self, user: str = "alice") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(user)}"}


def start_dev(log: Path, extra_env: dict[str, str] | None = None) -> DevServer:
    """Start `tripagent dev` on free ports and wait until it answers."""
    ports = {"PORT": free_port(), "DYNAMODB_PORT": free_port(), "VALHALLA_PORT": free_port()}
    env = {**os.environ, **{k: str(v) for k, v in ports.items()}, **(extra_env or {})}
    with log.open("wb") as out:
        process = subprocess.Popen(
            [TRIPAGENT, "dev"], env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO_ROOT
        )
    server = DevServer(f"http://127.0.0.1:{ports['PORT']}", process, ports, log)
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            pytest.fail(f"tripagent dev exited: {log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{server.url}/health", timeout=2).status_code in (200, 503):
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"tripagent dev did not answer: {log.read_text()[-3000:]}")
        time.sleep(0.2)
    return server


@pytest.fixture(scope="session")
def dev_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    server = start_dev(tmp_path_factory.mktemp("dev") / "dev.log")
    process = server.process
    yield server
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        process.wait(20)
