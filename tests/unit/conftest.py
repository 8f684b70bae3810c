"""Unit tests never touch the network: any socket connection fails the test."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(self: socket.socket, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(f"unit tests must not open network connections (tried {args})")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    return


@pytest.fixture(scope="session")
def gazetteer() -> Gazetteer:
    """The bundled gazetteer, opened once (read only); a module may open its own."""
    return Gazetteer()
