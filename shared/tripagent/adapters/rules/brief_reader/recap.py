"""The offline reader's replies: asks for the next missing essential in the rider's language, recaps
what it understood, and says when everything needed is known."""

from __future__ import annotations

from datetime import date
from typing import Any

from tripagent.adapters.rules.brief_reader import vocabulary


def _replies(section: str) -> dict[str, Any]:
    return {lang: vocabulary.in_language(lang, section) for lang in vocabulary.LANGUAGES}


QUESTIONS = _replies("questions")
PROFILES = _replies("bikes")
_MONTHS = _replies("month_names")
_WEEKDAYS = _replies("weekday_names")


def said_date(iso: str, locale: str) -> str:
    """A date as people say it ("Saturday 8 May 2027", "samedi 8 mai 2027"), not as the API stores it."""
    try:
        day = date.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{_WEEKDAYS[locale][day.weekday()]} {day.day} {_MONTHS[locale][day.month - 1]} {day.year}"


def _from_fr(name: str) -> str:
    """French contracts "de" with the article or the vowel that follows: des Escaldes, d'Encamp."""
    if name[:4].lower() == "les ":
        return "des " + name[4:]
    if name[:3].lower() == "le ":
        return "du " + name[3:]
    return ("d'" if name[:1].lower() in "aeiouyhàâéèêîôû" else "de ") + name


def _to_fr(name: str) -> str:
    if name[:4].lower() == "les ":
        return "aux " + name[4:]
    if name[:3].lower() == "le ":
        return "au " + name[3:]
    return "à " + name


def recap(collected: dict[str, Any], locale: str) -> str:
    fr = locale == "fr"
    parts = []
    if collected.get("start"):
        parts.append(_from_fr(collected["start"]) if fr else "from " + collected["start"])
    if collected.get("roundTrip"):
        parts.append("en boucle" if fr else "as a round trip")
    elif collected.get("end"):
        parts.append(_to_fr(collected["end"]) if fr else "to " + collected["end"])
    if collected.get("via"):
        parts.append(("par " if fr else "via ") + ", ".join(collected["via"]))
    if collected.get("durationDays"):
        n = collected["durationDays"]
        parts.append(f"{n} {'jours' if fr else 'days'}" if n > 1 else ("1 jour" if fr else "1 day"))
    if collected.get("profile"):
        parts.append(PROFILES[locale][collected["profile"]])
    if collected.get("dailyDistanceKm"):
        parts.append(f"{collected['dailyDistanceKm']:g} km {'par jour' if fr else 'a day'}")
    if collected.get("dailyClimbM"):
        parts.append(
            f"≤ {collected['dailyClimbM']:g} m {'de montée par jour' if fr else 'of climbing a day'}"
        )
    if collected.get("startDate"):
        parts.append(("le " if fr else "on ") + said_date(collected["startDate"], locale))
    return ", ".join(parts)


def reply_for(collected: dict[str, Any], locale: str, *, launch: bool) -> str:
    """What the offline reader answers: the next missing essential asked in the rider's language, the recap
    of what it understood, or the invitation to launch."""
    locale = locale if locale in ("en", "fr") else "en"
    missing = [slot for slot in ("start", "end", "durationDays") if not _has(collected, slot)]
    summary = recap(collected, locale)
    fr = locale == "fr"
    if launch and not missing:
        return f"C'est parti : {summary}." if fr else f"Launching: {summary}."
    if missing:
        question = str(QUESTIONS[locale][missing[0]])
        lead = ("Noté : " if fr else "Noted: ") + summary + ". " if summary else ""
        return lead + question
    bike = ""
    if not collected.get("profile"):  # not essential: planned for a touring bike unless told
        bike = (
            " Sans autre précision, le parcours est prévu pour un vélo de randonnée (route, gravel, VTT,"
            " hybride ou électrique ?)."
            if fr
            else " Unless you say otherwise it is planned for a touring bike (road, gravel, mountain,"
            " hybrid or e-bike?)."
        )
    return (
        f"Tout y est : {summary}.{bike} Dites « c'est bon » pour lancer le calcul, ou précisez la date, "
        "la distance par jour ou l'hébergement."
        if fr
        else f"All set: {summary}.{bike} Say “launch it” when you are ready, or tell me the start date, "
        "the daily distance or where you like to sleep."
    )


def _has(collected: dict[str, Any], slot: str) -> bool:
    return bool(collected.get(slot)) or (slot == "end" and bool(collected.get("roundTrip")))
