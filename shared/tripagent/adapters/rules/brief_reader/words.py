"""The words of a brief that are not places: counts and durations ("3 days", "a long weekend", "une
semaine", "make it four"), the bikes' common names, loops, lodgings, daily distances ("forty kilometres a
day"), "launch it" / "c'est bon", and which language a turn is in."""

from __future__ import annotations

import re

from tripagent.adapters.rules.brief_reader import vocabulary
from tripagent.adapters.rules.brief_reader.dates import MONTHS, WEEKDAYS
from tripagent.adapters.rules.brief_reader.itinerary import COMING_IN
from tripagent.adapters.rules.brief_reader.patterns import lazy
from tripagent.domain.brief import Locale, Profile
from tripagent.domain.places import normalize

__all__ = ["Locale", "Profile"]


NUMBERS = vocabulary.numbers()  # "two", "deux", "a" (week): their values
NUM = r"(\d{1,2}|" + "|".join(sorted(NUMBERS, key=len, reverse=True)) + r")"

NIGHTS = -2  # (a pattern's days) a count of nights, the days one more
HOURS = -24  # (a pattern's days) a count of whole days in hours: "48h in the Pyrenees" is two days
DURATION_PATTERNS: list[tuple[re.Pattern[str], int | None]] = [
    (
        lazy(
            r"\blong weekend\b|\blong week end\b|\bgrand week ?end\b|\b(?:week ?end|we) prolonge\b"
            r"|\bbank holiday weekend\b"
            r"|\b(?:faire le|un|ce|le) pont\b(?! d)"
        ),
        3,
    ),
    (lazy(r"\bweek ?end\b|\bfin de semaine\b|\bwe(?= du \d)"), 2),  # "we du 15-16": SMS French
    (lazy(r"\b(?:an? )?overnighter\b"), 2),  # a ride, a night out, a ride back
    (lazy(r"\b(?:a |one |une )?(?:fortnight|quinzaine)\b|\bquinze jours\b"), 14),  # two weeks
    (
        lazy(
            r"(?<!times )(?<!time )(?<!fois par )(?<!per )(?<!par )(?<!once )(?<!twice )"
            r"\b(a|one|une|1) (?:full |whole |entire |complete |pleine )?(week|semaine)\b"
        ),
        7,
    ),
    # "week in the pyrenees", "semaine dans les pyrénées", "Week-long tour"
    (
        lazy(r"^(week|semaine)(?= (?:in|en|a|au|loop|tour|trip|ride|boucle)\b)|\b(week)[ -]long\b"),
        7,
    ),
    (lazy(rf"\b{NUM} (weeks|semaines)\b"), -7),
    (lazy(rf"\b{NUM} and a half days?\b|\b{NUM} jours? et demi\b"), -1),  # a half day is a day
    (lazy(rf"\b{NUM}[ -]?(days?|dayz|dys|jours?|jrs|journees?|j|d)\b"), None),  # "2j"
    # "two nights", "une nuit en refuge": a day more than the nights (when no days are said)
    (lazy(rf"\b{NUM}[ -]?(nights?|nuits?)\b"), NIGHTS),
    (lazy(rf"\b(?:days|jours|duration|duree)\s*:\s*{NUM}\b"), None),  # "Days: 3"
    (lazy(r"\b(48|72|96) ?(?:h|hrs?|hours?|heures?)\b"), HOURS),
    (
        lazy(
            r"\b(?:a|one) (?:free|single|whole|full) day\b|\b(?:une|la|une seule) journee\b|\bday out\b"
            r"|\bjust the day\b|\bone day only\b|\bjuste la journee\b|\bsingle day\b"
            r"|\b(?:spend|for) (?:that|the|a|one) day\b|\b(?:pour|sur) la journee\b"
            r"|(?<!\d )(?<!\d)(?<!two )(?<!three )(?<!four )(?<!five )(?<!six )(?<!seven )(?<!multi )"
            r"\bday (?:trip|ride)\b"
            rf"|\b(?:just|only|juste|seulement) (?:the |on |le )?(?:{'|'.join(WEEKDAYS)})\b"
        ),
        1,
    ),
    (lazy(rf"\b{NUM} (?:is enough|will do|suffit|suffiront|c est assez)\b"), None),  # "3 is enough"
    (
        lazy(rf"\b(?:in|en|sur) {NUM} (stages|etapes)\b"),
        None,
    ),  # "itinéraire en trois étapes": a day each
]
# Words putting a decision off: "depends on my legs", "on verra sur place", "je te redis", "I'll decide on
# the day", "we'll talk tonight and decide"
_DEFERRING = (
    r"(?:not sure|unsure|don t know|dunno|idk|no idea|undecided|haven t decided|havent decided|not decided"
    r"|can t decide|cant decide|what do you think|what would you (?:suggest|recommend)"
    r"|t en penses quoi|vous en pensez quoi|qu en pensez vous"
    r"|cannot decide|still deciding|still thinking|torn|tbd|to be decided|sais pas|sait pas|jsp|chais pas"
    r"|hesite|hesitons|pas sur|pas encore (?:decide|tranche|choisi|fixe)\w*|a voir|on verra|we ll see"
    r"|will see|depends|depending|ca depend|selon|whatever s nicer|on decidera|we ll decide|i ll decide"
    r"|decide (?:later|on the day|tonight|tomorrow)|(?:talk|think) (?:about it )?(?:tonight|later)"
    r"|je vous dirai|je te dirai|je (?:vous|te) redis|on (?:vous|te) redit|will tell you|haven t made up"
    r"|haven t figured|sais plus|sait plus|still arguing|let me think|laisse moi reflechir|je reflechis"
    r"|i ll think|get back to you|come back to you|je reviens vers (?:toi|vous))"
)
_DAYS = r"(?:days?|jours?|journees?)"
# what a choice between lengths begins with: "either a weekend or a long weekend", "soit 2 jours"
_NOT_A_LENGTH = (
    r"(?! (?:a |an |one |un |une |\d+ |two |three |deux |trois )?(?:long |full |grand )?"
    r"(?:week|day|night|jour|semaine|nuit))"
)
# A group that has not agreed yet: "we'll vote tonight", "no decision yet", "pas encore tranché", "no
# consensus", "plus personne n'est d'accord", "the end is where we're stuck"
_NOT_AGREED = (
    r"(?:no decision|pas de decision|aucune decision|not decided|undecided|pas decidee?s?"
    r"|pas (?:encore )?tranche"
    r"|no consensus|pas de consensus|(?:can t|cannot|couldn t|don t|do not) agree|pas d accord"
    r"|(?:can t|cannot|couldn t) make up (?:our|my) minds?"
    r"|still (?:arguing|debating|discussing)|(?:we re|we are|on est) (?:stuck|bloques?)|where we re stuck"
    r"|(?:on )?refait un vote|(?:we ll|we will|on va|going to|will) (?:have a )?vote"
    r"|vote (?:tonight|tomorrow|on"
    r"|this|demain|ce soir|jeudi|vendredi|samedi|dimanche)|se reunit \w+ pour decider"
    r"|remet\w* tout en question)"
)
_NOT_DAYS = (
    r"(?! (?:nights?|nuits?|km|kms|h|hours?|heures?|people|personnes|of us|kids|enfants|friends?|amis?|potes?"
    r"|copains?|copines?|riders?|cyclists?|adults?|adultes?|bikes?|velos?)\b)"
)
_A_LENGTH = (  # a length of trip however said: "2 jours", "a long weekend", "une semaine"
    rf"(?:{NUM} (?:{_DAYS}|nights?|nuits?)|(?:a |an |un |une )?(?:long |grand |full |whole )?"
    r"(?:week ?end|week|semaine))\b"
)
_TWO_COUNTS = (
    rf"(?:\b{NUM} (?:{_DAYS} (?:or |ou |to |a )?|or |ou |to |a )(?:maybe |peut etre )?{NUM} {_DAYS}\b"
    rf"|\b\d{{1,2}} \d{{1,2}} {_DAYS}\b"  # ("3-4 days")
    rf"|\b{NUM} {_DAYS}[ ?,]+{NUM}\b{_NOT_DAYS})"
)
UNDECIDED = lazy(
    r"\b(?:une journee|un jour|a day|one day|a day trip|une sortie)\s+(?:ou|or)\s+(?:en\s+|in\s+)?"
    r"(?:deux|two|2)\b|"
    rf"\b(?:sais pas|not sure|no idea|dunno|on verra|we ll see)\b.{{0,20}}\b{NUM} (?:ou|or) {NUM}\b|"
    r"\b(?:une journee|un jour|a day|one day|a day trip|une sortie)\s+(?:ou|or)\s+"
    r"(?:(?:a|un|une|deux|two|2)\s+)?(?:long )?(?:week ?end|jours|days|journees|nights?|nuits?)\b|"
    rf"\b{NUM} (?:days? |jours? )?(?:or|ou|to|a) {NUM} (?:days?|jours?)\b|\bentre {NUM} et {NUM} jours\b"
    # "(en 2 jours) hmm ou 3, je sais plus": another count, and a word of doubt
    rf"|^(?:\w+ )?(?:ou|or) (?:maybe |perhaps |peut etre )?{NUM}\b[^.!?]{{0,20}}"
    r"\b(?:sais plus|sais pas|not sure|dunno|idk|jsp|je sais plus|on verra|we ll see|i ll check)\b"
    rf"|\bcould be {NUM}(?: days?)?\b.{{0,30}}\bcould be\b|\bca pourrait etre {NUM}\b.{{0,30}}\bou\b"
    rf"|\b(?:maybe|perhaps|peut etre) {NUM} (?:days?|jours?),? ?(?:or |ou )?(?:maybe |perhaps |peut etre )?"
    rf"{NUM}\b"
    rf"|\b(?:maybe|perhaps|peut etre) {NUM},? (?:or |ou )(?:maybe |perhaps |peut etre )?{NUM}"
    rf" (?:days?|jours?)\b"
    # "a long weekend or a full week", "in a day or split it over two", "3 jours, sinon 2"
    r"|\b(?:a|one|un|une) (?:long |full )?(?:week ?end|week|semaine|day|journee|jour) (?:or|ou)"
    r" (?:a|an|une|un) (?:full |long |whole |grande |entire )?(?:week ?end|week|semaine|days?|jours?)\b"
    # "either a week or maybe ten days", "soit une semaine soit dix jours"
    rf"|\b(?:either|soit) (?:a|one|un|une|{NUM}) (?:week ?end|week|semaine|days?|jours?) (?:or|ou|soit)"
    rf" (?:maybe |perhaps |peut etre )?(?:a|one|un|une|{NUM}) (?:week ?end|week|semaine|days?|jours?)\b"
    # "3 jours ou 4, on verra", "on hésite entre 1 nuit ou 2" (not "a hut for a night or two")
    rf"|\b(?!(?:a|un|une) ){NUM} (?:days?|jours?|nights?|nuits?) (?:or|ou) {NUM}\b"
    r"|\b(?:in a|in one|en une|en un)\s+(?:day|journee|jour)\b.{0,20}\b(?:or|ou)\b.{0,15}"
    r"\b(?:split|spread|over|sur|en)\b.{0,20}\b(?:two|deux|2)\b"
    rf"|\b{NUM} (?:jours|days)\b[^.]{{0,20}}\b(?:sinon|otherwise|or else)\s+{NUM}\b"
    r"(?! (?:velos|bikes|people|of us|personnes|adultes|adults|enfants|kids|vae)\b)"
    # two counts of days beside a decision put off: "3-4 days depends on legs", "2 jours ? 3 ? ça dépend",
    # "on ne sait pas encore... sur une ou deux journées"
    rf"|\b{_DEFERRING}\b.{{0,60}}{_TWO_COUNTS}|{_TWO_COUNTS}.{{0,40}}\b{_DEFERRING}\b"
    # a count each: "my partner says 2 days, I say 3", "il veut 2 jours, moi 3"
    rf"|\b(?:says?|wants?|veut|dit)\b {NUM}(?: {_DAYS})?\W+(?:i|me|moi|je)(?: \w+)? {NUM}\b"
    # a count only if: "si ça tient, 3 jours, sinon on raccourcira", "3 days if the weather holds, otherwise"
    rf"|\b(?:si|if)\b[^.!?]{{0,25}}\b{NUM} {_DAYS}\b[^.!?]{{0,25}}\b(?:sinon|otherwise|or else|else)\b"
    # "between 3 and 5 days", "entre 3 et 5", "probably 3 or 4 nights", "2-3 nuits"
    rf"|\b(?:between|entre) {NUM} (?:and|et) {NUM} (?:{_DAYS}|nights?|nuits?)\b"
    rf"|\b(?:between|entre) {NUM} (?:{_DAYS}|nights?|nuits?) (?:and|et) {NUM}\b"
    rf"|\b{NUM} (?:nights? |nuits? )?(?:or|ou|to|a) {NUM} (?:nights?|nuits?)\b"
    # "this time 4 or 5, not sure yet": two counts, then a decision put off
    rf"|\b{NUM} (?:or|ou) {NUM}\b{_NOT_DAYS}[^.!?]{{0,25}}\b{_DEFERRING}\b"
    # "nombre de jours : 3 ou 4, Jean-Luc doit vérifier ses congés": two counts for the days
    r"|\b(?:nombre de jours|number of days|how many days|how long|combien de jours|days|jours)\b"
    rf"\W[^!?]{{0,60}}"
    rf"\b{NUM} (?:or|ou) {NUM}\b{_NOT_DAYS}"
    # "on hésite entre 2 jours et un long week-end", "torn between a weekend or 3 days"
    rf"|\b(?:hesit\w*|torn|undecided|between|entre)\b[^.!?]{{0,15}}?{_A_LENGTH} (?:et|and|ou|or) {_A_LENGTH}"
    # "un long week-end ou juste le samedi, à voir"
    rf"|{_A_LENGTH} (?:ou|or) (?:juste |just |only |seulement )?(?:le |the |on )?"
    rf"(?:{'|'.join(WEEKDAYS)})\b[^.!?]{{0,30}}\b{_DEFERRING}\b"
)
# "1 jour, route, hôtel": among the slots of a list, "route" is the road bike (not "une belle route")
ROAD_IN_A_LIST = lazy(r"(?:^|,|:)\s*(?:en |à |a )?route\s*[.!]?\s*(?:,|$)", re.MULTILINE)
# "not sure yet where to start", "je ne sais pas d'où partir": the start is not said
_NO_COUNT = r"(?!\s*(?:\d|one|two|three|four|five|un|une|deux|trois|quatre|cinq)\b)"  # "maybe 3 or 4 days"
# (torn between two bikes or two beds is no start left open: "on hésite entre VTT et gravel")
_NOT_BIKE_OR_BED = (
    r"(?! (?:le |la |les |l |a |the |des |du )?(?:vtt|gravel|route|road|velo\w*|bike\w*|mtb|vae|e ?bikes?"
    r"|hybrid\w*|electri\w*|camping|camp\w*|hotel\w*|hostel\w*|auberge\w*|refuge\w*|huts?|b b|gites?)\b)"
)
START_UNKNOWN = lazy(
    # two people, two starts: "my husband wants to start in Ordino, I want Canillo", "ma femme veut partir
    # de Sant Julià, moi d'Aixovall", "he wants to start in la massana and i want escaldes"
    r"\b(?:wants?|veut|voudrait|would like) (?:to )?(?:start|partir|commencer|begin)\b[^.!?]{1,40}?"
    r"\b(?:i|moi|me) (?:want|d rather|would rather|prefer\w*|veux|voudrais|prefere\w*|de|d|du)\b"
    # "Canillo or Soldeu start", "trois départs possibles", "three options for the start"
    r"|\b(?!\d)[a-z]\w* (?:or|ou) (?!\d)[a-z]\w* (?:start|depart)(?= (?:end|arrivee|fin|and|et)\b|$)"
    r"|\b(?:deux|trois|quatre|two|three|four) (?:departs|starts|starting points|points de depart) possibles\b"
    r"|\b(?:two|three|four) options for the start\b|\bpossible starts\b|"
    # "doesn't matter where we start", "peu importe le départ", "n'importe où pour le départ"
    r"\b(?:doesn t matter|does not matter|don t care|no matter|whatever|anywhere(?: is fine)?) where"
    r" (?:we |i )?(?:start|begin|set off)\b"
    r"|\bpeu importe (?:le |d ou |ou on )(?:depart|part\w*|commence\w*)\b"
    r"|\b(?:depart|start)\w*\W{0,3}(?:peu importe|n importe ou|doesn t matter|anywhere|wherever)\b|"
    # "idk, somewhere near the centre, wherever the rental place is": where the bikes are, not known yet;
    # "là où on sera logés, pas encore réservé", "from wherever we end up staying"
    r"\bwherever the (?:rental|bike|hire)\w*\b|\bla ou (?:on loue|est le loueur|sont les velos)\b"
    r"|\bla ou (?:on|nous) (?:sera|serons|dormira|logera)\w*\b"
    r"|\b(?:de|depuis) la ou (?:on|nous) (?:dort|dormons|loge|logeons)\b"  # "on partirait de là où on dort"
    r"|\bwherever we (?:end up )?(?:stay|sleep)\w*\b|"
    # "pour le départ je sais pas trop", "départ ? je sais pas", "the start, no idea yet"
    r"(?:^|\b(?:pour le|le|the|as for the|for the|quant au|where to|d ou) )"
    r"(?:depart|start|starting point|point de depart|partir)\b"
    r"\W{0,3}(?:(?:je|on|i|m|we|re|honestly|still|well|so|bon|alors|euh|hmm) )*"
    r"(?:je sais pas|on sait pas|sais pas|je ne sais pas|on ne sait pas|not sure|no idea|dunno|idk"
    r"|pas encore decide|on verra|we ll see)\b|"
    r"\b(?:not sure|don t know|do not know|no idea|undecided|haven t decided|pas sur|sais pas|aucune idee"
    r"|pas encore decide)\b.{0,30}\b(?:where|d ou|ou)\b.{0,20}\b(?:start|begin|set off|partir|commencer)"
    rf"|\b(?:torn|hesitating|undecided) (?:\w+ )?between\b{_NOT_BIKE_OR_BED}"
    r"|\b(?:or|ou) (?:maybe |perhaps )?\w+(?: \w+)?"
    r" (?:as (?:a |the |our )?start(?:ing point)?|comme (?:point de )?depart)\b"
    # (but a count: the days are undecided)
    r"|(?<!arrivee )(?<!l arrivee )(?<!la fin )\bon hesite (?:encore |toujours )?entre\b"
    rf"(?! (?:\d|un|une|deux|trois|quatre|cinq|six|sept|a|one|two|three)){_NOT_BIKE_OR_BED}"
    r"|\beither\b.{0,40}\bor\b.{0,60}\b(?:start|depart)|\bcan t decide\b.{0,20}\bstart"
    # "start somewhere near La Massana, I don't know"
    r"|\bstart\w* (?:from )?somewhere (?:near|around|close to|in)\b"
    r"|\bstart\b.{0,30}\bcan t decide"
    r"|\b(?:haven t decided|not decided|undecided|pas decide|pas encore decide)\b"
    r"(?:(?!date|jour|heure|day|time)[^.!?]){0,20}\b(?:start|depart)\w*\b"  # (not "la date de départ")
    r"|\bsoit (?:on part |on commence |depart |partir )?(?:de|d|depuis)\b.{0,80}\bsoit\b"
    r"|\bpas (?:encore )?(?:decide|tranche)\w* (?:pour |sur )?(?:le |l )?(?:depart|point de depart|start)\b"
    r"|\b(?:maybe|perhaps|peut etre|either) \w+(?: \w+)? (?:or|ou) \w+(?: \w+)?"
    r" (?:to start|as (?:the |a )?start|pour (?:le )?depart|pour commencer)\b"
    r"|\b(?:depart|start\w*)\b[^.!?\d]{0,15}\b(?:peut etre|maybe|perhaps)\b"
    + _NO_COUNT
    + r"[^.!?\d]{1,40}\b(?:ou|or)\b"
    r"|\b(?:depart|start\w*|partir\w*|pars|part)\b[^.!?\d]{0,15}\b(?:peut etre|maybe|perhaps)\b"
    + _NO_COUNT
    + r"[^.!?\d]{1,30}\b(?:peut etre|maybe|perhaps)\b"
    # "on ne sait pas encore d'où on partira", "jsp d'où je pars", "no idea where we'll start"
    r"|\b(?:sais pas|sait pas|jsp|no idea|not sure|don t know|dunno|idk|aucune idee) (?:encore |yet )?"
    r"(?:d ou|where) (?:on |je |nous |we |i |we ll |i ll |we d |i d )?"
    r"(?:part\w*|pars|commence\w*|start\w*|begin\w*|set off)\b"
    # "not sure about Encamp anymore, could start somewhere else"
    r"|\b(?:start\w*|partir|part|pars|begin) (?:from |de |d )?(?:somewhere else|elsewhere|ailleurs)\b"
    # "if it's Toulouse we'd start at Pas de la Casa, if Barcelona then from Sant Julia": a start only if
    r"|\b(?:if|si)\b[^.!?]{1,40}\b(?:start\w*|from|depart|partir\w*|part|pars)\b[^.!?]{1,60}[,;]?\s*"
    r"(?:and |et |or |ou |but |mais )?(?:if|si)\b[^.!?]{1,40}"
    r"\b(?:start\w*|from|depart|partir\w*|part|pars|de|d)\b"
    r"|\bhesit\w* (?:encore |toujours )?pour le depart\b"
    r"|\bwhere (?:should|could|can|would) (?:we|i) start\b"
    # "where do I start... honestly not sure yet, either La Massana or Ordino"
    r"|\b(?:start|depart)\w*(?: (?!(?:then|puis|and|et|end|finish|arriv|fin)\w*\b)\w+){0,4}?"
    rf" (?:either|soit)\b{_NOT_A_LENGTH}"
    r"(?! (?:we |i |on )?(?:loop|come back|end|finish|go back|back|revenir|rentrer|boucle|finir))"
    r"[^.!?]{1,40}\b(?:or|ou|soit)\b"
    # "so can't tell you the start yet"
    r"|\b(?:can t|cannot) (?:tell you|say|give you) (?:the |where we )?(?:start|depart)\w*"
    # "Start is... hmm, I'm crashing on a guy's couch, no idea what the neighbourhood's called"
    r"|\bstart\w*\b[^!?]{0,100}\b(?:no idea|not sure|don t know|dunno) (?:what|how) (?:the |this |that |it )?"
    r"(?:\w+ )?(?:s |is )?called\b"
    r"|\b(?:sais plus|sais pas|not sure|don t know|no longer sure)\b (?:si|if|whether) (?:je|j|on|nous|i|we)"
    r" (?:pars|part|partir|partons|start|leave|set off) (?:from|de|d|du|des|in|at)\b"
    r"|\b(?:start|depart)\w*\W{1,3}(?:wherever|anywhere|n importe ou|peu importe)\b"
    r"|\bwhere (?:we|i) (?:kick off|start|begin|set off)\b.{0,20}\b(?:no clue|no idea|not sure|don t know)"
    r"|\b(?:starting|start|from) (?:point )?(?:maybe |perhaps |either |peut etre )?(?:somewhere )?"
    r"(?:around |near |in |from |at )?"
    r"(?!\d)[a-z]\w*(?: (?!\d)[a-z]\w*)? or (?!\d)[a-z]\w*"
)
# "let's leave the number of days open", "aucune idée du nombre de jours": the duration is not said
DAYS_UNKNOWN = lazy(
    # "some of the group want to blast it in one day, others want two"
    r"\b(?:some|certains|half|la moitie)\b[^.!?]{0,60}\b(?:days?|jours?|journee)\b[^.!?]{0,20}"
    r"\b(?:others|the others|the rest|d autres|les autres)\b|"
    r"\b(?:leave|keep) the (?:number of )?days open\b"
    # "je vais réfléchir à la durée", "I'll think about how long"
    r"|\b(?:reflechi\w*|think\w* about|mull\w* over) (?:a |about )?(?:la |the )?(?:duree|length|how long"
    r"|how many days|number of days|nombre de jours|combien de jours)\b"
    # "le weekend, ou peut-être plus, on verra", "might turn it into a couple of days, might not"
    r"|\b(?:ou peut etre plus|or maybe (?:more|longer)|ou plus longtemps|or longer)\b[^.!?]{0,20}"
    r"\b(?:on verra|we ll see|not sure|no idea|depends|ca depend\w*|je sais pas|dunno)\b"
    r"|\bmight turn it into\b[^.!?]{0,30}\bmight not\b"
    # "pour la durée on sait pas encore", "how many days, no idea yet"
    r"|\b(?:la duree|how many days|combien de jours|how long)\b(?: \w+)?"
    r" (?:on (?:ne )?sait pas|je (?:ne )?sais pas|no idea|not sure|dunno|idk|pas sur|aucune idee|on verra)\b"
    # "we can't agree on how long", "le nombre de jours : le bureau se réunit jeudi pour décider"
    rf"|\b(?:how long|combien de temps|nombre de jours|number of days|duree)\b[^!?]{{0,60}}\b{_NOT_AGREED}\b"
    # "two want to do it in one go, the other two want to split it over two days... no consensus yet"
    rf"|\b(?:in one go|d un coup|d une traite|split it|couper)\b[^!?]{{0,100}}\b{_NOT_AGREED}\b"
    rf"|\b{_NOT_AGREED}\b[^!?]{{0,20}}\b(?:on|about|sur|pour|for) (?:the )?"
    r"(?:how long|number of days|nombre de jours|duree|days|jours)\b"
    r"|\b(?:not sure|don t know|no idea) how long\b(?! each| every| a | per | the stages?| stages?)"
    r"|\bfor as long as it takes\b|\bas long as (?:we|i) (?:like|want|feel like)\b"
    r"|\bwhatever it takes\b|\ble temps qu il (?:faut|faudra)\b|\bautant qu il (?:faut|faudra)\b"
    r"|\bau jour le jour\b"
    # "not sure if it's a day ride or if I stay over", "je sais pas si je le fais en 1 jour ou si je dors"
    r"|\b(?:not sure|don t know|no idea|sais pas|ne sais pas)\b (?:yet |encore )?(?:if|whether|si)\b"
    r"[^.!?]{0,40}\b(?:a|one|1|une|un|en une|en 1|in a|in one) (?:day|jour|journee)\b[^.!?]{0,20}"
    r"\b(?:or|ou)\b"
    r"|\bnot sure about (?:the )?(?:\w+ )?days\b|\bpas sur (?:pour|des|de|du) (?:\w+ )?jours\b"
    r"|\b(?:sais pas|ne sait pas|aucune idee) (?:encore )?combien de temps\b"
    r"|\bnot sure (?:yet )?(?:how many |about the (?:number of )?)days\b"
    r"|\b(?:don t|do not) know (?:yet )?(?:how many days|the number of days)\b"
    r"|\bhaven t (?:worked out|decided|figured out) (?:on )?(?:the number of |how many )?days\b"
    r"|\b(?:nombre de jours|number of days|how many days|combien de jours)\b[^.!]{0,20}"
    r"\b(?:aucune idee|pas encore|sais pas|on verra|ouvert|no idea|not sure|dunno)\b"
    r"|\b(?:je ne sais pas|on ne sait pas|je sais pas|on sait pas|sais pas|jsp|aucune idee) (?:encore )?"
    r"(?:combien de jours|du nombre de jours)\b"
    # "I shall let you know how many days", "how long? depends on the kids", "maybe 2 days, let me check"
    r"|\b(?:let you know|tell you|get back to you|confirm)\b.{0,25}"
    r"\b(?:how many days|how long|combien de jours)\b"
    r"|\bhow long\b\W{0,3}(?:\w+ )?(?:depends|no idea|not sure|dunno|idk|we ll see)\b"
    r"|\bdecide (?:that )?later\b"
    # a question back: "combien de jours tu conseilles ?", "how many days would you suggest?"
    r"|\b(?:how many days|combien de jours)\b[^.!]{0,30}\b(?:recommend\w*|suggest\w*|advis\w*|conseill\w*"
    r"|recommand\w*|propos\w*|faut il|should (?:we|i))\b"
    rf"|\b(?:maybe|perhaps|peut etre|might be|could be) {NUM} (?:days?|jours?)\b.{{0,30}}"
    r"\b(?:check|let me|ask|see|verra|confirm|not sure)\b"
)
# "on finira sans doute à El Serrat ou peut-être à Llorts, je sais pas encore": the end is not said
_STILL_OPEN = (
    r"(?:not sure|don t know|no idea|undecided|haven t decided|havent decided|not decided|sais pas|pas sur"
    r"|pas encore"
    r"|can t decide|cannot decide|still chewing|still thinking|still deciding|pas encore fixe|pas fixe"
    r"|aucune idee|on verra|we ll see|on en discute|on en parle|je choisirai|i ll decide|we ll decide)"
)
# Words of indecision ("not sure", "idk", "j'hésite", "on verra", "depends"): two places or a loop joined by
# "or" beside them are a choice left open (CHOICE_BETWEEN, LOOP_OR_NOT)
HESITATING = lazy(rf"\b{_DEFERRING}\b")
# what lies between two places that are alternatives: "Ordino... ou Llorts", "El Serrat? or Llorts"
CHOICE_BETWEEN = lazy(r"^\W*(?:\w+ )?(?:or|ou|either|soit|sinon)\b.{0,20}$")
_BACK = r"(?:loop|boucle|come back|coming back|back to|revien\w*|reven\w*|rentr\w*|retour)"
# what follows an "or" that says how, not where: "si on rentre en train ou en bus"
_BY_WHAT = (
    r"(?! (?:en |by |par |in the |with the |a )?"
    r"(?:train|bus|car|voiture|taxi|navette|plane|avion|ferry|bike|velo)\b)"
)
# "either come back to Canillo or end in La Massana", "je sais pas si je fais une boucle ou si je finis
# ailleurs", "back to it or maybe end at Hakaniemi"
LOOP_OR_NOT = lazy(
    # "would a loop be nicer or ending in Pas de la Casa?"
    r"\b(?:loop|boucle)\b.{0,30}\b(?:or|ou)\b.{0,10}\b(?:end\w*|finish\w*|fini\w*|termin\w*)\b|"
    rf"\b{_BACK}\b(?: (?:to )?(?:it|there|the start|home))?\W+(?:or|ou) (?:maybe |perhaps |peut etre )?"
    r"(?:end|finish|fini\w*|termin\w*)\b|"
    rf"\b(?:either|soit|maybe|peut etre|si|if|whether)\b.{{0,30}}\b{_BACK}\b.{{0,50}}"
    rf"\b(?:or|ou|soit|maybe|peut etre)\b{_BY_WHAT}"
    rf"|\b(?:or|ou|soit)\b{_BY_WHAT}.{{0,30}}\b{_BACK}\b"
)
# A group not agreed ("nobody agrees", "half want... half want", "Mum wants Ordino, Dad says Canillo", a poll
# tied): two places said for one end leave it open
# ...and the second wish, after the place of the first: "my dad wants to start in Soldeu, my mum wants
# Canillo", "les garçons veulent finir à Pas de la Casa, ma femme préférerait Grau Roig"
RIVAL_WISH = lazy(
    r"[^.!?]{0,40}?\b(?:wants?|veut|veux|veulent|voudrai\w*|prefers?|prefere\w*|would rather|d rather"
    r"|pushing for|pousse pour|votes? for|voted for)\b"
    r"(?! (?:to (?!start|finish|end|begin)|de (?!partir|finir|commencer|terminer)|that|it|this|ca|cela|le|la"
    r"|les|some|more|less|plus|moins|un|une|a|an|the|one way|loop|boucle|aller)\b)"
    r"(?: (?:to )?(?:start|finish|end|begin)| (?:de )?(?:partir|finir|commencer|terminer|arriver))?"
    r"(?: (?:in|at|a|au|de|d|from|with))? (?!\d)[a-z]"
)
DISAGREEING = lazy(
    r"\b(?:nobody|no one|noone) agrees\b|\bpersonne n est d accord\b|\bpas d accord\b|\bcan t agree\b"
    r"|\bcannot agree\b|\bdon t agree\b|\bdisagree\w*|\btie\b|\begalite\b|\bargu(?:e|ed|ing|ment)\b"
    r"|\bdebat\w*|\bse disputent\b|\bon se dispute\b|\bhalf (?:of )?(?:us|the group|them )?(?:wants?|say)\b"
    r"|\bla moitie\b|\bboth options\b|\bles deux options\b|\bvotes?\b|\bsondage\b|\bpoll\b"
    r"|\b(?:says|wants|(?<!\bon )veut|veulent|dit|disent|prefers|prefere\w*)\b.{1,80}"
    # (by someone else: not "my wife says she wants")
    r"\b(?!(?:she|he|they|it|elle|il|ils|elles|on|qu elle|qu il)\b)\w+"
    r" (?:wants|(?<!\bon )veut|veulent|prefers|prefere\w*|says|dit|would rather|d rather)\b"
    # ...or by the writer: "my husband wants to start in Ordino, I want Canillo", "she wants X, I'd rather Y"
    r"|\b(?:says|wants|(?<!\bon )veut|prefers|prefere)\b.{1,80}\b(?:i|moi|moi je)"
    r" (?:want|d rather|would rather|prefer|veux|prefere|say|dis|aimerais)\b"
)
# words of passing: what follows is a stop ("as long as we go through Encamp")
VIA_WORD = lazy(r"\b(?:via|through|thru|par|passing|passer|passant|stop\w*|see|voir|visit\w*)\b")
# "not sure about Soldeu anymore, maybe further", "peut-être ailleurs": an end beyond the one said
FURTHER_OR_ELSEWHERE = lazy(
    r"\b(?:maybe|perhaps|peut etre|or|ou|sinon) (?:further|farther|plus loin|elsewhere|ailleurs"
    r"|somewhere else|autre part)\b"
)
# the nearest of these before a choice says which end it is for: "départ de Sant Julià... ou de Pas"
START_WORD = lazy(r"\b(?:depart|start\w*|partir|partons|part|from|depuis|base|begin\w*|set off)\b")
END_WORD = lazy(
    r"\b(?:arrivee|arriver|end\w*|finish\w*|fin|finir|finit|termin\w*|to|jusqu\w*|vers|destination)\b"
)
END_UNKNOWN = lazy(
    r"\bnot sure (?:yet )?where to (?:end|finish)\b"
    # "pour l'arrivée on verra sur place", "je réfléchis à la destination", "the end, we'll see"
    r"|\b(?:l arrivee|la destination|the end|the finish|the end point|the destination)\b(?: \w+){0,2}?"
    r" (?:on verra|we ll see|a voir|to be decided|tbd|still open|pas decidee?)\b"
    r"|\b(?:reflechi\w*|think\w* about|mull\w* over) (?:a |about )?(?:la |the )?(?:destination|arrivee"
    r"|end|finish"
    r"|end point|where to (?:end|finish)|ou (?:finir|arriver|terminer))\b"
    # "we'll figure out where to finish later", "on verra où finir"
    r"|\b(?:figure out|work out|sort out|decide|verra) (?:later )?(?:where|ou) (?:to |we ll |we |on )?"
    r"(?:end|finish|finir|terminer|arriver)\b"
    # a question back: "tu proposes quoi pour l'arrivée ?", "where would you suggest we finish?"
    r"|\b(?:tu proposes|vous proposez|tu conseilles|vous conseillez|tu suggeres|you suggest|you recommend"
    r"|would you suggest|would you recommend)\b[^.!]{0,30}\b(?:arrivee|finir|terminer|end|finish|ending)\b"
    r"|\b(?:arrivee|finir|terminer|end|finish|ending)\b[^.!]{0,30}\b(?:tu proposes|vous proposez"
    r"|tu conseilles|vous conseillez|you suggest|you recommend|would you suggest|would you recommend)\b"
    # "Paul wants to finish at Soldeu, Marc is pushing for Arinsal, we'll vote tonight", "no decision on
    # the end yet", "arrivée pas décidée pour l'instant" (not the days: "how long? we can't agree")
    rf"|\b(?:end|ending|finish|finishing|arrivee|fin|finir|terminer|destination|boucle|loop|aller simple"
    rf"|one way)\b(?:(?!how long|jours|days"
    rf"|start|depart)[^!?\n]){{0,120}}\b{_NOT_AGREED}\b"
    rf"|\b{_NOT_AGREED}\b[^!?]{{0,20}}\b(?:on|about|sur|pour|for) (?:the |l )?(?:end|ending|finish|arrivee"
    r"|destination)\b"
    # "let me think about where to end", "not sure we'll make it to Sant Julià", "je sais plus" of an end
    r"|\b(?:think|thinking|reflechir|reflechis) (?:about )?(?:where|ou) (?:to |we |on )?(?:end|finish|fini\w*"
    r"|termin\w*)\b"
    r"|\bnot sure (?:we ll|we will|we can|i ll|i can|we d) make it (?:to|as far as)\b"
    r"|\b(?:finish\w*|end\w*|fini\w*|termin\w*|arriv\w*)\b[^!?]{0,30}\b(?:mais|but) (?:finalement |now )?"
    r"(?:je |i m |i am )?(?:sais plus|sait plus|not sure anymore|not so sure)\b"
    # "we haven't figured out the ending yet", "could end anywhere with a train station"
    r"|\b(?:haven t|have not|not yet|still haven t) (?:figured|worked|sorted) out (?:the )?"
    r"(?:end|ending|finish)\b"
    r"|\b(?:could|can|might|may) (?:end|finish)(?: up)? anywhere\b"
    r"|\b(?:don t know|dont know|do not know|not sure|no idea|no clue|idk|dunno|not decided|haven t decided)"
    r" where"
    r" (?:we d |we ll |we will |i d |i ll |we |i |to )?(?:end up|end|finish)\b"
    # "pas décidé où finir", "on sait pas encore où on arrive", "where we end depends on the weather", "on
    # sait pas encore où on va"
    r"|\b(?:pas decide|pas encore decide|sais pas|sait pas|jsp|aucune idee|hesite\w*|pas sur)"
    r" (?:trop |vraiment |bien )?(?:encore )?"
    r"(?:d )?ou (?:finir|terminer|arriver|on finit|on arrive|on termine|s arreter|on va|aller)\b"
    r"|\bwhere (?:we|i)(?: ll| d)? (?:end|finish)(?: up)? depends\b"
    # "on finira où on finira", "we'll see where we end up", "on finit ailleurs, mais où je sais pas encore"
    r"|\bon (?:finira|arrivera|terminera) (?:la )?ou on (?:finira|arrivera|terminera)\b"
    r"|\bsee where (?:we|i) (?:end up|finish|end)\b"
    r"|\b(?:fini\w*|termin\w*|arriv\w*|end|finish)\w*(?: up)? (?:ailleurs|somewhere else|elsewhere)\b"
    r"[^.!?]{0,30}"
    r"\b(?:mais ou|but where|sais pas|sait pas|jsp|not sure|no idea|don t know|dont know)\b"
    # "ou finir à Erts jsp": an end only perhaps
    r"|\b(?:ou|or) (?:finir|terminer|finish|end|arriver)\b[^.!?]{0,40}\b(?:jsp|idk|dunno|"
    + _STILL_OPEN[3:]
    + r"\b"
    # "maybe I'll finish in Pas de la Casa instead, if my friend can pick me up there. I'll know tomorrow"
    r"|\bmaybe (?:i ll |we ll |we |i )?(?:finish|end)\b[^!?]{0,80}\b(?:i ll know|we ll know|depends)\b"
    # "end in Ordino, no, Llorts, no... ugh. I'll decide tomorrow morning"
    r"|\b(?:end|finish)\w*\b[^!?]{0,60}\b(?:i ll decide|we ll decide|je deciderai|on decidera)\b"
    # "je sais plus pour Arinsal, peut-être Pal ou Arinsal"
    r"|\b(?:sais plus|sait plus|not sure anymore|not so sure)\b[^.!?]{0,40}\b(?:peut etre|maybe)\b"
    r"[^.!?]{0,30}\b(?:ou|or)\b"
    # "we haven't decided start or finish"
    r"|\b(?:haven t decided|not decided|undecided|pas decide|pas encore decide)\b[^.!?]{0,20}"
    r"\b(?:start|depart)\w*\b[^.!?]{0,10}\b(?:or|and|nor|ou|et|ni)\b[^.!?]{0,10}\b(?:finish|end|arrivee)\b"
    # "either we loop back home or we end at Eira, still deciding"
    rf"|\b(?:either|soit)\b[^.!?]{{0,30}}?\b(?:loop|back|end|finish|boucle|revenir|retour|rentr\w*|fini\w*"
    rf"|termin\w*|arriv\w*)\b[^.!?]{{0,40}}\b(?:or|ou)\b[^.!?]{{0,80}}\b{_STILL_OPEN}\b"
    # "wants to finish in France, either Foix or Ax-les-Thermes, we'll see"
    rf"|\b(?:finish|end|finir|terminer|arriv)\w*\b(?:(?!\b(?:start|depart|from)\w*)[^.!?]){{0,40}}\b(?:either|soit)\b"
    rf"{_NOT_A_LENGTH}[^.!?]{{1,40}}"
    rf"\b(?:or|ou|soit)\b"
    rf"[^.!?]{{1,60}}\b{_STILL_OPEN}\b"
    # "arrivée... Sant Julià, ou Aixovall, ou Santa Coloma": three ends, none chosen
    r"|\b(?:arriv\w*|end\w*|finish\w*|fini\w*)\b[^.!?]{0,30}\b(?:ou|or)\b[^.!?]{1,30}\b(?:ou|or)\b"
    # "if the weather holds we push on to Pas de la Casa, otherwise we stop at Soldeu", "s'il fait beau on
    # pousse jusqu'à Pas de la Casa, sinon on s'arrête à Grau Roig": two ends, the weather's to choose
    r"|\b(?:if|si|s il)\b[^.!?]{0,60}\b(?:otherwise|sinon|else|if not)\b[^.!?]{0,40}"
    r"\b(?:stop|end|finish|s arret\w*|fini\w*|termin\w*|arriv\w*)"
    # "si aller simple, arrivée à Canillo": an end only if
    r"|^(?:si|if)\b(?! (?:possible|you can|that works|ca marche|vous pouvez))[^.!?]{0,30}"
    r"\b(?:arrivee|end|finish|fin|finir|terminer)\b"
    # "pour l'arrivée on sait pas encore"
    r"|\b(?:l )?(?:arrivee|the end|end point|destination|final point|point final|la fin|the finish|endpoint)"
    r"\b\W{0,3}"
    r"(?:(?:on|we|i|je|nous|for|pour|la|l|yet|still|encore|toujours|ca|c)\W+){0,3}"
    r"(?:on (?:ne )?sait pas|not sure|no idea|don t know|pas encore|undecided|aucune idee|on hesite|hesit\w*"
    r"|i am not sure|i m not sure|am not sure"
    r"|torn)\b"
    r"|\b(?:pas sur|sais pas|ne sais pas) (?:encore )?(?:d )?ou (?:finir|terminer|arriver)\b"
    # "aucune idée d'où aller", "no idea where to go"
    r"|\b(?:aucune idee|pas d idee|sais pas|no idea|not sure|don t know|dunno) (?:encore |yet )?(?:d )?"
    r"(?:ou|where) (?:aller|to go|we ll go|i ll go|on va)\b"
    # "maybe end in Pal, or not", "finir à Erts, ou pas": an end only perhaps
    r"|\b(?:end|ending|finish|finishing|fini\w*|termin\w*|arriv\w*)\b[^.!?]{0,40}\b(?:or not|ou pas|ou non)\b"
    # "maybe not Pal, somewhere else on the west side, tbd"
    r"|\b(?:maybe not|peut etre pas) [^.!?]{0,30}\b(?:somewhere else|elsewhere|ailleurs)\b"
    # "pour l'arrivée, pas le Pas de la Case non plus. Ailleurs, à voir"
    r"|\b(?:ailleurs|somewhere else|elsewhere)\b\W{0,3}"
    r"(?:a voir|on verra|tbd|not sure|no idea|je sais pas|we ll see)\b"
    r"|\b(?:end|ending|finish|finishing|fini\w*|termin\w*|arriv\w*|revenir|back)\b[^.!?]{0,40}"
    r"\b(?:or|ou|but|mais)\b"
    r"(?! (?:hotels?|camping|campsites?|hostels?|huts?|refuges?|auberges?|b b|gravel|road|route|vtt|mtb"
    r"|bikes?))"
    rf"[^.!?]{{0,40}}\b{_STILL_OPEN}\b"
    # (not "end in Soldeu, but not sure which hotel yet": something else left open)
    r"(?!\s+(?:yet\s+|encore\s+)?(?:combien|how many|how long|quand|when|which|what|quel\w*|about|du"
    r"|de la|des|le|la|for|pour|the|si|if)\b)"
)
# ...on the words as typed, where "où" (where) is not "ou" (or), and a question mark is still there
START_UNKNOWN_RAW = lazy(
    r"\b(?:départ|depart|partir) (?:de |d'|d’|du |c'est |c’est )?[^\W\d]+(?: [^\W\d]+)? ou [^\W\d]+"
    r"|\b(?:good|nice|best) (?:place|spot|town) to start\b[^.!]*\?"
)
_BARE_COUNT = lazy(rf"^(?:{NUM}|{NUM} (?:please|svp|stp))$")


# "let's say 3", "ok va pour 5", "3 it is": a count chosen, once the days were left open
_SETTLED_COUNT = lazy(
    # ("boss says I can have 4": the days once put off)
    r"\b(?:let s say|lets say|say|va pour|disons|on dit|go with|ce sera|on part sur|we ll do|i can have"
    r"|we can have|i can take|we can take|j ai droit a|on a droit a|so|donc)"  # ("she's driving so 1")
    rf"\s+{NUM}(?:\s+(?:days?|jours?|journees?))?"
    r"(?=\s*(?:$|and|et|then|alors|it is|c est|please|svp|ok|instead|plutot|a loop|une boucle|start\w*"
    r"|depart|from|de|end\w*|arrivee)\b)"  # ("we go via ordino, so 3. start la massana")
    rf"|^(?:ok |okay |alors |bon |so |fine )*{NUM} (?:it is|then|alors|c est bon)\b"
)


def settled_count(norm: str) -> int | None:
    """A count chosen in so many words ("let's say 3", "ok va pour 5"): the days, when they were open."""
    return _count_of_days(_SETTLED_COUNT.search(norm))


def bare_count(norm: str) -> int | None:
    """A turn that is only a count ("2", "trois"): the answer to "how many days?" when that is open."""
    return _count_of_days(_BARE_COUNT.match(norm))


def _count_of_days(found: re.Match[str] | None) -> int | None:
    """The count a match said, in figures or words, when it can be a number of days (1 to 30)."""
    if not found:
        return None
    count = next((group for group in found.groups() if group), "")
    n = int(count) if count.isdigit() else NUMBERS.get(count, 0)
    return n if 1 <= n <= 30 else None


_ONE_DAY = lazy(
    r"(?:a|one) (?:free|single|whole|full) day\b|(?:une|la|une seule) journee\b|day out\b|just the day\b"
    r"|one day only\b|juste la journee\b|for (?:the|a) day\b|spend (?:that|the) day\b"
    # a day of the trip off the bike: "3 jours dont un jour de repos", "4 days with a day off"
    r"|(?:a|one|un|une) (?:jour|day|journee) (?:de repos|off|de pause|of rest)\b"
)
# A ride that fits in a day, its days unsaid: "just the afternoon", "tomorrow morning", "une petite heure",
# "a 2 hour ride", "ce soir", "today" (not "every evening", "chaque soir": a base for several days)
_NOT_EVERY = r"(?<!every )(?<!each )(?<!chaque )(?<!tous les )(?<!le )"
WITHIN_A_DAY = lazy(
    rf"{_NOT_EVERY}\b(?:morning|afternoon|evening|tonight|aprem|apres midi|matin|matinee|soir|soiree"
    r"|lunchtime)\b"
    r"|\b(?:today|aujourd hui)\b(?! (?:i|we|je|on|nous)\b)"  # (not "today I'd like to plan a trip")
    r"|\b(?:one|a|une) (?:long|big|full|longue|grosse) (?:day|journee)\b(?! (?:or|ou|and|et|each|every)\b)"
    # hours of riding, not of travel ("we live 3 hours away")
    r"|\b(?:an?|one|two|three|four|five|a few|couple of|\d{1,2}|une|deux|trois|quatre|cinq|quelques|petite"
    r"|bonne|demi)[ -](?:hours?|heures?|hrs?)\b"
    r"(?! (?:away|drive|by car|de route|de voiture|de train|of driving))"
    r"|\b\d{1,2} ?(?:h|hrs?)\b(?! (?:away|drive|by car|de route|de voiture))"
    r"|(?<!multi )(?<!several )(?<!few )\bday (?:loop|plan|out|tour|ride|trip)\b"
    r"|\b(?:the )?same day\b|\ble meme jour\b|\bdans la journee\b"
    # "mtb day: La Massana up to Pal...", "after work today I want to ride"
    r"|\b(?:mtb|bike|cycling|gravel|road|riding) day\b(?! \d)|\bafter work today\b|\btoday after work\b"
    r"|\b(?:half|demi)[ -](?:a )?(?:day|journee)\b|\bcouple (?:hours?|hrs?|heures?)\b"
    # "only that day", "just one easy outing", "une petite sortie"
    r"|\b(?:only|just) (?:that|the one) day\b|\bthat day only\b"
    r"|\b(?:one|an?) (?:easy |short |little |small |gentle )?outing\b|\bune (?:petite |courte )?sortie\b"
    # back by the evening: "on revient à l'hôtel le soir", "back in Encamp for dinner" (not "chaque soir")
    r"|\b(?:revien\w*|rentr\w*|retour|back)\b(?:(?! chaque| tous les| every| each)[^.]){0,40}?"
    r"\b(?:le soir|ce soir|for (?:dinner|tea|lunch|supper)|in the evening|by (?:dinner|evening|nightfall))\b"
)
# ...unless a night is said: "ride in the evening, sleep in Soldeu"
OVERNIGHT = lazy(
    r"\b(?:nights?|nuits?|overnight\w*|sleep\w*|dormir|dort|stay(?:ing)? over|sleepover|bivouac|camp\w*"
    r"|refuges?|huts?|every evening|each evening|chaque soir|tous les soirs)\b"
)
# A day more told as a story: "sleep there, and next morning climb up to Arinsal", "on dort là-bas, et le
# lendemain...", "nuit à Canillo, et dimanche retour" (not "we land on the 10th and start the next day")
_NEXT_DAY = lazy(
    r"\b(?:next (?:morning|day)|the day after(?! tomorrow)|(?:the )?following (?:day|morning)|morning after"
    r"|le lendemain|(?:le )?jour suivant|le jour d apres|le matin suivant"
    rf"|(?:et|puis|then|and) (?:on |le )?(?:{'|'.join(WEEKDAYS)})"
    # "sleep there, then back to the car on Sunday": a day named after the night
    rf"|(?:then|puis|and then|et puis)\b[^,]{{0,30}}\b(?:on|le) (?:{'|'.join(WEEKDAYS)}))\b"
)
_ARRIVING = lazy(
    r"\b(?:arriv\w*|land\w*|fly\w*|flights?|atterri\w*|trains?|bus|vol|get in|wedding|mariage)\b"
)


def story_days(text: str) -> int | None:
    """The days a route told as a story spans: one more for each next day after a night on the way (in
    its sentence, or ending the one before: "on dort là-bas. Le lendemain..."). A night of arrival is no
    day ridden."""
    sentences = [normalize(sentence) for sentence in re.split(r"[.!?;\n]+", text)]
    nights = 0
    for i, sentence in enumerate(sentences):
        for found in _NEXT_DAY.finditer(sentence):
            before = sentence[: found.start()]
            if not OVERNIGHT.search(before) and len(before) < 20 and i:
                before = sentences[i - 1]
            if OVERNIGHT.search(before[-90:]) and not _ARRIVING.search(before):
                nights += 1
    return nights + 1 if nights else None


# The days of a route told day by day: "day one... day two", "the third day", "le troisième jour", "le
# dernier jour" after a second one (one more than the last counted)
_NTH_DAY = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5,
            "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "premier": 1, "deuxieme": 2,
            "troisieme": 3, "quatrieme": 4, "cinquieme": 5}  # fmt: skip
_DAY_BY_NUMBER = lazy(
    r"\b(?:day|jour) (one|two|three|four|five|[1-5])\b"
    r"|\b(?:the |le |la )?(first|second|third|fourth|fifth|premier|deuxieme|troisieme|quatrieme|cinquieme)"
    r" (?:day|jour|soir|night|nuit)\b"
)

_NIGHT = ("soir", "night", "nuit")  # (a night named is followed by a day)
_ONE_DAY_MORE = lazy(
    r"\b(?:the )?(?:next|following) day\b|\ble lendemain\b|\bthe day after\b(?! tomorrow)"
    r"|\b(?:the |le )?(?:last|final|dernier) (?:day|jour)\b"
)


def numbered_days(text: str) -> int | None:
    """The days a route told day by day spans ("day one Sant Julià to Encamp, then the next day over to
    Canillo, and the last day down to La Massana": three): the day named, a day more for each next or
    last day said after it; a night is followed by a day ("first night in La Massana, second night
    Canillo, then up to Soldeu": three)."""
    norm = normalize(text)
    events = [
        (found.start(), _NTH_DAY[found.group(1) or found.group(2)] + found.group(0).endswith(_NIGHT))
        for found in _DAY_BY_NUMBER.finditer(norm)
    ]
    if not events:
        return None
    events += [(found.start(), 0) for found in _ONE_DAY_MORE.finditer(norm)]
    days = 0
    for _, day in sorted(events):
        if day:
            days = max(days, day)
        elif days:  # a next or a last day, after a day named
            days += 1
    return days if days >= 2 else None


# The nights of a route listed stop by stop: "nuit à Pal, nuit à Arinsal", "Arinsal (night) - Pal (night)",
# "nuit 1 : Canillo, nuit 2 : Soldeu", "on dort à Encamp, puis à Canillo, puis à Soldeu"
_NIGHT_AT = lazy(
    r"\b(?:nuit|night|overnight|sleep|dodo)\s+(?:\d\s+)?(?:a|au|aux|in|at|en)\s+(?=[^\W\d])"
    r"|\b(?:nuit|night)\s+\d\b"
    # "première nuit à Ordino, deuxième à Arinsal"
    r"|\b(?:second|third|fourth|deuxieme|troisieme|quatrieme)\s+(?:a|au|aux|in|at)\s+(?=[^\W\d])"
)
# (read on the raw text: parentheses normalize away)
_NIGHT_MARKED = lazy(r"\((?:night|nuit|overnight|nuitée|nuitee|sleep)\)")
_SLEPT_THEN = lazy(
    r"\b(?:on dort|on dormira|nous dormons|we sleep|we ll sleep|sleeping|on s arrete|on fait etape)"
    r"\s+(?:a|au|aux|in|at|en)\s+[^\W\d]\w*"
    r"((?:\s+\w+){0,3}?\s+(?:puis|then|and then|et puis)\s+(?:a|au|aux|in|at|en)\s+[^\W\d]\w*)+"
)
_THEN_AT = lazy(r"\b(?:puis|then)\s+(?:a|au|aux|in|at|en)\s")


def nights_on_the_way(text: str) -> int | None:
    """The days of a route whose nights are listed stop by stop (two or more): one more than its nights,
    as each night on the way is followed by a day ("nuit à Pal, nuit à Arinsal, puis retour à Ordino":
    three). A night before the ride ("the night before", "la veille") or of arrival ("we land in Toulouse
    on Friday, night at the hotel in Sant Julià") is none of them."""
    nights = 0
    for sentence in re.split(r"[.!?;\n]+", text):
        norm = re.sub(r"\b(?:the night before|la veille|night before)\b", " ", normalize(sentence))
        if COMING_IN.search(norm):  # (not "arrivée La Massana le 3e jour": where the ride ends)
            continue
        said = len(_NIGHT_AT.findall(norm)) + len(_NIGHT_MARKED.findall(sentence.casefold()))
        for slept in _SLEPT_THEN.finditer(norm):
            said = max(said, 1 + len(_THEN_AT.findall(slept.group(0))))
        nights += said
    return nights + 1 if nights >= 2 else None


# One ride said as such, on a date, no lodging: "une sortie dimanche 16 mai", "a ride tomorrow"
_DAYS = "|".join(WEEKDAYS)
ONE_RIDE = lazy(
    r"\b(?:a|an|one|the|our|my|une|la|un|petit|petite|little|short|quick|gentle|easy|bike|family|club"
    r"|velo)\s+(?:\w+\s+)?(?:ride|spin|outing|balade|sortie|promenade|viree)\b"
    r"|\b(?:tomorrow|demain|tmrw|tmr|2morrow)\b|\baller retour\b"
    r"|^(?:\w+\s+)?(?:ride|spin|outing|balade|sortie|promenade|viree)\b"
    r"|\b(?:petit|little|short|quick|small)\s+tour\b"
    # a single day named ("cycling w the kids sunday", "boucle VTT dimanche"): one ride, if dated, no lodging
    # (not "friday to sunday": a range; "from Kallio on thursday to Punavuori" is one day)
    rf"|\b(?:{'|'.join(WEEKDAYS)})\b(?! (?:to|au|and|et|till|until|through|thru) (?:the )?(?:{_DAYS}|\d))"
    # ...or a day of the month ("on the 12th I'd like a loop", "le 12 on voudrait faire"), not a trip's
    # first day ("starting on the 12th", "départ le 12")
    r"|(?<!start )(?<!starting )(?<!leaving )(?<!depart )(?<!part )(?<!partons )(?<!from )"
    r"\b(?:on the|le) \d{1,2}(?:st|nd|rd|th|er)?\b"
    rf"(?! (?:au|to|and|et|till|until|km|h|jours?|days?|{'|'.join(MONTHS)})\b)"
)
# Words that say where a trip finishes, not where it goes next ("up to the lake" may be a loop's far end)
FINISHING = lazy(
    r"\b(?:finish\w*|end(?:s|ing)?(?: up)?|arriv\w*|termin\w*|fini[rst]?\w*|destination|one way"
    r"|aller simple)\b"
)
SETTING_OFF_ON = lazy(
    r"\b(?:start\w*|leav\w*|set\w* off|depart\w*|part\w*|commenc\w*)\W+(?:\w+\W+){0,2}$"
)  # "we'd start on" (the first weekend of June): when, not how long
# "let's do it the other way round": the start and the end swap
REVERSED = lazy(
    r"\bthe other way (?:round|around)\b|\bin reverse\b|\breverse (?:it|the route|the trip)\b"
    r"|\bthe opposite direction\b|\bdans l autre sens\b|\ba l envers\b|\ben sens inverse\b"
    # "other way", "wait revers it", "swap start and end", "non inverse", "on inverse tout", "échange départ
    # et arrivée" (not "any other way to get there", "the reverse of what I said")
    r"|(?<!any )(?<!no )(?<!an )(?<!some )\bother (?:way|direction)\b(?! (?:to|of|than|for)\b)"
    r"|\b(?:revers(?:e|ed)?|flip)(?: (?:it|that|everything|the whole thing|the whole route|direction"
    r"|the direction|start and end))?(?: (?:please|pls|plz|then|too))?$"
    r"|\breverse the whole\b|\b(?:swap|switch|flip)(?: the| round| around)? (?:start and (?:the )?"
    r"(?:end|finish)|the start and the end|them|it round|it around|direction|the direction|ends)\b"
    r"|\b(?:l inverse|inverse(?:r|z|ons)?(?: tout| le parcours| l itineraire| le trajet| le sens)?)$"
    r"|\b(?:on |j )?invers(?:e|er|ons|ez) (?:tout|le parcours|l itineraire|le trajet|le sens"
    r"|depart et arrivee)\b"
    r"|\b(?:echange|echanger|intervert\w*|inverse\w*) (?:le |les )?(?:depart et (?:l )?arrivee|points?)\b"
)

# Each kind as people write it: plurals ("vélos de ville"), the usual typos ("hybird", "mountian"), the
# shop's words ("citybike", "VAEs", "trekking bike"), and "route" as the kind of a day ("2j route")
_BIKES = r"(?:velos?|bicyclettes?|bicycles?|bikes?)"
PROFILE_WORDS: list[tuple[Profile, re.Pattern[str]]] = [
    (
        "e-bike",
        lazy(
            r"\be ?bik(?:e|es|ing)\b|\bebik|\belectri(?:c|que)s?\b|\bvaes?\b|\bpedelec|\bvelos? elec\b"
            rf"|\bassistance electrique|\b{_BIKES} a assistance"
        ),
    ),
    ("gravel", lazy(r"\bgravel|\bgravle|\bgravl\b")),
    (
        "mountain",
        lazy(
            r"\b(?:mountain|mountian|moutain|montain) ?bi(?:k|cycle)|\bmtbs?\b|\bvtts?\b|\btout terrain"
            # a second language's words ("bici de montaña", "bikes of mountain"), "mountain" given alone
            r"|\bbicis? de montana\b|\bbikes? of mountain\b|^mountain$"
            rf"|\b{_BIKES} de montagne\b|\bvttiste"
        ),
    ),
    # not "un voyage à vélo": a trip by bike, of any kind
    (
        "touring",
        lazy(
            r"\btouring|\bcyclotouris|\brandonn|\ben rando\b|\bbikepacking|\btrekking"
            r"|\bsacoches\b|\bpanniers\b"
            rf"|\b{_BIKES} (?:de )?(?:voyage|tourisme|rando|trekking)\b|\bloaded|\bvelos? charges?\b"
        ),
    ),
    (
        "hybrid",
        lazy(
            r"\bhybrid|\bhybird|\bvtcs?\b|\bcity ?bi(?:k|cycle)|\bhybride|\bcommuter bike|\btown bike"
            r"|\bnormal bikes?\b|\bbike share\b"
            rf"|\b{_BIKES} de ville\b|\b{_BIKES} urbains?\b"
        ),
    ),
    (
        "road",
        lazy(
            rf"\broad ?bik|\bracing bike|\b{_BIKES} de (?:route|course)\b|\broadies?\b"
            # a second language's ("Rennrad", "bici da corsa"), a racer, a fixie, a club's "boucle route"
            r"|\bracer bikes?\b|\brennrad|\bbicis? da corsa\b|\bbicis? de carretera\b|\bfixies?\b"
            r"|\b(?:boucle|cycliste|stage|club) route\b|\broute (?:\d+ ?j|hotel|max)\b|\bbig road day\b"
            r"|\bsorties? (?:de )?route\b|\bvelos? route\b"
            r"|\b(?:\d+ ?j|\d+ jours?|jours?|journee) (?:de |en )?route\b"
        ),
    ),
]
# "road" alone is a kind of bike only when no other is said ("2 days, gravel... the main road is busy")
ROAD_ALONE = lazy(r"(?<!main )(?<!busy )(?<!big )\broad\b")
ROUND_TRIP = lazy(
    r"\bround ?trip|\bloop\b|\bboucle\b|\bloops (?:from|around|out of|yeah|yes|ok)\b|\b(?:daily|day) loops\b"
    r"|\bboucles (?:depuis|au depart|autour|oui)\b|\baller retour\b|\bback to (the )?start"
    r"|^(?:en )?(?:ar|a r)$"  # "AR", "a/r": aller-retour, said alone
    # ...or heading a route ("A/R Escaldes - Engolasters"); "return trip Kallio to Ullanlinna"; "AlV → pas
    # de la casa → back"; "come straight back home after"
    r"|^(?:ar|a r) (?=[^\W\d])|\breturn trip\b(?! (?:home|by|on|with)\b)"
    r"|(?:→|->|>) ?(?:back|retour)\b(?! (?:to|a|au|vers|home|by|en|on)\b)"
    r"|\bcome (?:straight |right )?back home\b"
    # "then back to hers"
    r"|\bback to (?:hers|his|theirs|ours|mine|(?:her|his|their|our|my) (?:place|flat|house|home))\b"
    r"|\bstart(?:s|ing)? (?:and|n|&) (?:finish|end)(?:es|s|ing)? (?:in|at)\b|\bback to where\b"
    r"|\bcom(?:e|ing) back to\b(?! (?:you|me|us|ya)\b)"
    r"|\b(?:back|finish\w*|end\w*) where (?:we|i) (?:start|began)"
    r"|\b(?:end|ending|finish|finishing) back (?:in|at)\b"  # "starting in Canillo... and end back in Canillo"
    r"|\b(?:revient|revenir|retour) au (?:point de )?depart\b"
    # "départ et arrivée à Encamp", "depart et arrivee saint julien de loria" (not "... le même jour")
    r"|\bdepart et (?:arrivee|retour) (?:a |vers |au |aux |d |de |du )?(?=[^\W\d])"
    r"(?!(?:le|la|les|sont|seront|sera|prevu\w*|dans|en|the)\b)"
    r"|\b(?:finir|terminer|revenir|rentrer) (?:la )?ou (?:on|nous) (?:a|avons) commence"
    r"|\b(?:rentrer|revenir) (?:chaque|tous les) soirs?\b"
    r"|\bdepart arrivee\b|\bstart finish\b|\bdepart et retour\b|\bstart and finish there\b"
    r"|\b(?:return(?:ing)?|get(?:ting)? back|ride back|head(?:ing)? back|(?:finish|end)(?:ing)? back) there\b"
    # "on revient au même endroit", "back to the same spot"
    r"|\b(?:revien\w*|revenir|retour\w*|rentr\w*|back|finish\w*|end\w*)(?: dormir| to sleep)?"
    r" (?:au|a l|to the|at the|in the) (?:meme endroit|same (?:place|spot))\b"
    # "start in Encamp please, and make a round", "bike tour from hakaniemi round, thru kruununhaka"
    r"|\b(?:make|do|ride|doing|making) a round\b(?! of)|(?<!way )\bround (?:thru|through|via)\b"
    # (not "we loved Soldeu and want to come back there": some other year)
    r"|(?<!want to )(?<!wants to )(?<!like to )(?<!love to )(?<!hope to )\bcom(?:e|es|ing) back there\b"
    r"(?! (?:for sure|one day|some ?day|sometime|again|next|another))"
    # (not "get the bus back to the car": a way home, no loop)
    r"|(?<!bus )(?<!train )(?<!taxi )(?<!lift )(?<!shuttle )"
    r"\b(?:be )?back (?:down |up )?(?:to|at) (?:the|our|my) (?:hotel|hostel|campsite|apartment|flat|house"
    r"|base|car|start)\b"
    r"|\bretour (?:a|vers) (?:l |notre |la |mon |ma )?(?:hotel|auberge|camping|appartement|maison|voiture)\b"
    # (not "rentrer à la maison à vélo, chez nous à Foix": home is where that trip ends)
    r"|\b(?:rentr\w*|reven\w*|revien\w*) (?:a|au|vers) (?:l |notre |mon |ma )?"
    r"(?:hotel|auberge|camping|appartement|voiture|airbnb|gite)\b"
    r"|\by (?:revenir|retourner|rentrer|revien\w*|retourn\w*|rentr\w*)\b"
    r"|\bautour d(?:e|u)?\b(?! (?:\d|vingt|trente|quarante|cinquante|soixante|cent|septante|nonante))"
    r"|\briding around\b(?! (?:\d|twenty|thirty|forty|fifty|sixty|a hundred))"
    r"|\bstart and finish\b|\bstart and end\b|\bstarting from there and finish"
    r"|\bmeme endroit que le depart\b|\bsame (?:place|spot|town) as (?:the )?start"
    r"|\bsame as the start\b|\bfaire le tour d|\b(?:fais|faire|fait) le tour\b"
    r"|\bcom(?:e|ing) back (?:each|every) (?:evening|night)\b"
    # "ride each day from there and be back for dinner"
    r"|\bbe back (?:each|every|for|by|in time for) (?:evening|night|dinner|supper|the evening)\b"
)
# A turn that only answers "where does it end?" with the start: "same place", "même endroit", "same as
# start", "ending there too", "idem" (a loop)
SAME_AS_THE_START = lazy(
    r"^(?:(?:and|et|ok|yes|yeah|oui|ah|oh|euh|hmm|um)\s+)*(?:(?:the|le|au|a|at|in|back to the|retour au)\s+)?"
    r"(?:same|meme|pareil|idem)"
    r"(?:\s+(?:place|spot|town|village|one|endroit|lieu|point|coin))?"
    r"(?:\s+(?:as|que)\s+(?:the\s+|le\s+|au\s+)?"
    r"(?:start|starting point|beginning|depart|debut|point de depart))?"
    r"(?:\s+(?:please|pls|svp|stp|then|alors|too|aussi|again|i guess|je pense|obviously|bien sur|of course"
    r"|it s a loop|c est une boucle|en boucle|loop))*$"
    r"|^(?:(?:and|et)\s+)?(?:end(?:ing|s)?|finish(?:ing|es)?|back|stop(?:ping)?)\s+(?:up\s+)?there"
    r"\s+(?:too|as well|also)$"
    r"|^(?:(?:et|on)\s+)?(?:fin|finir|finit|termine|terminer|arrivee|retour)\s+(?:la|la bas|ici)?\s*aussi$"
)
# A loop only when the turn names no end: "un circuit de 3 jours qui se termine à Canillo" is a tour
SOFT_LOOP = lazy(
    r"\bcircuit\b|\btour of\b|\btour around\b"
    # "start from the centre, ride around, come back"
    r"|\b(?:ride|cycle|bike|pedal)(?:s|ing)? (?:a)?round (?:and )?(?:then )?come back\b"
)
# "wait, no - that's where we want to end", "non, ça c'est l'arrivée": the place just given as the start
# is the end
THAT_WAS_THE_END = lazy(
    r"^(?:\w+ ){0,4}?(?:that s|thats|that is|c est|ca c est|ca)"
    r" (?:where (?:we|i)(?: \w+){0,3} (?:end|finish|stop)|la (?:ou|qu) ?(?:on|je|nous)(?: \w+){0,2}"
    r" (?:arrive\w*|fini\w*|termine\w*)|(?:the|our|my) (?:end|finish|destination)|l arrivee)\b"
)
# A turn that changes the route's stops rather than adding one: its stops replace those said before
STOPS_CHANGED = lazy(
    r"\b(?:instead|rather|actually|en fait|finalement|plutot|non|no|not|scratch|change\w*|only|juste"
    r"|seulement|just|route|itinerary|itineraire|skip\w*|drop|pas|sans|without|oups|oops|sorry|pardon"
    r"|nah|nope|forget|never mind|oublie\w*|laisse tomber)\b"
)
# "finish in A instead of coming back": no loop after all
ONE_WAY = lazy(
    r"\b(?:instead of|rather than|not) (?:com(?:e|ing) back|looping|a loop|doing a loop)\b|\bone way\b"
    r"|\bau lieu de (?:revenir|boucler|rentrer|faire une boucle)|\bsans revenir\b|\baller simple\b"
    r"|\bpas (?:de|une|en) boucles?\b|\bno loops?\b|\bnot a loop\b"
    r"|\bnot sure (?:about )?(?:a|the|doing a) loop\b|\bpas sur (?:pour |de )?(?:la|une|faire une) boucle\b"
    r"|\b(?:don t|do not|never) (?:really )?(?:like|do|want) loops\b|\b(?:hate|dislike) loops\b"
    r"|\bn aime pas les boucles\b"
    r"|\bboucle ou (?:pas|non|aller simple)\b|\bloop or (?:not|one way)\b"  # not decided: no loop yet
    r"|\baller retour ou (?:pas|non|aller simple)\b|\b(?:there and back|out and back) or (?:not|one way)\b"
    # "not sure we'll loop back, my friend might pick us up", "pas sûr qu'on revienne"
    r"|\b(?:not sure|unsure|pas sur) (?:if |whether |that |qu |si )?(?:we ll |we will |we |i ll |i |on )?"
    r"(?:loop|come back|revien\w*|boucl\w*)\b"
    # "on ne revient peut-être pas à Ordino", "on ne rentrera pas", "we won't come back to Encamp"
    r"|\b(?:ne|n) (?:revien\w*|reviendr\w*|rentr\w*|boucl\w*) (?:peut etre |plus |finalement )?pas\b"
    r"|\b(?:won t|will not|not|don t|do not) (?:be )?(?:com(?:e|ing)|go(?:ing)?|head(?:ing)?|loop(?:ing)?)"
    r" back\b"
)
# "A to B and back", "up to B and then back down", "je monte jusqu'à B et je redescends": B is where a loop
# from A turns (not "and back to C", "et retour à C": those name the end)
OUT_AND_BACK = lazy(
    # (not "I'll think about it and come back": to this chat)
    r"(?<!about it )(?<!it over )\b(?:and|then|et|n) (?:then |come |coming |ride |go |ride )?back\b"
    r"(?! (?:down |up )?to\b)"
    r"|\b(?:and|then|n) (?:then )?(?:come|ride|head|cycle|go) (?:back )?home\b|\bhome again\b"
    r"|\bback down\b(?! to\b)"
    # (not "dernière nuit à Arinsal et retour en bus": a way home)
    r"|\bthere and back\b|\bet retour\b(?! (?:a|au|vers|jusqu|en)\b)|\baller retour\b"
    # (not "redescendre vers l'Espagne")
    r"|\bredescend\w*\b(?! (?:a|au|aux|vers|jusqu|sur|en|dans|to|towards)\b)"
    # (not "je regarde les billets et je reviens": back to this chat)
    r"|\b(?:puis|pis|et) (?:on |nous |je (?=rentre))?(?:revient|revenons|revenir|rentre|rentrons|rentrer)\b"
    # ("et revenir en passant par Kallio": a loop; not "et on rentre dimanche": when, home from anywhere)
    r"(?! (?:a|au|vers|jusqu|en(?! passant)|par|avec|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
    r"|demain)\b)"
    # "on remonterait par Punavuori et Kamppi pour rentrer": home again
    # (not "y a un bus pour rentrer": a way home)
    r"|(?<!bus )(?<!train )(?<!taxi )(?<!navette )(?<!voiture )(?<!avion )"
    r"\bpour (?:rentrer|revenir)\b(?! (?:a|au|vers|jusqu|en|chez|par|avec|de|du|sur)\b)"
)
ACCOMMODATION: list[tuple[str, re.Pattern[str]]] = [
    (
        "camping",
        lazy(
            r"\bcamp(ing|site|ground)?s?\b(?! car)|\btentes?\b|\btents?\b|\bbivouac|\bbivvy|\bwild camp"
            r"|\bcamp(?:e|er|ons|ez)\b"
        ),
    ),
    ("hostel", lazy(r"\bhostels?\b|\bauberges?\b|\baubergues?\b|\bgites?\b")),
    ("hut", lazy(r"\bhuts?\b|\brefuges?\b|\bcabanes?\b|\brefugis?\b")),
    (
        "hotel",
        lazy(r"\bhotels?\b|\bchambres? d hotes?\b|\bb ?& ?bs?\b|\bbnbs?\b|\bguest ?houses?\b|\bairbnbs?\b"),
    ),
]
# Two kinds said are a mix ("a mix camping/hôtel", "camping mostly but a hotel if it pours"), unless the
# second takes the first back ("we'd planned camping but the groom wants hostels, so hostels")
MIXED_LODGING = lazy(
    r"\b(?:mix\w*|melange|both|mostly|surtout|odd|some nights|certaines nuits|if it|when it|s il|quand il"
    r"|un peu de tout|a bit of everything|moitie|half|selon|depending|sinon|otherwise|if not"
    r"|where possible|si possible|when possible|or|ou|either|soit)\b"
)
CHANGED_LODGING = lazy(
    r"\b(?:but|mais|actually|en fait|finalement|instead|plutot|so|donc|non|no|nah|scratch|rather"
    r"|wants?|prefer\w*|prefere\w*)\b"
)
# "the hotel", "our hotel in Kamppi", "l'hôtel Torni": the hotel people stay at, a base; on a day's ride,
# no lodging for the trip (measured on the corpus: no lodging in 35 of 35 such day rides, hotels in 56 of
# 61 longer trips)
THE_HOTEL = lazy(r"\b(?:the|our|my|l|notre|mon|their|votre|his|her)\s+(?:\w+\s+)?(?:hotel|hotelli|airbnb)\b")
# Where people stay, the ride's base, not a night on the way: "staying at a hostel in Kamppi", "airbnb in
# Encamp for the whole week", "nous logeons dans un hôtel", "on dort à l'auberge", "back to the B&B for
# tea", "on revient dormir au même endroit"
_LODGINGS = (
    r"(?:hotel|hostel|airbnb|air bnb|b ?n ?b|b and b|b ?& ?b|guest ?house|apartment|flat|chalet|villa|gite"
    r"|auberge(?: de jeunesse)?|chambre d hotes?|appart\w*|location|camping|campsite)"
)
_STAYING_EN = (
    r"(?:we re|we are|i m|i am|we ll be|we will be|staying|we stay|i stay|based|rented|booked|renting"
    r"|(?:we|i) ve (?:rented|booked|got))"
)
_STAYING_FR = (
    r"(?:on dort|on loge|nous logeons|nous dormons|je loge|je dors|on est|nous sommes|je suis"
    r"|(?:on a|nous avons|j ai) (?:loue|reserve))"
)
BASE_STAY = lazy(
    rf"\b(?:{_STAYING_EN}(?: \w+){{0,2}}(?: at| in)? (?:a|an|the|our|my)(?: \w+){{0,2}} {_LODGINGS}"
    rf"|{_STAYING_FR}(?: \w+){{0,2}}(?: a| dans| en| chez)? (?:un|une|l|notre|mon|ma|le|la)(?: \w+){{0,2}}"
    rf" {_LODGINGS}"
    rf"|{_LODGINGS}(?: \w+){{0,3}} for the (?:whole |entire )?(?:week|stay|holiday)"
    rf"|back (?:to|at) (?:the|our|my)(?: \w+)? {_LODGINGS}"
    rf"|(?:retour|rentr\w*|revenir|revient) (?:a|au) (?:l|notre)(?: \w+)? {_LODGINGS}"
    r"|(?:revient|revenir|rentre\w*|come back|get back|go back) (?:\w+ )?(?:dormir|to sleep|sleep)"
    r"(?: (?:au meme endroit|at the same place|there))?)\b"
)
# "any kind of accommodation is fine", "anything for sleeping", "pour dormir, n'importe quoi"
_SLEEPING = (
    r"(?:accommodation|lodging|sleep\w*|stay\w*|dormir|dort|hebergement|logement|nuits?"
    r"|(?<!how many )nights?|beds?)"
)
_ANY = (
    r"(?:any|anything|anywhere|whatever s|whatevers|whatever|no preference|don t mind|don t care|n importe"
    r"|peu importe|egal"
    r"|indifferent"
    r"|pas de preference)"
)
ANY_ACCOMMODATION = lazy(rf"\b{_ANY}\b.{{0,30}}\b{_SLEEPING}\b|\b{_SLEEPING}\b.{{0,30}}\b{_ANY}\b")
# "peu importe le vélo", "road bike... honestly no preference, whatever the rental shop has": no kind of bike
_ANY_KIND = (
    r"(?:any|whatever|no preference|don t mind|don t care|n importe (?:quel|lequel)|peu importe|egal"
    r"|indifferent|pas de preference|no idea(?! (?:where|when|how|what))|aucune idee)"
)
_NOT_LODGING = rf"(?!{_SLEEPING}\b|camp\w*|hotel\w*|hostel\w*|auberge\w*|refuge\w*|huts?\b)"
# ("no idea about where to sleep, whatever's cheapest" is about the beds)
_NOT_ABOUT_SLEEPING = rf"(?!.{{0,30}}\b(?:{_SLEEPING}|cheap\w*|pitch|place to|where to|camp\w*|hotel\w*)\b)"
ANY_BIKE = lazy(
    rf"\b{_ANY_KIND}\b(?: {_NOT_LODGING}\w+){{0,3}} (?:kind of |type of |type de )?{_BIKES}\b"
    rf"{_NOT_ABOUT_SLEEPING}"
    rf"|\b{_BIKES}\b(?: {_NOT_LODGING}\w+){{0,4}} {_ANY_KIND}\b"
    rf"{_NOT_ABOUT_SLEEPING}"
    r"|\bwhatever (?:the )?(?:rental|shop|they have|i can rent|is available)"
    r"|\b(?:louerai|prendrai|prend|prendre|louer|loue) ce qu il y a\b"
)
# Distances in words: "forty", "forty five", "cinquante", "soixante dix", "a hundred"
TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90, "hundred": 100, "vingt": 20, "trente": 30, "quarante": 40,
    "septante": 70, "huitante": 80, "octante": 80, "nonante": 90,
    "cinquante": 50, "soixante": 60, "soixante dix": 70, "quatre vingt": 80, "quatre vingts": 80,
    "quatre vingt dix": 90, "cent": 100, "ten": 10, "dix": 10, "fifteen": 15, "quinze": 15,
}  # fmt: skip
_UNITS = "|".join(k for k in NUMBERS if k not in ("a", "un", "une"))
_TENS = "|".join(sorted(TENS, key=len, reverse=True))
_AMOUNT = rf"(\d{{2,3}}|(?:(?:a|one|un) )?(?:{_TENS})(?:(?: et)? (?:{_UNITS}))?)"
# ("50 bornes": French slang for km; "50ish km")
_KM = r"(?:ish)?\s?(?:km|kms|k|kilometres?|kilometers?|kilomètres?|bornes)"
_LIMIT = (
    r"(?:(?:absolutely |grand |tout |au grand )?(?:max|maximum)|tops|at (?:the very )?most|au maximum|au plus"
    r"|pas plus)"
)
_PER_DAY = rf"(?:\s?{_LIMIT})?\s?(?:(?:in a|in one|a|per|/|par|each|chaque|by|au)\s?)?(?:day|jour|j)\b"
# "40 km a day", "forty kilometres per day", "45 km max par jour", "60 kilometres daily"; and, a limit
# being per day in a brief, "make that 70 km max", "no more than 50 km"
_NOT_KM = (  # what a bare figure beside "max" or "a day" counts instead
    r"(?!\s*(?:m\b|metres?|meters?|d ?\+|days?|jours?|nights?|nuits?|h\b|hours?|heures?|%|people|persons?"
    r"|personnes?|of us|riders?|kids|enfants|ans|years?|kg|euros?|eur\b|€|\$|£|a night|per night|la nuit"
    r"|par nuit|(?:ish)?\s?(?:km|kms|k|kilo\w*|bornes|miles?|mi)\b))"  # (with a unit: DAILY's other words)
)
# ...nor a day of a month: "starting on May 13. Max 35 km a day"
_NOT_A_DATE = "".join(rf"(?<!\b{word} )" for word in ("the", "le", "du", "au", "on", *MONTHS, *WEEKDAYS))
DAILY = lazy(
    rf"\b{_AMOUNT}{_KM}(?:{_PER_DAY}|\s?(?:daily|quotidiens?|{_LIMIT})\b)"
    rf"|\b(?:max|maximum|no more than|at most|up to|pas plus de|maximum de|max de|nothing longer than"
    rf"|not more than|nothing over|pas plus que)\s?{_AMOUNT}{_KM}"
    rf"(?:{_PER_DAY})?\b"
    # a figure with no unit beside a word of limit or "a day": "60 max", "max 30", "50 a day", "i can do
    # 70 a day" (a brief's limits are kilometres; not "max 4 people", "2 nights max")
    rf"|\b(?:max|maximum|tops)\s(\d{{2,3}})\b{_NOT_KM}"
    rf"|(?<!\bsera )(?<!\bsommes )(?<!\bare )(?<!\best )(?<!\bre )(?<!\bof )(?<!\bbe ){_NOT_A_DATE}"
    rf"\b(\d{{2,3}})(?:ish)?\s(?:max|maximum|tops)\b"
    rf"|\b(\d{{2,3}})(?:ish)?\s(?:a|per|par|each)\s(?:day|jour)\b"
)
# "40 miles a day max": in kilometres
DAILY_MILES = lazy(rf"\b(\d{{2,3}})\s?(?:miles?|mi)\b(?:{_PER_DAY}|\s?{_LIMIT}\b)")
KM_A_MILE = 1.609
# A distance said with no word of limit ("ordino loop 80k", "~90k", "gravel 1j 45km"): in a brief, how far
# they want to ride a day (measured on the corpus: the label in 30 of 33 such turns), unless it is how far
# something is ("10 km from Encamp", "à 5 km d'Ordino", "25 km to Soldeu") or the whole trip's ("100 km in
# all")
DISTANCE_SAID = lazy(
    rf"\b{_AMOUNT}{_KM}\b(?!\s?(?:from|away|de|of|du|des|off|to|a|au|by|avant|before|after|apres|walk)\b"
    r"|\s?d (?!max|maximum|tops)\w"  # not "à 5 km d'Ordino", but "60k/d max"
    r"|\s?(?:in all|in total|total|en tout|au total|overall|altogether|sur|over|in \w+ days|en \w+ jours"
    r"|for the|pour le|pour la|east|west|north|south|est|ouest|nord|sud|range|d autonomie|h|an hour|per hour"
    r"|a l heure|of range)\b)"
)
# ...nor how far people ride otherwise ("I commute 15 km", "last week I did 120 km", "the whole loop")
NOT_THE_DAYS = lazy(
    r"\b(?:commute|first|last|did|done|fait|ridden|rode|average|speed|moyenne|whole|entire|total|range"
    r"|autonomie|battery|batterie)\b[^.,;!?]{0,25}$"
)
# When, not how long: "dans quinze jours, le samedi 15", "dans 3 semaines" (French: "en 3 jours" is how long)
FROM_NOW = lazy(rf"\bdans (?:{NUM}|quinze) (?:jours|semaines?|mois)\b")
NO_LIMIT = lazy(r"\bno (?:limit|max)\b|\bpas de (?:limite|max)\b|\bsans limite\b")
# A limit said again without its unit, after a distance: "say 45 actually", "en fait max 30"
DAILY_AGAIN = lazy(
    # after a word of limit, any figure that measures nothing else ("max 30, je suis avec mon fils")
    r"\b(?:max|maximum|no more than|at most|pas plus de)\s+(\d{2,3})\b"
    r"(?!\s*(?:m\b|metres?|meters?|d ?\+|days?|jours?|h\b|%|people|persons?|personnes?|of us|ans|years?|kg))"
    # after a word of correction, a figure said alone ("say 45 actually"; not "actually 12 of us")
    r"|\b(?:say|let s say|disons|make it|plutot|actually|en fait|finalement)\s+(?:max\s+)?(\d{2,3})"
    r"(?:\s*(?:km|k|kms|bornes))?(?=\s*(?:$|[,;:!?]|(?:instead|then|alors|max|tops|a day|par jour|per day"
    r"|au lieu|please|svp|actually|en fait|finalement|plutot)\b))"
)
# "no more than 1200 m of climbing a day", "1000 m D+ max par jour", "pas plus de 800 m de dénivelé"
CLIMB = lazy(
    r"\b(\d{3,4})\s?(?:m|metres?|meters?)\s?(?:d ?\+|de (?:montee|denivele|denivelee|d ?\+)(?: positif)?"
    r"|of (?:climbing|ascent|elevation(?: gain)?|climb)|climbing|ascent|elevation(?: gain)?|up|denivele"
    r"|de montee)"
    r"|\bd ?\+ ?(\d{3,4})\b"
)
# ...and the rest of it, "max par jour": no duration, no place
CLIMB_PER_DAY = lazy(
    "(?:"
    + CLIMB.pattern
    + r")(?:\s?(?:max|maximum|tops))?(?:\s?(?:a|per|par|each|chaque|/)\s?(?:day|jour)\b)?"
)
LAUNCH = lazy(
    r"^(ok |okay |yes |oui |alors )?(launch( it)?|go( ahead)?|let s go|generate( it)?|start( it)?"
    r"|c est bon|vas y|allez|lance( le)?( calcul)?|on y va|c est parti|valide)\W*$"
)
FRENCH = lazy(
    r"\b(je|j|nous|velo|jours?|semaine|depart|de|du|vers|avec|pour|une|bonjour|merci|c est|par|puis|et"
    r"|deux|trois|quatre|cinq|jusqu|sur|en|arrivee|retour)\b"
)


# ...and English ones: a turn in English with a French phrase in it ("max 40 km a day and pas plus de
# 900 m de montée par jour") stays English
ENGLISH = lazy(
    r"\b(i|we|the|and|to|from|days?|is|in|of|with|a|an|bike|want|would|like|our|my|we ll|please|day|start"
    r"|where|it|for|on)\b"
)


def detect_locale(text: str, default: Locale = "en") -> Locale:
    norm = normalize(text)
    french = len(FRENCH.findall(norm))
    return "fr" if french >= 2 and french > len(ENGLISH.findall(norm)) else default


# A bare count that corrects the duration: "actually make it four", "we only have two", "let's do 3"
# (not "a", "un", "one": "non, un aller simple", "finalement plutôt à l'hôtel", "no one")
_TWO_OR_MORE = r"\d{1,2}|" + "|".join(sorted((w for w, n in NUMBERS.items() if n > 1), key=len, reverse=True))
DURATION_CORRECTION = lazy(
    rf"\b(?:make it|make that|let s do|lets do|let s make it|let s say|lets say|say|only have|plutot"
    rf"|disons|mettons|on fait|on va dire|actually|it s|its"
    rf"|finalement|plutot en)\s+{NUM}(?=\s*(?:$|[;:!?]|(?:instead|then|please|plutot|alors|finalement|svp"
    r"|au lieu|actually|en fait|now|maintenant)\b))"
    # "wait no, 2", "non, finalement deux": a count after a word taking back, if it counts nothing else
    rf"|\b(?:no|non|nope|nah|finalement|actually|en fait)\s+(?:finalement\s+|plutot\s+|actually\s+)?"
    rf"({_TWO_OR_MORE})\b"
    r"(?! ?(?:km|kms|k|kilo\w*|people|persons?|personnes|of us|bikes?|velos?|h|hrs?|hours?|heures?|m|pm|am"
    r"|nights?|nuits?|weeks?|semaines?|days?|jours?|euros?|eur|ans|years?|kids|enfants|adults?|adultes|e)\b)"
)
# A length that is not this trip's: "we did it in 5 days last time", "instead of 5 days", "4 days of the
# fortnight" (the fortnight holds the trip)
_NOT_THIS_LENGTH = lazy(
    r"(?:\b(?:did it|done it|did that|did the \w+|took us|took me|it took|l avons fait|l ai fait|on l a fait"
    r"|on a mis|j ai mis|nous avons mis)(?: \w+){0,2}? (?:in |en )?"
    r"|\b(?:instead of|au lieu de|rather than|plutot que|not)(?: the| les)? )$"
)
_HOLDS_THE_TRIP = lazy(r"\b(?:out )?(?:of|de|sur) (?:the|our|my|la|notre|ma|nos|les) $")
# A day more or less than said: "finalement on rajoute un jour", "add another day", "on enlève un jour"
DAYS_ADDED = lazy(
    rf"\b(?:add(?:ing)?|rajout\w*|ajout\w*) (?:{NUM}|another) (?:more |extra )?(?:days?|jours?|journees?)\b"
    rf"|\b{NUM} (?:more|extra) days?\b|\b{NUM} (?:jours?|journees?) de plus\b"
)
DAYS_TAKEN = lazy(
    rf"\b(?:drop(?:ping)?|remove|take off|lose|enlev\w*|retir\w*|supprim\w*|on perd) {NUM}"
    r" (?:days?|jours?|journees?)\b"
    rf"|\b{NUM} (?:days?|jours?|journees?) (?:less|de moins|en moins)\b|\b{NUM} less days?\b"
)


def days_changed(norm: str) -> tuple[int, str]:
    """The days a turn adds or takes off the count said ("on rajoute un jour": +1), and the turn without
    those words (their "un jour" is no count of its own)."""
    change = 0
    for pattern, sign in ((DAYS_ADDED, 1), (DAYS_TAKEN, -1)):
        for found in pattern.finditer(norm):
            change += sign * (_count_of_days(found) or 1)  # ("add another day": one)
            norm = norm[: found.start()] + " " * (found.end() - found.start()) + norm[found.end() :]
    return change, norm


# How long people stay where they ride, said beside what they ride: "on passe une semaine aux Escaldes",
# "we're spending a week in the Pyrenees", "here for ten days"
_STAY_FOR = lazy(
    r"\b(?:vacances|holidays?|vacation|sejour|passe|passons|passer|spending|spend|here|ici|visiting|staying"
    r"|sur place)\b[^.!?:]{0,25}?"
    rf"\b((?:pour |for )?(?:une |un |a |the )?(?:{NUM} |whole |full |entiere )?"
    r"(?:semaines?|weeks?|jours|days|quinzaine|fortnight))\b"
)


def duration_in(norm: str) -> int | None:
    """The days a turn says the trip lasts; of several, the last said ("2 days... no, let's do 3"); nights
    only when no days are said ("2 days, one night in a hut": two days)."""
    said: list[tuple[int, int, int]] = []  # (start, end, days)
    of_nights: list[tuple[int, int, int]] = []
    for pattern, days in DURATION_PATTERNS:
        for found in pattern.finditer(norm):
            if days is None or days < 0:
                count = found.group(1) or found.group(2)
                n = int(count) if count.isdigit() else NUMBERS.get(count, 0)
                extra = int(days in (-1, NIGHTS))  # a half day is a day; nights, a day more
                n = n // 24 if days == HOURS else n * (7 if days == -7 else 1)
                reading = (found.start(), found.end(), n + extra)
                (of_nights if days == NIGHTS else said).append(reading)
            else:
                said.append((found.start(), found.end(), days))
    said = said or of_nights
    said = [f for f in said if not _NOT_THIS_LENGTH.search(norm[max(0, f[0] - 40) : f[0]])]
    if len(said) > 1:  # "4 days of the fortnight": the fortnight holds the trip
        said = [f for f in said if not _HOLDS_THE_TRIP.search(norm[max(0, f[0] - 12) : f[0]])] or said
    # "en vacances à Tampere pour dix jours... une balade d'une journée": the stay is not the ride
    stays = [m.span(1) for m in _STAY_FOR.finditer(norm)]
    ridden = [f for f in said if not any(a <= f[0] < b for a, b in stays)]
    if stays and (ridden or WITHIN_A_DAY.search(norm) or ONE_RIDE.search(norm)):
        said = ridden
    for found in DURATION_CORRECTION.finditer(norm):
        if counted := _count_of_days(found):
            said.append((found.start(), found.end(), counted))
    for found in UNDECIDED.finditer(norm):  # "maybe 2 or 3 days, we'll see": not said yet
        said = [f for f in said if not found.start() <= f[0] < found.end()]
        said.append((found.start(), found.end(), 0))
    if any(days > 1 for _, _, days in said):  # "4 days... with a full day in La Massana"
        said = [f for f in said if not _ONE_DAY.match(norm, f[0])]
    # a phrase inside another is that phrase's reading ("long weekend" is no second "weekend")
    kept = [f for f in said if not any(o != f and o[0] <= f[0] and f[1] <= o[1] for o in said)]
    return (max(kept)[2] or None) if kept else None


def amount(text: str) -> int:
    """``"45"``, ``"forty five"``, ``"quatre vingt dix"``, ``"a hundred"`` as a number."""
    if text.isdigit():
        return int(text)
    words = text.removeprefix("a ").removeprefix("one ").removeprefix("un ").replace(" et ", " ")
    for tens in sorted(TENS, key=len, reverse=True):
        if words.startswith(tens):
            rest = words[len(tens) :].strip()
            return TENS[tens] + (NUMBERS.get(rest, 0) if rest else 0)
    return 0
