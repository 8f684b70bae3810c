"""Trips weighed as options in one turn ("option A: Ordino to Soldeu in 2 days. option B: a loop from Encamp
over 3 days", "Options: (a) Eira → Hakaniemi, (b) Kamppi → Kallio") and chosen in a later one ("let's do B",
"b", "the loop", "la deuxième", "not c... a then"): the turn reads as the option chosen or, none chosen yet,
as what it says beside the options (no option's places are the trip's)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tripagent.adapters.rules.brief_reader import vocabulary
from tripagent.adapters.rules.brief_reader.patterns import lazy
from tripagent.adapters.rules.brief_reader.words import HESITATING, ROUND_TRIP
from tripagent.domain.places import normalize

# An option's mark: "option A:", "Option 2 -", "plan B", "(a)", "a)", "1)", "idée 1 :"
_MARK = lazy(
    r"(?:\b(?:option|plan|id[ée]e|idea)\s*([a-c1-3])\b\s*[:.)\-–]?"
    r"|\(([a-e1-9])\)"
    r"|(?:^|(?<=[\s,;:]))([a-e1-9])\))\s*",
    re.IGNORECASE,
)
# ...and, for marks that could number a list ("1) La Massana → Encamp 2) Encamp → Pas"), a word that
# says they are alternatives
_ALTERNATIVES = lazy(
    r"\b(?:or|ou|options?|ideas?|idees?|choices?|choix|either|soit|hesit\w*|torn|between|entre|alternatives?"
    r"|possibilit\w*|things|choses|trucs)\b"
)
_IN_ORDER = ("abc", "123")
# What a reply that chooses says: "let's do B", "B", "ok option 2", "on part sur la deuxième", "the first one"
_NUMBERS = vocabulary.table("option_numbers")  # "the first", "b", "deuxième": an option's number
_CHOSEN = lazy(
    r"^(?:(?:ok|okay|so|alors|bon|yes|oui|right|fine|d accord|hmm|well|actually|en fait|finalement)\s+)*"
    r"(?:let s (?:do|go with|go for|take)|lets (?:do|go with|go for)|we ll (?:do|take|go with|go for)"
    r"|i ll take|i ll go with|on (?:fait|prend|part sur|choisit)|va pour|je prends|ce sera|go with|going with"
    r"|we pick|i pick|we choose|i choose|on garde)?\s*"
    r"(?:(?:option|plan|l option|the|la|le|idea|l idee|number|numero)\s+)?"
    rf"({'|'.join(_NUMBERS)})\b"
    r"(?:\s+(?:one|option|it is|then|please|svp|alors|c est|for us|pour nous|is better))*"
)
# "not c", "on a éliminé la (a)", "scratch option 1", "pas la b"
_DROPPED = lazy(
    r"\b(?:not|no|pas|sans|drop|scratch|forget|oublie\w*|elimin\w*|exclu\w*|sauf)\s+"
    r"(?:(?:option|plan|l option|la|le|the)\s+)?([a-c1-3])\b(?!\s+[a-z]{2,})"  # (not "not a loop")
)
# what makes an option a trip rather than a place: a way from one place to another, a loop, a length
_A_TRIP = lazy(r"->|→|>|\b(?:to|vers|jusqu|a|au|loop|boucle|round|days?|jours?|j|d|nights?|nuits?)\b|\s-\s")
_NEGATED = lazy(r"\b(?:not|no|pas|sans|never|jamais)\b")
# a choice taken back: "maybe B, or A... not sure now", "je sais plus, a ou b"
_REOPENED = lazy(
    r"\b[a-c1-3]\b\W*(?:or|ou)\W*(?:maybe |perhaps |peut etre )?[a-c1-3]\b.{0,40}"
    r"\b(?:not sure|no idea|dunno|sais plus|sais pas|pas sur|give me|je reflechis|still)\b"
    r"|\b(?:not sure|sais plus|pas sur)\b.{0,20}\b[a-c1-3]\b\W*(?:or|ou)\W*[a-c1-3]\b"
)


@dataclass(frozen=True)
class Options:
    before: str  # what the turn says before the first option
    choices: list[str]  # each option's words
    after: str  # what it says after the last one, for all of them ("Road bikes.")


def options_in(text: str) -> Options | None:
    """The options a turn weighs, if it lays out two or three, marked in order ("a", "b" or "1", "2")."""
    marks = list(_MARK.finditer(text))
    labels = "".join(next(g for g in m.groups() if g).lower() for m in marks)
    if not 2 <= len(marks) <= 3 or not any(order.startswith(labels) for order in _IN_ORDER):
        return None
    named = all(m.group(1) for m in marks)  # "option A", "plan 2": alternatives by their very names
    if not named and not _ALTERNATIVES.search(normalize(text[: marks[-1].start()])):
        return None
    choices = [
        text[mark.end() : following.start() if following else len(text)]
        for mark, following in zip(marks, [*marks[1:], None], strict=True)
    ]
    last, _, after = choices[-1].partition(". ")  # ("... via Erts. Road bikes.": for either)
    choices = [*choices[:-1], last]
    if not any(_A_TRIP.search(normalize(choice)) for choice in choices):  # "1) Santa Coloma 2) Sispony"
        return None
    return Options(text[: marks[0].start()], choices, after)


def chosen(reply: str, options: Options, dropped: frozenset[int]) -> tuple[int | None, frozenset[int]]:
    """The option a reply chooses (1-based): by its mark or its rank ("B", "la deuxième"), as the only loop
    ("the loop"), or as the one left once the others are dropped ("not c", then "a" is all that is left);
    and the options dropped so far, ``dropped`` with those this reply drops."""
    norm = normalize(reply)
    count = len(options.choices)
    # the reply's first words up to its own punctuation: "B, with huts" chooses, "b with huts" does not
    first = normalize(re.split(r"[,.;:!?)\n]", reply, maxsplit=1)[0])
    if (said := _CHOSEN.fullmatch(first)) and (index := _NUMBERS[said.group(1)]) <= count:
        return index, dropped
    dropped |= {_NUMBERS[m.group(1)] for m in _DROPPED.finditer(norm) if _NUMBERS[m.group(1)] <= count}
    if len(norm.split()) <= 6 and ROUND_TRIP.search(norm) and not _NEGATED.search(norm):  # (not "not a loop")
        loops = [i for i, choice in enumerate(options.choices, 1) if ROUND_TRIP.search(normalize(choice))]
        if len(loops) == 1:
            return loops[0], dropped
    left = [i for i in range(1, count + 1) if i not in dropped]
    return (left[0] if len(left) == 1 else None), dropped


def with_options_settled(turns: list[str]) -> list[str]:
    """The user turns as the brief reads them: a turn of options as the option chosen in a later turn (the
    words beside the options kept), or as those words alone while none is."""
    out = list(turns)
    for at, text in enumerate(turns):
        if (options := options_in(text)) is None:
            continue
        dropped: frozenset[int] = frozenset()
        index = None
        for reply in turns[at + 1 :]:
            if _REOPENED.search(normalize(reply)):  # "hmm actually maybe B, or A... not sure now"
                index = None
                continue
            now, dropped = chosen(reply, options, dropped)
            index = now if now is not None else index
        choice = options.choices[index - 1] if index else ""
        # (not "torn between two things" once one is chosen)
        before = "" if index and HESITATING.search(normalize(options.before)) else options.before
        parts = (before, choice, options.after)
        out[at] = ". ".join(part.strip(" .:;,") for part in parts if part.strip(" .:;,"))
    return out
