"""From a model's free text to a typed reply, leniently.

Models wrap JSON in Markdown fences or prose, leave trailing commas, use single quotes, add comments, or
stop mid-object when they run out of tokens. ``parse_structured`` finds the JSON object in the text,
repairs it (json-repair), and validates it against a pydantic model whose optional fields may be
missing and whose unknown fields are ignored. It never raises: the result is either the value or a typed
``Unparseable`` with the reason, for the caller's fallback (and for corrective re-prompts).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

_FENCE = re.compile(r"```(?:json|JSON|javascript|js)?\s*\n?(.*?)(?:```|$)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Parsed[T: BaseModel]:
    value: T


@dataclass(frozen=True, slots=True)
class Unparseable:
    reason: str
    raw: str


def parse_structured[T: BaseModel](text: str, model: type[T]) -> Parsed[T] | Unparseable:
    if not text or not text.strip():
        return Unparseable("the reply is empty", text or "")
    problems: list[str] = []
    for candidate in _candidates(text):
        data = _load(candidate)
        if not isinstance(data, dict):
            continue
        try:
            return Parsed(model.model_validate(data))
        except ValidationError as exc:
            problems.append("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()))
    reason = problems[0] if problems else "no JSON object found in the reply"
    return Unparseable(reason, text)


def _candidates(text: str) -> list[str]:
    """Places a JSON object may be, most likely first: fenced blocks, the outermost braces, the text."""
    found = [m.group(1) for m in _FENCE.finditer(text) if m.group(1).strip()]
    start = text.find("{")
    if start >= 0:
        end = text.rfind("}")
        found.append(text[start : end + 1] if end > start else text[start:])  # truncated: repair closes it
    found.append(text)
    return found


def _load(candidate: str) -> Any:
    try:
        return json.loads(candidate)
    except json.JSONDecodeError:
        pass
    import json_repair  # (on first need: most replies are plain JSON, and a cold start pays for imports)

    try:
        return json_repair.loads(candidate)
    except Exception:  # json-repair gives up on hopeless input with assorted errors
        return None
