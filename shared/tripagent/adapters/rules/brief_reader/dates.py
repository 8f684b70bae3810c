"""Dates as riders write them: "12 June", "June 12th", "2027-06-12", "du 7 au 9 mai" (and its three
days), "tomorrow", "next Saturday", "samedi 8", "this coming weekend", "the 22nd", "le 22". A date
without a year is the next one to come."""

from __future__ import annotations

import datetime as dt
import itertools
import re

from tripagent.adapters.rules.brief_reader import vocabulary
from tripagent.adapters.rules.brief_reader.holidays import holiday_in
from tripagent.adapters.rules.brief_reader.patterns import lazy

MONTHS: dict[str, int] = {
    month: number
    for lang in vocabulary.LANGUAGES
    for number, month in enumerate(vocabulary.in_language(lang, "months"), start=1)
}
WEEKDAYS: dict[str, int] = {
    day: number
    for lang in vocabulary.LANGUAGES
    for number, day in enumerate(vocabulary.in_language(lang, "weekdays"))
}
_MONTH = "|".join(MONTHS)
DATE_ISO = lazy(r"\b(\d{4})[- ](\d{2})[- ](\d{2})\b")  # normalized, "2027-05-15" is "2027 05 15"
DATE_DM = lazy(rf"\b(\d{{1,2}})(?:st|nd|rd|th|er)? (?:of )?({_MONTH})(?: (\d{{4}}))?\b")
DATE_MD = lazy(rf"\b({_MONTH}) (\d{{1,2}})(?:st|nd|rd|th)?(?: (\d{{4}}))?\b")
_WEEKDAY = "|".join(WEEKDAYS)
_ORD = r"(?:st|nd|rd|th|er|eme)?"
DATE_RANGE = lazy(
    rf"\b(\d{{1,2}}){_ORD} (?:au |to |and |et |till |until |jusqu au )?(?:(?:{_WEEKDAY}) (?:the )?)?"
    rf"(\d{{1,2}}){_ORD} (?:of )?({_MONTH})\b"
)
RELATIVE_DAYS = [
    (lazy(r"\bday after (?:tomorrow|tmrw|tmr)\b|\bapres demain\b"), 2),
    (lazy(r"\bto?m+or+ow\b|\bdemain\b|\btmrw\b|\btmr\b|\b2mor+ow\b|\b2moro\b"), 1),
    (
        lazy(
            # (not "this morning", "ce matin": mostly when people did something)
            r"\btonight\b|\bthis (?:evening|afternoon)\b|\bce soir\b|\bcet (?:apres midi|aprem)\b"
            r"|\btoday (?:evening|afternoon)\b"
            # "today" as the day of the ride, said alone or beside the ride's other words ("no just today",
            # "road bike today something short"), not as when people write ("today I looked at...")
            r"|^(?:(?:no|non|ok|yes|oui|just|only|juste|seulement|c est|it s|for|pour|ride|riding|go"
            r"|rouler)\s+)*"
            r"(?:today|aujourd hui)(?:\s+(?:please|svp|stp|then|alors|if possible|si possible))?$"
            r"|\b(?:bike|velo|vtt|gravel|ebike|vae|loop|boucle|ride|sortie|tour)\s+(?:today|aujourd hui)\b"
            r"|\b(?:today|aujourd hui)\s+(?:just|only|juste|une?|a|an|for|pour|something|quelque)\b"
        ),
        0,
    ),
    (
        lazy(
            r"\b(?:leav\w*|start\w*|set\w* off|going|ride|riding|depart\w*|part\w*|commenc\w*)\b(?: \w+){0,2}"
            r" (?:today|aujourd hui)\b|\b(?:today|aujourd hui)\b(?: \w+){0,2} (?:leave|start|set off|part\w*)"
        ),
        0,
    ),
]
# "in a fortnight", "three weeks from today", "dans 3 semaines", "dans huit jours": that long from today
_WEEKS = {
    "a": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "un": 1,
    "une": 1,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
}
FROM_TODAY = lazy(
    # (not "in a week": mostly how long, "Toulouse to the Pyrenees in a week")
    rf"\b(?:in|dans) (?P<in>{'|'.join(w for w, n in _WEEKS.items() if n > 1)}|[2-4]) (?:weeks?|semaines?)"
    r"(?: s)?(?: time)?\b"
    rf"|\b(?P<from>{'|'.join(_WEEKS)}|[1-4]) weeks? (?:from (?:today|now)|today|time)\b"
    r"|\b(?P<fortnight>(?:in|within) (?:a |one )?fortnight(?: s time)?"
    r"|(?:a |one )?fortnight(?: s time| from (?:today|now))"
    r"|dans (?:une )?quinzaine"
    r"|dans quinze jours)\b"
    r"|\bdans (?P<days>huit|\d{1,2}) jours\b"
)
# "Friday week", "a week on Saturday", "vendredi en huit", "the Saturday after next", "le week-end d'après"
_WEEKDAY_NAMES = "|".join(WEEKDAYS)
WEEKDAY_WEEK_ON = lazy(
    rf"\b(?P<day>{_WEEKDAY_NAMES}) (?:week\b(?! ?end)|en (?P<fifteen>huit|quinze)\b)"
    rf"|\ba week (?:on|from) (?:this )?(?P<on>{_WEEKDAY_NAMES})\b"
    rf"|\b(?P<after>{_WEEKDAY_NAMES}|week ?end) (?:after next|d apres|suivant)\b"
)
# "the weekend of the 22nd", "le week-end du 22": that day
WEEKEND_OF_THE = lazy(r"\bweek ?end (?:of the|du) (\d{1,2})(?:st|nd|rd|th|er)?\b(?! (?:au|to|and|et) )")
NEXT_WEEKEND = lazy(
    r"\b(?:this (?:coming )?|next |coming )week ?end\b|\bce week ?end\b|\bweek ?end prochain\b"
)
WEEKDAY_DAY = lazy(  # (not "mercredi, 1 journée", "samedi 2 personnes": a count beside the day)
    rf"\b({_WEEKDAY}) (?:the )?(\d{{1,2}}){_ORD}\b"
    r"(?! (?:km|days?|jours?|journees?|h|nights?|nuits?|personnes?|people|pers|adultes?|adults?)\b)"
)
WEEKDAY = lazy(rf"\b({_WEEKDAY})\b(?! off\b)")  # "I can't take the Tuesday off": no date
MONTH_WORD = lazy(rf"\b(?:{_MONTH})\b")
# "sat 8th", "sam. 12": a weekday's short name, only beside the day of the month
SHORT_WEEKDAYS: dict[str, int] = vocabulary.table("short_weekdays")
SHORT_WEEKDAY_DAY = lazy(
    rf"\b(?:{'|'.join(SHORT_WEEKDAYS)}) (?:the )?(\d{{1,2}}){_ORD}\b(?! (?:km|days?|jours?|h|j|d)\b)"
)
# "the fourteenth of June", "June 1st", "le quatorze juin": a day in words beside its month
_DAY_WORDS = vocabulary.days_of_the_month()
_DAY_WORD = "|".join(sorted(_DAY_WORDS, key=len, reverse=True))
_DAY_IN_WORDS = lazy(
    rf"\b(?P<article>(?:the |le )?(?:(?:{_WEEKDAY}) (?:the )?)?)(?P<day>{_DAY_WORD}) (?P<of>of |de )?"
    rf"(?=(?:{_MONTH})\b)"
    rf"|\b(?P<month>{_MONTH}) (?:the )?(?P<after>{_DAY_WORD})\b"
)
# "12/06", "22/5", "22/05/2027": day first, as written in French and in most of Europe
DATE_NUMERIC = lazy(  # "22/05", "22/5" (not "ride 3/4 days": a count)
    r"\b(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?\b(?!\s*(?:days?|jours?|nights?|nuits?|km|hours?|h|heures?)\b)"
)
# "the first weekend of June", "le premier samedi de juillet": that day (a weekend is its Saturday)
_NTH: dict[str, int] = vocabulary.table("nth")  # the first, second... last of a month: an index
NTH_DAY_OF_MONTH = lazy(
    rf"\b({'|'.join(_NTH)}) (week ?end|{'|'.join(WEEKDAYS)}) (?:of|in|de|d|du mois de|en) ({_MONTH})\b"
)
# "28 June to 2 July", "Tuesday 8 June to Thursday 10 June": a range over months, weekdays aside
_W = rf"(?:(?:{'|'.join(WEEKDAYS)}) (?:the )?)?"
DATES_RANGE = lazy(
    rf"\b{_W}(\d{{1,2}}){_ORD} (?:of )?({_MONTH}) (?:to|au|until|till|jusqu au|and|et|through|thru) {_W}"
    rf"(?:the )?(\d{{1,2}}){_ORD} (?:of )?({_MONTH})\b"
)
# "du lundi au vendredi", "from Saturday to Monday", "this coming Saturday and Sunday", "sat-sun": those days
# (and "de vendredi soir à dimanche midi", "from tomorrow until Saturday")
_PART_OF_DAY = r"(?: (?:morning|afternoon|evening|night|noon|lunchtime|matin|midi|soir|aprem|apres midi))?"
WEEKDAY_RANGE = lazy(
    rf"\b(?:du |de |from |this coming |this |next |coming |ce )?({'|'.join(WEEKDAYS)}|tomorrow|demain)"
    rf"(?: (?:the )?(\d{{1,2}}){_ORD})?"  # "du jeudi 6 au dimanche 9": that Thursday
    rf"{_PART_OF_DAY} (?:au|a|jusqu a|jusqu au|to|till|until|and|et|through|thru) ({'|'.join(WEEKDAYS)})\b"
)
# "on roule vendredi samedi dimanche": three days or more named in a row, one after the other
WEEKDAY_LIST = lazy(
    rf"\b({'|'.join(WEEKDAYS)})((?:,? (?:et |and |puis |then )?(?:{'|'.join(WEEKDAYS)})\b){{2,6}})"
)
# "2027-05-15 to 2027-05-18"
ISO_RANGE = lazy(
    r"\b(\d{4} \d{2} \d{2}) (?:to|au|until|till|through|thru|and|et|a|jusqu au)? ?(\d{4} \d{2} \d{2})\b"
)
# "leaving Friday after work, back home Sunday evening", "départ samedi matin, retour dimanche soir", "je pars
# demain de Sant Julià et je rentre dimanche": from the one day to the other
LEAVE_AND_BACK = lazy(
    rf"\b(?:leav\w*|set\w* off|start\w*|depart\w*|pars|part|partons|partirons)\b(?: \w+){{0,8}}?"
    rf" ({'|'.join(WEEKDAYS)}|tomorrow|demain)\b.{{0,60}}?"
    rf"\b(?:back|return\w*|home|retour|rentr\w*|revien\w*)\b(?: \w+){{0,4}}? ({'|'.join(WEEKDAYS)})\b"
)
# "starting the 24th, ending the 28th", "départ le 10, retour le 12": the first and the last day
START_AND_END_DAYS = lazy(
    r"\b(?:start\w*|from|leav\w*|depart\w*|set\w* off)(?: on)? (?:the |le )(\d{1,2})(?:st|nd|rd|th|er)?\b"
    r"[^.!?]{0,25}?\b(?:end\w*|finish\w*|until|till|back|return\w*|retour|fin\w*|jusqu au)(?: on)?"
    r" (?:the |le )(\d{1,2})(?:st|nd|rd|th|er)?\b(?! ?(?:km|kilo\w*|h|heures?|hours?|people|personnes)\b)"
)
# "May 20-23", "June 3 to 5": days of one month, the month first
MONTH_DAYS_RANGE = lazy(
    rf"\b({_MONTH}) (\d{{1,2}}){_ORD} (?:to |till |until |thru |through |au )?(\d{{1,2}}){_ORD}\b"
    r"(?! ?(?:km|kms|k|kilo\w*|days?|jours?|nights?|nuits?|h|hours?|heures?|people|personnes|of us|riders"
    r"|adults?|adultes?|kids|enfants|bikes?|velos?|euros?|eur|ans|years?)\b)"
)
NEXT_WEEK = lazy(r"\bnext week\b|\bla semaine prochaine\b|\bsemaine prochaine\b")
# When people will talk again, not when they ride: "I'll decide tomorrow morning", "je te redis ça demain",
# "on en discute ce soir", "let you know tomorrow", "I'll confirm in a day or two"
TALK_LATER = lazy(
    r"\b(?:decide|deciding|tell|let you know|confirm|get back|redi\w*|dirai|discut\w*|en parle\w*|talk\w*"
    r"|verra|reviens|revien\w* vers|choisi\w*|check\w*|ask\w*|demand\w*|vote|voter|revote|reunit|meet\w*)\b"
    r"[^.!?]{0,25}?"
    r"\b((?:tomorrow|demain|ce soir|tonight|later|plus tard)(?: (?:morning|matin|soir|evening))?"
    r"|(?:in|dans) (?:a|un) (?:day|jour) (?:or|ou) (?:two|deux))\b"
)


def talked_later(norm: str) -> str:
    """The turn without the times people will talk again ("I'll decide tomorrow": no date), their words
    kept ("on en discute" still says the end is open)."""
    return TALK_LATER.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)], norm)


# "the day after", "le lendemain": the day after the date said (before it, or in an earlier turn)
DAY_AFTER = lazy(r"\b(?:the )?(?:next day|day after)\b(?! tomorrow)|\ble lendemain\b")
# "the 22nd", "le 22": a day of a month not named (the next such day)
DAY_ONLY = lazy(
    r"\bthe (\d{1,2})(?:st|nd|rd|th)\b"
    r"|\ble (\d{1,2})(?:er)?\b(?! ?(?:km|kilo|jours?|h|heures?|m|personnes?)\b)"
    # "15th: Siltasaari → Linjat"
    r"|^(\d{1,2})(?:st|nd|rd|th)\b(?! (?:km|day|days|night|nights|time|times|of)\b)"
)


# "from the 14th to the 16th", "du 14 au 16": a range within the month of its first day
DAY_RANGE = lazy(
    rf"\b(?:from )?(?:the |(?:{_WEEKDAY}) (?:the )?)?(\d{{1,2}})(?:st|nd|rd|th)"  # ("24th to 26th")
    rf" (?:to|till|until|and|through|thru) (?:the |(?:{_WEEKDAY}) (?:the )?)?(\d{{1,2}})(?:st|nd|rd|th)\b"
    rf"|\bdu (?:(?:{_WEEKDAY}) )?(\d{{1,2}})(?:er)? (?:au )?(?:(?:{_WEEKDAY}) )?(\d{{1,2}})\b"
    r"(?! ?(?:km|kilo|jours?|h|heures?|m|personnes?)\b)"
)


# Words before a short day name that make it a noun, a verb or a name ("the sun", "we sat", "un jeu")
_NOT_A_DAY_BEFORE = (
    "the", "a", "in", "of", "my", "with", "avec", "et", "and", "un", "le", "du", "i", "we", "they", "he",
    "she", "you", "who", "to", "got", "get", "full", "hot", "no", "some", "much", "de", "en", "ton",
)  # fmt: skip
_NOT_A_DAY = "".join(rf"(?<!\b{word} )(?<!\b{word.capitalize()} )" for word in _NOT_A_DAY_BEFORE)

# Days as typed on a phone, where they can be nothing else: "just sat", "this sun", "dim de Canillo", "sat
# morning" (not "the sun.", "Sam.": a short name needs a word before or after it that says it is a day);
# beside a day's number they are SHORT_WEEKDAY_DAY's ("dim 9")
_SHORT_DAY = lazy(
    rf"(?i)(?:(?<=\bthis )|(?<=\bnext )|(?<=\bon )|(?<=\bjust )|(?<=\bce )|(?<=\bevery ))"
    rf"({'|'.join(SHORT_WEEKDAYS)})\b\.?"
    rf"|{_NOT_A_DAY}\b({'|'.join(SHORT_WEEKDAYS)})\b\.?(?=\s+(?:de|du|from|morning|matin|aprem|afternoon)\b)"
)
# ...and, typed in lowercase as on a phone, the short names that are seldom anything else ("ordino loop sat
# 80k", "road wed", "sortie gravel dim", "ven-sam"), unless a word around them makes them a noun, a verb or
# a name ("we sat down", "avec sam"); "sun", "mon", "mar", "mer", "lun", "jeu" stay with the cues above
# ("hoping for sun", "mon vélo", "la mer", "jeu de piste")
_TYPED_SHORT = ("sat", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "ven", "sam", "dim")
_SHORT_DAY_TYPED = lazy(
    rf"{_NOT_A_DAY}\b({'|'.join(_TYPED_SHORT)})\b"
    # and then nothing, a figure, a dash or a part of the day ("sat 80k", "ven-sam", "tue am"): not "sat
    # nav", "sam wants", "it gets dim early"
    r"(?=\s*(?:$|[.,;!?)\-–/]|\d|(?:am|pm|morning|matin|aprem|afternoon|evening|soir|night|nuit)\b))"
)
# "saturday-sunday", "ven-sam" (once their short names are spelled): from the one to the other
_DAY_DASH_DAY = lazy(
    rf"(?i)\b({'|'.join(WEEKDAYS)})\s?[-–/]\s?({'|'.join(WEEKDAYS)}|{'|'.join(SHORT_WEEKDAYS)})\b"
)
# "fri to sun", "thu till sat", "Sat 29 to Mon 31": two short names joined as a range are days
_SHORT_TO_SHORT = lazy(
    rf"(?i)\b({'|'.join(SHORT_WEEKDAYS)})\.?((?: \d{{1,2}}(?:st|nd|rd|th)?)?) (to|till|until|thru|au)"
    rf" ({'|'.join(SHORT_WEEKDAYS)})\b"
)
_DAY_NAMES = {number: name for name, number in WEEKDAYS.items() if name.isascii() and name.endswith("day")}
_JOURS = {number: name for name, number in WEEKDAYS.items() if not name.endswith("day")}
_FRENCH_SHORT = {"lun", "mar", "mer", "jeu", "ven", "sam", "dim"}
_TONIGHT = lazy(r"(?i)\btonite\b")
_WEEKEND_TYPED = lazy(r"(?i)\b(?:wknd|wkend|wkd|wk end|w/e)(?!\w)")  # "gravel wknd", "long w/e"


def short_days(text: str) -> str:
    """ "dim 9" as "dimanche 9", "just sat" as "just saturday", "sat-sun" as "saturday to sunday", "tonite"
    as "tonight", "wknd" as "weekend"."""

    def spelled(m: re.Match[str]) -> str:
        short = next(group for group in m.groups() if group).lower()
        return (_JOURS if short in _FRENCH_SHORT else _DAY_NAMES)[SHORT_WEEKDAYS[short]]

    def ranged(m: re.Match[str]) -> str:
        last = m.group(2).lower()
        if last in SHORT_WEEKDAYS:  # "saturday-sun"
            last = (_JOURS if last in _FRENCH_SHORT else _DAY_NAMES)[SHORT_WEEKDAYS[last]]
        return f"{m.group(1)} to {last}"

    def both(m: re.Match[str]) -> str:
        first, last = m.group(1).lower(), m.group(4).lower()
        names = _JOURS if first in _FRENCH_SHORT else _DAY_NAMES
        return f"{names[SHORT_WEEKDAYS[first]]}{m.group(2)} {m.group(3)} {names[SHORT_WEEKDAYS[last]]}"

    text = _SHORT_TO_SHORT.sub(both, text)
    spelled_out = _SHORT_DAY_TYPED.sub(spelled, _SHORT_DAY.sub(spelled, text))
    return _WEEKEND_TYPED.sub("weekend", _TONIGHT.sub("tonight", _DAY_DASH_DAY.sub(ranged, spelled_out)))


def spelled_dates(text: str) -> str:
    """Dates written in figures with slashes, as words: "le 12/06" is "le 12 june" (before normalizing,
    which would leave "12 06")."""

    def spelled(m: re.Match[str]) -> str:
        day, month = int(m.group(1)), int(m.group(2))
        before = m.string[max(0, m.start() - 20) : m.start()]
        # a cue before it, or said alone among the brief's items ("gravel, 29/5"): not "difficulty 8/10"
        alone = _ALONE_BEFORE.search(before) and _ALONE_AFTER.match(m.string, m.end())
        if not (1 <= day <= 31 and 1 <= month <= 12) or not (_DATE_CUE.search(before) or m.group(3) or alone):
            return m.group(0)
        year = m.group(3) or ""
        if len(year) == 2:
            year = "20" + year
        return f"{day} {_MONTH_NAMES[month - 1]} {year}".rstrip()

    return DATE_NUMERIC.sub(spelled, DATE_DOTTED.sub(_dotted, text))


def _dotted(m: re.Match[str]) -> str:
    """ "10.5." as "10 may" (the Finnish and German way): a day and a month, each with its dot."""
    day, month = int(m.group(1)), int(m.group(2))
    if not (1 <= day <= 31 and 1 <= month <= 12):
        return m.group(0)
    return f"{day} {_MONTH_NAMES[month - 1]} {m.group(3) or ''}".rstrip() + " "


# "10.5.", "1.6.2027": not "10.5 km", "2.5. km"
DATE_DOTTED = lazy(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})?(?![\d.])(?!\s*(?:km|kms|k|%|h|m)\b)")
_ALONE_BEFORE = lazy(r"(?:^|[,;:])\s*$")
_ALONE_AFTER = lazy(r"\s*(?:$|[,.;!?])")


_MONTH_NAMES = list(MONTHS)[:12]
# what says a figure like 12/06 is a date: "le 12/06", "on 12/06", "from 19/06", "start date 22/05"
_DATE_CUE = lazy(
    r"(?i)\b(?:le|on|the|from|du|au|depuis|start\w*|date|d[ée]part|leav\w*|part\w*|d[èe]s|until|till|jusqu\w*"
    r"|ride|riding|go|going|arriv\w*|sam|dim|sat|sun|lun|mon|mar|tue|mer|wed|jeu|thu|ven|fri|\w+day|\w+di)\W*$"
)


def _days_in_figures(norm: str) -> str:
    """ "the fourteenth of june" as "14 june", "june first" as "june 1"."""

    def figures(m: re.Match[str]) -> str:
        if m.group("day"):
            # a day said so: "the fourteenth", "first of June", "le quatorze juin"; not "nous serons trois,
            # juillet...", "our first June trip", nor "the first may be" (May only after "of")
            # ("le mercredi douze mai": the weekday kept, for the patterns that read it beside the day)
            said = m.group("of") or (m.group("article") and not m.string.startswith("may", m.end()))
            return f"{m.group('article')}{_DAY_WORDS[m.group('day')]} " if said else m.group(0)
        if m.group("month") == "may":
            return m.group(0)
        return f"{m.group('month')} {_DAY_WORDS[m.group('after')]}"

    return _DAY_IN_WORDS.sub(figures, norm)


def dates_in(norm: str, today: dt.date, known: dt.date | None = None) -> tuple[dt.date | None, int | None]:
    """The start date a turn names, and the days a range of dates spans ("du 7 au 9 mai": 3). A day
    without its month ("the 15th") is of the month of ``known`` (the date said before) when there is one;
    "the day after" is the day after the date said before it."""
    norm = _days_in_figures(norm)
    # "pas mardi, mercredi"
    if (unsaid := _NEGATED_DAY.sub(" ", norm)) != norm and _date(unsaid, today, known):
        norm = unsaid
    if corrected := _corrected(norm, today, known):
        return corrected
    date, spanned = _dates_in(norm, today, known)
    if date and (ride := _after_the_way_there(norm, today, known)):  # "fly in on the 14th, start the 15th"
        return ride
    after = DAY_AFTER.search(norm)
    if after and date and _said_before(norm, after.start()):
        return _day_after(date), spanned
    if after and date is None and known:
        return _day_after(known), spanned
    return date, spanned


# What takes back a date said before it in the turn: "Demain... non, jeudi plutôt", "saturday doesn't work,
# sunday then", "on the 14th, wait the 14th is a Friday, make it the 15th"
_CORRECTION = lazy(
    r"\b(?:actually|en fait|finalement|plutot|rather|instead|make it|wait|non|nope|no|sorry|pardon|oops|oups"
    r"|scratch|(?:doesn t|does not|won t|will not|wouldn t|don t|do not|can t|cannot) (?:work|do)"
    r"|(?:marche|va|convient) pas|pas possible|change (?:it|that|the date) to)\b"
)
# ...and the day it takes back, said with its "not": "pas mardi, mercredi", "not Tuesday, Wednesday"
_NEGATED_DAY = lazy(
    rf"\b(?:pas|not|no)(?: on| le| ce| the| this)? (?:{'|'.join(WEEKDAYS)}|tomorrow|demain|today"
    r"|aujourd hui)\b"
)


def _corrected(norm: str, today: dt.date, known: dt.date | None) -> tuple[dt.date, int | None] | None:
    """The date a turn settles on when it takes back one said before (in it or in an earlier turn): the
    first date after the first words that take one back ("non, jeudi plutôt"), or the one after it when
    that one is the date rejected ("saturday doesn't work, sunday then"); a weekday alone is the first such
    day from the one taken back ("Friday 21st... make it the Saturday")."""
    for cue in _CORRECTION.finditer(norm):
        was = _date(norm[: cue.start()], today, known) or known
        after = _NEGATED_DAY.sub(" ", norm[cue.end() :])
        if was is None or (first := _first_date(after, today, was)) is None:
            continue
        at, end = first
        if rejected := _REJECTED.match(after, end):  # the date taken back, said after the cue
            if (second := _first_date(after[rejected.end() :], today, was)) is None:
                return None
            at, end = rejected.end() + second[0], rejected.end() + second[1]
        said = after[at:end]
        date, spanned = _dates_in(after[at:], today, was)
        if date is None:
            return None
        alone = (day := WEEKDAY.fullmatch(said.strip())) and date == _date(said, today, was)
        if day and alone and was > today:  # "make it the Saturday"
            return _next_weekday(WEEKDAYS[day[1]], was - dt.timedelta(days=1)), spanned
        return date, spanned
    return None


_REJECTED = lazy(
    r"\s*(?:doesn t|does not|won t|wouldn t|isn t|is no|is out|is bad|n est pas|c est pas|est pas"
    r"|pas possible"
    r"|marche pas|ne marche|clash\w*|y a|il y a|j ai|je bosse|je travaille|il pleut|on peut pas|we can t"
    r"|c est|is (?:my|our|his|her|the)"
    rf"|i can t|is a (?:{'|'.join(WEEKDAYS)}))\b"
)


def _first_date(text: str, today: dt.date, known: dt.date | None) -> tuple[int, int] | None:
    """Where the first date of ``text`` is said: the start and the end of its words (the shortest prefix
    that dates the text, then the shortest suffix of that prefix that dates it the same), within its first
    25 words."""
    ends = [m.end() for m in re.finditer(r"\S+", text)][:25]
    end = next((e for e in ends if _date(text[:e], today, known)), None)
    if end is None:
        return None
    date = _date(text[:end], today, known)
    starts = [m.start() for m in re.finditer(r"\S+", text[:end])]
    start = next((s for s in reversed(starts) if _date(text[s:end], today, known) == date), 0)
    return start, end


# How people get to where they ride: the date said with it is their journey's, not the ride's
_THE_WAY_THERE = lazy(
    r"\b(?:fly|flying|flies|flight|land|landing|lands|atterri\w*|ferry|come over|coming over|get in"
    r"|getting in|(?:drive|driving|drives) (?:up|down|over|in)|en avion|en train|by train|by plane)\b"
)
_MONTH_AFTER = lazy(r"^(?:\s+of)?\s+(?:" + "|".join(MONTHS) + r")\b(?:\s+\d{4}\b)?")


def _after_the_way_there(
    norm: str, today: dt.date, known: dt.date | None
) -> tuple[dt.date, int | None] | None:
    """The date of the ride when the turn first dates the journey there ("we fly into Barcelona on the
    14th of June... starting the 15th", "je viens en ferry jeudi, samedi j'aimerais rouler"): the date
    said after the journey's own, read in the journey's month."""
    if not (way := _THE_WAY_THERE.search(norm)):
        return None
    words = [m.end() for m in re.finditer(r"\S+", norm[way.start() : way.start() + 80])]
    for word_end in (way.start() + end for end in words):
        journey = _date(norm[way.start() : word_end], today, known)
        if journey is None:
            continue
        cut = word_end
        if month := _MONTH_AFTER.match(norm[word_end:]):  # "on the 14th of June": the journey's month
            cut += month.end()
            journey = _date(norm[way.start() : cut], today, known) or journey
        rest = norm[: way.start()] + " " + norm[cut:]
        ride, spanned = _dates_in(rest, today, journey)
        return (ride, spanned) if ride else None
    return None


def _day_after(date: dt.date) -> dt.date:
    return date + dt.timedelta(days=1) if date < dt.date.max else date  # (9999-12-31 has none)


def _said_before(norm: str, at: int) -> bool:
    """Whether the turn names its date before ``at`` ("land on the 10th of June... the next day")."""
    return _date(norm[:at], dt.date.min) is not None


def nth_day_of_month(norm: str, today: dt.date) -> dt.date | None:
    """ "the first weekend of June": its Saturday; "le dernier dimanche de juillet"."""
    m = NTH_DAY_OF_MONTH.search(norm)
    if not m:
        return None
    weekday = WEEKDAYS["saturday"] if m.group(2).startswith("week") else WEEKDAYS[m.group(2)]
    month = MONTHS[m.group(3)]
    for year in (today.year, today.year + 1):  # the next one to come
        days = [
            dt.date(year, month, d)
            for d in range(1, 32)
            if _valid(year, month, d) and dt.date(year, month, d).weekday() == weekday
        ]
        if days[_NTH[m.group(1)]] >= today:
            return days[_NTH[m.group(1)]]
    return None


def _valid(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


def _dates_in(norm: str, today: dt.date, known: dt.date | None) -> tuple[dt.date | None, int | None]:
    if nth := nth_day_of_month(norm, today):
        return nth, None
    if m := DATES_RANGE.search(norm):
        opening = _day_month(int(m.group(1)), MONTHS[m.group(2)], None, today)
        closing = _day_month(int(m.group(3)), MONTHS[m.group(4)], None, opening or today)
        if opening and closing and closing >= opening:
            return opening, (closing - opening).days + 1
    if m := ISO_RANGE.search(norm):
        opening, closing = (_date(m.group(i), today) for i in (1, 2))
        if opening and closing and opening <= closing <= opening + dt.timedelta(days=60):
            return opening, (closing - opening).days + 1
    if weekdays := _weekdays(norm, today, known):
        return weekdays
    if between := _days_between(norm, today):
        return between
    if (m := DAY_RANGE.search(norm)) and not DATE_RANGE.search(norm):
        first, last = int(m.group(1) or m.group(3)), int(m.group(2) or m.group(4))
        start = _next_day_of_month(first, today)
        return start, (last - first + 1 if start and last >= first else None)
    if m := DATE_RANGE.search(norm):
        first, last = int(m.group(1)), int(m.group(2))
        start = _day_month(first, MONTHS[m.group(3)], None, today)
        if start and last >= first:
            return start, last - first + 1
        return start, None
    return _date(norm, today, known), None


def _weekdays(norm: str, today: dt.date, known: dt.date | None) -> tuple[dt.date, int] | None:
    """ "from Saturday to Monday", "du jeudi 6 au dimanche 9", "vendredi samedi dimanche": the first day
    and the days they span."""
    if m := WEEKDAY_RANGE.search(norm):
        last = m.group(3)
        if m.group(1) in WEEKDAYS:
            first_day = _next_weekday(WEEKDAYS[m.group(1)], today)
        else:  # "from tomorrow until Saturday", "till Tuesday next week"
            first_day = today + dt.timedelta(days=1)
            days = (WEEKDAYS[last] - first_day.weekday()) % 7 + 1
            return first_day, days + (7 if NEXT_WEEK.match(norm, m.end() + 1) and days < 7 else 0)
        # "Saturday to Monday... starting Saturday the 15th", "du jeudi 6 au dimanche 9": that Saturday
        dated = (  # ("Saturday and Sunday free (the 22nd and 23rd of May)": the range of dates said)
            _next_day_of_month(int(m.group(2)), today)
            if m.group(2)
            else _dates_in(norm[: m.start()] + " " + norm[m.end() :], today, known)[0]
        )
        if dated and dated.weekday() == first_day.weekday():
            first_day = dated
        elif NEXT_WEEK.search(norm) and first_day - today < dt.timedelta(days=7 - today.weekday()):
            first_day += dt.timedelta(days=7)  # "la semaine prochaine, du lundi au vendredi"
        return first_day, (WEEKDAYS[last] - WEEKDAYS[m.group(1)] - 1) % 7 + 2  # Sat to Sat: 8
    if (m := WEEKDAY_LIST.search(norm)) and _one_after_another(m.group(0)):
        named = WEEKDAY.findall(m.group(0))
        return _next_weekday(WEEKDAYS[named[0]], today), len(named)
    return None


def _one_after_another(days: str) -> bool:
    """Whether the days named follow one another ("vendredi samedi dimanche"), each once."""
    numbers = [WEEKDAYS[day] for day in WEEKDAY.findall(days)]
    return all((b - a) % 7 == 1 for a, b in itertools.pairwise(numbers))


def _days_between(norm: str, today: dt.date) -> tuple[dt.date, int] | None:
    """ "leaving Friday... back Sunday": from the one to the other; "May 20-23": those days."""
    if m := LEAVE_AND_BACK.search(norm):
        first_day = (
            _next_weekday(WEEKDAYS[m.group(1)], today) if m.group(1) in WEEKDAYS else _day_after(today)
        )
        return first_day, (WEEKDAYS[m.group(2)] - first_day.weekday()) % 7 + 1
    if m := START_AND_END_DAYS.search(norm):
        first, last = int(m.group(1)), int(m.group(2))
        start = _next_day_of_month(first, today)
        if start and first <= last <= first + 30:
            return start, last - first + 1
    if m := MONTH_DAYS_RANGE.search(norm):
        first, last = int(m.group(2)), int(m.group(3))
        start = _day_month(first, MONTHS[m.group(1)], None, today)
        if start and first < last <= first + 30:
            return start, last - first + 1
    return None


def _day_month(day: int, month: int, year: str | None, today: dt.date) -> dt.date | None:
    try:
        candidate = dt.date(int(year) if year else today.year, month, day)
        if not year and candidate < today:
            candidate = candidate.replace(year=today.year + 1)  # 29 February may not come next year
    except ValueError:
        return None
    return candidate


def _next_day_of_month(day: int, today: dt.date) -> dt.date | None:
    for ahead in range(3):
        month, year = (today.month - 1 + ahead) % 12 + 1, today.year + (today.month - 1 + ahead) // 12
        try:
            candidate = dt.date(year, month, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    return None


def _next_weekday(weekday: int, today: dt.date) -> dt.date:
    """The next such day after today ("on Saturday", "next Saturday", "samedi prochain")."""
    return today + dt.timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def _written(m: re.Match[str], today: dt.date) -> dt.date | None:
    """ "2027-05-15", "15 May", "May 15th"."""
    if m.re.pattern == DATE_ISO.pattern:
        try:
            return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    if m.re.pattern == DATE_DM.pattern:
        return _day_month(int(m.group(1)), MONTHS[m.group(2)], m.group(3), today)
    return _day_month(int(m.group(2)), MONTHS[m.group(1)], m.group(3), today)


def _date(norm: str, today: dt.date, known: dt.date | None = None) -> dt.date | None:
    # a day alone is of the month said before ("14 June... actually the 15th"), else the next to come
    month_start = max(today, known.replace(day=1)) if known else today
    if m := DATE_ISO.search(norm) or DATE_DM.search(norm) or DATE_MD.search(norm):
        return _written(m, today)
    if holiday := holiday_in(norm, today):  # "lundi de Pentecôte", "le pont de l'Ascension"
        return holiday
    if month := _month_said(norm, today):  # "fin juin, le 25", "début juillet, le samedi 3"
        month_start = month
    for pattern, ahead in RELATIVE_DAYS:
        if pattern.search(norm):
            return today + dt.timedelta(days=ahead)
    if weeks_on := _weeks_on(norm, today, known, month_start):
        return weeks_on
    if m := WEEKDAY_DAY.search(norm):
        return _next_day_of_month(int(m.group(2)), month_start)
    if m := SHORT_WEEKDAY_DAY.search(norm):
        return _next_day_of_month(int(m.group(1)), month_start)
    if NEXT_WEEKEND.search(norm):
        return _next_weekday(WEEKDAYS["saturday"], today)
    if (weeks := _from_today(norm)) and not DAY_ONLY.search(norm):  # ("in two weeks... the 15th")
        return today + dt.timedelta(days=weeks)
    return _day_or_weekday(norm, today, month_start)


def _day_or_weekday(norm: str, today: dt.date, month_start: dt.date) -> dt.date | None:
    """ "the 22nd", "le 22", "saturday": a day of the month said beside a weekday is the more precise ("le
    23, c'est le dimanche"); a weekday said after it is that day or the first such day after it ("we're in
    the Pyrenees from the 8th... the ride leaves on the Sunday")."""
    weekday = WEEKDAY.search(norm)
    if m := DAY_ONLY.search(norm):
        day = _next_day_of_month(int(m.group(1) or m.group(2) or m.group(3)), month_start)
        if day and weekday and weekday.start() > m.start():
            return day + dt.timedelta(days=(WEEKDAYS[weekday.group(1)] - day.weekday()) % 7)
        return day
    if weekday:
        return _next_weekday(WEEKDAYS[weekday.group(1)], today)
    return None


def _month_said(norm: str, today: dt.date) -> dt.date | None:
    """The first day (or today) of the one month a turn names apart from any day of it, for a day said
    without one: "fin juin, le 25 plus précisément", "en juin... j'aurai une journée libre le 14". Not
    "may", a verb as often as the month (and this month, today's, changes nothing)."""
    named = {MONTHS[m] for m in MONTH_WORD.findall(norm) if m != "may"}
    if len(named) != 1:
        return None
    (month,) = named
    year = today.year + (month < today.month)
    return max(today, dt.date(year, month, 1))


def _from_today(norm: str) -> int | None:
    """The days from today of "in a fortnight", "three weeks from today", "dans huit jours"."""
    if not (m := FROM_TODAY.search(norm)):
        return None
    if m.group("fortnight"):
        return 14
    if days := m.group("days"):
        return 7 if days == "huit" else int(days)
    weeks = m.group("in") or m.group("from")
    return 7 * (_WEEKS[weeks] if weeks in _WEEKS else int(weeks))


def _weeks_on(norm: str, today: dt.date, known: dt.date | None, month_start: dt.date) -> dt.date | None:
    """ "Friday week", "the Saturday after next", "le week-end du 22"."""
    if m := WEEKDAY_WEEK_ON.search(norm):
        return _a_week_on(m, today, known)
    if m := WEEKEND_OF_THE.search(norm):
        return _next_day_of_month(int(m.group(1)), month_start)
    return None


def _a_week_on(m: re.Match[str], today: dt.date, known: dt.date | None) -> dt.date:
    """ "Friday week", "vendredi en quinze", "a week on Saturday": that day a week (or two) after the next
    one; "the Saturday after next", "le samedi d'après": a week after the one said before, if said."""
    name = m.group("day") or m.group("on") or m.group("after")
    weekday = WEEKDAYS["saturday"] if name.startswith("week") else WEEKDAYS[name]
    if m.group("after") and known and known.weekday() == weekday:
        return known + dt.timedelta(days=7)
    # (this week's, today's included: on a Monday, "lundi en huit" is a week today)
    this_week = _next_weekday(weekday, today - dt.timedelta(days=1))
    return this_week + dt.timedelta(days=14 if m.group("fifteen") == "quinze" else 7)
