"""``rules``: Tripagent's offline provider. No language model: deterministic slot-filling and rule
engines, one per task (brief chat, spec extraction, the trip agent, operation review), registered in
``RULE_ENGINES`` by the features that own them. Its answers carry the model id ``rules`` and report zero
tokens, because no model ran."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator

from tripagent.application.llm import (
    ChatRequest,
    ChatResult,
    StreamEvent,
    StreamFinished,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallReady,
    ToolCallStarted,
    rules_answer,
)

RuleEngine = Callable[[ChatRequest], ChatResult]

# task → "module:function". Loaded on first use so that a function imports only the engine it needs.
RULE_ENGINES: dict[str, str] = {
    "brief_chat": "tripagent.application.brief_rules:answer_brief",
    "spec_extraction": "tripagent.application.generate:extract_spec_by_rules",
    "agent": "tripagent.application.agent_rules:answer_agent",
    "review": "tripagent.application.review:rules_decision",
}


def _no_engine(request: ChatRequest) -> ChatResult:
    known = ", ".join(sorted(RULE_ENGINES)) or "none yet"
    return rules_answer(
        "This is Tripagent's offline rules engine (model `rules`): no language model runs here, so it only "
        f"answers the tasks it has rules for ({known}); it has none for "
        f"{request.options.task or 'a request without a task'!r}. Configure a model provider "
        "(AI_PROVIDER, or PUT /me/ai-provider) for open conversation."
    )


class RulesProvider:
    name = "rules"

    def __init__(self, engines: dict[str, RuleEngine] | None = None) -> None:
        self._engines = engines

    def _engine(self, task: str | None) -> RuleEngine:
        if self._engines is not None:
            return self._engines.get(task or "", _no_engine)
        target = RULE_ENGINES.get(task or "")
        if target is None:
            return _no_engine
        module, _, function = target.partition(":")
        engine: RuleEngine = getattr(importlib.import_module(module), function)
        return engine

    def chat(self, request: ChatRequest) -> ChatResult:
        return self._engine(request.options.task)(request)

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        result = self.chat(request)
        for piece in re.findall(r"\S+\s*|\s+", result.text):
            yield TextDelta(piece)
        for call in result.tool_calls:
            yield ToolCallStarted(call.id, call.name)
            yield ToolCallArgumentsDelta(call.id, "")
            yield ToolCallReady(call)
        yield StreamFinished(result.finish_reason, result.model, result.usage)
