"""Place phrases: where a turn says the trip starts, ends and passes ("from X to Y", "de X à Y", "via
X", "A → B", "Starting point: X", "Encamp is where we begin", "set off from there", "par A, B et C",
"skip X"), before a geocoder says what each names. Strong phrases follow an unmistakable word; weak ones
(French "de", "staying in", a clause that is only a name) may well be no place, and are never asked
about when nothing matches."""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from tripagent.domain.brief_dates import MONTH_WORD, MONTHS, WEEKDAY, WEEKDAYS
from tripagent.domain.brief_itinerary import Itinerary, itinerary
from tripagent.domain.brief_words import (
    ACCOMMODATION,
    CLIMB_PER_DAY,
    DAILY,
    LAUNCH,
    NUM,
    NUMBERS,
    PROFILE_WORDS,
    ROUND_TRIP,
    Locale,
    detect_locale,
    duration_in,
)
from tripagent.domain.landmarks import landmarks_as_places
from tripagent.domain.places import normalize

# Where a place phrase ends: a connector or punctuation (not an article: "Andorra la Vella" keeps its "la").
_COUNTS = "|".join(n for n in NUMBERS if len(n) > 1 and n not in ("un", "une"))  # "to Encamp two days"
_STOP = (
    r"(?=\s+(?:to|au|jusqu|jusque|vers|via|par|in|en|dans|on|for|pour|with|avec|and|et|by|over|during|starting|then"
    r"|puis|le|using|riding|please|svp|thanks|merci|through|passing|back|and back|et retour|loop|instead"
    r"|rather than|plutot que|au lieu|from there|pas d|not|after|apres|before|avant|is where|that s where"
    r"|finalement|actually|instead|then|alors|maybe|peut etre|so|from|if|si|because|car|since|this|ce|cette"
    r"|next|prochain|along|le long|que|qu|direction|qu on|is our|will be our|either|sans|on the way|en route"
    r"|down|up|ride out|ride|riding|until|till|out|is possible|returning|going|it s|it is|ca fait|c est|we re"
    r"|we are|on part|on dort|and we|end|finish|start|demain|tomorrow|today|aujourd hui|qui|that|which|who"
    r"|taking|stopping|hit|past|for good|ou se|ou on|pour filer|pour|i|we|you|they|je|j|nous|vous|ils|first"
    r"|again|too|also|aussi|as well|base|oui|yes|yeah|yep|retour|return|loops?|boucles?|"
    r"w e|pardon|sorry|desole|the day|le jour|the next|the following|next morning|le lendemain|arrivee"
    r"|arrival"
    r"|departure|youth hostel|hostel|hotel|all the way|tout droit|ou (?=d |de |du )|or (?=from )"
    r"|sur(?= (?:la|une|un|deux|trois|quatre|cinq|six|sept|\d))"  # "Canillo – Soldeu sur la journée"
    r"|camping|campsite|night|nights|thru|thro|where|ou il|ou y|directement|directly|straight|"
    + "|".join(WEEKDAYS)
    + "|"
    + _COUNTS
    + r"|\d)\b|\s+\d|[.,;!?]|$)"
)
# Triggers after which a phrase may well be no place ("staying in hotels"): one that names none is not asked
LOOSE_START = (
    "set off from", "set off in", "setting off from", "set off at", "beginning at", "beginning in",
    "begin at", "begin in", "begins in", "begins at", "kicking off from", "kicking off in", "kick off from",
    "kick off in", "starting point", "start point", "departure from", "departing from", "departing",
    "based in", "staying in", "gather in", "starting town is", "renting bikes in", "start from", "leave",
    "starting point would be", "starting point will be", "starting point is", "start point is",
    "i m in", "i am in", "we re in", "we are in", "i live in", "we live in", "lives in", "live in",
    "apartment is in", "hotel is in", "flat is in", "house is in", "airbnb is in", "place is in",
    "campsite is in", "based at", "base camp will be", "base camp is", "base will be", "staying at",
    "point de depart sera", "point de depart est", "point de depart serait",
    "depart serait", "depart sera", "depart du", "au depart du", "partant du",
    "en partant du", "pars du", "partir de", "partir d", "partir du", "flying into", "fly into", "landing in",
    "land in", "starting", "start", "comingfrom", "partir des", "partirais des", "partirait des",
    "depart des", "part des", "partons des", "d abord", "tout d abord", "first",
    "la depart se fera d", "depart se fera de", "depart se fera d", "point de depart",
    "a partir de", "a partir d", "on part de", "on part d", "partirons de", "partirons d", "partira de",
    "partira d", "depart au", "depart prevu a",
)  # fmt: skip
LOOSE_END = (
    "end in", "end at", "end up in", "ends in", "reach", "get to", "destination is", "destination",
    "end point", "arrival in", "arriving", "rejoindre", "make the end", "the end will be", "the end is",
    "end point is", "end point will be", "arrivee prevue", "direction", "finish down in", "finish up in",
    "finishes in", "finishes at", "ends at", "finish",
    "finishing down in", "end down in", "au", "aux", "fin",
)  # fmt: skip
WEAK_TRIGGERS = {"de", "d", "du", "par", "depart", "retour", *LOOSE_START, *LOOSE_END}
# Where people live, land or come from: a start only if nothing else is ("we fly into Barcelona... Canillo")
_ORIGIN = {
    "i live in", "we live in", "lives in", "live in", "flying into", "fly into", "landing in", "land in",
    "i m in", "we re in", "i am in", "we are in",
    "comingfrom",
}  # fmt: skip
_START = (
    r"from|starting (?:in|at|from)|start(?:s|ing)? in|starts (?:at|from)|leaving|depart(?:ing)? from|depuis"
    r"|au depart d"
    r"|au depart de|depart de|partant de|en partant de|pars d|pars de|de|d|du"
    r"|start(?:ing)? and (?:finish|end)(?:ing)? (?:in|at)|loop (?:from|around|out of|starting (?:in|at|from))"
    r"|boucle (?:au depart )?(?:de|d|a|vers|autour de)|start(?:ing)? at|autour de|autour d"
    r"|(?<!flight )(?<!fly )(?<!flying )(?<!flies )(?<!train )(?<!bus )out of"  # (not "a flight out of")
    r"|mount up (?:at|in)|saddle up (?:at|in)|push(?:ing)? off from|wheel(?:ing)? out of"
    r"|start(?:ing)? (?:around|near|by|close to|next to|outside)"
    r"|roll(?:ing)? out (?:from|of)"
    r"|get(?:ting)? going (?:from|in|at)|head(?:ing)? out (?:from|of)|prendre le velo (?:vers|a)"
    r"|(?:begin|start)(?:s|ning|ing)? (?:our|my|the) (?:\w+ )?(?:trip|ride|tour|adventure|journey|day)"
    r" (?:at|in|from)"
    r"|(?:pick(?:ing)?(?: up)?|collect(?:ing)?|rent(?:ing)?|hir(?:e|ing)|grab(?:bing)?)"
    r" (?:the |our |my |some |rental |hire |a |an |city |electric |road |mountain |gravel )*"
    r"(?:e )?bikes?(?: up)? (?:in|at|from|near|(?:near|by|at) the \w+ (?:in|at))"
    r"|(?:leav(?:e|ing)|park(?:ing)?|drop(?:ping)?) (?:the|our|my) (?:car|van|camper) (?:in|at)"
    r"|park(?:ing)? (?:up )?(?:in|at)|" + "|".join(sorted(LOOSE_START, key=len, reverse=True)) + r"|depart"
)
_END = (
    # (not an infinitive's "to": "near there I want to sketch", "we'd love to camp")
    r"(?<!want )(?<!like )(?<!need )(?<!have )(?<!love )(?<!hope )(?<!plan )(?<!able )(?<!try )"
    # (nor "then back to Kamppi to catch the ferry": what is done there)
    r"(?<!wanted )(?<!used )to(?! (?:catch|get|grab|have|eat|see|visit|meet|take|pick|drop|buy|return"
    r"|relax|rest|sleep|stay|enjoy|spend|swim|watch|try|check|give|make|do)\b)"
    r"|towards|ending (?:in|at)|finish(?:ing)? (?:in|at)|arriv(?:e|es|ing) (?:in|at)"
    r"|jusqu(?: vers| a| au)?|jusque"
    r"|vers|destination (?:du|de|d|des)"
    r"|until|till|call it a day (?:in|at)|wrap(?:s|ping)? (?:it )?up (?:in|at)|finish(?:es|ing)? up (?:in|at)"
    r"|(?:the )?last stop (?:would be|will be|is)|pack it in(?: for good)? (?:in|at)|dismount (?:in|at)"
    r"|end(?:ing)? up (?:in|at)|park (?:the|our) bikes?(?: for good)? (?:in|at)|collapse (?:in|at)"
    r"|finish line (?:is|will be)|(?:s|se) termine (?:vers|a|dans)|s acheve (?:vers|a)|on s arrete (?:vers|a)"
    r"|terminer (?:la balade |le voyage )?(?:vers|a|dans)|poser les velos (?:vers|a)"
    # "on finit à", "je finis à", "nous finirons vers", "finir à", "je termine à"
    r"|(?:(?:on|je|j|nous|tu|vous) )?(?:fini[rt]?|finis|finissons|finissez|finirai\w*|finiron\w*|finir"
    r"|termine|terminons|terminerai\w*|termineron\w*) (?:vers|a|au|aux|dans)"
    r"|(?:end|finish|wrap up|conclude)(?:s|ing)? (?:our|my|the) (?:\w+ )?"
    r"(?:trip|ride|tour|adventure|journey|day) (?:at|in)"
    # "on repart du Pas de la Case en bus": where the ride ends, the way home leaves from
    r"|repart\w* (?:du|de|d|depuis|comingfrom)(?= [^,.;!?]{1,40} en (?:bus|train|navette|taxi|voiture)\b)"
    # "on redescend sur La Massana", "basculer sur Ax": French going down or over to a place
    r"|(?:re)?descend\w* sur|(?:re)?mont\w* sur|bascul\w* sur|file\w* sur"
    # the place of the last night or stage: "terminus Pas de la Case", "dernière étape Pas de la Case",
    # "last night in Encamp before the bus out" (not "we spent last night in Foix")
    r"|terminus(?: a| au| en| :)?|(?:notre |la |the |our )?(?:derniere|last|final) (?:etape|stage|leg)"
    r"(?: a| au| en| in| at| is| will be| sera| est)?"
    r"|(?<!spent )(?<!slept )(?<!spend )(?<!passe )(?:notre |la |the |our )?(?:derniere|last|final)"
    r" (?:night|nuit)(?: is| will be| sera| est)?(?: we re| we are| we ll be| on est| on sera| on dort)?"
    r" (?:in|at|a|au|en|via)"  # ("nuit à Arinsal" is read "nuit via Arinsal")
    # where people are picked up or collected: "picked up by the van in el Serrat", "my brother can only
    # collect us in La Massana", "on se fait récupérer à Soldeu", "ma sœur vient nous chercher à Foix"
    r"|picked up(?: by (?:the |a |my |our |his |her )?\w+(?: \w+)?)? (?:in|at)"
    r"|collect(?:s|ing|ed)? (?:us|me|them) (?:in|at|from)|fetch(?:es|ing)? (?:us|me) (?:in|at|from)"
    r"|(?:se fait|se fera|se faire|nous fait|on se fait) (?:recuperer|chercher)(?: en \w+)? (?:a|au)"
    r"|(?:vient|viendra|viennent|viendront|va|vont) (?:nous |me )?(?:chercher|recuperer)(?: en \w+)? (?:a|au)"
    # the bus or train home from the end: "we catch the bus home from La Seu", "take the train back from
    # Ax", "rentrer en train depuis Foix", "le bus du retour part d'Encamp"
    r"|(?:catch|take|get|grab|hop on)(?:ing)?(?: the| a)? (?:bus|train|coach|ferry|taxi)(?: \w+)?"
    r" (?:home|back) (?:from|at)"
    r"|(?:rentr\w*|retour) en (?:bus|train|navette|taxi) (?:depuis|de|d|du|a|au)"
    r"|(?:bus|train|navette) (?:du |de )?retour (?:part |partira )?(?:de|d|du|depuis|a|au)"
    r"|arrivee vers|arrivee|retour|" + "|".join(sorted(LOOSE_END, key=len, reverse=True))
)
_VIA = (
    r"via|through|by way of|pass(?:ing)? (?:by|through)|par|en passant par|passer par"
    r"|stop(?:ping)? (?:in|at|off in)|going past|go past|ride past|riding past|past|hit|first stop|stop by"
    r"|stops (?:in|at)|stopping by|passages?|waypoints?|taking in|passing|thru|goin thru|un detour par"
    r"|turn(?:ing)? (?:around|back) (?:at|in)|faire demi tour a|round(?! trip)|travers(?:e|er|ons|ant)"
    r"|(?:want to|like to|d like to|love to|wanna|aimerais|voudrais|veux|veut|voulons|aimerions|voudrions"
    r"|souhait\w*|aller|go and|go)"
    r" (?:see|visit|voir|visiter)"
    r"|cross(?:ing)?|drop(?:ping)? (?:into|in at|by)|pop(?:ping)? (?:into|over to|by)"
    r"|swing(?:ing)? (?:by|past|through)|detour (?:via|through|by)|a detour to"
    # where a night is spent on the way: "nuit à Canillo", "faire étape à Meritxell", "sleep in Soldeu"
    # (and in French: _STOPPING_AT)
    r"|nights? (?:in|at)(?! between)|sleep(?:ing)? (?:in|at|over in)|overnight(?:ing)?(?: in| at)?"
    # a break on the way: "stopping for lunch in La Massana", "lunch in Encamp", "a coffee stop at Hakaniemi"
    r"|stop(?:ping)? for (?:a |an |the )?(?:lunch|coffee|break|night|swim|ice cream|drink|picnic|food|bite)"
    r" (?:in|at)|(?:have |having |grab |grabbing )?"
    r"(?:lunch|a coffee|coffee|a picnic|picnic|a break|breakfast) (?:stop )?(?:in|at)|pass(?:es)?"
    r"|stay(?:ing)? (?:the night|overnight) (?:in|at)"
)
_A_COUNT = NUM.replace("(", "(?:", 1)  # (no group: a pattern's groups are its trigger and its phrase)
PLACE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("start", re.compile(rf"\b({_START})\s+(.{{1,60}}?)" + _STOP)),
    (
        "start",
        re.compile(
            r"^(?:(?:this time|cette fois|so|alors|donc|well|ok|okay|bon|either way|anyway|bref|enfin)\s+)?"
            r"()(.{1,60}?)(?<! and)(?<! et)(?<! then)(?<! puis)(?<! back)"  # ("Juberri and back to A")
            r"(?=\s+(?:back to|(?:all the way |straight |right |round |down |up )?to|vers"
            r"|jusqu|via|through)\s)"
        ),
    ),  # "Ordino to Soldeu": weak
    # "5 days Sant Julià to Soldeu", "2 jours Encamp vers Soldeu", "thinking Canillo to Soldeu": weak
    (
        "start",
        re.compile(
            rf"(?:\b{_A_COUNT} ?(?:days?|jours?|j|d|nights?|nuits?)|\bweek ?end|\bthinking(?! of| about))"
            r"\s+"
            r"()(.{1,60}?)"
            r"(?=\s+(?:back to|to|vers|jusqu|via|through)\s)"
        ),
    ),
    # "we want to do Helsinki to Kallio", "could you plan Anyós to Llumeneres": weak
    (
        "start",
        re.compile(
            r"\b(?:do|doing|ride|cycle|plan|faire|rouler|pedal|make it|make that|go|going|bike|travel)\s+"
            r"()(.{1,60}?)"
            r"(?=\s+(?:back to|to|vers|jusqu|via|through)\s)"
        ),
    ),
    ("start", re.compile(r"^boucle\s+()(.{1,60}?)" + _STOP)),  # "Boucle Ordino, 3 jours"
    # "..., Aixirivall, Juberri and back to Andorra la Vella": a name alone, where the route turns back
    ("bare", re.compile(r"^()(.{1,60}?)(?=\s+(?:and|et|then|puis) (?:back|retour)\b)")),
    ("end", re.compile(r"^pour\s+()(.{1,60}?)" + _STOP)),  # "(partir d'Aixovall) pour Ordino": weak
    ("start", re.compile(r"^(?:an? )?()(.{1,60}?)(?=\s+(?:loop|round trip)\b)")),  # "Andorra la Vella loop"
    ("end", re.compile(rf"\b({_END})\s+(.{{1,60}}?)" + _STOP)),
    ("via", re.compile(rf"\b({_VIA})\s+(.{{1,60}}?)" + _STOP)),
]
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
    "andorra",
    "andorre",
    "l andorre",
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
# count of days is not one either ("une boucle de deux jours", _COUNT_OF_DAYS).
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
_COUNT_OF_DAYS = re.compile(rf"^{NUM}[ -]?(days?|jours?|journees?|nights?|nuits?|weeks?|semaines?)\b")
_TRAILING_CONNECTOR = re.compile(
    r"\s+(?:de|d|du|des|sur|en|at|of|about|pour|for|plutot|rather|instead|alors|donc)$"
)
# Route separators typed between names: "Ordino - Canillo", "Arinsal → Ordino → Canillo".
_SEPARATOR = re.compile(r"\s*(?:\s-|\s–|\s—|->|→|↔|<->|>|➡️|➡|👉|=>|⇒)\s*(?=\S)")


def _every_match(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """Every match, overlapping ones too: a trigger inside an earlier match still starts its own."""
    found, at = [], 0
    while (match := pattern.search(text, at)) is not None:
        found.append(match)
        at = match.start() + 1
    return found


_NOT_A_ROUTE_PART = (
    NOT_A_NAME_START
    | VERBS
    | {
        "quick",
        "short",
        "easy",
        "update",
        "idea",
        "question",
        "hey",
        "plan",
        "petite",
        "petit",
        "vite",
    }
)  # fmt: skip  (a clause's opening words before a dash: "Quick one — Eira to Pasila")
# Up to the last word before a route's first name that cannot be in a name: a count, a slot word, a colon
_ROUTE_TAIL = re.compile(
    r"\s+(?:en|in|for|pour|sur|dans|on|over|with|avec|during|a|à|vers|by|par|via|through|thru|passing"
    r"|en passant)"
    r"\s+.*$"
    r"|\s*\d.*$",
    re.IGNORECASE,
)
_ROUTE_LEAD = re.compile(
    r"^.*(?:\d|:|\b(?:days?|jours?|nights?|nuits?|weeks?|semaines?|weekend|trip|tour|ride|loop|boucle"
    r"|aller.retour|aller simple|one way|the|bike|bikes|velo|mtb|vtt|gravel|road|touring|hybrid|do|doing"
    r"|faire|fait|fais|faisons|cycle|cycling|going|riding|biking|pedal|pedaler|route|itinerary|itineraire"
    r"|parcours"
    r"|rouler|plan|go|c est|c'est|it s|it's"
    r"|it is|ce sera|will be)\b)\s*",
    re.IGNORECASE,
)


def _routes_in_words(clause: str) -> str:
    """``A - B`` as ``A to B``; ``A → B → C`` as ``A via B to C`` — when every part could be a name (a few
    words, no count, no bike or other slot word): "road bike - maybe gravel" stays as it is."""
    parts = _SEPARATOR.split(clause)
    if len(parts) < 2:
        return clause
    # "Kamppi → Punavuori → Munkkisaari and back to Etu-Töölö": the last part is two
    if back := re.match(
        r"^(.+?)\s+(?:and|then|et|puis|n)\s+(?:(?:then|come|ride|head)\s+)?(?:back|retour)\s+(?:down\s+|up\s+)?"
        r"(?:to|a|à|vers|au)\s+(.+)$",
        parts[-1],
        re.I,
    ):
        parts[-1:] = [back.group(1), back.group(2)]
    # "Ordino ➡ El Serrat ➡ back to Ordino": the last part names the end
    parts[-1] = re.sub(
        r"^\s*(?:and\s+)?(?:back\s+to|(?:et\s+)?retour(?:\s+(?:a|à|vers|au))?)\s+", "", parts[-1], flags=re.I
    )
    # "4 day touring trip Encamp -> El Serrat", "quick one: 2 days Canillo -> Ordino": the words that
    # lead to the first name are not part of it; nor, in "A - Toulouse en 6 jours", those after the last
    lead = _ROUTE_LEAD.match(parts[0])
    before = parts[0][: lead.end()] if lead and lead.end() < len(parts[0]) else ""
    tail = _ROUTE_TAIL.search(parts[-1])
    after = parts[-1][tail.start() :] if tail and tail.start() > 0 else ""
    parts = [
        parts[0].removeprefix(before),
        *parts[1:-1],
        parts[-1].removesuffix(after) if after else parts[-1],
    ]
    if len(parts) == 1:
        return clause
    for part in parts:
        norm = normalize(part)
        words = norm.split()
        if not 1 <= len(words) <= 5 or re.search(r"\d", norm) or words[0] in _NOT_A_ROUTE_PART:
            return clause
        if (
            any(p.search(norm) for _, p in PROFILE_WORDS)
            or ROUND_TRIP.search(norm)
            or _COUNT_OF_DAYS.search(norm)
        ):
            return clause
    route = parts[0] + "".join(f" via {p}" for p in parts[1:-1]) + f" to {parts[-1]}"
    return f"{before} from {route}{after}" if before else route + after


@dataclass(frozen=True, slots=True)
class PlacePhrase:
    text: str
    strong: bool  # after an unmistakable word ("from", "to", "via"); French "de"/"par" are weak
    cased: bool = True  # written as a name, or in a turn that capitalizes nothing (see _as_written)
    loose: bool = False  # where people live, land or come from ("fly into", "live in", "drive from")


_STARTING_AT = re.compile(
    r"\b(commen\w*|loge\w*|bas[ée]e?s?|serons|sommes|partons|partirons|habit\w*|d[ée]m[a]?r+\w*|enfourch\w*"
    r"|d[ée]coll\w*|attaqu\w*|d[ée]bute\w*|selle|donn[ée]e?|lou\w*|laiss\w*|gar\w*"
    # ("on récupère les vélos à Encamp", not "on se fait récupérer à Soldeu": picked up there, the end)
    r"|(?<!fait )(?<!faire )(?<!fera )(?<!nous )(?<!vient )r[ée]cup[ée]r\w*"
    # "rendez-vous à Sant Julià": where the ride sets off
    r"|rendez-vous|rdv"
    r"|d[ée]part(?:\s+pr[ée]vu)?)"  # "Départ à Encamp" (not "départ à 8h")
    r"(\s+(?:(?:notre|nos|les|la|le|mes|leurs|des|un|une)\s+\w+\s+)?"
    r"(?:dans (?:un|une|le|la|notre) \w+\s+)?"  # "on loue des VTT dans une boutique à La Massana"
    r"(?:le \d{1,2}(?:er)? \w+\s+)?)"
    r"(?:[àa]|aux)(?![\w])(?!\s*\d)(?!\s+lieu\b)",  # (not "le départ a lieu")
    re.IGNORECASE,
)
# "C'est à Aixovall qu'on commence": the start
_C_EST_A = re.compile(
    r"\bc['’]est (?:à|a|de|d['’]|depuis) ?([^,.;!?\n]{1,60}?) qu['’]?(?:on|nous)"
    r" (?:commence|part|démarre|demarre)\w*",
    re.IGNORECASE,
)
# What riders write for the longest names
ABBREVIATIONS = {
    "alv": "andorra la vella",
    "sjl": "sant julia de loria",
    "sjdl": "sant julia de loria",
    "andorra s capital": "andorra la vella",
    "the capital of andorra": "andorra la vella",
    "the andorran capital": "andorra la vella",
    "la capitale andorrane": "andorra la vella",
    "la capitale de l andorre": "andorra la vella",
    "frm": "from",
    "st julia": "sant julia",
    "saint julia": "sant julia",
    "dpuis": "depuis",
    "jusqua": "jusqu a",
    "jusquau": "jusqu au",
    "im": "i m",
    "strt": "start",
    "finsh": "finish",
    "fnish": "finish",
    "arivee": "arrivee",
    "arive": "arrive",
    "st julien": "saint julien",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "pis": "puis",
    "pr": "pour",
}
_PAS = re.compile(
    r"\b(from|to|vers|depuis|back to|at|in|via|through|par|and|et|puis|then)\s+pas\b"
    r"(?!\s+(?:de|d|plus|trop|mal|encore|loin|beaucoup|cher|sur|question|forcement|vraiment|tres|si|du|des|la|le))"
)
_AND_TYPED_N = re.compile(r"\bn (?=(?:end|come|back|then|go|ride|stay|return|finish)\b)")
_ABBREVIATIONS = re.compile(r"\b(?:" + "|".join(sorted(ABBREVIATIONS, key=len, reverse=True)) + r")\b")
# "on arrive en bus à Soldeu", "we land by train in Canillo": where the ride starts
# the vehicles people come by ("en bus", "by train"): _ARRIVING_BY, _ARRIVING_IN_BY, _COMING_FROM
_VEHICLES = "bus|train|car|coach|voiture|avion|plane|navette"
_ARRIVING_BY = re.compile(
    r"\b(?:arriv\w*|land\w*|get off|drop(?:ped)? off|descend\w* du bus)\s+(?:en|by|in the|with the|par le)\s+"
    rf"(?:{_VEHICLES}|taxi|shuttle)\s+(?:à|a|in|at|to)\s+"
    r"([^,.;!?\n]{1,40}?)(?=\s+(?:le|on|et|and|then|puis|the|,)\b|[,.;!?\n]|$)",
    re.IGNORECASE,
)
_ARRIVING_IN_BY = re.compile(
    r"\b(?:arriv\w*|land\w*)\s+(?:in|at|à|a)\s+([^,.;!?\n]{1,40}?)\s+(?:by|en|in the|par le|with the)\s+"
    rf"(?:{_VEHICLES}|taxi|shuttle)\b",
    re.IGNORECASE,
)
# "we're staying in Escaldes, so that's where we'd start and finish": from there (a loop, said elsewhere)
_START_THERE = re.compile(
    r"\b(?:that['’]?s|that is|c['’]est (?:de )?là) (?:where|que|qu['’]) ?(?:we|i|on|nous)"
    r"(?:['’]d|['’]ll| will| would)?"
    r" (?:start|begin|set off|part|commence)\w*( and (?:finish|end)\w*)?"
    # "... à Andorre-la-Vieille, d'où nous partirons", "... to Sant Julià, and start riding there", "le bus
    # jusqu'à Andorre-la-Vieille et je commence à rouler le lendemain"
    r"|\bd['’]o[uù] (?:nous |on |je )(?:partir\w*|part\w*|commenc\w*|d[ée]marr\w*|roul\w*)( pour)?"
    r"|\b(?:and |et )?(?:we |i |on |je |nous )?(?:start|begin|commenc\w*) (?:riding|pedalling|cycling"
    r"|(?:à|a|depuis) (?:rouler|pédaler|pedaler))(?! from| de| d['’]| du| at| in| à)()",
    re.IGNORECASE,
)


def _starting_there(said: re.Match[str]) -> str:
    """ "that's where we start and finish" as "starting from there and finish", "d'où nous partirons pour"
    as "starting from there to"; "and start riding" only after the way to a place ("the bus to Sant Julià
    and start riding"; not "rent a car and start riding on Saturday")."""
    if said.group(3) and not (
        _WAY_TO.search(said.string, max(0, said.start() - 60), said.start())
        and not _WHEN_NEXT.match(said.string, said.end())
    ):
        return said.group(0)
    return "starting from there" + (said.group(1) or "") + (" to" if said.group(2) else "")


_WAY_TO = re.compile(r"(?i)\b(?:to|into|jusqu['’]?\s?(?:à|a|au|en)|jusqu['’]au|vers)\s+\S+[^.;!?]*$")
_WHEN_NEXT = re.compile(r"(?i)\s+(?:on|this|next|tomorrow|demain|\d)")


# "départ et arrivée à Encamp", "start and finish in Ordino": a loop from there
_BOTH_ENDS_AT = re.compile(
    r"\b(?:d[ée]part et arriv[ée]e|start(?:s|ing)? ?(?:and|&|\+|n) ?(?:finish|end)(?:es|s|ing)?)"
    r"(?: (?:à|a|au|aux|in|at|de|from) | (?=there\b|là\b|here\b)"
    # "start and finish la massana" (not "start and finish the same day", "...same spot", "...ensemble")
    r"| (?!(?:the|same|a|an|on|both|with|where|together|point|is|are|dans|ensemble|au|en|when"
    r"|early|late|tot|tard|by|before|after)\b)(?=[^\W\d]))"
    r"|\b(?:d[ée]part ?/ ?arriv[ée]e|start ?/ ?(?:finish|end)|d[ée]part (?:et|=) arriv[ée]e"
    r"|d[ée]part et retour)"
    r"\s*:?\s*"
    r"(?:(?:à|a|in|at|de|from) |d['’])?",
    re.IGNORECASE,
)
# "j'habite à Perpignan", "en vacances à La Massana": where people live or stay, said like a start but
# loosely (a strong start elsewhere wins)
_LIVING_AT = re.compile(
    # ("je suis à Aubinyà": where people are; not "je suis à vélo", no place)
    r"\b(habit\w*|vi[st]|vivons|r[ée]sid\w*|atterri\w*|atterr[io]\w*|vacances|s[ée]jour|suis|serai)"
    r"\s+(?:[àa]|au)(?![\w])",
    re.IGNORECASE,
)
# Setting off from home: where people live is then the start, said as plainly as after "from"
_FROM_HOME = re.compile(
    r"\b(?:from (?:my|our|his|her) (?:front door|door|doorstep|place|house|flat|home|apartment)|from home"
    r"|(?:de|depuis) chez (?:moi|nous|lui|elle|eux)|de (?:ma|notre) maison|start\w* (?:at|from) home)\b",
    re.IGNORECASE,
)


def _home_left_out(match: re.Match[str]) -> str:
    """ "from our flat in Siltasaari": from Siltasaari; "starting at home in Espoo": starting in Espoo."""
    return "from" if match.group(1).lower() == "from" else "in"


_LIVING_IN = re.compile(r"\b(?:i|we|he|she|they) (?:live|lives) (?:out )?(?:in|at)\b", re.IGNORECASE)
_AT_HOME_IN = re.compile(
    r"\b(from|at) (?:home|my place|our place|my house|our house|my flat|our flat) in\b", re.IGNORECASE
)
# "we have a flat in Ullanlinna", "we've rented an apartment in Kallio": where people stay, a loose start
_STAYING_AT = re.compile(
    r"\b(?:have|has|had|ve got|rent\w*|book\w*)\s+(?:a|an|our|my)\s+(?:little\s+|small\s+)?"
    r"(?:flat|apartment|airbnb|place|house|cabin|chalet)\s+(?:in|at)\b",
    re.IGNORECASE,
)
_LODGING_AT = re.compile(
    r"\b(h[ôo]tel|appartement|appart|chalet|g[îi]te|camping|auberge|airbnb|coloc|studio|logement|location)"
    r"\s+(?:à|a)\s+(?=[^\W\d])",
    re.IGNORECASE,
)
_ARRIVED = re.compile(
    r"\b(?:(?:sommes|est|suis|sont|êtes|etes) arriv[ée]e?s? (?:à|a|au|aux|en|dans)"
    r"|(?:we ve|we have|i ve|i have|we|i|just) (?:just )?arrived (?:in|at)"
    # where the way there leaves people, or they meet: "the bus drops us in Andorra la Vella", "we'll meet
    # in Andorra la Vella on Friday evening", "on se retrouve à Encamp" (what "from there" says next)
    r"|drops? (?:us|me|them) (?:off )?(?:in|at)|dropped (?:us |me )?off (?:in|at)"
    r"|(?:we['’ ]?ll|we will|we|to) meet (?:up )?(?:in|at)|(?:on se|nous nous) retrouve\w* (?:à|a|au|aux|en))"
    r"(?![\w'’])",
    re.IGNORECASE,
)
# "driving up to Pas de la Casa to start", "on monte en voiture jusqu'à Soldeu pour commencer": the start
_TO_START = re.compile(
    r"\b(?:to|jusqu['’ ]?(?:à|a|au))\s+([^,.;!?\n]{1,40}?)\s+(?:to|pour)\s+"
    r"(?:start|begin|set off|commencer|partir|démarrer|demarrer)\b",
    re.IGNORECASE,
)
# "staying with a friend in Ordino", "je loge chez un pote à Kallio": staying there
_STAYING_WITH = re.compile(
    r"\b(stay\w*) with (?:a |an |my |our |his |her |some )?(?:[\w'’-]+ ){0,2}?(in|at)\b"
    r"|\b(log\w*|dor\w*|sommes|suis|est|serons|serai) chez (?:un |une |des |mon |ma |mes |notre |nos )?"
    r"(?:[\w'’-]+ ){0,2}?(à|a|au)(?![\w'’])",
    re.IGNORECASE,
)
# Where a night or a stop is made on the way: "nuit à Canillo", "faire étape à Meritxell", "on s'arrêterait à
# Encamp", "on s'arrête dormir à Encamp" (not "on s'arrête à Soldeu": where the trip stops, an end)
_STOPPING_AT = re.compile(
    r"\b(etapes?|étapes?|nuits?(?: de plus)?|dormir|on dort|d[ée]jeuner|manger|pique-niquer|pique-nique"
    r"|pause(?: caf[ée]| d[ée]jeuner| pique-nique| repas)?"
    r"|un caf[ée]|se baigner|boire un verre|go[ûu]ter"
    r"|s['’ ]arr[êe]t\w*\s+(?:dormir|manger|d[ée]jeuner|pour la nuit)|s['’ ]arr[êe]ter\w*)\s+(?:à|a)(?=\s)",
    re.IGNORECASE,
)
# "Boucle depuis Encamp : Meritxell, Prats, Ransol": the stops of the trip that starts there
_START_THEN_LIST = re.compile(
    r"(\b(?:from|depuis|au d[ée]part d['’]|au d[ée]part de|starting (?:in|at|from)|d[ée]part (?:de|d['’]))"
    r"\s*[^:,.;!?\n]{1,40}?)\s*:\s*(?=[^\W\d])",
    re.IGNORECASE,
)
# "Trois jours en vélo de route : Arans, Ordino, La Massana, Escaldes": the places of a route, in order
_LISTED_ROUTE = re.compile(r":\s*([^:;.!?\n]+?)\s*(?=[;.!?\n]|$)")
# "entre Kalasatama et Meilahti", "between Kallio and Eira": from one to the other
_BETWEEN = re.compile(
    r"\b(?:entre|between)\s+(?!\d|les deux|deux|two|both)([^\W\d][^,.;!?\n]{0,40}?)\s+(?:et|and)\s+(?!\d)"
    r"([^\W\d][^,.;!?\n]{0,40}?)(?=\s*[,.;!?\n]|\s+(?:en|pour|in|on|with|avec|via|par|for|over|sur)\b|$)",
    re.IGNORECASE,
)
_UNDECIDED_BETWEEN = re.compile(
    r"(?:torn|hesit\w*|undecided|choose|choisir|decid\w*|h[ée]sit\w*)\W+(?:\w+\W+)?$"
)
_BLANKS = re.compile(r"[^\S\n]+")
# "Big trip: Lleida to Canillo", "Le plan : Ordino vers Soldeu": a heading, then the route as its own clause
# (not "Départ : Ordino" nor "Via: Encamp to Canillo", whose heading says what the names are)
_HEADING = re.compile(
    r"(?im)^(?![^:\n]*\b(?:d[ée]part|start|from|depuis|de|arriv\w*|end|fin\w*|via|[ée]tapes?|stops?|par"
    r"|through))([^:\n]{1,30}):\s*(?=[^:\n]{1,60}?\s(?:to|->|→|vers|jusqu\w*|à)\s)"
)
MAX_TURN_CHARS = 4000  # what the API accepts of a turn; a generation brief's line is read this far
_ARROWS = re.compile(r"\s*(?:➡️|➡|👉|⇒|⟶|→)\ufe0f?\s*")
# "take the train to L'Hospitalet", "on prend le bus de Toulouse jusqu'à Andorre-la-Vieille": where the way
# there ends, said like an end but where the ride may begin, loosely (a start said elsewhere wins)
_TAKING_TO = re.compile(
    r"\b(?:take|taking|took|get|getting|got|catch\w*|hop\w* on|prend\w*|pris)\s+(?:the|a|an|le|la|l['’]|un"
    r"|une|our|my)\s*(?:\w+\s+)?(?:train|bus|coach|autocar|car|plane|flight|ferry|taxi|navette|shuttle"
    r"|minibus|tram|metro)\s+(?:[^\s.,;:!?]+\s+){0,3}?(?:to|into|jusqu['’]?\s?(?:à|a|au|en)|jusqu['’]au|vers)\s+"
    r"(?!back\b)",
    re.IGNORECASE,
)
# Where people come from is not where they start: "on est de Québec", "I'm from Italy"
_TRAVELLING_FROM = re.compile(
    r"\b(driv\w*|drove|fly\w*|flew|train\w*|travel\w*|coming)\s+(?:down |up |over |in |out )?from\b",
    re.IGNORECASE,
)
# Where people come from by train, bus or boat: "on arrive de Barcelone en voiture", "from Toulouse by
# train", "with the ship from Travemünde" (loosely a start, like "flying from")
_TRANSPORT = rf"(?:{_VEHICLES}|bateau|ferry|ship|boat|minibus)"
_NOT_THE_STATION = r"(?!\s+(?:la gare|l['’]a[ée]roport|the (?:\w+ )?(?:station|airport|terminal)))"
_COMING_FROM = re.compile(
    # ("vient de Lyon" is _FROM_ORIGIN's; "the train from Toulouse to L'Hospitalet" is all the way there)
    rf"\b(?:arriv\w*|descend\w*)\s+(?:à \d+ |a \d+ )?(?:de|d['’]|du|depuis)(?=\s*[^\W\d])"
    rf"|\b{_TRANSPORT}\s+(?:from\b|(?:depuis|de|d['’])(?=\s*(?-i:[A-ZÀ-Þ])))"
    # (the station or the airport the train goes to is no place of the trip: "en train de Turku à la gare")
    rf"(?!(?:\s*[\w'’-]+){{1,4}}\s+(?:to|jusqu\w*|à|a|vers)\b{_NOT_THE_STATION})"
    rf"|\b(?:de|d['’]|du|depuis|from)(?=\s*[^\W\d][\w'’-]*(?:[ -][^\W\d][\w'’-]*){{0,3}}\s+"
    rf"(?:en|by|on the|in the|with the|par le) {_TRANSPORT}\b(?!\s+(?:to|jusqu\w*|à|a|vers)\b))",
    re.IGNORECASE,
)
_NAME_BEFORE = re.compile(r"(?-i:[A-ZÀ-Þ])[\w'’-]*\s+$")


def _coming_from(said: re.Match[str]) -> str:
    """Where people come from, loosely a start (not the "de" inside "Pas de la Casa by bus")."""
    if _NAME_BEFORE.search(said.string[max(0, said.start() - 30) : said.start()]):
        return said.group(0)
    return " comingfrom "


_NATIONALITY = (  # "je suis espagnol de Valencia", "nous sommes néerlandais, de Groningen"
    r"(?:\s+(?:[a-zéèëï]+(?:ais|aises?|ois|oises?|iens?|iennes?|ols?|oles?|ands?|andes?|ains?|aines?|ique|iques"
    r"|ish|ese|ian|ians|ch)|belges?|suisses?|basques?|catalans?|bretons?|retrait[ée]e?s?)\s*,?)?"
)
_FROM_ORIGIN = re.compile(
    rf"\b(?:(?:on est|je suis|nous sommes|we['’]?re|we are|i['’]?m|i am){_NATIONALITY}|vien(?:t|s|nent|nons)"
    # "we come with camper from Eindhoven" (not "come back from Pal")
    r"|(?:we|i|they|she|he) (?:all )?come?s?"
    r"(?:\s+(?!back\b)(?:with|in|by|over|down|up|all|the|our|my|a|\w+er)){0,3}"
    r")\s+(?:de|d['’]|du|from)(?!\s*[a-zéè]+(?:er|ir|re)\b)\s*[^,.;!?\n]{1,40}"
    # a greeting's "from": "Hello from Rotterdam!", "Bonjour de Gand" (not "hey from certers to llumeneres")
    r"|(?:^|(?<=[.!?\n]\s))(?:hello|hi|hey|greetings|cheers|bonjour|salut|coucou|hola|moi|hallo)(?: again)?"
    r"\s+(?:de|d['’]|du|from)(?![^,.;!?\n]{0,40}?\s(?:to|jusqu\w*|vers|à|a)\s)\s*[^,.;!?\n]{1,40}",
    re.IGNORECASE,
)
# Who people are and where they are from: "I'm a 34yo MTB rider from Lyon", "a couple from Manchester" (the
# place alone: not "two riders from Encamp to Canillo", nor what comes after "and")
_WHO_FROM = re.compile(
    r"(?:\b(?:i['’]?m|i am|we['’]?re|we are)\s+(?:a|an|two|three|four|five|six)\s+(?:[\w'’-]+\s+){0,5}?from"
    r"|\b(?:friends|mates|buddies|colleagues|couple|family|group|riders?|cyclists?|guys|girls|lads) from)"
    r"\s*(?:(?!\s(?:to|jusqu\w*|vers|à|a)\s)[^,.;!?\n]){1,40}?"
    r"(?=\s+(?:and|et|but|mais|so|donc|who|qui|where|ou|with|avec)\b|[,.;!?\n]|$)",
    re.IGNORECASE,
)
# "plutôt d'Encamp que de Canillo", "rather from Encamp than from Canillo": what follows is not meant
_RATHER_THAN = re.compile(
    r"(\b(?:plut[oô]t|rather)\s+[^,.;!?\n]{1,60}?)\s+(?:que|qu['’]|than)\s*(?:de |d['’]|du |from )?"
    r"[^,.;!?\n]+",
    re.IGNORECASE,
)
# A label and its colon: "Starting point: Aixovall", "start: la massana", "Arrivée : Escaldes"
_LABELS = [
    (
        re.compile(r"^(?:starting point|start point|starting town|start|depart|point de depart|from)\s*:\s*"),
        "from ",
    ),
    (re.compile(r"^(?:end point|end|finish|arrivee|destination|to|objectif|goal|but|fin)\s*:\s*"), "to "),
    (
        re.compile(
            r"^(?:via|through|par|etapes?|stops?|passages?|waypoints?)(?: in order| dans l ordre)?\s*:\s*"
        ),
        "via ",
    ),
    # the same without their colon, at a clause's start: "Start Encamp, end Soldeu", "depart andorre"
    (
        re.compile(
            r"^(?:start|depart)\s+(?=[a-z])(?!(?:on|at|in|from|le|la|du|de|d|the|a|en|vers|tomorrow|and|n|et)\b)"
        ),
        "from ",
    ),
    (
        re.compile(
            r"^(?:end|finish|arrivee|arrival)\s+(?=[a-z])(?!(?:on|at|in|of|le|la|du|de|d|the|a|en|vers)\b)"
        ),
        "to ",
    ),
]
# The place first, what it is after: "Encamp is where we begin", "Sispony is our starting point"
_NAMED_FIRST = [
    (
        "start",
        re.compile(
            r"^(?:so |well |ok |okay )?(.{1,60}?) (?:is where (?:we|i)"
            r"(?: ll| will| wanna| want to| d like to)?"
            r" (?:begin|start|set off|saddle up|push off|mount up|kick off|get going|roll out|fly in|land"
            r"|arrive"
            r"|leave)|is (?:our|my|the) (?:starting point|start|starting town)"
            r"|will be (?:our|my|the) (?:starting point|start))\b"
        ),
    ),
    (
        "end",
        re.compile(
            # (after the clause's last "so", "then": "... we fly home, so Sant Julià is the last stop")
            r"^(?:.*\b(?:so|well|ok|okay|then|and|and then|puis|et|donc|alors) )?(.{1,60}?)"
            r" (?:is where (?:we|i)"
            r"(?: ll| will| wanna| want to| d like to)?"
            r" (?:finish|end(?: up)?|stop)|is (?:the|our|my) last (?:stop|night)"
            r"|is (?:our|my|the) (?:destination|finish|end point|goal|target|end)"
            r"|(?:has to|must|will|should) be (?:the|our) (?:end point|end|finish|destination)"
            r"|sera notre point de chute(?: final)?|c est l arrivee"
            r"|will be (?:our|my|the) (?:destination|finish))\b"
        ),
    ),
]
_SWAP = re.compile(
    r"\b(?:swap|replace|change|remplace[rz]?) (.{1,40}?) (?:for|with|by|to|par|contre) (.{1,40}?)" + _STOP
)
# "pas Kalasatama, je voulais dire Kallio", "not Encamp, I meant Canillo": one place for another, whatever
# it was (read on the raw turn: the comma would part them)
# One to four words of a name, none of them a word that says what the phrase is ("start in Ordino")
# ("Pas de la Casa", "Sant Julià de Lòria": "de" and "a" inside a name, after a capital; not "départ de
# Canillo"); no interjection is a name ("sorry, not Encamp")
_A_NAME = (
    r"(?!(?:[\w'’-]+\s+){0,3}(?:from|to|in|at|depuis|vers|via|par|start\w*|end|finish|sure|yet|too|so"
    r"|far|much|really|quite|that|this|very|exactly|now|only|just|bad|needed|sur|encore|trop|loin|mal)\b)"
    r"(?!(?:de|a|ah|oh|oops|oups|sorry|pardon|d[ée]sol[ée]e?|no|non|ok|okay|euh|hmm|wait|actually)\b)"
    r"(?!(?:[\w'’-]+\s+){0,2}(?-i:[^\W\dA-ZÀ-Þ][\w'’-]*)\s+(?:de|a)\b)"
    r"[^\W\d][\w'’-]*(?:\s+[^\W\d][\w'’-]*){0,3}"
)
_MEANT = re.compile(
    r"\b(?:not|pas|non|no)\s+([^\W\d][^,.;!?\n]{0,40}?)\s*[,;:]?\s*"
    r"(?:i mean|i meant|je voulais dire|je veux dire|i wanted to say|plut[oô]t)\s+"
    r"([^\W\d][^,.;!?\n]{0,40}?)(?=\s*[,.;!?\n]|$)",
    re.IGNORECASE,
)
# "Ah no, not Prats. Meritxell.", "oups pas Alppiharju, Alppila", "sorry, Etu-Töölö, not Taka": the place
# meant for another, said as a name beside the one it replaces
_NOT_THIS_BUT = re.compile(
    r"(?:^|(?<=[,.;!?:\n]))\s*(?:(?:ah|oh|oops|oups|sorry|pardon|d[ée]sol[ée]e?)\s*[,.]?\s*)?"
    r"(?:(?:no|non)\s*[,.]?\s*)?"
    r"(?:not|pas)\s+(?P<was>" + _A_NAME + r")\s*[,.;:]\s*(?P<now>" + _A_NAME + r")(?=\s*[,.;!?\n]|$)",
    re.IGNORECASE,
)
_BUT_NOT_THIS = re.compile(
    r"(?:^|(?<=[,.;!?:\n]))\s*(?P<now>" + _A_NAME + r")\s*,\s*(?:not|pas)\s+(?P<was>" + _A_NAME + r")"
    r"(?=\s*[,.;!?\n]|$)",
    re.IGNORECASE,
)
_WAS_NOW = re.compile(r"\bin place of (.{1,40}?) put (.{1,40}?)$")
# "actually make El Tarter the finish instead"; "Ullanlinna start"
_MADE = [
    ("start", re.compile(r"^((?:\S+ ){0,3}\S+) (?:start|starting point|departure|depart)$")),
    ("end", re.compile(r"^((?:\S+ ){0,3}\S+) (?:finish|end point|arrival|arrivee|end)$")),
    ("via", re.compile(r"^((?:\S+ ){0,3}\S+) (?:in between|somewhere in between|entre les deux)$")),
    # "the village where we'd like to end is El Tarter", "the one we're setting off from is Llorts"
    (
        "end",
        re.compile(
            r"\bwhere (?:we|i)(?: d| ll| would| will)?(?: like to| want to)? (?:end|finish)\w* is (.{1,40}?)$"
        ),
    ),
    (
        "start",
        re.compile(
            r"\b(?:we re|we are|we ll be|i m) (?:setting off|starting|leaving|departing) from is (.{1,40}?)$"
        ),
    ),
    ("end", re.compile(r"^(?:l )?arrivee c est (.{1,40}?)$")),
    ("end", re.compile(r"\bmake (.{1,40}?) the (?:finish|end|destination|end point|goal)\b")),
    ("start", re.compile(r"\bmake (.{1,40}?) the (?:start|starting point|beginning)\b")),
]
_THE_PLACE_IN = re.compile(
    r"\b(?:the|our|my|his|her|their|a|an|le|la|l|notre|mon|ma|un|une) (?:\w+ ){0,2}?"
    r"(?:campsite|camping|hotel|hostel|station|apartment|flat|house|home|place|square|church|bridge|car park|"
    r"airbnb|gite|chalet|coloc|studio|appart|"
    r"parking|gare|maison|appartement|hotel|auberge|eglise|place|pont|airport|aeroport|harbour|port"
    r"|terminal)s? (?:in|at|of|de|d|du|a|vers) (?!jeunesse)"
)
# ...or someone's: "end at my sister's in Hakaniemi", "at our friends' in Encamp" (at Hakaniemi, at Encamp)
_SOMEONES_IN = re.compile(
    r"\b(?:my|our|his|her|their) (?:\w+ ){0,2}?(?:\w+ s|(?:sister|brother|aunt|uncle|cousin|friend|mum|mom"
    r"|dad|parent|gran|grandma|grandpa|nan|mate|boss|colleague)s) (?:place |house |flat |home |apartment )?"
    r"(?:in|at) "
)
# ...and a sight at a place: "past the sanctuary at Meritxell", "le musée de l'auto à Encamp" (at it, not of
# it: "le parc de l'Esplanade" is no place)
_THE_SIGHT_AT = re.compile(
    r"\b(?:the|le|la|l|les|a|an|un|une) (?:\w+ ){0,3}?(?:sanctuary|chapel|church|lake|museum|market|castle"
    r"|viewpoint|cafe|bakery|spa|park|waterfall|sanctuaire|chapelle|eglise|lac|musee|marche|chateau|parc"
    r"|belvedere|cascade|boulangerie|monument|statue|memorial|cathedral|cathedrale|tower|gallery|galerie|zoo"
    r"|garden|jardin|beach|plage|fortress|forteresse|palace|palais|stadium|stade|library|bibliotheque|theatre"
    r"|opera|sauna)s?(?: (?:de|d|du|des|of)(?: \w+){1,3}?)? (?:in|at|vers|near|by|pres de)"
    r" (?!jeunesse)"
)
_UNDECIDED = re.compile(r"\b(?:or|ou|either|maybe|peut etre)\b")
# "...and set off from there": the place named just before
_THERE = {"there", "here", "la bas", "ici", "la"}
THERE = "there"  # a "there" its turn does not say: the place an earlier turn named last
# A town's centre is the town: "Helsinki centre", "the centre of Encamp", "le centre d'Ordino"
_CENTRE = re.compile(
    r"^(?:the |le )?(?:city |town |village )?(?:centre|center|downtown|centre ville|centro)"
    r" (?:of |de |d |du )?"
    r"|\s+(?:city |town |village )?(?:centre|center|downtown|centre ville|centro)$"
)
# The words that make a whole area ("Helsinki") a trip's start or end, not only where it happens ("à
# Helsinki", "a ride in Helsinki", "helsinki" alone): see is_setting
_AS_AN_END = (
    r"\b(?:from|to|into|towards|back to|depuis|de|d|jusqu a|jusqu au|jusque|vers|arrivee a|retour a|revenir a"
    r"|(?:start|end|finish|begin)(?:s|ing)? (?:in|at|from)|(?:depart|arrivee|start|end|finish)"
    r"|(?:the )?(?:city )?(?:centre|center) of|(?:le )?centre(?: ville)? d|(?:le )?centre(?: ville)? de)"
    r"\s+(?:the |le |la )?(?:centre |center |centre ville )?(?:of |de |d )?{name}\b"
    r"|\b{name} (?:centre|center|city centre|downtown|keskusta)\b"
    r"|\b(?:de|d|depuis) (?!\d).{{1,60}} a {name}\b"  # "de Tampere à Helsinki" (not "de 9h à")
)


def said_as_an_end(text: str, name: str) -> bool:
    """Whether a turn says a whole area as a start or an end ("from Helsinki", "to Helsinki centre",
    "départ d'Helsinki"), not only as where the trip happens ("une balade à Helsinki")."""
    said = _as_an_end(normalize(name))
    return any(said.search(normalize(clause)) for clause in re.split(r"[.,;!?\n]", text))


@lru_cache(maxsize=8)  # (one per area we route: compiled once, not on every turn that names it)
def _as_an_end(name: str) -> re.Pattern[str]:
    return re.compile(_AS_AN_END.format(name=re.escape(name)))


# A word that takes back what came before it in the same turn: "to Soldeu... non, plutôt jusqu'à Canillo"
CORRECTION = re.compile(
    r"\b(?:no|non|actually|rather|instead|plutot|finalement|en fait|i mean|je veux dire|wait|attends"
    r"|scratch|change|make it|make that|make the end|but|mais|however|cependant)\b"
)
# What leads from one stop of a route to the next: "to Foix, then on to", "and back to", "puis jusqu'à"
_ONWARD = re.compile(r"\b(?:then|puis|ensuite|and|et|back|on|before|avant|after|apres)\b")
# A via point taken out: "actually skip Sispony", "on zappe Sispony"
SKIP = re.compile(
    r"\b(skip|skipping|drop(?! (?:into|in|by|down))|without (?:going|passing) (?:through|by|via)|without"
    r"|sans passer (?:par|vers)|sans|zappe|zapper|enleve|enlever|retire|forget"
    r"|oublie|not through|pas par"
    r"|laisse tomber|laisser tomber"
    r"|plus par|no longer through|no need to go through)\s+(.{1,60}?)" + _STOP
)
_THEN = re.compile(r"^\s+(?:then|and then|puis|et puis|ensuite)\s+(.{1,60}?)" + _STOP)
# "up to La Cortinada and Llorts, then back": the last of two, if the clause ends there or goes on
_AND_LAST = re.compile(
    r"^\s+(?:and|et)\s+(?!(?:she|he|they|we|i|you|it|elle|il|ils|on|nous|je|j|back|retour)\b)"
    # (not "down to Pas de la Casa and that's it", "jusqu'à Sant Julià et voilà": the end said is the last)
    r"(?!(?:that s it|that s all|that s the trip|done|voila|c est fini|c est tout|finish|fin)\b)"
    r"((?:(?!\b(?:and|et|in|at|to|on|from|a|au|en|dans|pour|for|with|avec)\b).){1,40}?)"
    r"\s*(?:$|\bthen\b|\bpuis\b|\band then\b|\bet puis\b)"
)
_CHOOSING = re.compile(r"\b(?:between|entre|deciding|hesit\w*|either|soit|or|ou)\b")


def _route_goes_on(clause: str, at: int) -> re.Match[str] | None:
    """The place the route goes on to after the end said at ``at``: "to Aixovall then Andorra la Vella",
    "up to La Cortinada and Llorts, then back" (not "torn between Soldeu and El Tarter")."""
    if more := _THEN.match(clause[at:]):
        return more
    if _CHOOSING.search(clause[:at]):
        return None
    return _AND_LAST.match(clause[at:])


_JUST = re.compile(
    r"^(?:(?:ok|okay|alright|fine|so|bon|alors|allez|yes|oui|yeah|yep|right|d accord|dac)\s+)*"
    r"(?:just|only|juste|seulement|simplement|rather|plutot|decided|we decided|on a tranche|c est decide"
    r"|va pour|let s say|let s go with|go with|disons|ce sera|it ll be|it will be"
    # a choice made: "on garde Kallio", "let's take Llorts", "je prends Arinsal"
    r"|on garde|we keep|let s keep|keep|on prend|je prends|we take|let s take|we ll take|on choisit"
    r"|je choisis|we choose|let s do)\s+"
    # an answer that is only a name after a word of assent: "ok Llorts", "ok arinsal"
    r"|^(?:ok|okay|alright|fine|yes|oui|yeah|yep|d accord|dac)\s+(?=\S+(?:\s+\S+){0,3}$)"
)
# ...and what closes such a choice: "ok soldeu then", "ok andorre la vieille alors", "sant julia is fine"
_CHOSEN_TAIL = re.compile(r"\s+(?:then|alors|donc|is fine|c est bon|ca ira|please|svp)$")
_TRIGGERED = [(slot, p) for slot, p in PLACE_PATTERNS if p.pattern.startswith(r"\b(")]  # after a word
# A clause that says where the trip ends or starts goes on with no list: "..., then end at Alppiharju"
_ENDS_A_LIST = re.compile(
    r"^(?:(?:and|then|puis|et|and then|et puis|ensuite)\s+)?(?:end|ending|finish|finishing|start|starting"
    r"|arriv\w*|termin\w*|fini\w*)\b"
)
_LIST_TAILS = {"first", "d abord", "en premier", "too", "also", "aussi", "as well"}
_LIST_MORE = re.compile(
    r"^\s*(?:(?:first|d abord|en premier)\s+)?(?:and then|and|et puis|puis|et|then)\s+"
    r"(?P<again>(?:vers|au|aux|at|in|par|by|through|via)\s+)?(.{1,60}?)" + _STOP  # "étape à A et à B"
)
_SUBJECTS = {"on", "we", "i", "nous", "je", "j", "you", "vous", "they", "ils", "elles", "il", "elle"}
_LIST_NEXT = re.compile(r"^\s*(?:(?:and then|and|et puis|puis|et|then)\s+)?(.{1,60}?)" + _STOP)


def _strongly_triggered(clause: str) -> int | None:
    """Where a word such as "from" or "to" first says what a phrase of the clause is (not a weak "de",
    which may be inside a name: "Pas de la Casa"), if one does."""
    at = [
        m.start(1) for _, p in _TRIGGERED for m in _every_match(p, clause) if m.group(1) not in WEAK_TRIGGERS
    ]
    return min(at) if at else None


def _is_name(candidate: str, *, strong: bool) -> bool:
    words = candidate.split()
    return bool(
        words
        and len(candidate) > 1  # "l" of "l'hôtel", the rest cut off
        and candidate not in NOT_PLACES
        and words[0] not in VERBS
        and words[0] not in NOT_A_NAME_START
        and (strong or words[0] not in WEAK_NOT_A_NAME_START)
        and not _COUNT_OF_DAYS.match(candidate)
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


Mention = tuple[int, str, PlacePhrase]  # where in the turn's clauses, which slot, what


@lru_cache(maxsize=64)  # a turn's plan is read for its places and again for its days (read_turn)
def day_plan(text: str) -> Itinerary | None:
    """The plan a turn lays out day by day ("Day 1: Ordino → Canillo / Day 2: Canillo → Soldeu"), read as
    far as any of a turn is (MAX_TURN_CHARS)."""
    return itinerary(text[:MAX_TURN_CHARS], lambda name: _is_name(name, strong=True) and name not in _THERE)


def _day_by_day(plan: Itinerary) -> dict[str, list[PlacePhrase]]:
    """A plan's places: the first starts, the last ends (unless the last day is undecided), the others
    are stops; a loop when the first and the last are one."""
    first, *between, last = plan.places
    places = {"start": [PlacePhrase(first, strong=True)]}
    if plan.end_undecided:  # "day 2: Soldeu to either Pas de la Casa or back to Canillo": no end yet
        between.append(last)
    elif last != first:
        places["end"] = [PlacePhrase(last, strong=True)]
    if stops := [name for name in dict.fromkeys(between) if name not in (first, last) or plan.end_undecided]:
        places["via"] = [PlacePhrase(name, strong=True) for name in stops]
    return places


def place_phrases(
    text: str, *, capitalizes: bool = False, locale: Locale = "en"
) -> dict[str, list[PlacePhrase]]:
    """Each slot's place phrases of one turn, in the order of the text. Besides start, end and via:
    ``skip`` (a via point taken out) and ``bare`` (a clause that is nothing but a name: "Road bike.
    Andorra la Vella. 2 days."). ``locale``: the conversation's, for a turn whose words say none ("pas de
    la casa a sant julia" in a French conversation: to Sant Julià)."""
    if plan := day_plan(text):
        return _as_written(_day_by_day(plan), text, capitalizes)
    clauses = _clauses(text, locale)
    reader = _TurnReader()
    for clause, travel in clauses:
        reader.read(clause, travel=travel)
        reader.offset += len(clause) + 1
    # a place said as the end is no stop on the way too ("then El Serrat is where we stop", "last night in
    # Encamp": the night's words read it as a stop as well)
    ends = {m[2].text for m in reader.mentions if m[1] == "end" and m[2].strong} | reader.named_ends
    mentions = [m for m in reader.mentions if m[1] != "via" or m[2].text not in ends]
    return _as_written(_ordered(mentions, " ".join(c for c, _ in clauses)), text, capitalizes)


_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?\n:;•*>\-–]\s*|\s{2,})$")


def capitalizes_names(text: str) -> bool:
    """Whether a text writes a capital other than a sentence's first letter or "I": its writer writes
    names so."""
    return any(
        word.group(0)[0].isupper()
        and len(word.group(0)) > 1
        and _SENTENCE_START.search(text[max(0, word.start() - 3) : word.start()]) is None
        for word in _WORD.finditer(text)
    )


def _as_written(
    places: dict[str, list[PlacePhrase]], text: str, capitalizes: bool = False
) -> dict[str, list[PlacePhrase]]:
    """A phrase none of whose words is capitalized, in a turn that capitalizes names elsewhere (or by a
    writer who does, ``capitalizes``), is not plainly a name ("we'd leave from there", "push off from
    there", "I forgot to say", "I want to hike too"): it is read as loosely as a phrase after a weak word,
    and is a place only if it names one we route (never a question "I could not find", nor Say, Niger)."""
    capitalized = {normalize(w.group(0)) for w in _WORD.finditer(text) if w.group(0)[0].isupper()}
    if not (capitalizes or capitalizes_names(text)):  # all lowercase, as on a phone: nothing to tell by
        return places
    return {
        slot: [
            p if capitalized & set(p.text.split()) else PlacePhrase(p.text, False, cased=False, loose=p.loose)
            for p in phrases
        ]
        for slot, phrases in places.items()
    }


_REFUSING = {
    "avoid",
    "not",
    "no",
    "without",
    "sans",
    "pas",
    "eviter",
    "near",
    "skip",
    "except",
    "sauf",
    "never",
}


def names_said(text: str, *, longest: int = 5) -> list[str]:
    """Every run of words of the turn that could be a name, in the order of the text, the longest first at
    each word (a fallback: where no word said what a place is, a place we route named anywhere is the
    start)."""
    runs: list[str] = []
    for clause, _ in _clauses(text):
        words = clause.split()
        for i in range(len(words)):
            if any(w in _REFUSING for w in words[max(0, i - 3) : i]):  # "but avoid Canillo please"
                continue
            for n in range(min(longest, len(words) - i), 0, -1):
                run = " ".join(words[i : i + n])
                if _is_name(run, strong=False) and not says_a_slot(run):
                    runs.append(run)
    return runs


def _from_one_to_the_other(m: re.Match[str]) -> str:
    if _UNDECIDED_BETWEEN.search(m.string[max(0, m.start() - 25) : m.start()]):
        return m.group(0)  # "torn between Encamp and Canillo": undecided, read as such
    return f"from {m.group(1)} to {m.group(2)}"


_LIST_LABEL = re.compile(
    r"\b(?:via|through|par|etapes?|stops?|passages?|waypoints?|start|from|depart|end|finish|arrivee|to"
    r"|destination|order|ordre)$"
)


def _listed_route(text: str) -> str:
    """A list of three places or more after a colon, and nothing else: from the first, via the others,
    to the last ("Route: Arans, Ordino, La Massana, Escaldes")."""

    def route(m: re.Match[str]) -> str:
        label = m.string[m.string.rfind("\n", 0, m.start()) + 1 : m.start()]
        if _LIST_LABEL.search(normalize(label)):  # "Via: Encamp, Canillo, Soldeu": the label says
            return m.group(0)
        items = [i.strip() for i in re.split(r",|\s+(?:et|and|puis|then)\s+", m.group(1)) if i.strip()]
        names = [normalize(i) for i in items]
        if len(items) < 3 or not all(
            1 <= len(n.split()) <= 4 and _is_name(n, strong=False) and n not in _THERE for n in names
        ):
            return m.group(0)
        return f": from {items[0]} to {items[-1]} via {', '.join(items[1:-1])}"  # (a list goes on last)

    return _LISTED_ROUTE.sub(route, text)


def _clauses(text: str, locale: Locale = "en") -> list[tuple[str, bool]]:
    """The turn's clauses, normalized: punctuation ends a place phrase, so each is read on its own; and
    whether each is in a sentence only about getting there (``_GETTING_THERE``, no word of riding)."""
    text = _BLANKS.sub(" ", text)[:MAX_TURN_CHARS]  # the raw-text patterns below run on single blanks
    # "jusqu'à Sant Julià où ma femme nous attend": "où" (where, not "ou", or) ends the place before it
    text = re.sub(r"(?<=\w) (?=où )", ", ", text)
    text = _HEADING.sub(r"\1. ", text)
    text = _STAYING_WITH.sub(
        lambda m: f"{m.group(1)} {m.group(2)}" if m.group(1) else f"loge {m.group(4)}", text
    )
    text = _MEANT.sub(r". in place of \1 put \2.", text)
    text = re.sub(r"(?i)\b(prévu|prevu|dit|planned)s? au (?:départ|depart)\b", r"\1", text)  # "at first"
    for meant in (_NOT_THIS_BUT, _BUT_NOT_THIS):
        text = meant.sub(r". in place of \g<was> put \g<now>.", text)
    text = re.sub(
        r"\b(au|du|à|from|to) Pas\b(?! de)", r"\1 Pas de la Casa", text
    )  # "monter au Pas": capitalized
    # French "à" is a destination; normalized it would be the English article "a". But after a verb of
    # starting or staying it is where the trip begins: "on commence à Encamp", "nous serons basés à
    # Soldeu", "on loge à Ordino", "c'est à Aixovall qu'on commence"
    if _FROM_HOME.search(text):  # "J'habite à Taka-Töölö, je voudrais partir de chez moi": from Taka-Töölö
        text = _LIVING_IN.sub("from", _LIVING_AT.sub(r"\1 depuis", _AT_HOME_IN.sub(_home_left_out, text)))
    text = _LIVING_AT.sub(r"\1 comingfrom", _STAYING_AT.sub(" comingfrom", _STOPPING_AT.sub(r"\1 via", text)))
    text = _C_EST_A.sub(r"depuis \1", _STARTING_AT.sub(r"\1\2depuis", text))
    text = _BETWEEN.sub(_from_one_to_the_other, _listed_route(_START_THEN_LIST.sub(r"\1 via ", text)))
    text = _ARROWS.sub(" -> ", text)  # "Canillo 👉 Prats", "Ordino ➡️ El Serrat": a route; other emoji go
    text = "".join(" " if unicodedata.category(c) in ("So", "Cf") or c == "\ufe0f" else c for c in text)
    text = _RATHER_THAN.sub(
        r"\1",
        _FROM_ORIGIN.sub(
            " ",
            _WHO_FROM.sub(" ", _TRAVELLING_FROM.sub(r"\1 comingfrom", text)),
        ),
    )
    text = _COMING_FROM.sub(_coming_from, text)  # (after _FROM_ORIGIN: "on vient de Toulouse en train")
    text = _TAKING_TO.sub("comingfrom ", text)
    text = _BOTH_ENDS_AT.sub("loop from ", _START_THERE.sub(_starting_there, text))
    text = _ARRIVING_BY.sub(r"starting from \1", _ARRIVING_IN_BY.sub(r"starting from \1", text))
    # "on est arrivés à Encamp", "we've arrived in Soldeu": where people are now, loosely a start
    text = _TO_START.sub(r"; starting from \1;", _ARRIVED.sub(" comingfrom ", text))
    # "au même hôtel à Canillo", "un appartement à Punavuori": where it is, not where the trip goes
    text = _LODGING_AT.sub(r"\1 in ", text)
    marked = re.sub(r"(?i)\b(retour|revenir|rentrer|arriv\w*|jusqu)['’ ]?\s*a\s+(?=\w)", r"\1 vers ", text)
    # "on arrive au Pas de la Case", "arrivée aux Escaldes": where the ride ends, said as plainly as "à"
    marked = re.sub(
        r"(?i)\b(arriv(?:e|es|ons|ez|ent|era|erons|erez|eront|ée|ee|ées|ees))\s+(au|aux)\s+(?=\w)",
        r"\1 vers ",
        marked,
    )
    # (not "à" before an infinitive: "ce que vous avez à louer")
    marked = re.sub(r"(?<![\w])[àÀ](?![\w])(?!\s+[a-zà-ÿ]+(?:er|ir)\b)", " vers ", marked)
    # French by its own words (or the conversation's): "de Canillo a Ordino" lost its accent
    if detect_locale(text, locale) == "fr":
        marked = re.sub(r"(\b(?:de|d|du|depuis)[ '’][^,.;!?\n]{1,60}?)\s+a\s+(?=\w)", r"\1 vers ", marked)
    clauses = []
    pieces = (
        (_routes_in_words(c), travel)
        for sentence in re.split(r"[.;!?\n]+", marked)
        # (a sentence that names no riding: "flying into Toulouse, then the train to Ax" is all travel)
        for said in [normalize(sentence)]
        for travel in [
            bool(_GETTING_THERE.search(said)) and not _RIDING.search(said) and "->" not in sentence
        ]
        for c in re.split(r"[()«»“”\"]+|,(?!\d)", sentence)
    )
    for clause, travel in ((part, travel) for piece, travel in pieces for part in _SEPARATOR.split(piece)):
        norm = _ABBREVIATIONS.sub(lambda m: ABBREVIATIONS[m.group(0)], normalize(clause.replace("=", ":")))
        norm = _AND_TYPED_N.sub("and ", norm)  # "start n end in la massana", "go round n come back"
        norm = CLIMB_PER_DAY.sub(" ", DAILY.sub(" ", norm))
        norm = _SOMEONES_IN.sub("", _THE_PLACE_IN.sub("", norm))  # "begin at the campsite in Sant Julià"
        norm = _THE_SIGHT_AT.sub("", norm)  # "past the sanctuary at Meritxell": past Meritxell
        norm = landmarks_as_places(norm)  # "from the Oodi library": from Kluuvi
        for label, replacement in _LABELS:
            norm = label.sub(replacement, norm)
        norm = _PAS.sub(r"\1 pas de la casa", norm)
        norm = norm.replace(":", " ").strip()
        clauses.append((norm, travel))
    return clauses


# A clause about getting there or home by other means than the bike, in a sentence with no word of riding
# ("we fly to Barcelona and then take the bus", "drive home via Foix", "on dort à Ax la veille"): its places
# are where people pass, loosely said (a place abroad in it is no place of the ride). (Not the ferry: the
# one to Suomenlinna is part of a day's ride.)
_GETTING_THERE = re.compile(
    r"\b(?:fly|flying|flies|flew|flight|plane|avion|bus|coach|train|tgv|car|voiture"
    r"|drive|driving|drives|drove|taxi|metro|tram|la veille|the night before"
    r"|comingfrom)\b"  # (what "by bus from", "en train de" were rewritten to)
)
_RIDING = re.compile(
    r"\b(?:ride|rides|riding|rode|cycl\w*|bike|bikes|biking|velos?|pedal\w*|roul\w*|vtt|gravel|spin|loop"
    r"|boucle|start\w*|finish\w*|end|ending|fini[rst]?|finissons|finiron\w*|termin\w*|depart|arrivee"
    r"|part|pars|partons|partir|partira\w*|partiron\w*|one way|aller simple)\b"
)


class _TurnReader:
    """The mentions of one turn, clause after clause (a list of via points may run over commas)."""

    def __init__(self) -> None:
        self.mentions: list[Mention] = []
        self.offset = 0  # where the clause being read starts in the turn's joined clauses
        self.list_open = False  # the clause before ended inside a list: "par Juberri, Nagol et Aixovall"
        self.end_open = False  # the clause before ended on where the trip goes
        self.there: list[tuple[int, str, bool]] = []  # "from there" of the clause being read
        self.travel = False  # the clause being read is about getting there, not riding
        self.named_ends: set[str] = set()  # "El Serrat is where we stop": said plainly, though weakly found

    def read(self, clause: str, *, travel: bool = False) -> None:
        before = len(self.mentions)
        self.travel = travel
        if self.end_open and (more := _THEN.match(" " + clause)):  # "..., puis Aubinyà, et finir à..."
            self._add(more.start(1) - 1, "end", more.group(1).strip(), strong=True)
        elif (
            self._route_said()
            and (more := _THEN.match(" " + clause))
            and _is_name(more.group(1).strip(), strong=False)
        ):
            # "start in Sant Julià, then Andorra la Vella, then Escaldes and Encamp": stops on the way
            self._add(more.start(1) - 1, "via", more.group(1).strip(), strong=False)
            self._list_rest(clause, more.end(1) - 1, strong=False)
        self.end_open = False
        continued = self._list_continued(clause)
        for slot, pattern in [*PLACE_PATTERNS, ("skip", SKIP)]:
            if continued and slot != "skip":
                continue
            for match in _every_match(pattern, clause):
                self._triggered(clause, slot, match)
        self._named_first(clause)
        for slot, pattern in _MADE:
            if made := pattern.search(clause):
                self._add(made.start(1), slot, made.group(1).strip(), strong=True)
        if meant := _WAS_NOW.search(clause):  # (_MEANT, rewritten): the place meant instead of another
            self._add(meant.start(1), "was", meant.group(1).strip(), strong=True)
            self._add(meant.start(2), "now", meant.group(2).strip(), strong=True)
            return
        if swap := _SWAP.search(clause):  # "swap Escaldes for Encamp": one via point for another
            self._add(swap.start(1), "skip", swap.group(1).strip(), strong=True)
            self._add(swap.start(2), "via", swap.group(2).strip(), strong=True)
        bare = _CHOSEN_TAIL.sub("", _JUST.sub("", clause))
        # (phrases after a French "de" inside a clause that is only a name are pieces of it: "pas de la case")
        pieces = all(
            not m[2].strong and clause[: m[0] - self.offset].split()[-1:] in (["de"], ["d"], ["du"], ["des"])
            for m in self.mentions[before:]
        )
        nothing_else = pieces and not continued and bare.split()[:1] not in (["de"], ["d"], ["du"], ["des"])
        if nothing_else and 1 <= len(bare.split()) <= 5 and not says_a_slot(bare):
            # the turn's first clause: an answer to "where from?" ("Toulouse, I live there"), said plainly
            self._add(len(clause) - len(bare), "bare", bare, strong=self.offset == 0)
        self._there()

    def _named_first(self, clause: str) -> None:
        """ "Encamp is where we begin", "El Serrat is where we stop" (the ends said before it in the turn are
        on the way: "up to Ordino, then El Serrat is where we stop")."""
        for slot, pattern in _NAMED_FIRST:
            if named := pattern.match(clause):
                if slot == "end":
                    self.mentions = [(at, "via" if s == "end" else s, p) for at, s, p in self.mentions]
                    self.named_ends.add(named.group(1).strip())
                self._add(named.start(1), slot, named.group(1).strip(), strong=False)

    def _triggered(self, clause: str, slot: str, match: re.Match[str]) -> None:
        trigger, phrase = match.group(1), match.group(2).strip()
        strong = bool(trigger) and trigger not in WEAK_TRIGGERS
        self._add(match.start(2), slot, phrase, strong=strong, loose=trigger in _ORIGIN)
        # "de vélo de route de Canillo": after a weak "de", each later "de" may start the place.
        if not strong:
            for m in re.finditer(r"\b(?:de|d) ", phrase):
                self._add(match.start(2) + m.end(), slot, phrase[m.end() :], strong=False)
        if slot == "via":  # the rest of the list: "through A and B", "par A puis B"
            self._list_rest(clause, match.end(2), strong=strong)
        elif slot == "end" and strong and (more := _route_goes_on(clause, match.end(2))):
            # "to Aixovall then Andorra la Vella", "up to La Cortinada and Llorts, then back": the route
            # goes on (the earlier end becomes a via point)
            self._add(match.end(2) + more.start(1), "end", more.group(1).strip(), strong=True)
        elif slot == "end" and strong and match.end(2) >= len(clause.rstrip()):
            self.end_open = True  # "à Juberri, puis Aubinyà": the next clause may go on
        elif (
            slot == "start"
            and strong
            and (more := _THEN.match(clause[match.end(2) :]))
            and _is_name(more.group(1).strip(), strong=False)
        ):
            # "start in Arinsal then Pal and La Massana": stops on the way
            self._add(match.end(2) + more.start(1), "via", more.group(1).strip(), strong=False)
            self._list_rest(clause, match.end(2) + more.end(1), strong=False)

    def _route_said(self) -> bool:
        """Whether the turn has said, plainly, where the ride starts or passes (a route goes on)."""
        return any(m[1] in ("start", "via") and m[2].strong for m in self.mentions)

    def _list_continued(self, clause: str) -> bool:
        """A clause that goes on with the list of via points the clause before ended in."""
        item = _LIST_NEXT.match(clause) if self.list_open else None
        self.list_open = False
        if item is None or says_a_slot(clause) or _ENDS_A_LIST.match(clause):
            return False
        if item.group(1).split()[0] in _SUBJECTS:  # "par Canillo, on arrive au Pas": a new sentence
            return False
        if (trigger := _strongly_triggered(clause)) is not None:
            # "..., Meritxell, Canillo puis retour à Escaldes": the list's last stop, then the clause goes on
            if trigger >= item.end(1) and _ONWARD.match(clause[item.end(1) :].strip()):
                self._add(item.start(1), "via", item.group(1).strip(), strong=False)
                self._list_rest(
                    clause, item.end(1), strong=False
                )  # "..., Kaartinkaupunki and Eira then back"
            return False
        self._add(item.start(1), "via", item.group(1).strip(), strong=False)
        self._list_rest(clause, item.end(1), strong=False)
        return True

    def _list_rest(self, clause: str, end_at: int, *, strong: bool) -> None:
        while more := _LIST_MORE.match(clause[end_at:]):
            if more.group("again"):  # "faire étape à Meritxell et à Engordany": no end, the list goes on
                at = self.offset + end_at + more.start(2)
                self.mentions = [m for m in self.mentions if m[1] != "end" or m[0] != at]
            self._add(end_at + more.start(2), "via", more.group(2).strip(), strong=strong)
            end_at += more.end(2)
        self.list_open = end_at >= len(clause) or clause[end_at:].strip() in _LIST_TAILS  # "A first, then B"

    def _add(self, at: int, slot: str, candidate: str, *, strong: bool, loose: bool = False) -> None:
        candidate = _TRAILING_CONNECTOR.sub("", candidate)  # "Soldeu sur (3 jours)"
        if (centre := _CENTRE.sub("", candidate).strip()) and centre != candidate:
            # "Helsinki centre" is Helsinki, said as plainly as after "from" (not the area: is_setting)
            at, candidate, strong = at + candidate.find(centre), centre, True
        if candidate in _THERE:  # "set off from there": read once the whole clause is (see _there)
            self.there.append((self.offset + at, slot, strong))
        elif _is_name(candidate, strong=strong) and not _UNDECIDED.search(candidate):
            # (not "from Encamp or Canillo": not decided)
            loose = loose or self.travel  # ("we fly to Barcelona and take the bus up": how they get there)
            self.mentions.append((self.offset + at, slot, PlacePhrase(candidate, strong, loose=loose)))

    def _there(self) -> None:
        """Each "there" of the clause is the place named just before it, whatever pattern found it."""
        for at, slot, strong in sorted(self.there):
            earlier = [m for m in self.mentions if m[0] < at and m[1] != "skip"]
            earlier = [m for m in earlier if not any(_inside(m, other) for other in earlier)]
            if not earlier:  # "I'd start and finish there": a place of an earlier turn (THERE), loosely
                self.mentions.append((at, slot, PlacePhrase(THERE, strong=False)))
                continue
            meant = max(earlier, key=lambda m: m[0])
            if meant[1] == "end" and slot == "start" and at - meant[0] - len(meant[2].text) <= len(" from "):
                continue  # "ride to El Tarter from there": there is a place said before, not El Tarter
            if (
                meant[1] == "end"
                and slot == "start"
                and any(m[1] == "start" and m[2].strong for m in self.mentions)
            ):
                continue  # "Start in Encamp, finish in Arinsal: the hike up to the lakes from there"
            if meant[1] == "end" and slot == "start":  # "arriving in Pas de la Casa... ride from there"
                self.mentions = [m for m in self.mentions if m[1] != "end" or m[2].text != meant[2].text]
            if slot == "start" and meant[1] == "start" and meant[2].strong:
                # "fly to Barcelona, rent bikes in Sant Julià, de là": the starts before were the way there
                self.mentions = [
                    m for m in self.mentions if m[1] != "start" or m[0] + len(m[2].text) > meant[0]
                ]
            self.mentions.append((at, slot, PlacePhrase(meant[2].text, strong)))
        self.there = []


def _inside(mention: Mention, other: Mention) -> bool:
    """Whether a phrase is a piece of a longer one around it ("de Lòria" of "to Sant Julià de Lòria")."""
    end, other_end = mention[0] + len(mention[2].text), other[0] + len(other[2].text)
    return (
        other is not mention
        and other[0] <= mention[0]
        and end <= other_end
        and other_end - other[0] > end - mention[0]
    )


# "..., end in Kruununhaka": a weak word, but one that says plainly where the trip ends
_FINISHING_BEFORE = re.compile(
    r"\b(?:end|ending|ends|finish\w*|arriv\w*|termin\w*|fini\w*)(?: up| down)?"
    r"(?: in| at| a| au| vers| en)?\s*$"
)


def _finishing(slot: str, joined: str, at: int) -> bool:
    return slot == "end" and bool(_FINISHING_BEFORE.search(joined, max(0, at - 30), at))


_CHOICE = re.compile(r"\b(?:or|ou|either|soit|but|mais)\b")


def _corrected_in_passing(mentions: list[Mention], slot: str, joined: str) -> None:
    """ "On part de Prats, euh non, de Ransol", "Départ de Canillo... ah non, en fait on part de Prats": a
    start or an end said again right after a correction, even after a weak word, is the one meant."""
    said = [m for m in mentions if m[1] == slot]
    for earlier, later in itertools.pairwise(said):
        between = joined[earlier[0] + len(earlier[2].text) : later[0]]
        taken_back = list(_TAKEN_BACK.finditer(between))
        if (
            later[0] >= earlier[0] + len(earlier[2].text)
            and taken_back
            and len(between[taken_back[-1].end() :].split()) <= 4  # (right before the place meant)
            and len(between.split()) <= 8
        ):
            mentions.remove(earlier)


_TAKEN_BACK = re.compile(
    r"\b(?:no|non|en fait|actually|i mean|je veux dire|wait|attends|sorry|pardon|oups|oops)\b"
)


def _ordered(mentions: list[Mention], joined: str) -> dict[str, list[PlacePhrase]]:
    # A weak phrase inside a strong one is a piece of its name: "de Lòria" of "to Sant Julià de Lòria"
    spans = [(at, at + len(p.text)) for at, _, p in mentions if p.strong]
    mentions = [
        m
        for m in mentions
        if m[2].strong or not any(s <= m[0] and m[0] + len(m[2].text) <= e for s, e in spans)
    ]
    unique: list[Mention] = []
    # (a name alone that a list of stops already holds is that stop: "via A, B, C and back to D")
    held = {(at, p.text) for at, slot, p in mentions if slot != "bare"}
    for mention in sorted(mentions, key=lambda f: f[0]):
        if mention not in unique and not (mention[1] == "bare" and (mention[0], mention[2].text) in held):
            unique.append(mention)  # (one phrase found by two overlapping triggers is one)
    # Of two starts or ends plainly said, a correction keeps the later ("to Soldeu... non, plutôt
    # jusqu'à Canillo"); without one, ends said one after another are a route: the earlier are via
    # points ("up towards Pas de la Casa, then back down to Encamp to finish")
    # (an end back at the start is plainly said too: "A – B – Sant Julià, puis ... et retour A")
    starts = {m[2].text for m in unique if m[1] == "start"}
    for slot in ("start", "end"):
        _corrected_in_passing(unique, slot, joined)
        said = [
            m
            for m in unique
            if m[1] == slot
            and (m[2].strong or _finishing(slot, joined, m[0]) or (slot == "end" and m[2].text in starts))
        ]
        for earlier, later in itertools.pairwise(said):
            # "out to El Serrat and finish there": one end; a weak word of finishing only ends a route said
            # before it
            # ("down to Escaldes, finishing at the Caldea spa": "escaldes spa" is Escaldes)
            if later[2].text.startswith(earlier[2].text) or not earlier[2].strong:
                continue
            between = joined[earlier[0] + len(earlier[2].text) : later[0]]
            starts_between = any(m[1] == "start" and earlier[0] < m[0] < later[0] for m in unique)
            # a correction; or, for an end, the trip's start said after it: "une balade à Helsinki, de
            # Siltasaari à Kluuvi" (the town where it all happens)
            if CORRECTION.search(between) or (slot == "end" and starts_between):
                unique.remove(earlier)
            elif slot == "end" and (
                (len(between.split()) <= 8 and _ONWARD.search(between))
                or between.strip() in ("to", "vers")
                # "..., then La Cortinada, and at the end I finish in El Serrat" (not "come back to Pas, or
                # finish in Andorra la Vella": a choice)
                or (
                    _finishing(slot, joined, later[0])
                    and (_ONWARD.search(between) or len(between.split()) <= 3)  # "B, arrivée à C"
                    and not _CHOICE.search(between)
                )
            ):  # "Bixessarri to Aubinyà to Juberri": the route goes on
                unique[unique.index(earlier)] = (earlier[0], "via", earlier[2])
    places: dict[str, list[PlacePhrase]] = {}
    for _, slot, phrase in unique:
        places.setdefault(slot, []).append(phrase)
    return places
