"""The words of place phrases that are no names: verbs, greetings and fillers, the words a phrase cannot
begin with, a count of days; and whether a candidate phrase may be a name at all (``is_name``), or says
another slot (``says_a_slot``: a bike, a lodging, a length, a date)."""

from __future__ import annotations

import re

from tripagent.adapters.rules.brief_reader import vocabulary
from tripagent.adapters.rules.brief_reader.dates import MONTH_WORD, MONTHS, WEEKDAY, WEEKDAYS
from tripagent.adapters.rules.brief_reader.patterns import lazy
from tripagent.adapters.rules.brief_reader.words import (
    ACCOMMODATION,
    LAUNCH,
    NUM,
    PROFILE_WORDS,
    ROUND_TRIP,
    duration_in,
)

VERBS = {
    # verbs of setting off and of what else people do: "push off from there", "to hike too", "to say"
    "push",
    "set",
    "kick",
    "wheel",
    "saddle",
    "mount",
    "pedal",
    "leave",
    "fly",
    "land",
    "drive",
    "hike",
    "walk",
    "swim",
    "say",
    "tell",
    "drink",
    "roll",
    "eat",
    "ending",
    "finishing",
    "arriving",
    "starting",
    "leaving",
    "returning",
    "ask",
    "hit",
    "pass",
    "stop",
    "turn",
    "work",
    "keep",
    "avoid",
    "enjoy",
    "try",
    "find",
    "check",
    "sleep",
    "climb",
    "explore",
    "discover",
    "relax",
    "follow",
    "bring",
    "carry",
    "me",
    "let",
    "lets",
    "coming",
    "end",
    "start",
    "begin",
    "ride",
    "go",
    "do",
    "be",
    "make",
    "cycle",
    "bike",
    "have",
    "see",
    "visit",
    "spend",
    "stay",
    "take",
    "plan",
    "faire",
    "aller",
    "rouler",
    "partir",
    "going",
    "heading",
    "riding",
    "reach",
    "get",
    "finish",
    "arrive",
    "head",
    "continue",
    "come",
    "return",
    "rejoindre",
    "voir",
    "visiter",
    "passer",
    "prendre",
    "my",
    "mon",
    "ma",
    "i",
    "we",
    "you",
    "je",
    "j",
    "nous",
    "on",
    "il",
    "elle",
    "want",
    "would",
    "like",
    "veux",
    "voudrais",
    "bonjour",
    "hello",
    "hi",
    "please",
    "velo",
    "vtt",
    "gravel",
    "une",
    "un",
    "a",
    "the",
}


NOT_PLACES = {
    # greetings and fillers, said alone ("hey" is Ḩey, Iran); words a lodging or a length leaves behind
    "instead",  # "make El Tarter the finish instead"
    "plutot",
    "nuits",
    "nights",
    "night",
    "nuit",
    "long week",
    "week",
    "hey",
    "hey there",
    "hi",
    "hi there",
    "hello",
    "hello there",
    "hiya",
    "yo",
    "howdy",
    "salut",
    "coucou",
    "bonjour",
    "bonsoir",
    "ok",
    "okay",
    "thanks",
    "merci",
    "cheers",
    "greetings",
    "hola",
    "moi",
    "hei",
    "allo",  # Quebec's hello ("Allô !"), a village in Navarre too
    "bon dia",
    "buenos dias",
    "hallo",
    "hoi",
    "ciao",
    "voila",  # "Voilà, c'est dit." (Vila by one letter)
    # French idioms after "à", which reads as "to": "réserver à l'avance", "à pied", "à peu près"
    "l avance",
    "pied",
    "peu pres",
    "l heure",
    "la fin",
    "l aise",
    "l etranger",
    "cote",
    "nouveau",
    "l avenir",
    "la maison",
    "la carte",
    "l ombre",
    "italy",
    "italie",
    "germany",
    "allemagne",
    "england",
    "uk",
    "usa",
    "belgium",
    "belgique",
    "switzerland",
    "suisse",
    "netherlands",
    "holland",
    "pays bas",
    "portugal",
    "canada",
    "montagne",
    "la montagne",
    *vocabulary.aliases()["countries"],  # (the bundled regions' own countries: the setting of a trip)
    "spain",
    "espagne",
    "france",
    "la france",
    "l espagne",
    "la finlande",
    "la suisse",
    "la belgique",
    "l italie",
    "l allemagne",
    "finland",
    "finlande",
    "pyrenees",
    "the pyrenees",
    "les pyrenees",
    "the",
    "a",
    "day",
    "days",
    "jours",
    "semaine",
    "bike",
    "velo",
    "road",
    "route",
    "go",
    "me",
    "us",
    "start",
    "end",
    "it",
    "do",
    "be",
    "ride",
    "rouler",
    "faire",
    "hotel",
    "camping",
    "ville",  # "vélo de ville"
    # "out of shape", "out of breath": no start
    "shape",
    "breath",
    "practice",
    "season",
}


# A phrase starting with one of these is not a name but another trigger ("boucle depuis La Massana"); a
# count of days is not one either ("une boucle de deux jours", COUNT_OF_DAYS).
NOT_A_NAME_START = {
    "depuis", "from", "to", "vers", "via", "par", "au", "aux", "en", "sur", "pour", "dans", "in", "at", "on",
    "with", "avec", "through", "starting", "start", "jusqu", "back", "retour", "home", "next", "this",
    "tomorrow", "demain", "today", "after", "apres", "before", "avant", "then", "plutot", "just", "only",
    "juste", "non", "no", "yes", "oui", "ok", "okay", "thanks", "merci", "great", "super", "parfait",
    "perfect", "sounds", "sure", "cool", "hmm", "hm", "ah", "oh", "euh", "actually", "attends", "wait", "how",
    "what", "which", "where", "when", "combien", "quel", "quelle", "ou",
    "prevue", "prevu", "prevus", "prevues", "envisagee", "souhaitee",
    "over", "there", "could", "can", "should", "will", "shall", "pourriez", "pouvez", "peux", "pourrais",
    "balade", "sortie", "meme",
    "voyage", "trip", "tour", "excursion", "randonnee", "arrivee", "arrival", "max", "maximum", "min",
    "destination",
    "depart", "point", "so", "and", "but", "et", "mais", "donc", "is", "was", "est", "sera", "serait",
    "down", "up", "out", "around", "round", "along", "past", "across", "towards", "toward",
    *WEEKDAYS,
    *MONTHS,
}  # fmt: skip


# After a weak trigger (or none) a phrase beginning with these is a French connector, not a name ("De
# Santa Coloma à Soldeu"); after "from" it may be one (Des Moines, De Panne).
WEAK_NOT_A_NAME_START = {"de", "d", "du", "des"}


COUNT_OF_DAYS = lazy(rf"^{NUM}[ -]?(days?|jours?|journees?|nights?|nuits?|weeks?|semaines?)\b")


# "...and set off from there": the place named just before
THERE_WORDS = {"there", "here", "la bas", "ici", "la"}


def is_name(candidate: str, *, strong: bool) -> bool:
    words = candidate.split()
    return bool(
        words
        and len(candidate) > 1  # "l" of "l'hôtel", the rest cut off
        and candidate not in NOT_PLACES
        and words[0] not in VERBS
        and words[0] not in NOT_A_NAME_START
        and (strong or words[0] not in WEAK_NOT_A_NAME_START)
        and not COUNT_OF_DAYS.match(candidate)
        and len(candidate) <= 60
        and not re.search(r"\d", candidate)
        and not says_a_slot(candidate)  # "we'd like to camp", "to Ordino by road bike"
    )


def says_a_slot(norm: str) -> bool:
    """Whether a phrase says something else than a place: a bike, a lodging, a loop, a length, a date."""
    return bool(
        any(p.search(norm) for _, p in PROFILE_WORDS)
        or any(p.search(norm) for _, p in ACCOMMODATION)
        or ROUND_TRIP.search(norm)
        or duration_in(norm)
        or LAUNCH.match(norm)
        or WEEKDAY.search(norm)
        or MONTH_WORD.search(norm)
    )
