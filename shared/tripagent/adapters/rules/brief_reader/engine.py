"""The ``rules`` provider's engine for the brief chat: the offline reader answers a turn through the model
port, with the same JSON object a model is asked for (``application.brief_understanding``), read from the
request's data (the turns, today, the server's state) rather than its prompt. The server then checks it
as it checks any model's answer: it geocodes the names, asks about namesakes, guards coverage.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from tripagent.adapters.rules.brief_reader.conversation import ConversationReader, Turn
from tripagent.adapters.rules.brief_reader.recap import reply_for
from tripagent.application.brief_state import BriefState, Chosen, Pending
from tripagent.application.llm import ChatRequest, ChatResult, rules_answer
from tripagent.application.places import PlaceFinder
from tripagent.domain.brief import Collected, Locale


@dataclass(frozen=True)
class BriefChatRules:
    finder: PlaceFinder

    def __call__(self, request: ChatRequest) -> ChatResult:
        context = request.context
        locale: Locale = "fr" if context.get("locale") == "fr" else "en"
        today = dt.date.fromisoformat(context.get("today") or dt.date.today().isoformat())
        state = _state(context)
        history = [Turn(m.role, m.content) for m in request.messages if m.role in ("user", "assistant")]
        read = ConversationReader(self.finder).read(history, state, locale, today)
        collected = read.collected
        unsure = []
        if read.clarification is not None and state.pending is not None:
            _unsettled(collected, state.pending)  # the server asks about it
            unsure.append(state.pending.query)
        said = collected.model_dump(mode="json")
        answer: dict[str, Any] = {
            "reply": reply_for(said, read.locale, launch=read.launch),
            "readyToGenerate": not collected.missing(),
            "language": read.locale,
            "collected": said,
            "unsure": unsure,
        }
        return rules_answer(json.dumps(answer, ensure_ascii=False))


def _state(context: dict[str, Any]) -> BriefState:
    """The server's state as the reader uses it: the choices made to its numbered questions (the question
    asked last is the server's to match an answer to; the reader raises its own as it reads)."""
    return BriefState(choices=[Chosen(*c) for c in context.get("choices") or []])


def _unsettled(collected: Collected, pending: Pending) -> None:
    """A place the reader could not settle, named as said in its slot (unless a later turn filled the
    slot), so that the server geocodes it and asks its numbered question."""
    slot = pending.slot.split(":", 1)[0]
    if slot == "via":
        if pending.query not in collected.via:
            collected.via = [*collected.via, pending.query]
    elif not getattr(collected, slot, None):
        setattr(collected, slot, pending.query)
