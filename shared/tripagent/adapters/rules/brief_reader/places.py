"""Place phrases: where a turn says the trip starts, ends and passes ("from X to Y", "de X à Y", "via
X", "A → B", "Starting point: X", "Encamp is where we begin", "set off from there", "par A, B et C",
"skip X"), before a geocoder says what each names. Strong phrases follow an unmistakable word; weak ones
(French "de", "staying in", a clause that is only a name) may well be no place, and are never asked
about when nothing matches."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from tripagent.adapters.rules.brief_reader import vocabulary
from tripagent.adapters.rules.brief_reader.clauses import MAX_TURN_CHARS, clauses_of
from tripagent.adapters.rules.brief_reader.dates import WEEKDAYS
from tripagent.adapters.rules.brief_reader.itinerary import Itinerary, itinerary
from tripagent.adapters.rules.brief_reader.patterns import lazy, one_of
from tripagent.adapters.rules.brief_reader.place_words import (
    THERE_WORDS,
    is_name,
    says_a_slot,
)
from tripagent.adapters.rules.brief_reader.stops import ADD_WORDS
from tripagent.adapters.rules.brief_reader.words import (
    NUM,
    NUMBERS,
    Locale,
)
from tripagent.domain.places import normalize

# Where a place phrase ends: a connector or punctuation (not an article: "La Massana" keeps its "la").
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
    r"|arrival|juste apres|juste avant|just after|just before|right after|right before"
    r"|at the (?:very )?(?:start|beginning|end)"
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
    r"|au depart de|depart de|partant de|en partant de|pars d|pars de"
    # (not "le col d'Ordino", "la vallée d'Incles", "le lac d'Engolasters": of, not from)
    r"|(?<!\bcol )(?<!\bport )(?<!\bvallee )(?<!\bvall )(?<!\blac )(?<!\bpic )(?<!\broute )(?<!\bpont )"
    r"(?:de|d|du)"
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
    # "and tuesday I'm back at the station in kluuvi for the train home"
    r"|(?:i m|we re|i am|we are|i ll be|we ll be) back (?:at|in)"
    r"|jusqu(?: vers| a| au)?|jusque"
    r"|vers|destination (?:du|de|d|des)"
    # "on revient au centre", "oui on revient à Kamppi": back to (a loop when it is the start)
    r"|(?:revien\w*|revenir|revenons|reviendr\w*) (?:a|au|aux|vers)"
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
    r"|(?:night|nuit) \d{1,2}(?: in| at| a| au| en)?"  # "night 1 pas de la casa, night 2 canillo"
    # a break on the way: "stopping for lunch in La Massana", "lunch in Encamp", "a coffee stop at Hakaniemi"
    r"|stop(?:ping)? for (?:a |an |the )?(?:lunch|coffee|break|night|swim|ice cream|drink|picnic|food|bite)"
    r" (?:in|at)|(?:have |having |grab |grabbing )?"
    r"(?:lunch|a coffee|coffee|a picnic|picnic|a break|breakfast) (?:stop )?(?:in|at)|pass(?:es)?"
    r"|stay(?:ing)? (?:the night|overnight) (?:in|at)"
    r"|(?:un|une|a|an) (?:stop|arret|halte|pause|escale) (?:in|at|a|au|aux|en)"  # "avec un stop à Kamppi"
    # an edit: "add Canillo before Soldeu", "ajoute Aixovall juste après le départ" (not "put": the
    # rewritten "I mean X" is "in place of ... put X")
    r"|" + ADD_WORDS
)
_A_COUNT = NUM.replace("(", "(?:", 1)  # (no group: a pattern's groups are its trigger and its phrase)
PLACE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("start", lazy(rf"\b({_START})\s+(.{{1,60}}?)" + _STOP)),
    (
        "start",
        lazy(
            r"^(?:(?:this time|cette fois|so|alors|donc|well|ok|okay|bon|either way|anyway|bref|enfin"
            r"|c etait|c est|it was|that was)\s+)?"  # ("c'était Sant Julià → Canillo")
            r"()(.{1,60}?)(?<! and)(?<! et)(?<! then)(?<! puis)(?<! back)"  # ("Juberri and back to A")
            r"(?=\s+(?:back to|(?:all the way |straight |right |round |down |up )?to|vers"
            r"|jusqu|via|through)\s)"
        ),
    ),  # "Ordino to Soldeu": weak
    # "5 days Sant Julià to Soldeu", "2 jours Encamp vers Soldeu", "thinking Canillo to Soldeu": weak
    (
        "start",
        lazy(
            rf"(?:\b{_A_COUNT} ?(?:days?|jours?|j|d|nights?|nuits?)|\bweek ?end|\bthinking(?! of| about))"
            r"\s+"
            r"()(.{1,60}?)"
            r"(?=\s+(?:back to|to|vers|jusqu|via|through)\s)"
        ),
    ),
    # "we want to do Tampere to Kallio", "could you plan Anyós to Llumeneres": weak
    (
        "start",
        lazy(
            r"\b(?:do|doing|ride|cycle|plan|faire|rouler|pedal|make it|make that|go|going|bike|travel)\s+"
            r"()(.{1,60}?)"
            r"(?=\s+(?:back to|to|vers|jusqu|via|through)\s)"
        ),
    ),
    ("start", lazy(r"^boucle\s+()(.{1,60}?)" + _STOP)),  # "Boucle Ordino, 3 jours"
    # "..., Aixirivall, Juberri and back to La Massana": a name alone, where the route turns back
    ("bare", lazy(r"^()(.{1,60}?)(?=\s+(?:and|et|then|puis) (?:back|retour)\b)")),
    ("end", lazy(r"^pour\s+()(.{1,60}?)" + _STOP)),  # "(partir d'Aixovall) pour Ordino": weak
    ("start", lazy(r"^(?:an? )?()(.{1,60}?)(?=\s+(?:loop|round trip)\b)")),  # "La Massana loop"
    ("end", lazy(rf"\b({_END})\s+(.{{1,60}}?)" + _STOP)),
    ("via", lazy(rf"\b({_VIA})\s+(.{{1,60}}?)" + _STOP)),
    # an edit naming where a stop goes: "and Escaldes before Encamp", "Sispony after La Massana please"
    (
        "via",
        lazy(
            r"^(?:(?:and|et|also|aussi|plus|then|puis|oh|ah|ok|and also|et aussi)\s+)*"
            r"(?!(?:add|ajoute|rajoute|put|remets)\b)()(.{1,40}?)"
            r"(?=\s+(?:just |right |juste )?(?:before|after|avant|apres)\s"
            # (not "Soldeu before dark": when)
            r"(?!(?:noon|midday|lunch|dinner|dark|sunset|nightfall|midi|le dejeuner|la nuit|le soir|\d)))"
        ),
    ),
]


_TRAILING_CONNECTOR = lazy(
    r"\s+(?:de|d|du|des|sur|en|at|of|about|pour|for|plutot|rather|instead|alors|donc)$"
)


def _every_match(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """Every match, overlapping ones too: a trigger inside an earlier match still starts its own."""
    found, at = [], 0
    while (match := pattern.search(text, at)) is not None:
        found.append(match)
        at = match.start() + 1
    return found


@dataclass(frozen=True, slots=True)
class PlacePhrase:
    text: str
    strong: bool  # after an unmistakable word ("from", "to", "via"); French "de"/"par" are weak
    cased: bool = True  # written as a name, or in a turn that capitalizes nothing (see _as_written)
    loose: bool = False  # where people live, land or come from ("fly into", "live in", "drive from")


# The place first, what it is after: "Encamp is where we begin", "Sispony is our starting point"
_NAMED_FIRST = [
    (
        "start",
        lazy(
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
        lazy(
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
_SWAP = lazy(
    r"\b(?:swap|replace|change|remplace[rz]?) (.{1,40}?) (?:for|with|by|to|par|contre) (.{1,40}?)" + _STOP
)
_WAS_NOW = lazy(r"\bin place of (.{1,40}?) put (.{1,40}?)$")
# "actually make El Tarter the finish instead"; "Ullanlinna start"
_MADE = [
    ("start", lazy(r"^((?:\S+ ){0,3}\S+) (?:start|starting point|departure|depart)$")),
    ("end", lazy(r"^((?:\S+ ){0,3}\S+) (?:finish|end point|arrival|arrivee|end)$")),
    ("via", lazy(r"^((?:\S+ ){0,3}\S+) (?:in between|somewhere in between|entre les deux)$")),
    # "the village where we'd like to end is El Tarter", "the one we're setting off from is Llorts"
    (
        "end",
        lazy(
            r"\bwhere (?:we|i)(?: d| ll| would| will)?(?: like to| want to)? (?:end|finish)\w* is (.{1,40}?)$"
        ),
    ),
    (
        "start",
        lazy(
            r"\b(?:we re|we are|we ll be|i m) (?:setting off|starting|leaving|departing) from is (.{1,40}?)$"
        ),
    ),
    ("end", lazy(r"^(?:l )?arrivee c est (.{1,40}?)$")),
    ("end", lazy(r"\bmake (.{1,40}?) the (?:finish|end|destination|end point|goal)\b")),
    ("start", lazy(r"\bmake (.{1,40}?) the (?:start|starting point|beginning)\b")),
]
_UNDECIDED = lazy(r"\b(?:or|ou|either|maybe|peut etre)\b")
THERE = "there"  # a "there" its turn does not say: the place an earlier turn named last
CENTRE = "the centre"  # "start from the centre": the centre of the area the trip's other places are in
# A town's centre is the town: "Tampere centre", "the centre of Encamp", "le centre d'Ordino"
_CENTRE = lazy(
    r"^(?:the |le )?(?:city |town |village )?(?:centre|center|downtown|centre ville|centro)"
    r" (?:of |de |d |du )?"
    r"|\s+(?:city |town |village )?(?:centre|center|downtown|centre ville|centro)$"
)
_CENTRE_ALONE = {*vocabulary.words("centre_words"), *vocabulary.aliases()["centre_words"]}
# The words that make a whole area ("Tampere") a trip's start or end, not only where it happens ("à
# Tampere", "a ride in Tampere", "tampere" alone): see is_setting
_AS_AN_END = (
    r"\b(?:from|to|into|towards|back to|depuis|de|d|jusqu a|jusqu au|jusque|vers|arrivee a|retour a|revenir a"
    r"|(?:start|end|finish|begin)(?:s|ing)? (?:in|at|from)|(?:depart|arrivee|start|end|finish)"
    r"|(?:the )?(?:city )?(?:centre|center) of|(?:le )?centre(?: ville)? d|(?:le )?centre(?: ville)? de)"
    r"\s+(?:the |le |la )?(?:centre |center |centre ville )?(?:of |de |d )?{name}\b"
    r"|\b{name} (?:centre|center|city centre|downtown|"
    + one_of(vocabulary.aliases()["centre_words"])
    + r")\b"
    r"|\b(?:de|d|depuis) (?!\d).{{1,60}} a {name}\b"  # "de Turku à Tampere" (not "de 9h à")
)


def said_as_an_end(text: str, name: str) -> bool:
    """Whether a turn says a whole area as a start or an end ("from Tampere", "to Tampere centre",
    "départ de Tampere"), not only as where the trip happens ("une balade à Tampere")."""
    said = _as_an_end(normalize(name))
    return any(said.search(normalize(clause)) for clause in re.split(r"[.,;!?\n]", text))


@lru_cache(maxsize=8)  # (one per area we route: compiled once, not on every turn that names it)
def _as_an_end(name: str) -> re.Pattern[str]:
    return lazy(_AS_AN_END.format(name=re.escape(name)))


# A word that takes back what came before it in the same turn: "to Soldeu... non, plutôt jusqu'à Canillo"
CORRECTION = lazy(
    r"\b(?:no|non|actually|rather|instead|plutot|finalement|en fait|i mean|je veux dire|wait|attends"
    r"|scratch|change|make it|make that|make the end|but|mais|however|cependant)\b"
)
# What leads from one stop of a route to the next: "to Foix, then on to", "and back to", "puis jusqu'à"
_ONWARD = lazy(r"\b(?:then|puis|ensuite|and|et|back|on|before|avant|after|apres)\b")
# A via point taken out: "actually skip Sispony", "on zappe Sispony"
SKIP = lazy(
    r"\b(skip|skipping|drop(?! (?:into|in|by|down))|without (?:going|passing) (?:through|by|via)|without"
    r"|sans passer (?:par|vers)|sans|zappe|zapper|enleve|enlever|retire|forget"
    r"|oublie|not through|pas par"
    r"|laisse tomber|laisser tomber"
    r"|plus par|no longer through|no need to go through"
    r"|(?:actually |en fait )?(?:maybe not|peut etre pas)"  # "actually maybe not Encamp": taken back
    r")\s+(.{1,60}?)" + _STOP
)
_THEN = lazy(r"^\s+(?:then|and then|puis|et puis|ensuite)\s+(.{1,60}?)" + _STOP)
# "up to La Cortinada and Llorts, then back": the last of two, if the clause ends there or goes on
_AND_LAST = lazy(
    r"^\s+(?:and|et)\s+(?!(?:she|he|they|we|i|you|it|elle|il|ils|on|nous|je|j|back|retour)\b)"
    # (not "down to Pas de la Casa and that's it", "jusqu'à Sant Julià et voilà": the end said is the last)
    r"(?!(?:that s it|that s all|that s the trip|done|voila|c est fini|c est tout|finish|fin)\b)"
    r"((?:(?!\b(?:and|et|in|at|to|on|from|a|au|en|dans|pour|for|with|avec)\b).){1,40}?)"
    r"\s*(?:$|\bthen\b|\bpuis\b|\band then\b|\bet puis\b)"
)
_CHOOSING = lazy(r"\b(?:between|entre|deciding|hesit\w*|either|soit|or|ou)\b")


def _route_goes_on(clause: str, at: int) -> re.Match[str] | None:
    """The place the route goes on to after the end said at ``at``: "to Aixovall then La Massana",
    "up to La Cortinada and Llorts, then back" (not "torn between Soldeu and El Tarter")."""
    if more := _THEN.match(clause[at:]):
        return more
    if _CHOOSING.search(clause[:at]):
        return None
    return _AND_LAST.match(clause[at:])


_JUST = lazy(
    r"^(?:(?:ok|okay|alright|fine|so|bon|alors|allez|yes|oui|yeah|yep|right|d accord|dac)\s+)*"
    r"(?:just|only|juste|seulement|simplement|rather|plutot|decided|we decided|on a tranche|c est decide"
    r"|va pour|let s say|let s go with|go with|disons|ce sera|it ll be|it will be"
    # a choice made: "on garde Kallio", "let's take Llorts", "je prends Arinsal"
    r"|on garde|we keep|let s keep|keep|on prend|je prends|we take|let s take|we ll take|on choisit"
    r"|je choisis|we choose|let s do)\s+"
    # an answer that is only a name after a word of assent: "ok Llorts", "ok arinsal"
    r"|^(?:ok|okay|alright|fine|yes|oui|yeah|yep|d accord|dac)\s+(?=\S+(?:\s+\S+){0,3}$)"
)
# ...and what closes such a choice: "ok soldeu then", "ok saint julien de loria alors", "sant julia is fine"
_CHOSEN_TAIL = lazy(r"\s+(?:then|alors|donc|is fine|c est bon|ca ira|please|svp)$")
_TRIGGERED = [(slot, p) for slot, p in PLACE_PATTERNS if p.pattern.startswith(r"\b(")]  # after a word
# A clause that says where the trip ends or starts goes on with no list: "..., then end at Alppiharju"
_ENDS_A_LIST = lazy(
    r"^(?:(?:and|then|puis|et|and then|et puis|ensuite)\s+)?(?:end|ending|finish|finishing|start|starting"
    r"|arriv\w*|termin\w*|fini\w*)\b"
)
_LIST_TAILS = {"first", "d abord", "en premier", "too", "also", "aussi", "as well"}
_LIST_MORE = lazy(
    r"^\s*(?:(?:first|d abord|en premier)\s+)?(?:and then|and|et puis|puis|et|then)\s+"
    r"(?P<again>(?:vers|au|aux|at|in|par|by|through|via)\s+)?(.{1,60}?)" + _STOP  # "étape à A et à B"
)
_SUBJECTS = {"on", "we", "i", "nous", "je", "j", "you", "vous", "they", "ils", "elles", "il", "elle"}
_LIST_NEXT = lazy(r"^\s*(?:(?:and then|and|et puis|puis|et|then)\s+)?(.{1,60}?)" + _STOP)


def _strongly_triggered(clause: str) -> int | None:
    """Where a word such as "from" or "to" first says what a phrase of the clause is (not a weak "de",
    which may be inside a name: "Pas de la Casa"), if one does."""
    at = [
        m.start(1) for _, p in _TRIGGERED for m in _every_match(p, clause) if m.group(1) not in WEAK_TRIGGERS
    ]
    return min(at) if at else None


Mention = tuple[int, str, PlacePhrase]  # where in the turn's clauses, which slot, what


@lru_cache(maxsize=64)  # a turn's plan is read for its places and again for its days (read_turn)
def day_plan(text: str) -> Itinerary | None:
    """The plan a turn lays out day by day ("Day 1: Ordino → Canillo / Day 2: Canillo → Soldeu"), read as
    far as any of a turn is (MAX_TURN_CHARS)."""
    return itinerary(
        text[:MAX_TURN_CHARS], lambda name: is_name(name, strong=True) and name not in THERE_WORDS
    )


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
    La Massana. 2 days."). ``locale``: the conversation's, for a turn whose words say none ("pas de
    la casa a sant julia" in a French conversation: to Sant Julià)."""
    if plan := day_plan(text):
        return _as_written(_day_by_day(plan), text, capitalizes)
    clauses = clauses_of(text, locale)
    reader = _TurnReader()
    for clause, travel in clauses:
        reader.read(clause, travel=travel)
        reader.offset += len(clause) + 1
    # a place said as the end is no stop on the way too ("then El Serrat is where we stop", "last night in
    # Encamp": the night's words read it as a stop as well)
    ends = {m[2].text for m in reader.mentions if m[1] == "end" and m[2].strong} | reader.named_ends
    mentions = [m for m in reader.mentions if m[1] != "via" or m[2].text not in ends]
    return _as_written(_ordered(mentions, " ".join(c for c, _ in clauses)), text, capitalizes)


_WORD = lazy(r"[^\W\d_]+")
_SENTENCE_START = lazy(r"(?:^|[.!?\n:;•*>\-–]\s*|\s{2,})$")


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
    for clause, _ in clauses_of(text):
        words = clause.split()
        for i in range(len(words)):
            if any(w in _REFUSING for w in words[max(0, i - 3) : i]):  # "but avoid Canillo please"
                continue
            for n in range(min(longest, len(words) - i), 0, -1):
                run = " ".join(words[i : i + n])
                if is_name(run, strong=False) and not says_a_slot(run):
                    runs.append(run)
    return runs


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
            and is_name(more.group(1).strip(), strong=False)
        ):
            # "start in Sant Julià, then La Massana, then Escaldes and Encamp": stops on the way
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
            # "to Aixovall then La Massana", "up to La Cortinada and Llorts, then back": the route
            # goes on (the earlier end becomes a via point)
            self._add(match.end(2) + more.start(1), "end", more.group(1).strip(), strong=True)
        elif slot == "end" and strong and match.end(2) >= len(clause.rstrip()):
            self.end_open = True  # "à Juberri, puis Aubinyà": the next clause may go on
        elif (
            slot == "start"
            and strong
            and (more := _THEN.match(clause[match.end(2) :]))
            and is_name(more.group(1).strip(), strong=False)
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
        if re.sub(r"^(?:the|le|la) ", "", candidate) in _CENTRE_ALONE:
            # "départ du centre", "from the city centre": the area's, if its other places say which
            # (not "want to see the centre": as a stop, the whole area; nor "le train jusqu'au centre")
            if slot in ("start", "end") and not (loose or self.travel):
                self.mentions.append((self.offset + at, slot, PlacePhrase(CENTRE, strong=False)))
            return
        # ("on termine à Arinsal, pas à La Massana": the negation, not Pas de la Casa)
        if candidate == "pas" and not strong:
            return
        if (centre := _CENTRE.sub("", candidate).strip()) and centre != candidate:
            # "Tampere centre" is Tampere, said as plainly as after "from" (not the area: is_setting)
            at, candidate, strong = at + candidate.find(centre), centre, True
        if candidate in THERE_WORDS:  # "set off from there": read once the whole clause is (see _there)
            self.there.append((self.offset + at, slot, strong))
        elif is_name(candidate, strong=strong) and not _UNDECIDED.search(candidate):
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
_FINISHING_BEFORE = lazy(
    r"\b(?:end|ending|ends|finish\w*|arriv\w*|termin\w*|fini\w*)(?: up| down)?"
    r"(?: in| at| a| au| vers| en)?\s*$"
)


def _finishing(slot: str, joined: str, at: int) -> bool:
    return slot == "end" and bool(_FINISHING_BEFORE.search(joined, max(0, at - 30), at))


_CHOICE = lazy(r"\b(?:or|ou|either|soit|but|mais)\b")


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


_TAKEN_BACK = lazy(r"\b(?:no|non|en fait|actually|i mean|je veux dire|wait|attends|sorry|pardon|oups|oops)\b")


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
            # a correction; or, for an end, the trip's start said after it: "une balade à Tampere, de
            # Siltasaari à Kluuvi" (the town where it all happens)
            if CORRECTION.search(between) or (slot == "end" and starts_between):
                unique.remove(earlier)
            elif slot == "end" and (
                (len(between.split()) <= 8 and _ONWARD.search(between))
                or between.strip() in ("to", "vers")
                # "..., then La Cortinada, and at the end I finish in El Serrat" (not "come back to Pas, or
                # finish in La Massana": a choice)
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
