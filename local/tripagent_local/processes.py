"""Child processes the local tools run (the engines, the region build's smoke service) and the free ports
they listen on. Standard library only: the region builder's image carries this module."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class EngineProcess:
    """A child process with its log file; ``stop`` ends it (and is safe to call twice)."""

    def __init__(self, name: str, cmd: list[str], *, cwd: Path, log_path: Path) -> None:
        self.name = name
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log_path = log_path
        self._log = log_path.open("ab")
        self.process = subprocess.Popen(cmd, cwd=cwd, stdout=self._log, stderr=subprocess.STDOUT)

    def wait_ready(self, ready: Callable[[], bool], timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}; see {self.log_path}")
            try:
                if ready():
                    return
            except Exception:  # not listening yet
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{self.name} was not ready after {timeout_s:.0f} s; see {self.log_path}")

    def stop(self, grace_s: float = 5.0) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
