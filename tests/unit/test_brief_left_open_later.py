"""What a later turn leaves open again, or says in fewer letters: days said then doubted ("hmm ou 3, je sais
plus"), a start or an end given up ("could start somewhere else", "maybe end in Pal, or not"), a loop doubted;
"wknd", "half a day"; a new sentence after a list of stops ("par Canillo, on arrive au Pas de la Case")."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["d'ordino a soldeu en 2 jours", "hmm ou 3, je sais plus, faut que je voie avec ma femme"], "fr"),
        (["3 jours de Canillo à Arinsal", "en fait je sais plus si je fais 3 jours ou une semaine"], "fr"),
        (
            [
                "Départ d'Andorre-la-Vieille, arrivée au Pas de la Case.",
                "pour la durée on hésite encore entre 3 et 4 jours, selon si on ajoute une journée de repos",
            ],
            "fr",
        ),
        (["meritxell to engolasters", "we start wed", "dunno, whatever it takes"], "en"),
    ],
)
def test_days_doubted_in_a_later_turn_are_open(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.durationDays is None
    assert not reply.readyToGenerate


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["d'ordino a soldeu en 2 jours", "hmm ou 3, je sais plus", "va pour 3"], "fr"),
        (
            [
                "loop from Escaldes, road bike",
                "I haven't worked out the number of days yet",
                "ok boss says I can have 3",
            ],
            "en",
        ),
    ],
)
def test_a_count_chosen_after_the_doubt_settles_the_days(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    assert last_reply(gazetteer, turns, locale).collected.durationDays == 3


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("gravel wknd from arinsal to el serrat", 2),
        ("long wknd from arinsal to el serrat", 3),
        ("half day from arinsal to el serrat", 1),
        ("une demi-journée d'Arinsal à El Serrat", 1),
        ("couple hrs from arinsal to el serrat", 1),
    ],
)
def test_days_said_in_few_letters(gazetteer: Gazetteer, text: str, days: int) -> None:
    assert last_reply(gazetteer, [text]).collected.durationDays == days


@pytest.mark.parametrize(
    "second",
    [
        "hmm actually not sure about Encamp anymore, could start somewhere else",
        "jsp d'ou je pars, je loge chez un pote, ca depend",
        "on ne sait pas encore d'où on partira",
        "idk, somewhere near the centre, wherever the rental place is",
        "départ... là où on sera logés, pas encore réservé",
    ],
)
def test_a_start_given_up_later_is_none(gazetteer: Gazetteer, second: str) -> None:
    reply = last_reply(gazetteer, ["start in Encamp, 2 days, end at Arinsal", second])
    assert reply.collected.start is None
    assert reply.collected.end == "Arinsal"


def test_a_start_only_if_is_no_start(gazetteer: Gazetteer) -> None:
    text = (
        "5 days, ending in Ordino. If it's Toulouse we'd start on the French side at Pas de la Casa, "
        "if Barcelona then from Sant Julia on the Spanish side."
    )
    assert last_reply(gazetteer, [text]).collected.start is None


@pytest.mark.parametrize(
    "turns",
    [
        [
            "ride from sornas to pal, 2 days",
            "hmm actually maybe not pal, somewhere else on the west side, tbd",
        ],
        ["la massana loop 2 days", "actually not sure about a loop, maybe end in pal, or not. let me think"],
        # "on rentre dimanche" says when, no loop; "on sait pas encore où on va" leaves the end open
        [
            "on part vendredi soir après le boulot et on rentre dimanche",
            "depuis Kamppi, et on sait pas encore où on va",
        ],
    ],
)
def test_an_end_or_a_loop_given_up_later_is_none(gazetteer: Gazetteer, turns: list[str]) -> None:
    reply = last_reply(gazetteer, turns)
    assert (reply.collected.end, reply.collected.roundTrip) == (None, False)
    assert not reply.readyToGenerate


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("On part d'Encamp, on passe par Canillo, on arrive au Pas de la Case. Deux jours", "Pas de la Casa"),
        ("From Encamp, we go via Canillo, we arrive in Soldeu. Two days", "Soldeu"),
    ],
)
def test_an_end_said_after_a_list_of_stops(gazetteer: Gazetteer, text: str, end: str) -> None:
    reply = last_reply(gazetteer, [text], "fr" if text.startswith("On") else "en")
    assert (reply.collected.end, reply.collected.via) == (end, ["Canillo"])


def test_depart_et_arrivee_without_a_preposition_is_a_loop(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["une semaine", "depart et arrivee andorre la vieille"], "fr")
    assert (reply.collected.start, reply.collected.roundTrip) == ("Andorra la Vella", True)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        # how long people stay is not how long they ride, said beside it
        (
            "En vacances à Helsinki pour dix jours. On aimerait une balade d'une journée, Kamppi - Eira",
            1,
        ),
        ("We're spending a week in Andorra in early July. Two days from Ordino to Soldeu.", 2),
        ("We're spending a week in Andorra cycling from Ordino to Soldeu", 7),
    ],
)
def test_a_stay_is_not_the_ride(gazetteer: Gazetteer, text: str, days: int) -> None:
    assert last_reply(gazetteer, [text]).collected.durationDays == days


def test_as_long_as_it_takes_in_french_leaves_the_days_open(gazetteer: Gazetteer) -> None:
    turns = ["de Sant Julià jusqu'à Soldeu en VTT", "combien de jours ? autant qu'il faudra, au jour le jour"]
    assert last_reply(gazetteer, turns, "fr").collected.durationDays is None


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["start sant julia end canillo", "3-4 days depends on legs"], "en"),
        (
            [
                "Départ Canillo, arrivée Sant Julià, gravel",
                "2 jours ? 3 ? ça dépend de la météo, je vous redis",
            ],
            "fr",
        ),
        (
            [
                "une boucle depuis Santa Coloma par La Margineda",
                "on ne sait pas encore quel jour, ni si on le fait sur une ou deux journées",
            ],
            "fr",
        ),
        # asked back, argued, only if, not known
        (
            [
                "Départ Ordino, arrivée Pas de la Casa, en vélo de route, dimanche",
                "combien de jours tu conseilles ?",
            ],
            "fr",
        ),
        (
            [
                "My partner says 2 days, I say 3. We'll fight about it over dinner",
                "Starting in Escaldes, ending in Arinsal",
            ],
            "en",
        ),
        (
            [
                "ça dépend de mon genou. Si ça tient, 3 jours, sinon on raccourcira."
                " Départ d'Andorre-la-Vieille, en boucle"
            ],
            "fr",
        ),
        (
            ["départ Kallio, arrivée Kamppi, je sais pas combien de jours, je reste jusqu'à jeudi"],
            "fr",
        ),
    ],
)
def test_days_put_off_asked_back_or_argued_are_open(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.durationDays is None
    assert not reply.readyToGenerate


@pytest.mark.parametrize(
    "text",
    [
        "from Ordino to Soldeu, 3 days, 2 nights, not sure about hotels yet",
        "Thinking of starting in Encamp, not sure, and doing a 2 day loop",
    ],
)
def test_one_count_beside_a_doubt_about_something_else_stays(gazetteer: Gazetteer, text: str) -> None:
    """(A guard: "3 days, 2 nights" and "a 2 day loop" are one count each.)"""
    assert last_reply(gazetteer, [text], "en").collected.durationDays in (2, 3)


def test_a_start_between_two_said_each_with_de_is_open(gazetteer: Gazetteer) -> None:
    """ "de Sant Julià ou d'Andorre-la-Vieille": two starts, each after its own "de", then a doubt."""
    turns = [
        "Trois jours, on finira à Ordino. Pour le départ, on partira de Sant Julià ou d'Andorre-la-Vieille,"
        " ce n'est pas encore décidé"
    ]
    reply = last_reply(gazetteer, turns, "fr")
    assert reply.collected.start is None
    assert not reply.readyToGenerate
