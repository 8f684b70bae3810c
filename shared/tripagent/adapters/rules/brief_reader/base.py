"""Where people keep their base, the car, the hotel, the flat, the station they arrive at, and whether the
ride leaves from it or comes back to it: "we park the car in Pas de la Casa... and back to the car on
Sunday", "on dort à l'hôtel à Ordino. Depuis l'hôtel, une boucle", "always back to the hostel in Kamppi".
The base's place is then where the ride starts (and, coming back to it, a loop)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tripagent.adapters.rules.brief_reader.patterns import lazy
from tripagent.domain.places import normalize

_KINDS = (
    r"(?:car|van|camper|camper ?van|voiture|camping car|hotel|hostel|auberge(?: de jeunesse)?|airbnb|air bnb"
    r"|b ?n ?b|b and b|guest ?house|chambre d hotes?|gite|flat|apartment|appart\w*|campsite|camping"
    r"|bus station|gare routiere|coloc\w*|chalet)"
)
_ARTICLE = r"(?:the|our|my|a|an|la|le|l|notre|ma|mon|un|une)"
_FAMILIES = [  # the words for one base: a car is "the car", "la voiture", "it" ("leave it in...")
    lazy(r"car|van|camper|camper ?van|voiture|camping car|it"),
    lazy(r"campsite|camping"),
    lazy(r"bus station|gare routiere"),
]
# "park the car in Pas de la Casa", "on laisse la voiture à Sant Julià", "on gare la voiture à Sant Julià",
# "leave it in La Massana parking"
_PARKED = lazy(
    rf"\b(?:park\w*|leav\w*|laiss\w*|gar(?:e|er|ons|erons)|depos\w*)(?: {_ARTICLE})?"
    r" (?P<kind>car|van|camper|voiture|camping car|it)(?: \w+){0,2}? (?:in|at|a|au|aux|dans)"
    r" (?P<at>(?:\w+ ?){1,5})"
)
# "a hotel in Ordino", "l'hôtel à Soldeu", "the hostel in Kamppi", "la gare routière de Saint-Julien-de-Lòria"
_LODGED = lazy(
    rf"\b{_ARTICLE}(?: \w+)? (?P<kind>{_KINDS})(?: \w+)?? (?:in|at|a|au|aux|d|de|du) (?P<at>(?:\w+ ?){{1,5}})"
)
# "back to the car", "retrouver la voiture", "retour à l'hôtel", "revenir à la gare routière"
_BACK_TO_IT = lazy(
    rf"\b(?:back (?:to|at)|return\w*(?: to)?|retour (?:a|au)|retrouv\w*|revenir (?:a|au)|rentrer (?:a|au)"
    rf"|come back to|get back to|go back to) {_ARTICLE} (?:\w+ )?(?P<kind>{_KINDS})\b"
)
# "from the hotel", "depuis l'hôtel", "en partant de l'hôtel", "start at the campsite"
_FROM_IT = lazy(
    rf"\b(?:from|depuis|partant de|part de|depart de|start\w* (?:at|from)|leav\w* from) {_ARTICLE}"
    rf" (?:\w+ )?(?P<kind>{_KINDS})\b"
)

_EACH_DAY = lazy(r"\b(?:chaque jour|tous les jours|every day|each day)\b")


@dataclass(frozen=True)
class Base:
    """Where people keep their base, as the words that may name it (those after its "in", longest first),
    and whether the ride comes back to it."""

    names: tuple[str, ...]
    comes_back: bool


def base_said(texts: list[str]) -> Base | None:
    """The base the texts place ("the car in Pas de la Casa") when a ride leaves from it or comes back to
    it (a car for a car, a roof for a roof)."""
    norms = [normalize(text) for text in texts]
    leaving = {_family(m) for norm in norms for m in _FROM_IT.finditer(norm)}
    # ("chaque jour en partant de l'hôtel": rides from it and back, each day)
    back = {_family(m) for norm in norms for m in _BACK_TO_IT.finditer(norm)}
    back |= leaving if any(_EACH_DAY.search(norm) for norm in norms) else set()
    for norm in norms:
        for placed in [*_PARKED.finditer(norm), *_LODGED.finditer(norm)]:
            if (kind := _family(placed)) in leaving | back:
                words = placed.group("at").split()
                return Base(tuple(" ".join(words[:n]) for n in range(len(words), 0, -1)), kind in back)
    return None


def _family(said: re.Match[str]) -> int:
    """Which base a word names: a car, a campsite, a station, else a roof (a hotel is the B&B, the flat)."""
    return next((i for i, family in enumerate(_FAMILIES) if family.fullmatch(said.group("kind"))), -1)
