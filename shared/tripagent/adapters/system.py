"""The clock and the id generator the use cases take."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from tripagent.domain.times import iso


class SystemClock:
    def now_iso(self) -> str:
        return iso(datetime.now(UTC))


def new_id(prefix: str) -> str:
    """``prefix_`` and 20 random base32 characters (100 bits): unguessable, URL-safe."""
    alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
    return f"{prefix}_" + "".join(secrets.choice(alphabet) for _ in range(20))
