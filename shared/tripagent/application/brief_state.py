"""The brief chat's own state, carried by the client: each reply ends with a signed mark (a Markdown
comment a client does not show) holding the brief the server checked last, the places chosen in answer
to its numbered questions and an open question, so the chat stays stateless on the server and a forged
or altered mark is ignored."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tripagent.domain.brief import Collected
from tripagent.domain.places import normalize

STATE_MARK = re.compile(r"\n*\[//\]: # \(tripagent-state:([A-Za-z0-9_\-.]+)\)\s*$")
CLARIFICATION_TTL_S = 300


class StateSigner(Protocol):
    def sign(self, payload: dict[str, Any]) -> str: ...

    def verify(self, token: str) -> dict[str, Any] | None: ...


class HasContent(Protocol):
    @property
    def role(self) -> str: ...

    @property
    def content(self) -> str: ...


@dataclass
class Pending:
    slot: str
    query: str
    options: list[dict[str, Any]]  # {index, label, name}
    created_at: float


@dataclass(frozen=True)
class Chosen:
    """A rider's answer to a numbered question: the slot asked about ("start", "via:<name>"), the name
    asked about, and the place chosen (by a name that finds it alone)."""

    slot: str
    query: str
    place: str


@dataclass
class BriefState:
    choices: list[Chosen] = field(default_factory=list)  # the numbered questions answered, in order
    pending: Pending | None = None
    collected: Collected = field(default_factory=Collected)  # the brief as the server checked it last

    @property
    def resolved(self) -> dict[str, str]:
        """Each slot asked about, and the place chosen for it (the offline reader reads choices so)."""
        return {c.slot: c.place for c in self.choices}

    @property
    def answered(self) -> dict[str, str]:
        """Each name asked about, normalized, and the place chosen for it (the server reads them so)."""
        return {normalize(c.query): c.place for c in self.choices}

    def payload(self, now: float) -> dict[str, Any]:
        pending = None
        if self.pending:
            pending = {
                "slot": self.pending.slot,
                "query": self.pending.query,
                "options": self.pending.options,
                "createdAt": self.pending.created_at,
            }
        # (the notes stay out: the mark travels in every assistant turn, held to the turn's size limit)
        collected = self.collected.model_dump(mode="json", exclude_defaults=True, exclude={"notes"})
        return {
            "v": 3,
            "choices": [[c.slot, c.query, c.place] for c in self.choices],
            "collected": collected,
            "pending": pending,
            "at": now,
        }

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> BriefState:
        p = payload.get("pending")
        pending = Pending(p["slot"], p["query"], p["options"], float(p["createdAt"])) if p else None
        collected, _ = Collected.lenient(payload.get("collected") or {})
        choices = [Chosen(*map(str, c)) for c in payload.get("choices") or [] if len(c) == 3]
        return cls(choices, pending, collected)


def state_mark(signer: StateSigner, state: BriefState, now: float) -> str:
    """The mark that ends a reply: the state, signed."""
    return f"[//]: # (tripagent-state:{signer.sign(state.payload(now))})"


def read_state(signer: StateSigner, messages: Sequence[HasContent]) -> BriefState:
    """The state our last reply carried, if it is ours (signed) and the last assistant turn has it."""
    for message in reversed(messages):
        if message.role != "assistant":
            continue
        found = STATE_MARK.search(message.content)
        if found:
            payload = signer.verify(found.group(1))
            return BriefState.from_payload(payload) if payload else BriefState()
        return BriefState()  # the last assistant turn carries no state of ours
    return BriefState()
