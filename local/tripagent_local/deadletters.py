"""The local stand-in for on-failure destinations and dead-letter queues.

The bus, the stream pollers and the queue pollers each give up on work in their own threads; what they
give up on lands here: kept in memory for ``GET /_local/dead-letters`` and appended to one JSON-lines file
(``.local/dead-letters.jsonl``) under one lock, so that lines from different writers never interleave.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any


class DeadLetterLog:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._records: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def add(self, record: dict[str, Any]) -> None:
        line = json.dumps(record) + "\n"
        with self._lock:
            self._records.append(record)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a") as fh:
                fh.write(line)

    @property
    def records(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._records)
