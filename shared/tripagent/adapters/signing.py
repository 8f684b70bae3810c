"""Small signed tokens (HMAC-SHA256): state the server hands to a stateless client and believes only
when it comes back unaltered."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any


class HmacSigner:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("the signing secret must have at least 32 bytes")
        self._secret = secret

    def sign(self, payload: dict[str, Any]) -> str:
        body = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
        mac = hmac.new(self._secret, body, hashlib.sha256).digest()
        return f"{body.decode().rstrip('=')}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"

    def verify(self, token: str) -> dict[str, Any] | None:
        try:
            body, mac = token.split(".", 1)
            expected = hmac.new(self._secret, _pad(body).encode(), hashlib.sha256).digest()
            if not hmac.compare_digest(expected, base64.urlsafe_b64decode(_pad(mac))):
                return None
            payload = json.loads(base64.urlsafe_b64decode(_pad(body)))
        except (ValueError, json.JSONDecodeError):
            return None
        return payload if isinstance(payload, dict) else None


def _pad(text: str) -> str:
    return text + "=" * (-len(text) % 4)
