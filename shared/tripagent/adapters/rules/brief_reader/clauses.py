"""A turn cut into clauses, each rewritten so that a plain word leads to each place it names: "on
commence à Encamp" reads "depuis Encamp", "A → B → C" reads "A via B to C", "we fly into Toulouse" is
where people come from ("comingfrom"), "the campsite in Sant Julià" is Sant Julià, "Route: A, B, C, D" is
from A via B and C to D. ``clauses_of`` gives them normalized, with whether each is only about getting
there."""

from __future__ import annotations

import re
import unicodedata

from tripagent.adapters.rules.brief_reader import vocabulary
from tripagent.adapters.rules.brief_reader.landmarks import landmarks_as_places
from tripagent.adapters.rules.brief_reader.patterns import lazy, one_of
from tripagent.adapters.rules.brief_reader.place_words import (
    COUNT_OF_DAYS,
    NOT_A_NAME_START,
    THERE_WORDS,
    VERBS,
    is_name,
)
from tripagent.adapters.rules.brief_reader.words import (
    CLIMB_PER_DAY,
    DAILY,
    PROFILE_WORDS,
    ROUND_TRIP,
    Locale,
    detect_locale,
)
from tripagent.domain.places import normalize

# Route separators typed between names: "Ordino - Canillo", "Arinsal → Ordino → Canillo".
_SEPARATOR = lazy(r"\s*(?:\s-|\s–|\s—|->|→|↔|<->|>|➡️|➡|👉|=>|⇒)\s*(?=\S)")

MAX_TURN_CHARS = 4000  # what the API accepts of a turn; a generation brief's line is read this far


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
_ROUTE_TAIL = lazy(
    r"\s+(?:en|in|for|pour|sur|dans|on|over|with|avec|during|a|à|vers|by|par|via|through|thru|passing"
    r"|en passant)"
    r"\s+.*$"
    r"|\s*\d.*$",
    re.IGNORECASE,
)


_ROUTE_LEAD = lazy(
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
            or COUNT_OF_DAYS.search(norm)
        ):
            return clause
    route = parts[0] + "".join(f" via {p}" for p in parts[1:-1]) + f" to {parts[-1]}"
    return f"{before} from {route}{after}" if before else route + after


_STARTING_AT = lazy(
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
_C_EST_A = lazy(
    r"\bc['’]est (?:à|a|de|d['’]|depuis) ?([^,.;!?\n]{1,60}?) qu['’]?(?:on|nous)"
    r" (?:commence|part|démarre|demarre)\w*",
    re.IGNORECASE,
)


# What riders write for the longest names, and their shorthand ("frm", "jusqua")
ABBREVIATIONS = {**vocabulary.aliases()["abbreviations"], **vocabulary.table("shorthand")}


# "to Pas", "back to Pas": a place's short name after a word of travel (not "pas de", "pas trop"...: French)
_SHORT_NAMES: dict[str, str] = vocabulary.aliases()["short_names"]
# ...and as written, before normalizing: "monter au Pas" (a capital: the place, not the negation)
_CASED_NAMES: dict[str, str] = vocabulary.aliases()["cased_short_names"]
_SHORT_NAME_CASED = lazy(
    rf"\b(au|du|à|from|to) ({one_of(re.escape(short.title()) for short in _CASED_NAMES)})\b(?! de)"
)
_PAS = lazy(
    r"\b(from|to|vers|depuis|back to|at|in|via|through|par|and|et|puis|then|du|le)\s+"
    rf"({one_of(map(re.escape, _SHORT_NAMES))})\b"
    r"(?!\s+(?:de|d|plus|trop|mal|encore|loin|beaucoup|cher|sur|question|forcement|vraiment|tres|si|du|des|la|le))"
)


_AND_TYPED_N = lazy(r"\bn (?=(?:end|come|back|then|go|ride|stay|return|finish)\b)")


_ABBREVIATIONS = lazy(r"\b(?:" + one_of(ABBREVIATIONS) + r")\b")


# "on arrive en bus à Soldeu", "we land by train in Canillo": where the ride starts
# the vehicles people come by ("en bus", "by train"): _ARRIVING_BY, _ARRIVING_IN_BY, _COMING_FROM
_VEHICLES = "bus|train|car|coach|voiture|avion|plane|navette"


_ARRIVING_BY = lazy(
    r"\b(?:arriv\w*|land\w*|get off|drop(?:ped)? off|descend\w* du bus)\s+(?:en|by|in the|with the|par le)\s+"
    rf"(?:{_VEHICLES}|taxi|shuttle)\s+(?:à|a|in|at|to)\s+"
    r"([^,.;!?\n]{1,40}?)(?=\s+(?:le|on|et|and|then|puis|the|,)\b|[,.;!?\n]|$)",
    re.IGNORECASE,
)


_ARRIVING_IN_BY = lazy(
    r"\b(?:arriv\w*|land\w*)\s+(?:in|at|à|a)\s+([^,.;!?\n]{1,40}?)\s+(?:by|en|in the|par le|with the)\s+"
    rf"(?:{_VEHICLES}|taxi|shuttle)\b",
    re.IGNORECASE,
)


# "we're staying in Escaldes, so that's where we'd start and finish": from there (a loop, said elsewhere)
_START_THERE = lazy(
    r"\b(?:that['’]?s|that is|c['’]est (?:de )?là) (?:where|que|qu['’]) ?(?:we|i|on|nous)"
    r"(?:['’]d|['’]ll| will| would)?"
    r" (?:start|begin|set off|part|commence)\w*( and (?:finish|end)\w*)?"
    # "... à Saint-Julien-de-Lòria, d'où nous partirons", "... to Sant Julià, and start riding there", "le bus
    # jusqu'à Saint-Julien-de-Lòria et je commence à rouler le lendemain"
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


_WAY_TO = lazy(r"(?i)\b(?:to|into|jusqu['’]?\s?(?:à|a|au|en)|jusqu['’]au|vers)\s+\S+[^.;!?]*$")


_WHEN_NEXT = lazy(r"(?i)\s+(?:on|this|next|tomorrow|demain|\d)")


# "départ et arrivée à Encamp", "start and finish in Ordino": a loop from there
_BOTH_ENDS_AT = lazy(
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
_LIVING_AT = lazy(
    # ("je suis à Aubinyà": where people are; not "je suis à vélo", no place)
    r"\b(habit\w*|vi[st]|vivons|r[ée]sid\w*|atterri\w*|atterr[io]\w*|vacances|s[ée]jour|suis|serai)"
    r"\s+(?:[àa]|au)(?![\w])",
    re.IGNORECASE,
)


# Setting off from home: where people live is then the start, said as plainly as after "from"
_FROM_HOME = lazy(
    r"\b(?:from (?:my|our|his|her) (?:front door|door|doorstep|place|house|flat|home|apartment)|from home"
    r"|(?:de|depuis) chez (?:moi|nous|lui|elle|eux)|de (?:ma|notre) maison|start\w* (?:at|from) home)\b",
    re.IGNORECASE,
)


def _home_left_out(match: re.Match[str]) -> str:
    """ "from our flat in Siltasaari": from Siltasaari; "starting at home in Espoo": starting in Espoo."""
    return "from" if match.group(1).lower() == "from" else "in"


_LIVING_IN = lazy(r"\b(?:i|we|he|she|they) (?:live|lives) (?:out )?(?:in|at)\b", re.IGNORECASE)


_AT_HOME_IN = lazy(
    r"\b(from|at) (?:home|my place|our place|my house|our house|my flat|our flat) in\b", re.IGNORECASE
)


# "we have a flat in Ullanlinna", "we've rented an apartment in Kallio": where people stay, a loose start
_STAYING_AT = lazy(
    r"\b(?:have|has|had|ve got|rent\w*|book\w*)\s+(?:a|an|our|my)\s+(?:little\s+|small\s+)?"
    r"(?:flat|apartment|airbnb|place|house|cabin|chalet)\s+(?:in|at)\b",
    re.IGNORECASE,
)


_LODGING_AT = lazy(
    r"\b(h[ôo]tel|appartement|appart|chalet|g[îi]te|camping|auberge|airbnb|coloc|studio|logement|location)"
    r"\s+(?:à|a)\s+(?=[^\W\d])",
    re.IGNORECASE,
)


_ARRIVED = lazy(
    r"\b(?:(?:sommes|est|suis|sont|êtes|etes) arriv[ée]e?s? (?:à|a|au|aux|en|dans)"
    r"|(?:we ve|we have|i ve|i have|we|i|just) (?:just )?arrived (?:in|at)"
    # where the way there leaves people, or they meet: "the bus drops us in La Massana", "we'll meet
    # in La Massana on Friday evening", "on se retrouve à Encamp" (what "from there" says next)
    r"|drops? (?:us|me|them) (?:off )?(?:in|at)|dropped (?:us |me )?off (?:in|at)"
    r"|(?:we['’ ]?ll|we will|we|to) meet (?:up )?(?:in|at)|(?:on se|nous nous) retrouve\w* (?:à|a|au|aux|en))"
    r"(?![\w'’])",
    re.IGNORECASE,
)


# "driving up to Pas de la Casa to start", "on monte en voiture jusqu'à Soldeu pour commencer": the start
_TO_START = lazy(
    r"\b(?:to|jusqu['’ ]?(?:à|a|au))\s+([^,.;!?\n]{1,40}?)\s+(?:to|pour)\s+"
    r"(?:start|begin|set off|commencer|partir|démarrer|demarrer)\b",
    re.IGNORECASE,
)


# "staying with a friend in Ordino", "je loge chez un pote à Kallio": staying there
_STAYING_WITH = lazy(
    r"\b(stay\w*) with (?:a |an |my |our |his |her |some )?(?:[\w'’-]+ ){0,2}?(in|at)\b"
    r"|\b(log\w*|dor\w*|sommes|suis|est|serons|serai) chez (?:un |une |des |mon |ma |mes |notre |nos )?"
    r"(?:[\w'’-]+ ){0,2}?(à|a|au)(?![\w'’])",
    re.IGNORECASE,
)


# Where a night or a stop is made on the way: "nuit à Canillo", "faire étape à Meritxell", "on s'arrêterait à
# Encamp", "on s'arrête dormir à Encamp" (not "on s'arrête à Soldeu": where the trip stops, an end)
_STOPPING_AT = lazy(
    r"\b(etapes?|étapes?|nuits?(?: de plus)?|dormir|on dort|d[ée]jeuner|manger|pique-niquer|pique-nique"
    r"|pause(?: caf[ée]| d[ée]jeuner| pique-nique| repas)?"
    r"|un caf[ée]|se baigner|boire un verre|go[ûu]ter"
    r"|s['’ ]arr[êe]t\w*\s+(?:dormir|manger|d[ée]jeuner|pour la nuit)|s['’ ]arr[êe]ter\w*)\s+(?:à|a)(?=\s)",
    re.IGNORECASE,
)


# "Boucle depuis Encamp : Meritxell, Prats, Ransol": the stops of the trip that starts there
_START_THEN_LIST = lazy(
    r"(\b(?:from|depuis|au d[ée]part d['’]|au d[ée]part de|starting (?:in|at|from)|d[ée]part (?:de|d['’]))"
    r"\s*[^:,.;!?\n]{1,40}?)\s*:\s*(?=[^\W\d])",
    re.IGNORECASE,
)


# "Trois jours en vélo de route : Arans, Ordino, La Massana, Escaldes": the places of a route, in order
_LISTED_ROUTE = lazy(r":\s*([^:;.!?\n]+?)\s*(?=[;.!?\n]|$)")


# "entre Kalasatama et Meilahti", "between Kallio and Eira": from one to the other
_BETWEEN = lazy(
    r"\b(?:entre|between)\s+(?!\d|les deux|deux|two|both)([^\W\d][^,.;!?\n]{0,40}?)\s+(?:et|and)\s+(?!\d)"
    r"([^\W\d][^,.;!?\n]{0,40}?)(?=\s*[,.;!?\n]|\s+(?:en|pour|in|on|with|avec|via|par|for|over|sur)\b|$)",
    re.IGNORECASE,
)


_UNDECIDED_BETWEEN = lazy(r"(?:torn|hesit\w*|undecided|choose|choisir|decid\w*|h[ée]sit\w*)\W+(?:\w+\W+)?$")


_BLANKS = lazy(r"[^\S\n]+")


# "Big trip: Lleida to Canillo", "Le plan : Ordino vers Soldeu": a heading, then the route as its own clause
# (not "Départ : Ordino" nor "Via: Encamp to Canillo", whose heading says what the names are)
_HEADING = lazy(
    r"(?im)^(?![^:\n]*\b(?:d[ée]part|start|from|depuis|de|arriv\w*|end|fin\w*|via|[ée]tapes?|stops?|par"
    r"|through))([^:\n]{1,30}):\s*(?=[^:\n]{1,60}?\s(?:to|->|→|vers|jusqu\w*|à)\s)"
)


_ARROWS = lazy(r"\s*(?:➡️|➡|👉|⇒|⟶|→)\ufe0f?\s*")


# "take the train to L'Hospitalet", "on prend le bus de Toulouse jusqu'à Saint-Julien-de-Lòria": where the way
# there ends, said like an end but where the ride may begin, loosely (a start said elsewhere wins)
_TAKING_TO = lazy(
    r"\b(?:take|taking|took|get|getting|got|catch\w*|hop\w* on|prend\w*|pris)\s+(?:the|a|an|le|la|l['’]|un"
    r"|une|our|my)\s*(?:\w+\s+)?(?:train|bus|coach|autocar|car|plane|flight|ferry|taxi|navette|shuttle"
    r"|minibus|tram|metro)\s+(?:[^\s.,;:!?]+\s+){0,3}?(?:to|into|jusqu['’]?\s?(?:à|a|au|en)|jusqu['’]au|vers)\s+"
    r"(?!back\b)",
    re.IGNORECASE,
)


# The ride's end said before the way away ("on termine au Pas de la Case pour prendre le bus vers Toulouse",
# "finish in Ax and catch the train to Toulouse"): that way leads home from the end, to no place of the trip
_WAY_HOME = lazy(
    r"(\b(?:termin\w*|finish\w*|fini\w*|end|ending|ends|last day|dernier jour)\b[^.;!?]{0,80}?)"
    + _TAKING_TO.pattern
    + r"[^,.;!?\n]{1,40}?(?=\s+(?:and|et|but|mais|so|donc|then|puis|home)\b|[,.;!?\n]|$)",
    re.IGNORECASE,
)


# A return said not to happen: "on ne revient peut-être pas à Ordino", "on ne rentrera pas à Canillo",
# "we won't come back to Encamp" (no end there: one way)
_TO_THERE = r"[^,.;!?\n…]{1,40}?(?=\s+(?:and|et|but|mais|so|donc|then|puis)\b|[,.;!?\n…]|$)"
_NOT_BACK_FR = lazy(
    r"\b(?:ne|n['’])\s*(?:revien\w*|reviendr\w*|rentr\w*|boucl\w*)\s+"
    r"(?:peut[- ][eê]tre\s+|plus\s+|finalement\s+)?"
    r"pas\b(?:\s+(?:à|a|au|vers|jusqu['’]?\s?(?:à|a|au))\s+" + _TO_THERE + ")?",
    re.IGNORECASE,
)
_NOT_BACK_EN = lazy(
    r"\b(?:won['’]?t|will not|not|don['’]?t|do not)\s+(?:be\s+)?"
    r"(?:com(?:e|ing)|go(?:ing)?|head(?:ing)?|loop(?:ing)?)"
    r"\s+back\b(?:\s+to\s+" + _TO_THERE + ")?",
    re.IGNORECASE,
)


# Where people come from is not where they start: "on est de Québec", "I'm from Italy"
_TRAVELLING_FROM = lazy(
    r"\b(driv\w*|drove|fly\w*|flew|train\w*|travel\w*|coming)\s+(?:down |up |over |in |out )?from\b",
    re.IGNORECASE,
)


# Where people come from by train, bus or boat: "on arrive de Barcelone en voiture", "from Toulouse by
# train", "with the ship from Travemünde" (loosely a start, like "flying from")
_TRANSPORT = rf"(?:{_VEHICLES}|bateau|ferry|ship|boat|minibus)"


_NOT_THE_STATION = r"(?!\s+(?:la gare|l['’]a[ée]roport|the (?:\w+ )?(?:station|airport|terminal)))"


_COMING_FROM = lazy(
    # ("vient de Lyon" is _FROM_ORIGIN's; "the train from Toulouse to L'Hospitalet" is all the way there)
    rf"\b(?:arriv\w*|descend\w*)\s+(?:à \d+ |a \d+ )?(?:de|d['’]|du|depuis)(?=\s*[^\W\d])"
    rf"|\b{_TRANSPORT}\s+(?:from\b|(?:depuis|de|d['’])(?=\s*(?-i:[A-ZÀ-Þ])))"
    # (the station or the airport the train goes to is no place of the trip: "en train de Turku à la gare")
    rf"(?!(?:\s*[\w'’-]+){{1,4}}\s+(?:to|jusqu\w*|à|a|vers)\b{_NOT_THE_STATION})"
    rf"|\b(?:de|d['’]|du|depuis|from)(?=\s*[^\W\d][\w'’-]*(?:[ -][^\W\d][\w'’-]*){{0,3}}\s+"
    rf"(?:en|by|on the|in the|with the|par le) {_TRANSPORT}\b(?!\s+(?:to|jusqu\w*|à|a|vers)\b))",
    re.IGNORECASE,
)


_NAME_BEFORE = lazy(r"(?-i:[A-ZÀ-Þ])[\w'’-]*\s+$")


def _coming_from(said: re.Match[str]) -> str:
    """Where people come from, loosely a start (not the "de" inside "Pas de la Casa by bus")."""
    if _NAME_BEFORE.search(said.string[max(0, said.start() - 30) : said.start()]):
        return said.group(0)
    return " comingfrom "


_NATIONALITY = (  # "je suis espagnol de Valencia", "nous sommes néerlandais, de Groningen"
    r"(?:\s+(?:[a-zéèëï]+(?:ais|aises?|ois|oises?|iens?|iennes?|ols?|oles?|ands?|andes?|ains?|aines?|ique|iques"
    r"|ish|ese|ian|ians|ch)|belges?|suisses?|basques?|catalans?|bretons?|retrait[ée]e?s?)\s*,?)?"
)


_FROM_ORIGIN = lazy(
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
_WHO_FROM = lazy(
    r"(?:\b(?:i['’]?m|i am|we['’]?re|we are)\s+(?:a|an|two|three|four|five|six)\s+(?:[\w'’-]+\s+){0,5}?from"
    r"|\b(?:friends|mates|buddies|colleagues|couple|family|group|riders?|cyclists?|guys|girls|lads) from)"
    r"\s*(?:(?!\s(?:to|jusqu\w*|vers|à|a)\s)[^,.;!?\n]){1,40}?"
    r"(?=\s+(?:and|et|but|mais|so|donc|who|qui|where|ou|with|avec)\b|[,.;!?\n]|$)",
    re.IGNORECASE,
)


# "plutôt d'Encamp que de Canillo", "rather from Encamp than from Canillo": what follows is not meant
_RATHER_THAN = lazy(
    r"(\b(?:plut[oô]t|rather)\s+[^,.;!?\n]{1,60}?)\s+(?:que|qu['’]|than)\s*(?:de |d['’]|du |from )?"
    r"[^,.;!?\n]+",
    re.IGNORECASE,
)


# A label and its colon: "Starting point: Aixovall", "start: la massana", "Arrivée : Escaldes"
_LABELS = [
    (
        lazy(r"^(?:starting point|start point|starting town|start|depart|point de depart|from)\s*:\s*"),
        "from ",
    ),
    (lazy(r"^(?:end point|end|finish|arrivee|destination|to|objectif|goal|but|fin)\s*:\s*"), "to "),
    (
        lazy(r"^(?:via|through|par|etapes?|stops?|passages?|waypoints?)(?: in order| dans l ordre)?\s*:\s*"),
        "via ",
    ),
    # the same without their colon, at a clause's start: "Start Encamp, end Soldeu", "depart encamp"
    (
        lazy(
            r"^(?:start|depart)\s+(?=[a-z])(?!(?:on|at|in|from|le|la|du|de|d|the|a|en|vers|tomorrow|and|n|et)\b)"
        ),
        "from ",
    ),
    (
        lazy(r"^(?:end|finish|arrivee|arrival)\s+(?=[a-z])(?!(?:on|at|in|of|le|la|du|de|d|the|a|en|vers)\b)"),
        "to ",
    ),
]


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


_MEANT = lazy(
    r"\b(?:not|pas|non|no)\s+([^\W\d][^,.;!?\n]{0,40}?)\s*[,;:]?\s*"
    r"(?:i mean|i meant|je voulais dire|je veux dire|i wanted to say|plut[oô]t)\s+"
    r"([^\W\d][^,.;!?\n]{0,40}?)(?=\s*[,.;!?\n]|$)",
    re.IGNORECASE,
)


# "Ah no, not Prats. Meritxell.", "oups pas Alppiharju, Alppila", "sorry, Etu-Töölö, not Taka": the place
# meant for another, said as a name beside the one it replaces
_NOT_THIS_BUT = lazy(
    r"(?:^|(?<=[,.;!?:\n]))\s*(?:(?:ah|oh|oops|oups|sorry|pardon|d[ée]sol[ée]e?)\s*[,.]?\s*)?"
    r"(?:(?:no|non)\s*[,.]?\s*)?"
    r"(?:not|pas)\s+(?P<was>" + _A_NAME + r")\s*[,.;:]\s*(?P<now>" + _A_NAME + r")(?=\s*[,.;!?\n]|$)",
    re.IGNORECASE,
)


_BUT_NOT_THIS = lazy(
    r"(?:^|(?<=[,.;!?:\n]))\s*(?P<now>" + _A_NAME + r")\s*,\s*(?:not|pas)\s+(?P<was>" + _A_NAME + r")"
    r"(?=\s*[,.;!?\n]|$)",
    re.IGNORECASE,
)


_THE_PLACE_IN = lazy(
    r"\b(?:the|our|my|his|her|their|a|an|le|la|l|notre|mon|ma|un|une) (?:\w+ ){0,2}?"
    r"(?:campsite|camping|hotel|hostel|station|apartment|flat|house|home|place|square|church|bridge|car park|"
    r"airbnb|gite|chalet|coloc|studio|appart|"
    r"parking|gare|maison|appartement|hotel|auberge|eglise|place|pont|airport|aeroport|harbour|port"
    r"|terminal)s? (?:in|at|of|de|d|du|a|vers) (?!jeunesse)"
)


# ...or someone's: "end at my sister's in Hakaniemi", "at our friends' in Encamp" (at Hakaniemi, at Encamp)
_SOMEONES_IN = lazy(
    r"\b(?:my|our|his|her|their) (?:\w+ ){0,2}?(?:\w+ s|(?:sister|brother|aunt|uncle|cousin|friend|mum|mom"
    r"|dad|parent|gran|grandma|grandpa|nan|mate|boss|colleague)s) (?:place |house |flat |home |apartment )?"
    r"(?:in|at) "
)


# ...and a sight at a place: "past the sanctuary at Meritxell", "le musée de l'auto à Encamp" (at it, not of
# it: "le parc de l'Esplanade" is no place)
_THE_SIGHT_AT = lazy(
    r"\b(?:the|le|la|l|les|a|an|un|une) (?:\w+ ){0,3}?(?:sanctuary|chapel|church|lake|museum|market|castle"
    r"|viewpoint|cafe|bakery|spa|park|waterfall|sanctuaire|chapelle|eglise|lac|musee|marche|chateau|parc"
    r"|belvedere|cascade|boulangerie|monument|statue|memorial|cathedral|cathedrale|tower|gallery|galerie|zoo"
    r"|garden|jardin|beach|plage|fortress|forteresse|palace|palais|stadium|stade|library|bibliotheque|theatre"
    r"|opera|sauna)s?(?: (?:de|d|du|des|of)(?: \w+){1,3}?)? (?:in|at|vers|near|by|pres de)"
    r" (?!jeunesse)"
)


def _from_one_to_the_other(m: re.Match[str]) -> str:
    if _UNDECIDED_BETWEEN.search(m.string[max(0, m.start() - 25) : m.start()]):
        return m.group(0)  # "torn between Encamp and Canillo": undecided, read as such
    return f"from {m.group(1)} to {m.group(2)}"


_LIST_LABEL = lazy(
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
            1 <= len(n.split()) <= 4 and is_name(n, strong=False) and n not in THERE_WORDS for n in names
        ):
            return m.group(0)
        return f": from {items[0]} to {items[-1]} via {', '.join(items[1:-1])}"  # (a list goes on last)

    return _LISTED_ROUTE.sub(route, text)


def clauses_of(text: str, locale: Locale = "en") -> list[tuple[str, bool]]:
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
    text = _SHORT_NAME_CASED.sub(  # "monter au Pas": capitalized
        lambda m: f"{m.group(1)} {_CASED_NAMES[m.group(2).lower()]}", text
    )
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
    text = _TAKING_TO.sub("comingfrom ", _WAY_HOME.sub(r"\1", text))
    text = _NOT_BACK_EN.sub(" ", _NOT_BACK_FR.sub(" ", text))  # (ONE_WAY reads the turn: one way)
    text = _BOTH_ENDS_AT.sub("loop from ", _START_THERE.sub(_starting_there, text))
    text = _ARRIVING_BY.sub(r"starting from \1", _ARRIVING_IN_BY.sub(r"starting from \1", text))
    # "on est arrivés à Encamp", "we've arrived in Soldeu": where people are now, loosely a start
    text = _TO_START.sub(r"; starting from \1;", _ARRIVED.sub(" comingfrom ", text))
    # "au même hôtel à Canillo", "un appartement à Punavuori": where it is, not where the trip goes
    text = _LODGING_AT.sub(r"\1 in ", text)
    marked = re.sub(
        r"(?i)\b(retour|revenir\b|rentrer\b|arriv\w*\b|jusqu)['’ ]?\s*a\s+(?=\w)", r"\1 vers ", text
    )
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
        norm = _PAS.sub(lambda m: f"{m.group(1)} {_SHORT_NAMES[m.group(2)]}", norm)
        norm = norm.replace(":", " ").strip()
        clauses.append((norm, travel))
    return clauses


# A clause about getting there or home by other means than the bike, in a sentence with no word of riding
# ("we fly to Barcelona and then take the bus", "drive home via Foix", "on dort à Ax la veille"): its places
# are where people pass, loosely said (a place abroad in it is no place of the ride). (Not the ferry: the
# one to Suomenlinna is part of a day's ride.)
_GETTING_THERE = lazy(
    r"\b(?:fly|flying|flies|flew|flight|plane|avion|bus|coach|train|tgv|car|voiture"
    r"|drive|driving|drives|drove|taxi|metro|tram|la veille|the night before"
    r"|comingfrom)\b"  # (what "by bus from", "en train de" were rewritten to)
)


_RIDING = lazy(
    r"\b(?:ride|rides|riding|rode|cycl\w*|bike|bikes|biking|velos?|pedal\w*|roul\w*|vtt|gravel|spin|loop"
    r"|boucle|start\w*|finish\w*|end|ending|fini[rst]?|finissons|finiron\w*|termin\w*|depart|arrivee"
    r"|part|pars|partons|partir|partira\w*|partiron\w*|one way|aller simple)\b"
)
