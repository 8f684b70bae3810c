"""What people answer and type in a hurry: the start given again as the end ("same place", "même
endroit"), stops typed in a row with no comma ("via la massana ordino canillo"), nights listed stop by
stop ("nuit à Pal, nuit à Arinsal"), a group that has not agreed ("we'll vote tonight"), "starts in",
"5 days Sant Julià to Soldeu", "end at my sister's in Hakaniemi"."""

from collections import Counter
from typing import Any

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.domain.places import SearchOutcome

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["andorra mtb 3 days", "from vila", "same as start"], "en"),
        (["Gravel weekend in Andorra?", "Start Encamp", "same place"], "en"),
        (["I've got a fortnight off", "starting in andorra la vella", "and ending there too"], "en"),
        (["un tour en andorre, 4 jours", "ordino", "même endroit"], "fr"),
        (["helsinki à vélo demain", "départ hakaniemi", "pareil", "une journée"], "fr"),
    ],
)
def test_the_start_given_as_the_end_is_a_loop(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.roundTrip
    assert reply.readyToGenerate


def test_the_same_bike_is_no_loop(gazetteer: Gazetteer) -> None:
    """(A guard: "same" about something else in a longer turn says nothing of the end.)"""
    reply = last_reply(gazetteer, ["from Vila, 3 days", "same bikes as last year"], "en")
    assert not reply.collected.roundTrip


@pytest.mark.parametrize(
    ("turns", "locale", "start", "end", "via"),
    [
        (
            [
                "7 days touring andorra",
                "start sant julia, end pas de la casa",
                "via la massana ordino canillo soldeu",
            ],
            "en",
            "Sant Julià de Lòria",
            "Pas de la Casa",
            ["La Massana", "Ordino", "Canillo", "Soldeu"],
        ),
        (
            ["sant julia -> canilo via andorra la vella & encamp", "2 days"],
            "en",
            "Sant Julià de Lòria",
            "Canillo",
            ["Andorra la Vella", "Encamp"],
        ),
        (
            ["canillo to pas de la casa 2 days road", "via soldeu n grau roig"],
            "en",
            "Canillo",
            "Pas de la Casa",
            ["Soldeu", "Grau Roig"],
        ),
        (["kallio sornainen kamppi eira", "1 day tmrw"], "en", "Kallio", "Eira", ["Sörnäinen", "Kamppi"]),
    ],
)
def test_stops_typed_in_a_row(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, end: str, via: list[str]
) -> None:
    trip = last_reply(gazetteer, turns, locale).collected
    assert (trip.start, trip.end, trip.via) == (start, end, via)


def test_a_name_of_two_parts_is_one_stop(gazetteer: Gazetteer) -> None:
    """(A guard: "les escaldes engordany" names one town, not les Escaldes and Engordany.)"""
    trip = last_reply(
        gazetteer,
        ["on part de st julia et on finit a canillo", "3 jours, en passant par les escaldes engordany"],
        "fr",
    ).collected
    assert trip.via == ["les Escaldes"]


@pytest.mark.parametrize(
    ("text", "locale", "days"),
    [
        ("on part d'Ordino. nuit à Pal, nuit à Arinsal, nuit à El Serrat, puis retour à Ordino", "fr", 4),
        (
            "on part d'Escaldes. on dort à Encamp, puis à Canillo, puis à Soldeu, et le dernier jour "
            "on descend à Andorra la Vella",
            "fr",
            4,
        ),
        (
            "départ Encamp. nuit 1 : Canillo, nuit 2 : Canillo encore, nuit 3 : Soldeu, "
            "puis descente à Encamp",
            "fr",
            4,
        ),
        (
            "Première nuit à Ordino, deuxième à Arinsal, puis retour aux Escaldes. Départ des Escaldes",
            "fr",
            3,
        ),
        ("La Massana (start) - Arinsal (night) - Pal (night) - Erts - back to La Massana", "en", 3),
    ],
)
def test_nights_listed_stop_by_stop(gazetteer: Gazetteer, text: str, locale: str, days: int) -> None:
    assert last_reply(gazetteer, [text], locale).collected.durationDays == days


def test_a_night_of_arrival_is_no_night_on_the_way(gazetteer: Gazetteer) -> None:
    """(A guard: the night people land is before the ride.)"""
    text = (
        "We land in Toulouse on Friday, night at the hotel in Sant Julià. Saturday from Sant Julià to "
        "Canillo, night in Canillo, and Sunday back to Sant Julià."
    )
    assert last_reply(gazetteer, [text], "en").collected.durationDays == 2


@pytest.mark.parametrize(
    ("turns", "locale", "slot"),
    [
        (
            [
                "starting Andorra la Vella, 2 days, road",
                "Paul wants to finish at Soldeu, Marc at Arinsal, we'll vote tonight",
            ],
            "en",
            "end",
        ),
        (["Starting at Soldeu, 3 days, mtb", "the end is where we're stuck: half want Arinsal"], "en", "end"),
        (
            [
                "départ les Escaldes, 2 jours, VTT",
                "arrivée à Ordino... non, arrivée pas décidée pour l'instant",
            ],
            "fr",
            "end",
        ),
        (
            ["départ soldeu, 3 jours", "ma fille veut finir à Arinsal chez sa copine. pas encore tranché"],
            "fr",
            "end",
        ),
        (
            ["andorra trip, 3 days, from canillo", "to arinsal", "let me think about where to end"],
            "en",
            "end",
        ),
        (
            [
                "3 days from Soldeu to Sant Julià",
                "not sure we'll make it to Sant Julià, maybe we stop earlier",
            ],
            "en",
            "end",
        ),
        (["start at La Massana, end Canillo", "we can't agree on how long"], "en", "durationDays"),
        (
            ["Erts → Encamp", "nombre de jours : 3 ou 4, Jean-Luc doit vérifier ses congés"],
            "fr",
            "durationDays",
        ),
        (
            [
                "Kamppi to Kallio",
                "two want to do it in one go, the other two want to split it over two days. no consensus yet",
            ],
            "en",
            "durationDays",
        ),
        (
            [
                "de Canillo à Encamp par Meritxell",
                "un long week-end ou juste le samedi, à voir avec ma copine",
            ],
            "fr",
            "durationDays",
        ),
        (
            [
                "3 day trip from the house in Canillo to Sant Julià",
                "actually scrap the end point, we'll figure out where to finish later",
            ],
            "en",
            "end",
        ),
        (
            [
                "2 jours au départ d'Ordino",
                "boucle pour revenir à Ordino, ou aller simple jusqu'à Pas de la Casa. On n'a pas tranché",
            ],
            "fr",
            "end",
        ),
        # left to chance or to others: "doesn't matter where we start", "tu proposes quoi ?"
        (["riding in helsinki", "doesn't matter where we start", "a loop", "a day"], "en", "start"),
        (["vélo à helsinki", "peu importe le départ", "fin à kamppi", "une journée"], "fr", "start"),
        (
            [
                "envie de rouler à helsinki",
                "kallio",
                "je sais pas, tu proposes quoi pour l'arrivée ?",
                "1 jour",
            ],
            "fr",
            "end",
        ),
        # what people say they will think about (session 19)
        (
            ["De Aixovall a Encamp, 2 jours", "hmm pas Encamp finalement. je reflechis a la destination"],
            "fr",
            "end",
        ),
        (
            ["On partirait de La Massana le mardi 11, pour 2 jours", "pour l'arrivée on verra sur place"],
            "fr",
            "end",
        ),
        (["de La Massana à Grau Roig en VTT", "ok je vais réfléchir à la durée"], "fr", "durationDays"),
        (["d'Escaldes à Ordino en VTT", "le weekend, ou peut-être plus, on verra"], "fr", "durationDays"),
        (
            ["from Kallio to Punavuori tomorrow", "might turn it into a couple of days, might not"],
            "en",
            "durationDays",
        ),
    ],
)
def test_what_a_group_or_no_one_has_decided_is_open(
    gazetteer: Gazetteer, turns: list[str], locale: str, slot: str
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert getattr(reply.collected, slot) is None
    assert not reply.readyToGenerate


def test_a_vote_already_won_is_agreed(gazetteer: Gazetteer) -> None:
    """(A guard: a count of people is no count of days, and a vote taken names the end.)"""
    reply = last_reply(
        gazetteer,
        ["We're doing 4 days from Ordino, perhaps 2 or 3 friends will join", "we voted: Soldeu"],
        "en",
    )
    assert reply.collected.durationDays == 4


@pytest.mark.parametrize(
    ("turns", "locale", "start", "end"),
    [
        (
            ["ride starts in Sant Julià the next day", "to el Serrat, 3 days"],
            "en",
            "Sant Julià de Lòria",
            "el Serrat",
        ),
        (["I was thinking 5 days Sant Julià to Soldeu"], "en", "Sant Julià de Lòria", "Soldeu"),
        (["from Kamppi, and end at my sister's in Hakaniemi, one day"], "en", "Kamppi", "Hakaniemi"),
        (["pas de la casa a sant julia", "3 jours"], "fr", "Pas de la Casa", "Sant Julià de Lòria"),
        (["grau roig -> encamp", "1 day", "tmrw or wed, not sure"], "en", "Grau Roig", "Encamp"),
        (
            ["sispony - la massana - ordino - canillo", "2j", "refuge ou camping selon dispo"],
            "fr",
            "Sispony",
            "Canillo",
        ),
    ],
)
def test_more_ways_to_say_the_ends(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, end: str
) -> None:
    trip = last_reply(gazetteer, turns, locale).collected
    assert (trip.start, trip.end) == (start, end)


def test_someone_who_lives_somewhere_is_no_place_of_theirs(gazetteer: Gazetteer) -> None:
    """(A guard: "my brother lives in Juberri" still says where he lives, not someone's place.)"""
    trip = last_reply(
        gazetteer, ["my brother lives in Juberri, we ride from there to Ordino, 1 day"], "en"
    ).collected
    assert trip.start == "Juberri"


@pytest.mark.parametrize(
    ("turns", "locale", "start", "via"),
    [
        (
            ["Etu-Töölö → Kamppi → Punavuori → Munkkisaari and back to Etu-Töölö", "wednesday"],
            "en",
            "Etu-Töölö",
            ["Kamppi", "Punavuori", "Munkkisaari"],
        ),
        (
            [
                "Start Andorra la Vella, Santa Coloma, Aixovall, Sant Julia, Aixirivall, Juberri and back to "
                "Andorra la Vella",
                "road bike, one day",
            ],
            "en",
            "Andorra la Vella",
            [
                "Santa Coloma (village, Andorra)",
                "Aixovall",
                "Sant Julià de Lòria",
                "Aixirivall",
                "Juberri",
            ],  # (by the label the server keeps: the name alone has namesakes),
        ),
        (
            [
                "mercredi 12 mai : Andorra la Vella – La Margineda – Santa Coloma – Aixovall – Sant Julià, "
                "puis on remonte par Aixirivall et retour Andorra la Vella"
            ],
            "fr",
            "Andorra la Vella",
            # (by its label: the name alone is still a question)
            [
                "La Margineda",
                "Santa Coloma (village, Andorra)",
                "Aixovall",
                "Sant Julià de Lòria",
                "Aixirivall",
            ],
        ),
        (
            [
                "Riding day: Encamp start, loop via Meritxell, Prats, Ransol, Canillo and back to Encamp",
                "1 day",
            ],
            "en",
            "Encamp",
            ["Meritxell", "Prats", "Ransol", "Canillo"],
        ),
    ],
)
def test_a_loop_listed_to_its_way_back(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, via: list[str]
) -> None:
    trip = last_reply(gazetteer, turns, locale).collected
    assert (trip.start, trip.roundTrip, trip.via) == (start, True, via)


def test_names_alone_are_a_route(gazetteer: Gazetteer) -> None:
    trip = last_reply(
        gazetteer, ["Escaldes, Engolasters, Encamp, Canillo, sur la journée, en VAE"], "fr"
    ).collected
    assert (trip.start, trip.via, trip.end) == ("les Escaldes", ["Engolasters", "Encamp"], "Canillo")


def test_a_word_that_is_no_name_is_no_village(gazetteer: Gazetteer) -> None:
    """(A guard: "Bon," before a choice is no typo of les Bons.)"""
    turns = [
        "J'hésite entre partir d'Encamp ou de Canillo",
        "Bon, va pour Canillo. Arrivée à Ordino. En VTC.",
    ]
    trip = last_reply(gazetteer, turns, "fr").collected
    assert (trip.start, trip.via) == ("Canillo", [])


def test_days_named_inline_one_leg_each(gazetteer: Gazetteer) -> None:
    text = (
        "Mon Andorra la Vella to Sant Julià, Tue Sant Julià to Encamp, Wed Encamp to Pas de la Casa, "
        "Thu Pas back to Canillo, Fri Canillo to Ordino, Sat Ordino to Arinsal, "
        "Sun Arinsal back to Andorra la Vella"
    )
    assert last_reply(gazetteer, [text], "en").collected.durationDays == 7


@pytest.mark.parametrize(
    ("turns", "locale", "days"),
    [
        (["Escaldes to Arinsal", "days: my friend Ola says 1, I say 2. she's driving so 1"], "en", 1),
        (["Anyós → Canillo", "nombre de jours : Ola dit 1, moi 2. c'est elle qui conduit donc 1"], "fr", 1),
        (["loop from La Massana up to Arinsal and back through Erts. one long day on the MTB"], "en", 1),
    ],
)
def test_days_settled_in_passing(gazetteer: Gazetteer, turns: list[str], locale: str, days: int) -> None:
    assert last_reply(gazetteer, turns, locale).collected.durationDays == days


def test_a_word_loosely_read_with_namesakes_only_abroad_is_no_question(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer, ["le week-end du 8 mai, pas de pont cette année", "2 jours, des escaldes à ordino"], "fr"
    )
    assert reply.clarification is None
    assert (reply.collected.start, reply.collected.end) == ("les Escaldes", "Ordino")


def test_a_village_of_ours_and_a_town_abroad_are_still_asked(gazetteer: Gazetteer) -> None:
    """(A guard, the issue's rule: Santa Coloma with nothing else to place it by is a question; beside
    Canillo it is the village, the only one a trip could be planned from.)"""
    reply = last_reply(gazetteer, ["2 jours au départ de Santa Coloma"], "fr")
    assert reply.clarification is not None
    assert reply.collected.start is None


class _Counting:
    """The gazetteer, counting what it is asked."""

    def __init__(self, gazetteer: Gazetteer) -> None:
        self.gazetteer, self.asked = gazetteer, Counter[str]()

    def search(self, query: str, **kwargs: Any) -> SearchOutcome:
        self.asked[query] += 1
        return self.gazetteer.search(query, **kwargs)


def test_a_row_of_names_is_looked_up_once(gazetteer: Gazetteer) -> None:
    """(A geocoder may be remote: the phrase a row is cut from is asked once, not again to be read whole.)"""
    counting = _Counting(gazetteer)
    turn = "from sant julia to pas de la casa via la massana ordino canillo soldeu, 7 days"
    trip = last_reply(counting, [turn], "en").collected  # type: ignore[arg-type]
    assert trip.via == ["La Massana", "Ordino", "Canillo", "Soldeu"]
    assert counting.asked["la massana ordino canillo soldeu"] == 1
