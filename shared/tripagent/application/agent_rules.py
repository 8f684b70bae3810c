"""The ``rules`` provider's engine for the trip agent: read-only answers about the trip (its plan, a
day, distances and climbing) in English or French, without a model."""

from __future__ import annotations

import re
from typing import Any

from tripagent.application.llm import ChatRequest, ChatResult
from tripagent.application.llm import rules_answer as answer
from tripagent.domain.places import normalize

DAY = re.compile(r"\b(?:day|jour|journee)\s*(\d{1,2})\b|\b(\d{1,2})(?:st|nd|rd|th|e|er)?\s+(?:day|jour)\b")
FRENCH = re.compile(r"\b(quel|quelle|jour|combien|est|le|la|les|du|des|programme|etape)\b")


def _day_line(day: dict[str, Any], fr: bool) -> str:
    stage = day.get("stage")
    label = f"{'Jour' if fr else 'Day'} {day['dayIndex'] + 1}"
    if day.get("date"):
        label += f" ({day['date']})"
    if not stage:
        return f"{label}: {day.get('city') or ('pas encore d’étape' if fr else 'no stage yet')}"
    return (
        f"{label}: {stage['from']} → {stage['to']}, {stage['distanceKm']:g} km, "
        f"+{stage.get('ascentM') or 0:g} m / -{stage.get('descentM') or 0:g} m, "
        f"{round(stage['durationMin'])} min"
    )


def answer_agent(request: ChatRequest) -> ChatResult:
    trip = request.context.get("trip") or {}
    last = next((m.content for m in reversed(request.messages) if m.role == "user"), "")
    text = normalize(last.split(":", 1)[-1])
    fr = len(FRENCH.findall(text)) >= 2
    days = trip.get("days") or []
    found = DAY.search(text)
    if found:
        n = int(found.group(1) or found.group(2))
        if 1 <= n <= len(days):
            return answer(_day_line(days[n - 1], fr) + ".")
        return answer(f"Le voyage a {len(days)} jours." if fr else f"The trip has {len(days)} days.")
    if re.search(r"\b(how far|distance|km|climb|ascent|denivele|combien)\b", text):
        total = sum((d.get("stage") or {}).get("distanceKm", 0) for d in days)
        climb = sum((d.get("stage") or {}).get("ascentM") or 0 for d in days)
        return answer(f"{total:g} km {'en tout' if fr else 'in all'}, +{climb:g} m.")
    if days and re.search(r"\b(plan|summary|itinerary|programme|resume|etapes?|stages?|trip|voyage)\b", text):
        return answer("\n".join(_day_line(d, fr) for d in days))
    return answer(
        "Je suis l’assistant hors ligne (règles, sans modèle) : demandez le programme, un jour (« jour 2 ») "
        "ou les distances."
        if fr
        else "I am the offline assistant (rules, no model): ask me for the plan, a day (“day 2”) "
        "or the distances."
    )
