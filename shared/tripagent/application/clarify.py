"""Interactive clarification: ask a numbered question instead of guessing, keep the pending intent on the
session, and resume the original action when the reply names a choice.

A reply by number ("2", "n°2", "the second") or by name ("tabac") within ``CLARIFY_TTL_S`` resumes the
chosen candidate's tool call; an unrelated reply clears the intent and is handled as a new message; an
expired intent is treated as absent. Candidates are complete tool calls decided when the question was
asked, so a reply can only pick one of them, never add to them.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tripagent.application.llm import ToolSpec
from tripagent.domain.places import normalize

CLARIFY_TTL_S = 300
CLARIFY_TOOL = "ask_clarification"

IntentType = Literal["choose_stop", "choose_place", "choose_tool", "choose_day", "poi_alternatives", "other"]


class Choice(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str = Field(min_length=1, max_length=200)
    tool: str = Field(min_length=1, max_length=64)
    arguments: dict[str, Any] = Field(default_factory=dict)


class PendingIntent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: IntentType = "other"
    question: str = Field(min_length=1, max_length=500)
    candidates: list[Choice] = Field(min_length=2, max_length=9)
    originalIntent: str = ""
    createdAt: float = 0.0

    def numbered(self) -> str:
        lines = [f"{i}. {c.label}" for i, c in enumerate(self.candidates, 1)]
        return f"{self.question}\n" + "\n".join(lines)

    def ui_data(self) -> dict[str, Any]:
        """The ``data-clarify`` part: what the UI renders as a numbered choice."""
        return {
            "type": self.type,
            "question": self.question,
            "options": [{"index": i, "label": c.label} for i, c in enumerate(self.candidates, 1)],
            "expiresAt": self.createdAt + CLARIFY_TTL_S,
        }


def clarify_tool_spec() -> ToolSpec:
    """Offered to the model next to the other tools: the way to ask instead of guessing."""
    return ToolSpec(
        CLARIFY_TOOL,
        "Ask the members a numbered question when the request is ambiguous (two stops match, a place has "
        "several candidates, several days or tools could be meant). Each candidate is the complete tool "
        "call to make if it is chosen.",
        {
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": list(IntentType.__args__)},  # type: ignore[attr-defined]
                "question": {"type": "string"},
                "candidates": {
                    "type": "array",
                    "minItems": 2,
                    "maxItems": 9,
                    "items": {
                        "type": "object",
                        "properties": {
                            "label": {"type": "string"},
                            "tool": {"type": "string"},
                            "arguments": {"type": "object"},
                        },
                        "required": ["label", "tool", "arguments"],
                    },
                },
            },
            "required": ["question", "candidates"],
        },
    )


ORDINALS = {
    "first": 1, "premier": 1, "premiere": 1, "second": 2, "deuxieme": 2, "seconde": 2, "third": 3,
    "troisieme": 3, "fourth": 4, "quatrieme": 4, "fifth": 5, "cinquieme": 5,
}  # fmt: skip
ORDINAL = re.compile(
    r"^(?:(?:the|le|la|number|option|choice|choix)\s+)?("
    + "|".join(ORDINALS)
    + r")(?:\s+(?:one|option|choice|un|une))?$"
)
NUMBER = re.compile(r"^(?:(?:n|no|nr|number|option|choice|choix|numero|le|la|the|#)\W*)*(\d{1,2})\W*$")


def resolve(reply: str, intent: PendingIntent) -> Choice | None:
    """The candidate the reply names, by number or by name; ``None`` when it names none (or several)."""
    text = normalize(reply).strip(" .!?")
    found = NUMBER.match(text)
    ordinal = ORDINAL.match(text)
    index = int(found.group(1)) if found else ORDINALS[ordinal.group(1)] if ordinal else 0
    if found or index:
        return intent.candidates[index - 1] if 1 <= index <= len(intent.candidates) else None
    words = [w for w in text.split() if len(w) > 2]
    if not words:
        return None
    matches = [c for c in intent.candidates if all(w in normalize(c.label) for w in words)]
    return matches[0] if len(matches) == 1 else None
