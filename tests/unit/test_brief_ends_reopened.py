"""Ends and starts taken back or left between two ("je sais pas trop où on va finir", "on ne revient pas",
"my dad wants to start in Soldeu, my mum wants Canillo"), the way home after the end, terse answers ("AR",
"week in andorra", "pal" after "canillo"), an answer moved from the start to the end ("that's where we want
to end"), and day plans dated by the day of the month."""

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.places import place_phrases

from tests.fixtures.brief_chat import last_reply


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["départ de la Massana mercredi, 2 jours, arrivée Encamp, gravel",
          "bon en fait je sais pas trop où on va finir, on verra sur place"], "fr"),
        (["4 days on touring bikes, starting Sant Julià, ending Soldeu",
          "actually scrap Soldeu, we honestly dont know where we'll end up, we'll see how the legs "
          "feel"], "en"),
        (["Boucle de 4 jours autour d'Ordino en gravel",
          "Finalement on ne revient peut-être pas à Ordino… on finira où on finira, pas encore "
          "décidé"], "fr"),
        (["We want to do a week loop starting and ending in Andorra la Vella",
          "Hmm, actually my partner wants to finish in France, either Foix or Ax-les-Thermes, we'll "
          "see"], "en"),
        (["Départ d'Andorre-la-Vieille, 2 jours",
          "Arrivée soit à Soldeu soit à Pas de la Casa, on hésite encore"], "fr"),
        (["Départ d'Andorre-la-Vieille, 2 jours", "Arrivée à Soldeu ou à Pas de la Casa, on hésite "
         "encore"], "fr"),
        (["2 jours au départ d'Encamp, vtt",
          "les garçons veulent finir à Pas de la Casa, ma femme préférerait Grau Roig, on tranchera sur "
          "place"],
         "fr"),
        (["4 days. We'd start from El Tarter. As for the finish we can't make up our minds, "
          "either Arinsal or just back to El Tarter", "still thinking about the end, sorry"], "en"),
    ],
)  # fmt: skip
def test_an_end_taken_back_or_left_between_two_is_open(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.start is not None
    assert (reply.collected.end, reply.collected.roundTrip, reply.readyToGenerate) == (None, False, False)


def test_a_loop_not_coming_back_keeps_its_stop(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer,
        [
            "Boucle Canillo - Soldeu - Canillo sur 2 jours",
            "Finalement on passe toujours par Soldeu mais on ne rentrera pas à Canillo. "
            "On finit ailleurs, mais où je sais pas encore",
        ],
        "fr",
    )
    assert (reply.collected.start, reply.collected.via, reply.collected.end) == ("Canillo", ["Soldeu"], None)
    assert not reply.collected.roundTrip


@pytest.mark.parametrize(
    ("turns", "locale", "start"),
    [
        (["Family ride, 2 days, ending in Andorra la Vella",
          "start, ugh. my dad wants to start in Soldeu, my mum wants Canillo. I'm staying out of "
          "it"], "en", None),
        (["I fancy the Ordino valley, 3 days",
          "where do I start... honestly not sure yet, either La Massana or Ordino, depends which hotel "
          "has rooms",
          "finish in el Serrat I think"], "en", None),
        (["Le 29 mai, arrivée à Soldeu, départ soit d'Encamp soit de Canillo on hésite"], "fr", None),
        (["On atterrit à Helsinki-Vantaa, on loge soit chez un pote à Kallio soit à l'hôtel à Kamppi",
          "on partirait de là où on dort, donc Kallio ou Kamppi. fin à Eira. 1 jour"], "fr", None),
        (["thinking a 3-day loop from Encamp",
          "Actually maybe not Encamp, we might stay in Canillo or Soldeu, not booked yet. Still a loop "
          "though"],
         "en", None),
        (["Hi, I want to ride over to my friend's flat in Ullanlinna on Wednesday. One day. "
          "Start is... hmm, I'm crashing on a guy's couch somewhere north, no idea what the "
          "neighbourhood's called"], "en", None),
        (["On est 5 potes, VTT, 2 jours", "arrivée Ordino c'est sûr",
          "le départ c'est Arinsal ou Erts... Erts c'est à côté d'Arinsal non ? bon on verra sur place"],
         "fr", None),
        (["Then either we start riding at Sant Julià or we drive all the way up to Andorra la Vella and "
          "start there, not sure yet. Ending at Soldeu for sure.", "2 days, gravel"], "en", None),
        (["I want finish in Pas de la Casa",
          "start somewhere near Andorra la Vella, I don't know, the hotel is not booked yet",
          "2 days road bike"], "en", None),
        # (guards: a start said, and the choice only of the end, the shape, or the days)
        (["Starting in Kallio, 2 days, e-bike. Ending either in Eira or Punavuori, can't make up my "
         "mind"], "en",
         "Kallio"),
        (["hey, me and Tom are arguing. he wants a loop from Kallio, I want one way Kallio to Eira",
          "ok fine, his loop. 1 day, saturday"], "en", "Kallio"),
        (["3 days, start in Escaldes... then either loop back to Escaldes or finish in Soldeu, can't "
         "decide"], "en",
         "les Escaldes"),
    ],
)  # fmt: skip
def test_a_start_left_between_two_or_taken_back_is_open(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str | None
) -> None:
    assert last_reply(gazetteer, turns, locale).collected.start == start


@pytest.mark.parametrize(
    ("turns", "locale", "end"),
    [
        (["Le 29 mai, arrivée à Soldeu, départ soit d'Encamp soit de Canillo on hésite"], "fr", "Soldeu"),
        (["from Canillo, 2 days. my wife wants to finish in Soldeu because she wants to see the shops"], "en",
         "Soldeu"),
        (["3 day trip ending in Sant Julià, starting either from Soldeu or El Tarter, haven't decided"], "en",
         "Sant Julià de Lòria"),
        (["start in foix, end in andorra la vella, it'll be either a weekend or a long weekend, we'll "
         "see"], "en",
         "Andorra la Vella"),
    ],
)  # fmt: skip
def test_an_end_said_beside_other_choices_stays(
    gazetteer: Gazetteer, turns: list[str], locale: str, end: str
) -> None:
    assert last_reply(gazetteer, turns, locale).collected.end == end


def test_a_group_that_settles_has_an_end(gazetteer: Gazetteer) -> None:
    """ "Donc ..." after what each wants: the group has settled, no end is left open."""
    reply = last_reply(
        gazetteer,
        [
            "petite itinérance à VTT de 3 jours à partir du samedi 5 juin. Départ d'Ordino évidemment.",
            "Les ados veulent monter jusqu'à el Serrat, ma femme veut finir à Soldeu parce qu'elle a repéré "
            "un spa là-bas, et moi j'aimerais passer par Canillo. Donc Ordino, el Serrat, Canillo, Soldeu.",
        ],
        "fr",
    )
    assert reply.collected.end is not None
    assert reply.readyToGenerate


@pytest.mark.parametrize(
    ("text", "places"),
    [
        ("on termine au Pas de la Casa pour prendre le bus vers Toulouse", {"end": ["pas de la casa"]}),
        ("finish in Ax and catch the train to Toulouse", {"end": ["ax"]}),
        ("ending in Soldeu, then taking the bus to Barcelona airport", {"end": ["soldeu"]}),
        ("on prend le bus vers Toulouse", {"start": ["toulouse"]}),  # the way there: where the ride may begin
    ],
)
def test_the_way_home_from_the_end_is_no_place_of_the_trip(text: str, places: dict[str, list[str]]) -> None:
    assert {slot: [p.text for p in ps] for slot, ps in place_phrases(text, locale="fr").items()} == places


def test_a_loop_turned_one_way_to_the_bus_home_keeps_its_start(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer,
        [
            "On cherche une boucle de 5 jours au départ d'Andorre-la-Vieille, vélo de randonnée, camping",
            "Ah non attendez, on ne revient pas, on termine au Pas de la Case pour prendre le bus vers "
            "Toulouse",
        ],
        "fr",
    )
    assert (reply.collected.start, reply.collected.end) == ("Andorra la Vella", "Pas de la Casa")
    assert not reply.collected.roundTrip


@pytest.mark.parametrize(
    ("turns", "locale", "days", "loop"),
    [
        (["salut", "encamp", "AR", "1j", "gravel"], "fr", 1, True),
        (["pas de la casa", "a/r", "2j", "route"], "fr", 2, True),
        (["week in andorra", "andorra la vella", "back to start", "touring"], "en", 7, True),
        (["semaine en andorre", "depart sant julia", "boucle", "rando"], "fr", 7, True),
        (["Week-long tour: start Sant Julià, end Pas de la Casa"], "en", 7, False),
        # (guards: a week that is how often, or when; many days that are not one)
        (["a loop from ordino on my road bike, up through llorts and back. im fairly fit, ride 3 times a "
         "week"],
         "en", None, True),
        (["hut to hut MTB, 5 days riding", "start and finish Canillo",
          "week of 21 June, starting the Monday"], "en", 5, True),
        (["a slow multi day ride from Linjat to Kaartinkaupunki"], "en", None, False),
    ],
)  # fmt: skip
def test_terse_loops_and_weeks(
    gazetteer: Gazetteer, turns: list[str], locale: str, days: int | None, loop: bool
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert (reply.collected.durationDays, reply.collected.roundTrip) == (days, loop)


@pytest.mark.parametrize(
    ("turns", "days"),
    [
        (["from Sant Julià to Pas de la Casa, either a week or maybe ten days, I haven't worked out my "
         "leave"], None),
        (["We start in Ordino and finish in Sant Julià",
          "days: some of the group want to blast it in one day, others want two. we're voting on "
          "thursday"], None),
    ],
)  # fmt: skip
def test_days_the_rider_has_not_settled_are_open(
    gazetteer: Gazetteer, turns: list[str], days: int | None
) -> None:
    assert last_reply(gazetteer, turns).collected.durationDays == days


def test_a_name_alone_that_the_start_settles_is_no_question(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["canillo", "pal", "2", "gravel"])
    # (its label: the name alone still asks, and generation must find this Pal again)
    assert (reply.collected.end, reply.collected.durationDays) == ("Pal (village, Andorra)", 2)
    assert reply.readyToGenerate


def test_a_name_alone_with_nothing_to_settle_it_is_asked(gazetteer: Gazetteer) -> None:
    """(A guard: "Pal" alone may be the village or a town abroad: a question, not a guess.)"""
    assert last_reply(gazetteer, ["pal"]).clarification is not None


@pytest.mark.parametrize(
    ("turns", "locale", "start", "end"),
    [
        (["2 day road trip in andorra, leaving 22 may", "Pas de la Casa",
          "wait, no - that's where we want to end. we start at Sant Julià, and would like to go through "
          "Canillo"],
         "en", "Sant Julià de Lòria", "Pas de la Casa"),
        (["3 jours en Andorre à partir du lundi 24 mai", "Soldeu",
          "Pardon j'ai mal lu la question. Soldeu c'est là où on veut arriver. On part d'Andorre-la-Vieille"],
         "fr", "Andorra la Vella", "Soldeu"),
        (["3 jours", "Soldeu", "non ça c'est l'arrivée"], "fr", None, "Soldeu"),
    ],
)  # fmt: skip
def test_a_start_given_alone_then_said_to_be_the_end(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str | None, end: str
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert (reply.collected.start, reply.collected.end) == (start, end)


@pytest.mark.parametrize(
    ("turns", "locale", "start", "via", "end", "days", "date"),
    [
        (["15th: Siltasaari → Linjat → Alppiharju (sleep)\n16th: Alppiharju → Kallio → "
         "Sörnäinen\n\ntouring bike"],
         "en", "Siltasaari", ["Linjat", "Alppiharju", "Kallio"], "Sörnäinen", 2, "2027-05-15"),
        (["Jour 1 : Kruununhaka → Kaisaniemi → Siltasaari (nuit en auberge de jeunesse)\n"
          "Jour 2 : Siltasaari → Linjat → Sörnäinen\n"
          "(le soir du 1er jour on ira à Suomenlinna en ferry mais sans les vélos)"],
         "fr", "Kruununhaka", ["Kaisaniemi", "Siltasaari", "Linjat"], "Sörnäinen", 2, None),
        (["day 1 canillo-soldeu, day 2 soldeu-pas", "gravel"], "en", "Canillo", ["Soldeu"],
         "Pas de la Casa", 2, None),
        (["the ride starts at Canillo. night 1 pas de la casa, night 2 soldeu, day 3 finish in encamp"], "en",
         "Canillo", ["Pas de la Casa", "Soldeu"], "Encamp", 3, None),
    ],
)  # fmt: skip
def test_a_plan_day_by_day(
    gazetteer: Gazetteer,
    turns: list[str],
    locale: str,
    start: str,
    via: list[str],
    end: str,
    days: int,
    date: str | None,
) -> None:
    trip = last_reply(gazetteer, turns, locale).collected
    assert (trip.start, trip.via, trip.end, trip.durationDays) == (start, via, end, days)
    assert (trip.startDate.isoformat() if trip.startDate else None) == date


def test_back_at_the_start_on_the_last_day_is_a_loop(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer,
        [
            "I'll start riding from the station in Kluuvi, 3 days. night 1 alppila, night 2 sörnäinen, both "
            "hostels, and tuesday I'm back at the station in kluuvi for the train home"
        ],
    )
    assert reply.collected.roundTrip
    assert reply.collected.via == ["Alppila", "Sörnäinen"]


@pytest.mark.parametrize(
    ("turns", "locale", "start"),
    [
        (["Can we do a ride from the city centre down to Eira and then up to Kalio?", "just this afternoon"],
         "en", "Helsinki"),
        (["from the centre to Kallio, 1 day"], "en", "Helsinki"),
        # (a guard: Andorra's centre could be any of its villages')
        (["départ du centre, jusqu'à Canillo, 1 jour"], "fr", None),
    ],
)  # fmt: skip
def test_the_centre_of_a_town_the_trip_is_in(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str | None
) -> None:
    assert last_reply(gazetteer, turns, locale).collected.start == start


def test_the_centre_to_see_is_no_stop(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer, ["loop from Kallio, want to see the centre, Kluuvi, Ullanlinna, Eira, 1 day"]
    )
    assert reply.collected.via == ["Kluuvi", "Ullanlinna", "Eira"]


@pytest.mark.parametrize(
    ("turns", "locale", "start", "end"),
    [
        (["on démarre des Escaldes", "direction le Pas, avec une nuit à Canillo", "donc 2 jours, en gravel"],
         "fr",
         "les Escaldes", "Pas de la Casa"),
        (["Du Pas jusqu'à Encamp, en passant par Soldeu", "2 jours"], "fr", "Pas de la Casa", "Encamp"),
        # (a guard: the negation is no place)
        (["Rando à vélo, 5 jours, d'El Tarter à La Massana via Canillo",
          "Finalement on termine à Arinsal, pas à La Massana."], "fr", "el Tarter", "Arinsal"),
        (["salut, on refait comme la derniere fois ?",
          "ah oui pardon. c'était Sant Julià → Canillo en passant par Andorre-la-Vieille, 3 jours"], "fr",
         "Sant Julià de Lòria", "Canillo"),
        (["we live in espoo, we'll take the train in and start from the city centre",
          "end in Munkkisaari, my aunt lives there", "only the one day, this sunday"], "en", "Helsinki",
         "Munkkisaari"),
    ],
)  # fmt: skip
def test_what_riders_call_the_ends(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, end: str
) -> None:
    trip = last_reply(gazetteer, turns, locale).collected
    assert (trip.start, trip.end) == (start, end)


@pytest.mark.parametrize(
    ("turns", "loop", "end"),
    [
        (["visiting my grandmother in Kaartinkaupunki, a slow ride with her",
          "from her flat down through Punavuori to Eira to see the sea, then back to hers",
          "Friday afternoon"],
         True, None),
        (["Planning 2 days Helsinki on my ebike",
          "from Punavuori. back to it or maybe end at Hakaniemi where grandma is, havent decided"],
         False, None),
    ],
)  # fmt: skip
def test_back_to_hers_and_back_or_maybe_not(
    gazetteer: Gazetteer, turns: list[str], loop: bool, end: str | None
) -> None:
    trip = last_reply(gazetteer, turns).collected
    assert (trip.roundTrip, trip.end) == (loop, end)


@pytest.mark.parametrize(
    ("turns", "days"),
    [
        (["fancy an overnighter on saturday", "loop from soldeu, bivvy somewhere up high"], 2),
        (["We'd like to ride from Erts to Llorts and finish at a nice B&B in Llorts, just one easy outing"],
         1),
        (["After ferry i start in Kamppi", "i ride to Kallio, and finish in Alppiharju", "only that day"],
         1),
        (["2 days or 3? depends if we go via Ordino",
          "we go via ordino, so 3. start andorra la vella end el serrat"],
         3),
    ],
)  # fmt: skip
def test_days_said_in_passing(gazetteer: Gazetteer, turns: list[str], days: int) -> None:
    assert last_reply(gazetteer, turns).collected.durationDays == days


def test_a_trip_that_ends_where_it_started_is_a_loop(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["VTT 3 jours, de Pal à Arinsal puis Xixerella", "et retour à Pal"], "fr")
    assert reply.collected.roundTrip
    assert (reply.collected.start or "").startswith("Pal")


def test_a_loops_stops_are_in_the_order_said(gazetteer: Gazetteer) -> None:
    """Where the loop turns is the first of the places it goes "to", not the last stop."""
    reply = last_reply(gazetteer, ["loop from Kluuvi to Kaisaniemi, Hakaniemi and Kallio, 1 day"])
    assert reply.collected.via == ["Kaisaniemi", "Hakaniemi", "Kallio"]
