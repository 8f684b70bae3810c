"""A stop whose name is several places is the one on the way between the trip's ends (Santa Coloma between
La Massana and Sant Julià, not Santa Coloma de Gramenet); a start or an end is the one inside the area of
the trip's other places, and with none there to place it by, still asked."""

from __future__ import annotations

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.domain.places import Ambiguous, Found, on_the_way

from tests.fixtures.brief_chat import CORPUS_TODAY as TODAY
from tests.fixtures.brief_chat import last_reply


def test_the_namesake_on_the_way_is_the_stop(gazetteer: Gazetteer) -> None:
    said = gazetteer.search("Santa Coloma")
    assert isinstance(said, Ambiguous)  # the village, and Santa Coloma de Gramenet near Barcelona
    la_massana, sant_julia = (gazetteer.search(n) for n in ("La Massana", "Sant Julià de Lòria"))
    assert isinstance(la_massana, Found)
    assert isinstance(sant_julia, Found)
    stop = on_the_way(said, la_massana.place, sant_julia.place)
    assert isinstance(stop, Found)
    assert stop.place.region == "andorra"
    # a loop from La Massana turns there too; with no start, nothing settles it
    loop = on_the_way(said, la_massana.place, None)
    assert isinstance(loop, Found)
    assert loop.place.region == "andorra"
    assert on_the_way(said, None, sant_julia.place) is said


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["road bike trip from La Massana to Sant Julià via Santa Coloma, 1 day"], "en"),
        (["Ordino → Sant Julià, 1 jour en VTT", "par La Massana, Andorre-la-Vieille et Santa Coloma"], "fr"),
        (["Sant Julià -> église de Santa Coloma -> Andorre-la-Vieille -> La Massana", "2 jours"], "fr"),
    ],
)
def test_a_stop_between_the_ends_is_not_asked(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.clarification is None
    assert any(v.startswith("Santa Coloma") for v in reply.collected.via)
    assert reply.readyToGenerate


def test_a_sight_on_the_way_that_is_not_found_is_not_asked(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer,
        [
            "We have a flat in Ullanlinna. A little ride on city bikes through Kaivopuisto park, over to "
            "Kruununhaka for ice cream and then back home to Ullanlinna.",
            "Saturday the 22nd, just the one day",
        ],
    )
    assert reply.clarification is None
    assert reply.collected.start == "Ullanlinna"
    assert reply.readyToGenerate


def test_a_park_by_a_name_abroad_is_no_stop_abroad(gazetteer: Gazetteer) -> None:
    """ "le parc de l'Esplanade" is no Esplanada, Brazil (a resemblance): not out of coverage."""
    reply = last_reply(
        gazetteer,
        [
            "départ Kruununhaka, on traverse le parc de l'Esplanade à Kaartinkaupunki et on revient",
            "demain aprem, vélo de ville",
        ],
        "fr",
    )
    assert "Esplanada" not in reply.collected.via
    assert reply.readyToGenerate


def test_lakes_seen_on_the_way_are_not_asked(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer,
        [
            "partir de la cortinada, monter jusqu'à el serrat pour aller voir les lacs au-dessus, puis "
            "redescendre à la cortinada",
            "vtt, 1 jour",
        ],
        "fr",
    )
    assert reply.clarification is None
    assert reply.readyToGenerate


@pytest.mark.parametrize(
    ("turns", "locale", "via"),
    [
        (
            [
                "ride from Kamppi to Kallio on Saturday 15 May, stay there, then back to Kamppi on the "
                "Sunday through Alppiharju. Hybrid, hostel."
            ],
            "en",
            ["Kallio", "Alppiharju"],
        ),
        (["jveux faire un tour en vtt : kallio → sörnäinen → retour kallio, 1 jour"], "fr", ["Sörnäinen"]),
    ],
)
def test_going_back_to_the_start_after_the_end_is_a_loop(
    gazetteer: Gazetteer, turns: list[str], locale: str, via: list[str]
) -> None:
    collected = last_reply(gazetteer, turns, locale).collected
    assert collected.roundTrip
    assert collected.end in (None, collected.start)
    assert collected.via[: len(via)] == via


def test_a_loops_far_end_said_later_is_where_it_turns_not_its_end(gazetteer: Gazetteer) -> None:
    """ "je partirais de là et j'y reviendrais", then "monter jusqu'au lac d'Engolasters": still a loop."""
    collected = last_reply(
        gazetteer,
        [
            "On logera aux Escaldes, donc je partirais de là et j'y reviendrais.",
            "Trois jours, quarante kilomètres par jour au grand maximum.",
            "Je voudrais monter jusqu'au lac d'Engolasters et passer par Encamp.",
        ],
        "fr",
    ).collected
    assert collected.roundTrip
    assert collected.end in (None, collected.start)
    assert "Engolasters" in collected.via


def test_a_finish_said_later_ends_the_loop(gazetteer: Gazetteer) -> None:
    collected = last_reply(
        gazetteer, ["Loop from Encamp, 2 days, mountain bike", "Hmm, actually I'll finish in Soldeu"]
    ).collected
    assert not collected.roundTrip
    assert collected.end == "Soldeu"


def test_stops_in_order_after_a_base_are_stops() -> None:
    from tripagent.adapters.rules.brief_reader.reading import read_turn

    read = read_turn("Stops in order: Ordino, then Canillo, then Encamp.", today=TODAY)
    assert [p.text for p in read.places["via"]] == ["ordino", "canillo", "encamp"]
    assert read_turn("five days, no more than sixty kilometres in a day", today=TODAY).slots.durationDays == 5


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (
            [
                "one day ride on Sunday the 16th, from Santa Coloma to Arinsal on my e-bike via Sispony and "
                "La Massana. Max 35 km because the battery isn't great."
            ],
            "en",
        ),
        (
            [
                "Mercredi on aimerait faire une petite boucle à vélo de ville depuis Santa Coloma, par La "
                "Margineda et Aixovall, 15 km maximum"
            ],
            "fr",
        ),
    ],
)
def test_a_start_only_one_namesake_makes_a_trip_of_is_not_asked(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    """From Santa Coloma de Gramenet, a one-day ride of 35 km to Arinsal would be 160 km: the village."""
    reply = last_reply(gazetteer, turns, locale)
    assert reply.clarification is None
    assert (reply.collected.start or "").startswith("Santa Coloma")
    assert "Gramenet" not in (reply.collected.start or "")
    assert reply.readyToGenerate


def test_a_start_whose_one_namesake_inside_the_area_of_the_trip_is_taken(gazetteer: Gazetteer) -> None:
    """From Santa Coloma de Gramenet to Soldeu in two days is a trip someone could ride, but not one we
    could plan: the village, said back in the recap to be corrected."""
    reply = last_reply(gazetteer, ["from santa coloma to soldeu, 2 days, road bike"])
    assert reply.clarification is None
    assert reply.collected.start == "Santa Coloma (village, Andorra)"
    assert "Santa Coloma" in reply.reply
    assert reply.readyToGenerate


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["from santa coloma, 2 days, road bike"], "en"),  # nothing else to place it by
        (["de santa coloma à barcelone, 2 jours"], "fr"),  # the other end abroad
    ],
)
def test_a_start_of_two_namesakes_with_no_trip_inside_one_area_is_still_asked(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.clarification is not None
    assert reply.collected.start is None


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (
            [
                "cycling w the kids sunday, from kruununhaka. short, like 15k max",
                "loop pls, down to kaivopuisto park",
            ],
            "en",
        ),
        (["aller simple ordino -> sant julia demain en vélo de ville"], "fr"),
        (
            [
                "yo can u plan a bike ride in helsinki",
                "kallio thats where i live",
                "idk just 1 day",
                "just go round n come back to kallio lol",
            ],
            "en",
        ),
    ],
)
def test_no_question_about_words_that_name_no_place(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    """A sight ("kaivopuisto park"), "vélo de ville", "go round n come back": nothing to ask about."""
    reply = last_reply(gazetteer, turns, locale)
    assert reply.clarification is None
    assert reply.readyToGenerate


def test_maybe_back_to_the_start_is_no_loop_yet(gazetteer: Gazetteer) -> None:
    collected = last_reply(
        gazetteer,
        [
            "Hi! I'm starting from Canillo on May 22nd, 3 days on a gravel bike.",
            "Not sure where to end yet, maybe Arinsal or maybe back to Canillo, I'll think about it.",
        ],
    ).collected
    assert not collected.roundTrip
    assert collected.end is None
