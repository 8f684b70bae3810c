"""The ``rules`` engine for the reviewer: the worst deterministic finding becomes the decision."""

from __future__ import annotations

import json
from typing import Any

from tripagent.application.llm import ChatRequest, ChatResult, rules_answer
from tripagent.domain.ops import patch_in_words
from tripagent.domain.review import SEVERITY_RANK, Finding


def review_by_rules(request: ChatRequest) -> ChatResult:
    """The ``rules`` provider's reviewer: the worst deterministic finding becomes the decision."""

    findings = [Finding.model_validate(f) for f in request.context.get("findings") or []]
    version = request.context.get("tripVersion", 0)
    if not findings:
        decision: dict[str, Any] = {"shouldNotify": False, "confidence": 0.9, "reason": "nothing to flag"}
    else:
        worst = max(findings, key=lambda f: SEVERITY_RANK[f.severity])
        patched = next((f for f in findings if f.patch is not None and f.severity == worst.severity), None)
        chosen = patched or worst
        decision = {
            "shouldNotify": True,
            "severity": chosen.severity,
            "confidence": 0.9 if chosen.patch else 0.75,
            "reason": chosen.message,
            "suggestion": _in_words(chosen),
            "pendingPatch": {**chosen.patch.model_dump(), "expectedVersion": version}
            if chosen.patch
            else None,
        }
    return rules_answer(json.dumps(decision, ensure_ascii=False))


def _in_words(finding: Finding) -> str:
    if finding.patch is None:
        return "Worth a look before the trip."
    return patch_in_words(finding.patch.op, finding.patch.args)
