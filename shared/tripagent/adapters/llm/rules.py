"""``rules``: Tripagent's offline provider. No language model: deterministic slot-filling and rule
engines, one per task (brief chat, spec extraction, the trip agent, operation review), each an adapter of
``adapters/rules`` built with what it needs (a place index) by the composition root, so the requests
through the model port carry data only. Its answers carry the model id ``rules`` and report zero tokens,
because no model ran."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from tripagent.application.llm import ChatRequest, ChatResult, rules_answer
from tripagent.application.llm_stream import (
    StreamEvent,
    StreamFinished,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallReady,
    ToolCallStarted,
)

if TYPE_CHECKING:
    from tripagent.application.places import PlaceFinder

RuleEngine = Callable[[ChatRequest], ChatResult]
TASKS = ("brief_chat", "spec_extraction", "agent", "review")


def rule_engines(places: PlaceFinder | None = None, pois: PlaceFinder | None = None) -> dict[str, RuleEngine]:
    """Every task's engine: ``places`` (the configured geocoder) names the places of a brief, as generation
    geocodes them; ``pois`` (the embedded gazetteer, offline) those of the agent's proposed stops. The
    bundled gazetteer for either when none is given."""
    from tripagent.adapters.rules.agent import AgentRules
    from tripagent.adapters.rules.brief_reader.engine import BriefChatRules
    from tripagent.adapters.rules.brief_reader.spec import SpecRules
    from tripagent.adapters.rules.review import review_by_rules

    if places is None or pois is None:
        from tripagent.adapters.places.gazetteer import Gazetteer

        bundled = Gazetteer()
        places, pois = places or bundled, pois or bundled
    return {
        "brief_chat": BriefChatRules(places),
        "spec_extraction": SpecRules(places),
        "agent": AgentRules(pois),
        "review": review_by_rules,
    }


def _no_engine(request: ChatRequest) -> ChatResult:
    known = ", ".join(sorted(TASKS))
    return rules_answer(
        "This is Tripagent's offline rules engine (model `rules`): no language model runs here, so it only "
        f"answers the tasks it has rules for ({known}); it has none for "
        f"{request.options.task or 'a request without a task'!r}. Configure a model provider "
        "(AI_PROVIDER, or PUT /me/ai-provider) for open conversation."
    )


class RulesProvider:
    name = "rules"

    def __init__(self, engines: Mapping[str, RuleEngine] | None = None) -> None:
        self._given = engines
        self._engines: Mapping[str, RuleEngine] | None = engines

    def _engine(self, task: str | None) -> RuleEngine:
        if self._engines is None:  # built on first use: a function loads only what its tasks need
            self._engines = rule_engines()
        return self._engines.get(task or "", _no_engine)

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
