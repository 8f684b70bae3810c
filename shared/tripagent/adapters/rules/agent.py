"""The ``rules`` provider's engine for the trip agent: read-only answers about the trip (its plan, a
day, distances and climbing) and searches for places near a day's start or end through the read tools,
in English or French, without a model."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from tripagent.application.agent_history import SUMMARY_END
from tripagent.application.clarify import CLARIFY_TOOL
from tripagent.application.llm import ChatRequest, ChatResult, ToolCall, Usage
from tripagent.application.llm import rules_answer as answer
from tripagent.application.places import PlaceFinder
from tripagent.domain.places import Found, normalize

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


POI_WORDS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"\b(camp ?site|camping|campground)\b"), "lodging", "camp"),
    (re.compile(r"\b(hotel|hostel|auberge|gite|sleep|dormir|lodging|hebergement)\b"), "lodging", ""),
    (re.compile(r"\b(restaurant|lunch|dinner|eat|food|manger|dejeuner|diner|cafe)\b"), "food", ""),
    (re.compile(r"\b(water|eau|fontaine|fountain)\b"), "water", ""),
    (re.compile(r"\b(bike shop|repair|reparation|velociste)\b"), "bike", ""),
    (re.compile(r"\b(museum|musee|visit|visiter)\b"), "culture", ""),
]
ADD_STOP = re.compile(
    r"\b(?:add|ajoute|ajouter)\s+(?:a|an|un|une)?\s*(\w+)\s+(?:stop\s+|arret\s+|halte\s+)?"
    r"(?:in|at|a|au|en)\s+(.+?)\s+(?:on|for|le|pour)\s+(?:day|jour)\s*(\d{1,2})\b"
)
STOP_KINDS = {
    "lunch": "food",
    "dinner": "food",
    "breakfast": "food",
    "coffee": "food",
    "cafe": "food",
    "dejeuner": "food",
    "diner": "food",
    "hotel": "lodging",
    "camping": "lodging",
    "museum": "activity",
    "musee": "activity",
    "visit": "activity",
    "train": "transport",
}
FIND = re.compile(r"\b(find|where|any|look for|trouve|cherche|ou)\b")
WEATHER = re.compile(r"\b(weather|forecast|rain|meteo|pluie|temps)\b")
MOVE = re.compile(
    r"\b(?:move|put|shift|deplace|deplacer|mets|mettre)\s+(?:the\s+|le\s+|la\s+|l\s*)?(.+?)\s+"
    r"(?:to|on|onto|into|au|a|sur|vers)\s+(?:day|jour)\s*(\d{1,2})\b"
)
FILLER = {"stop", "arret", "the", "le", "la", "les", "de", "du", "our", "my", "that", "this"}


def _matches(word: str, token: str) -> bool:
    """Loose stem match, so that "museum" finds "Museu del Tabac" and "musee" finds "Musée"."""
    if word == token:
        return True
    return len(word) >= 4 and len(token) >= 4 and word[:5] == token[:5]


def _stops_named(trip: dict[str, Any], target: str) -> list[dict[str, Any]]:
    words = [w for w in normalize(target).split() if w not in FILLER]
    if not words:
        return []
    stops = trip.get("stops") or []
    by_name = [
        s for s in stops if all(any(_matches(w, t) for t in normalize(s["name"]).split()) for w in words)
    ]
    if by_name:
        return by_name
    kinds = {STOP_KINDS[w] for w in words if w in STOP_KINDS}
    return [s for s in stops if s.get("kind") in kinds] if len(kinds) == 1 else []


def _tool_answer(request: ChatRequest, fr: bool) -> ChatResult | None:
    """After a tool ran, say what it found."""
    if not request.messages or request.messages[-1].role != "tool":
        return None
    output = json.loads(request.messages[-1].content)
    if output.get("error"):
        return answer(output["error"])
    if "forecast" in output:
        return answer(_weather_line(output, fr))
    if "durationMin" in output:
        return answer(
            f"{output['from']} → {output['to']}: {output['distanceKm']:g} km, {output['durationMin']:g} min."
        )
    if "tripId" in output:  # get_trip, as the choice "none of these" of a clarification
        return answer("D’accord." if fr else "All right.")
    results = output.get("results") or []
    if not results:
        others = "; ".join(a["description"] for a in output.get("alternatives", []))
        none = "Rien trouvé près de" if fr else "Nothing found near"
        return answer(
            f"{none} {output.get('near')}." + (f" {'Essayez' if fr else 'Try'}: {others}." if others else "")
        )
    lines = [f"- {r['name']} ({r['kind'].replace('_', ' ')}, {r['distanceKm']:.1f} km)" for r in results[:5]]
    lead = "Près de" if fr else "Near"
    return answer(f"{lead} {output.get('near')}:\n" + "\n".join(lines))


@dataclass(frozen=True)
class AgentRules:
    """The engine, with the place index that names a proposed stop's place (given here, never through
    the request: the model port carries data only)."""

    places: PlaceFinder | None = None

    def __call__(self, request: ChatRequest) -> ChatResult:
        return answer_agent(request, self.places)


def answer_agent(request: ChatRequest, places: PlaceFinder | None = None) -> ChatResult:
    trip = request.context.get("trip") or {}
    last = next((m.content for m in reversed(request.messages) if m.role == "user"), "")
    last = last.rsplit(SUMMARY_END, 1)[-1]  # past the rolling summary, when the history opens with it
    text = normalize(last.split(":", 1)[-1])
    fr = len(FRENCH.findall(text)) >= 2
    days = trip.get("days") or []
    after_tool = _tool_answer(request, fr)
    if after_tool is not None:
        return after_tool
    moving = MOVE.search(text)
    if moving and request.tools and any(t.name == "move_stop" for t in request.tools):
        return _propose_move(request, trip, moving, fr)
    adding = ADD_STOP.search(text)
    if adding and request.tools and any(t.name == "add_stop" for t in request.tools):
        return _propose_stop(request, adding, places)
    found = DAY.search(text)
    poi = next(((cat, word) for pattern, cat, word in POI_WORDS if pattern.search(text)), None)
    if poi and FIND.search(text) and request.tools:
        day = int(found.group(1) or found.group(2)) - 1 if found else 0
        where = "start" if re.search(r"\b(start|debut|depart)\b", text) else "end"
        arguments = {"dayIndex": max(0, day), "where": where, "category": poi[0], "text": poi[1]}
        call = ToolCall(f"call_{len(request.messages)}_{day}", "find_pois", arguments)
        return ChatResult("", (call,), "tool_calls", "rules", Usage())
    if found and WEATHER.search(text) and request.tools:
        day = max(0, int(found.group(1) or found.group(2)) - 1)
        call = ToolCall(f"call_{len(request.messages)}_w{day}", "get_weather", {"dayIndex": day})
        return ChatResult("", (call,), "tool_calls", "rules", Usage())
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


def _propose_stop(request: ChatRequest, found: re.Match[str], places: PlaceFinder | None) -> ChatResult:
    """ "add a lunch stop in Canillo on day 1" → the add_stop write tool, which a member approves."""
    what, where, day = found.group(1), found.group(2).strip(), int(found.group(3))
    arguments: dict[str, Any] = {
        "dayIndex": max(0, day - 1),
        "name": f"{what.title()} in {where.title()}",
        "kind": STOP_KINDS.get(what, "poi"),
    }
    if places is not None:
        outcome = places.search(where)
        if isinstance(outcome, Found):
            arguments["name"] = f"{what.title()} in {outcome.place.name}"
            arguments["lat"], arguments["lon"] = round(outcome.place.lat, 6), round(outcome.place.lon, 6)
    call = ToolCall(f"call_{len(request.messages)}_add", "add_stop", arguments)
    return ChatResult("", (call,), "tool_calls", "rules", Usage())


def _weather_line(output: dict[str, Any], fr: bool) -> str:
    forecast = output.get("forecast")
    where = f"{output['place']}, {output['date']}"
    if not forecast:
        return f"{where}: " + (
            "pas encore de prévision." if fr else "no forecast yet (more than ~16 days ahead)."
        )
    parts = []
    if "temperature_2m_max" in forecast:
        parts.append(f"{forecast.get('temperature_2m_min', '?')}–{forecast['temperature_2m_max']} °C")
    if "precipitation_sum" in forecast:
        parts.append(f"{forecast['precipitation_sum']} mm")
    if "precipitation_probability_max" in forecast:
        parts.append(
            f"{forecast['precipitation_probability_max']} % {'de pluie' if fr else 'chance of rain'}"
        )
    if "wind_speed_10m_max" in forecast:
        parts.append(f"{'vent' if fr else 'wind'} {forecast['wind_speed_10m_max']} km/h")
    return f"{where}: " + (", ".join(parts) or json.dumps(forecast)) + "."


def _propose_move(request: ChatRequest, trip: dict[str, Any], found: re.Match[str], fr: bool) -> ChatResult:
    """ "move the museum to day 2" → move_stop when one stop matches, a numbered question when several do."""
    target, day = found.group(1).strip(), int(found.group(2))
    days = trip.get("days") or []
    if not 1 <= day <= len(days):
        return answer(f"Le voyage a {len(days)} jours." if fr else f"The trip has {len(days)} days.")
    stops = _stops_named(trip, target)
    if not stops:
        return answer(f"Aucun arrêt ne correspond à « {target} »." if fr else f"No stop matches “{target}”.")
    calls = [{"stopId": s["stopId"], "dayIndex": day - 1} for s in stops]
    if len(stops) == 1:
        return ChatResult(
            "",
            (ToolCall(f"call_{len(request.messages)}_move", "move_stop", calls[0]),),
            "tool_calls",
            "rules",
            Usage(),
        )
    question = {
        "type": "choose_stop",
        "question": f"Lequel déplacer au jour {day} ?" if fr else f"Which one should move to day {day}?",
        "candidates": [
            {
                "label": f"{s['name']} ({'jour' if fr else 'day'} {s['dayIndex'] + 1})",
                "tool": "move_stop",
                "arguments": a,
            }
            for s, a in zip(stops[:9], calls, strict=False)
        ],
    }
    call = ToolCall(f"call_{len(request.messages)}_ask", CLARIFY_TOOL, question)
    return ChatResult("", (call,), "tool_calls", "rules", Usage())
