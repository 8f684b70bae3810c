"""Interactive clarification: ask a numbered question instead of guessing, keep the pending intent on the
session, and resume the original action when the reply names a choice.

A reply by number ("2", "n°2", "the second") or by name ("tabac") within ``CLARIFY_TTL_S`` resumes the
chosen candidate's tool call; an unrelated reply clears the intent and is handled as a new message; an
expired intent is treated as absent. Candidates are complete tool calls decided when the question was
asked, so a reply can only pick one of them, never add to them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tripagent.application.llm import ToolSpec
from tripagent.domain.choice import Option, choose

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


def resolve(reply: str, intent: PendingIntent) -> Choice | None:
    """The candidate the reply names, by number or by name; ``None`` when it names none (or several)."""
    index = choose(reply, [Option(name=c.label) for c in intent.candidates])
    return intent.candidates[index - 1] if index else None
