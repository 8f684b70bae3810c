"""Two places, or a loop and a place, joined by "or" beside a word of indecision are an end (or a start)
left open, not the first one named; a plain "or" about something else leaves the places as said."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "start"),
    [
        (["2j VTT", "depart arinsal", "arrivée ordino... ou llorts, a voir"], "Arinsal"),
        # the French verbs of finishing, and "soit à... soit à..."
        (
            [
                "soldeu -> encamp",
                "2 jours",
                "attends je sais plus si je finis a encamp ou escaldes, je te redis",
            ],
            "Soldeu",
        ),
        (
            [
                "On part de Ransol. 2 jours",
                "on voudrait finir soit à La Massana soit à Ordino, pas encore tranché",
            ],
            "Ransol",
        ),
        (
            ["2 jours au départ d'Andorre-la-Vieille, on finit à Pal ou à Arinsal", "on verra où dormir"],
            "Andorra la Vella",
        ),
    ],
)
def test_an_end_said_with_another_beside_a_word_of_indecision_is_open(
    gazetteer: Gazetteer, turns: list[str], start: str
) -> None:
    reply = last_reply(gazetteer, turns, "fr")
    assert reply.collected.start == start
    assert reply.collected.end is None
    assert not reply.readyToGenerate


def test_a_french_end_said_once_is_the_end(gazetteer: Gazetteer) -> None:
    """(A guard: "je finis à Encamp", alone, is an end.)"""
    assert last_reply(gazetteer, ["de Soldeu, 2 jours, je finis a encamp"], "fr").collected.end == "Encamp"


@pytest.mark.parametrize(
    "turns",
    [
        ["starting from canillo, 2 days, MTB", "either come back to canillo or end in la massana, idk yet"],
        [
            "Starting from Llorts, mtb, a day",
            "either loop back to Llorts or finish in Ordino, depending on my legs",
        ],
        [
            "loop from Ordino, 2 days",
            "actually not sure we'll loop back, my friend might pick us up somewhere",
        ],
    ],
)
def test_a_loop_or_another_end_left_open_is_no_loop(gazetteer: Gazetteer, turns: list[str]) -> None:
    reply = last_reply(gazetteer, turns, "en")
    assert not reply.collected.roundTrip
    assert reply.collected.end is None
    assert not reply.readyToGenerate


def test_a_start_left_open_between_two_places(gazetteer: Gazetteer) -> None:
    turns = [
        "je voudrais finir à Ordino, 2 jours de VTT",
        "départ de Sant Julià... ou de Pas de la Casa, j'hésite",
    ]
    reply = last_reply(gazetteer, turns, "fr")
    assert reply.collected.start is None
    assert reply.collected.end == "Ordino"


def test_an_or_about_the_bike_leaves_the_ends_as_said(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["From Ordino to Soldeu, 2 days, road or gravel, not sure"], "en")
    assert (reply.collected.start, reply.collected.end) == ("Ordino", "Soldeu")
    assert reply.readyToGenerate


def test_an_end_a_group_has_not_agreed_on_is_open(gazetteer: Gazetteer) -> None:
    text = (
        "They want e-bikes, 3 days, starting from their hotel in Andorra la Vella."
        " Mum wants to end in Ordino,"
        " Dad says Canillo. I am NOT getting in the middle of that one"
    )
    reply = last_reply(gazetteer, [text])
    assert reply.collected.start == "Andorra la Vella"
    assert reply.collected.end is None
    assert not reply.readyToGenerate


def test_a_tied_poll_leaves_the_end_open(gazetteer: Gazetteer) -> None:
    text = (
        "Résultat du sondage pour la fin du parcours de samedi :\n- Soldeu : 2 votes\n- Grau Roig : 2 votes\n"
        "- Pas de la Casa : 1 vote\n\nbref on n'est pas d'accord 🙄 départ Encamp, sur la journée, en VTT."
    )
    reply = last_reply(gazetteer, [text], "fr")
    assert reply.collected.start == "Encamp"
    assert reply.collected.end is None
    assert not reply.readyToGenerate


def test_wishes_for_different_things_are_a_plan(gazetteer: Gazetteer) -> None:
    text = (
        "From our whatsapp: start Andorra la Vella, Meli wants to see Meritxell, Joe wants Pas de la Casa"
        " for the duty free so we finish there. 2 days"
    )
    reply = last_reply(gazetteer, [text])
    assert (reply.collected.start, reply.collected.end) == ("Andorra la Vella", "Pas de la Casa")
    assert reply.readyToGenerate


@pytest.mark.parametrize(
    "text",
    [
        "Andorra la Vella to Pas de la Casa, a long weekend or a full week, depends if my leave is ok",
        "Encamp loop via Meritxell, could do it in a day or split it over two, not decided",
        "départ Ordino arrivée Escaldes, si on est 6 on fera 3 jours, sinon 2",
    ],
)
def test_days_said_as_alternatives_are_open(gazetteer: Gazetteer, text: str) -> None:
    reply = last_reply(gazetteer, [text], "fr" if "départ" in text else "en")
    assert reply.collected.durationDays is None
    assert not reply.readyToGenerate


def test_days_left_open_then_chosen(gazetteer: Gazetteer) -> None:
    turns = [
        "thinking of 2 or 3 days in andorra, not sure yet",
        "start in Andorra la Vella",
        "ok let's say 3. a loop",
    ]
    reply = last_reply(gazetteer, turns)
    assert reply.collected.durationDays == 3
    assert reply.readyToGenerate
    turns = ["entre 5 et 6 jours", "Départ Escaldes, arrivée Arinsal", "ok va pour 5"]
    assert last_reply(gazetteer, turns, "fr").collected.durationDays == 5


def test_a_limit_made_again_is_no_count_of_days(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["from Encamp to Soldeu, max 60 km", "make it 45"])
    assert reply.collected.durationDays is None
    assert reply.collected.dailyDistanceKm == 45


def test_an_end_doubted_with_maybe_further_is_open_again(gazetteer: Gazetteer) -> None:
    turns = [
        "start Ordino, end Soldeu, 3 days, hotels",
        "actually I'm not sure about Soldeu anymore, maybe further",
    ]
    reply = last_reply(gazetteer, turns)
    assert reply.collected.end is None
    assert not reply.readyToGenerate


def test_a_start_left_open_somewhere_else_keeps_the_end(gazetteer: Gazetteer) -> None:
    turns = [
        "je veux finir à Kallio samedi pour voir des potes",
        "départ ? je sais pas trop, je peux prendre le métro jusqu'au centre ou ailleurs",
    ]
    assert last_reply(gazetteer, turns, "fr").collected.end == "Kallio"


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (
            [
                "Two days on the road bike from Encamp",
                "finish at Arinsal",
                "hmm no, actually Ordino",
                "or Arinsal... ugh let me think about it and come back to you",
            ],
            "en",
        ),
        (
            [
                "Je suis à Helsinki, mon hôtel est à Kamppi.",
                "demain soir je voudrais rouler un peu depuis l'hôtel. Aucune idée d'où aller.",
            ],
            "fr",
        ),
        (
            [
                "planning 4 days of road riding from Andorra la Vella",
                "we haven't figured out the ending yet, maybe France, maybe back to AlV",
            ],
            "en",
        ),
        (
            [
                "2 days road from Andorra la Vella to Soldeu",
                "hmm actually maybe not Soldeu, could end anywhere with a train station really",
            ],
            "en",
        ),
    ],
)
def test_an_end_put_off_is_open(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.end is None
    assert not reply.readyToGenerate


def test_an_end_the_writer_and_another_disagree_on_is_open_until_agreed(gazetteer: Gazetteer) -> None:
    start = ["planning a weekend, hybrids", "start from Andorra la Vella"]
    open_end = (
        "she wants to end up in Pas de la Casa, I'd rather finish in Ordino. we'll talk tonight and decide"
    )
    reply = last_reply(gazetteer, [*start, open_end], "en")
    assert (reply.collected.end, reply.collected.startDate) == (None, None)
    agreed = (
        "She wants to finish in Canillo, I'd rather end in Soldeu. Ok let's say Soldeu, she'll forgive me"
    )
    assert last_reply(gazetteer, [*start, agreed], "en").collected.end == "Soldeu"


def test_torn_between_two_bikes_leaves_the_start_as_said(gazetteer: Gazetteer) -> None:
    turns = [
        "Départ d'Encamp, arrivée Andorre-la-Vieille, 2 jours",
        "on hésite entre VTT et gravel... ok VTT",
    ]
    collected = last_reply(gazetteer, turns, "fr").collected
    assert (collected.start, collected.profile) == ("Encamp", "mountain")
