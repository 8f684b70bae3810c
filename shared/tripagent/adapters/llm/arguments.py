"""Tool-call arguments as the providers send them (a JSON string, or already an object), checked once."""

from __future__ import annotations

import json
from typing import Any

from tripagent.errors import AiBadResponse


def tool_arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise AiBadResponse("The model sent tool arguments that are not JSON.") from exc
    if not isinstance(value, dict):
        raise AiBadResponse("The model sent tool arguments that are not an object.")
    return value
