"""Where the ride ends, said by what happens there: the last night or stage ("dernière étape Pas de la
Case", "last night in Encamp before the bus out", "terminus"), being picked up or collected ("picked up by
the van in el Serrat", "on se fait récupérer à Soldeu"), the bus or train home ("we catch the bus home from
La Seu"), the route said to stop there ("down to Pas de la Casa and that's it", "puis on redescend sur La
Massana et c'est fini", "el serrat is where we stop"); and the start by where the bikes are picked up."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale", "start", "end"),
    [
        (
            [
                "salut, 4 jours en vélo de route, départ andorre la vieille, étapes : la"
                " massana, ordino, canillo,"
                " et dernière étape pas de la case"
            ],
            "fr",
            "Andorra la Vella",
            "Pas de la Casa",
        ),
        (
            ["4 jours en VTT, départ du camping de La Massana, terminus Pas de la Case"],
            "fr",
            "La Massana",
            "Pas de la Casa",
        ),
        (
            [
                "5 days touring, we arrive by bus at Sant Julià and wander around Ordino and"
                " Canillo with the last"
                " night in Encamp before the bus out"
            ],
            "en",
            "Sant Julià de Lòria",
            "Encamp",
        ),
        (
            ["3 jours en gravel depuis Andorre-la-Vieille, dernière nuit à Arinsal et retour en bus"],
            "fr",
            "Andorra la Vella",
            "Arinsal",
        ),
        (
            ["MTB, 2 days from Arinsal. we're picked up by the van in el Serrat on sunday"],
            "en",
            "Arinsal",
            "el Serrat",
        ),
        (
            [
                "Planning: start Escaldes, 2 days, finish in Ordino. Road bikes.",
                "oh wait, my brother can only collect us in La Massana, so we finish there instead",
            ],
            "en",
            "les Escaldes",
            "La Massana",
        ),
        (
            ["On part d'Andorre-la-Vieille, 3 jours à VAE. À la fin on se fait récupérer à Soldeu"],
            "fr",
            "Andorra la Vella",
            "Soldeu",
        ),
        (
            ["two days from Canillo down the valley and we catch the bus home from Sant Julià"],
            "en",
            "Canillo",
            "Sant Julià de Lòria",
        ),
        (
            ["Du 5 au 7 juin. On arrive en bus à Andorre-la-Vieille et on repart du Pas de la Case en bus"],
            "fr",
            "Andorra la Vella",
            "Pas de la Casa",
        ),
        (
            [
                "two-day road ride from Andorra la Vella, then over Envalira and down to Pas de"
                " la Casa and that's"
                " it, a friend drives us back"
            ],
            "en",
            "Andorra la Vella",
            "Pas de la Casa",
        ),
        (
            [
                "On part d'Ordino, on monte vers Llorts, puis on redescend sur La Massana et"
                " c'est fini. 2 jours"
            ],
            "fr",
            "Ordino",
            "La Massana",
        ),
        (
            [
                "a 2 day e-bike trip starting in escaldes, going up to ordino and the lake, then"
                " el serrat is where"
                " we stop"
            ],
            "en",
            "les Escaldes",
            "el Serrat",
        ),
        (
            [
                "three days from Canillo via Ordino and we fly home from Barcelona so Sant Julià"
                " is the last stop"
                " before the bus"
            ],
            "en",
            "Canillo",
            "Sant Julià de Lòria",
        ),
        (
            ["3 days gravel. We pick the bikes up in Sant Julia and we're ending up at my aunt's in Canillo"],
            "en",
            "Sant Julià de Lòria",
            "Canillo",
        ),
    ],
)
def test_the_end_said_by_what_happens_there(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, end: str
) -> None:
    collected = last_reply(gazetteer, turns, locale).collected
    assert (collected.start, collected.end, collected.roundTrip) == (start, end, False)
    assert end not in collected.via


def test_fetched_by_car_there_is_the_end_not_a_stop(gazetteer: Gazetteer) -> None:
    """(A guard: "son fils vient nous chercher en voiture à Llorts" ends there, once, no stop at Llorts.)"""
    collected = last_reply(
        gazetteer,
        [
            "Samedi petite balade en VTT : Sornàs → Ansalonga → Arans → Llorts, et son fils"
            " vient nous chercher en"
            " voiture à Llorts. Une journée"
        ],
        "fr",
    ).collected
    assert collected.end == "Llorts"
    assert collected.via == ["Ansalonga", "Arans"]
