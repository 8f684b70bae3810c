"""Reading one turn of a brief as people write it: dates, corrections, distances in words, lodgings, loops
said and unsaid, and place phrases (labels, the place said first, "from there", lists over commas,
corrections, a via point taken out, a clause that is only a name)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tripagent.adapters.rules.brief_reader.reading import read_turn

TODAY = dt.date(2027, 5, 3)  # a Monday


def slots(text: str) -> dict[str, Any]:
    return read_turn(text, today=TODAY).slots.model_dump(exclude_defaults=True)


def places(text: str) -> dict[str, list[str]]:
    return {slot: [p.text for p in found] for slot, found in read_turn(text, today=TODAY).places.items()}


def slots_of(text: str, keys: dict[str, Any]) -> dict[str, Any]:
    """The slots a turn reads, for the keys asked (None where it reads nothing)."""
    got = slots(text)
    return {k: got.get(k) for k in keys}


def chosen_places(text: str) -> dict[str, list[str]]:
    """The phrase the brief chat reads first for the start and for the end (after a plain word first),
    and every via point in order."""
    read = read_turn(text, today=TODAY).places
    first = {s: [sorted(read[s], key=lambda p: not p.strong)[0].text] for s in ("start", "end") if s in read}
    return {**first, **({"via": [p.text for p in read["via"]]} if "via" in read else {})}


@pytest.mark.parametrize(
    ("text", "date", "days"),
    [
        ("Starting next Saturday. Hotels please.", dt.date(2027, 5, 8), None),
        ("Leaving from Canillo on Thursday morning", dt.date(2027, 5, 6), None),
        ("départ vendredi", dt.date(2027, 5, 7), None),
        ("Je prévois une sortie samedi prochain", dt.date(2027, 5, 8), None),
        ("sur un week-end, départ samedi 8", dt.date(2027, 5, 8), 2),
        ("Let's do it over a weekend starting Saturday the 8th", dt.date(2027, 5, 8), 2),
        ("Planning a trip this coming weekend", dt.date(2027, 5, 8), 2),
        ("Starting tomorrow from Soldeu", dt.date(2027, 5, 4), None),
        ("Départ demain de Soldeu", dt.date(2027, 5, 4), None),
        ("wait, I meant the 22nd", dt.date(2027, 5, 22), None),
        ("ah non, le 22", dt.date(2027, 5, 22), None),
        ("le 2, c'est trop tôt ?", dt.date(2027, 6, 2), None),  # the 2nd of this month is past
        ("du 7 au 9 mai, de Prats à Sant Julià de Lòria", dt.date(2027, 5, 7), 3),
        ("from 7 to 9 June", dt.date(2027, 6, 7), 3),
    ],
)
def test_dates_as_people_say_them(text: str, date: dt.date, days: int | None) -> None:
    read = slots(text)
    assert read.get("startDate") == date
    assert read.get("durationDays") == days


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("actually make it four", 4),
        ("scratch the 3 days, we only have two", 2),
        ("originally thought 2 days but let's do 3", 3),
        ("non attendez, quatre jours", 4),
        ("a long weekend", 3),  # not also a "weekend" of two
        ("Un long week-end en boucle", 3),
        ("we are 4 of us", None),
        ("make it 4 actually, want a rest day in Andorra la Vella", 4),
        ("Change of plans: instead of 5 days it's 3 now", 3),
        ("wait no, 2, my wife reminded me we have a wedding", 2),
        ("non, finalement deux, on rentre plus tôt", 2),
        ("3 jours dont un jour de repos au spa", 3),  # a day off the bike is no count
        ("on a 5 jours mais avec un jour de repos à Escaldes au milieu", 5),
        ("48h in Andorra, loop from Encamp", 2),
        ("Last time we did it in 5 days, loop from Encamp again", None),  # a length of another trip
        ("from Pas de la Casa to Sant Julià, 4 days of the fortnight", 4),  # the fortnight holds it
        ("Finalement plutôt à l'hôtel, la météo s'annonce mauvaise", None),  # (guards: "à" is no count)
        ("non, un aller simple jusqu'à Canillo", None),
        ("Massana to Pas, 2 days, MTB", 2),  # ("Pas" is no "not")
    ],
)
def test_the_last_duration_said_is_the_one(text: str, days: int | None) -> None:
    assert slots(text).get("durationDays") == days


@pytest.mark.parametrize(
    ("text", "km"),
    [
        ("no more than forty kilometres a day please", 40),
        ("Max 40 km a day please", 40),
        ("Hmm, make that 70 km max, I'm not that fit", 70),
        ("mon plan : 3 jours, gravel, 45 km max par jour", 45),
        ("on ne veut pas dépasser cinquante kilomètres par jour", 50),
        ("around 60 kilometres daily", 60),
        ("quatre-vingt-dix km par jour", 90),
        ("3 days - 100 km in all", None),
    ],
)
def test_daily_distances_in_figures_and_words(text: str, km: int | None) -> None:
    read = slots(text)
    assert read.get("dailyDistanceKm") == km
    assert read.get("durationDays") != 1  # "40 km a day" is no one-day trip


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Anything is fine for sleeping.", "any"),
        ("et pour dormir, n'importe quoi", "any"),
        ("any kind of accommodation is fine", "any"),
        ("B&Bs please", "hotel"),
        ("No preference on the bike.", None),
    ],
)
def test_lodgings_and_no_preference(text: str, kind: str | None) -> None:
    assert slots(text).get("accommodation") == kind


@pytest.mark.parametrize(
    ("text", "profile"),
    [
        ("Three days of mountain biking", "mountain"),
        ("Lyon - Andorra la Vella en cinq jours en vélo de voyage", "touring"),
        ("Je prépare un voyage à vélo", None),  # a trip by bike, of any kind
        ("Is there a nice route starting at Bixessarri?", None),
    ],
)
def test_bike_names(text: str, profile: str | None) -> None:
    assert slots(text).get("profile") == profile


@pytest.mark.parametrize(
    ("text", "loop", "one_way"),
    [
        ("not sure about the duration, let me check and come back to you", False, False),
        ("we'll finish in Andorra la Vella instead of coming back", False, True),
        ("un circuit de 3 jours qui se termine à andorre-la-vieille", False, False),
        ("un circuit de 3 jours", True, False),
        ("actually no, let's finish where we started", True, False),
        ("Going up towards Pas de la Casa, then coming back down to Encamp to finish", False, False),
    ],
)
def test_loops_said_and_unsaid(text: str, loop: bool, one_way: bool) -> None:
    reading = read_turn(text, today=TODAY)
    assert reading.slots.roundTrip is loop
    assert reading.one_way is one_way
    assert not reading.out_and_back


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Starting point: Aixovall. End point: Llorts.", {"start": ["aixovall"], "end": ["llorts"]}),
        ("start: la massana", {"start": ["la massana"]}),
        (
            "Point de départ : Juberri. Arrivée : Escaldes-Engordany.",
            {"start": ["juberri"], "end": ["escaldes engordany"]},
        ),
        ("Encamp is where we begin", {"start": ["encamp"]}),
        ("C'est à Aixovall qu'on commence", {"start": ["aixovall"]}),
        ("We begin our adventure at El Tarter", {"start": ["el tarter"]}),
        ("The group will gather in Ordino and set off from there", {"start": ["ordino", "ordino"]}),
        (
            "I want to go through Ordino, then Canillo, then Encamp",
            {"via": ["ordino", "canillo", "encamp"]},
        ),
        (
            "Boucle depuis Nagol par Juberri, Aixovall et Bixessarri",
            {"start": ["nagol"], "via": ["juberri", "aixovall", "bixessarri"]},
        ),
        ("through Canillo, road bike please", {"via": ["canillo"]}),  # a list ends at what is no place
        ("actually skip Sispony, just La Massana", {"skip": ["sispony"], "bare": ["la massana"]}),
        ("on veut aller à Soldeu... non, plutôt jusqu'à Canillo finalement", {"end": ["canillo"]}),
        (
            "up towards Pas de la Casa, then back down to Encamp to finish",
            {"via": ["pas de la casa"], "end": ["encamp"]},
        ),
        ("Road bike. Andorra la Vella. 2 days.", {"bare": ["andorra la vella"]}),
        ("Could we pass by Ordino on the way?", {"via": ["ordino"]}),
        ("We want to ride to Ordino from the capital", {"end": ["ordino"]}),
        ("Hotels please. Thanks!", {}),
    ],
)
def test_place_phrases_as_people_write_them(text: str, expected: dict[str, list[str]]) -> None:
    assert places(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("we want to do Helsinki to Kallio", {"start": ["helsinki"], "end": ["kallio"]}),
        ("Could you plan Anyós to Llumeneres?", {"start": ["anyos"], "end": ["llumeneres"]}),
        ("Arinsal to El Tarter, oh and we'd like to camp", {"start": ["arinsal"], "end": ["el tarter"]}),
        (
            "Je voudrais faire Toulouse - Andorre-la-Vieille à vélo",
            {"start": ["toulouse"], "end": ["andorre la vieille"]},
        ),
        ("Je pars de Soldeu samedi prochain, direction Ordino", {"start": ["soldeu"], "end": ["ordino"]}),
        ("Helsinki to Turku along the coast", {"start": ["helsinki"], "end": ["turku"]}),
        ("attends, plutôt d'Encamp que de Canillo", {"start": ["encamp"]}),
        (
            "from Ordino to Soldeu, we'd like hotels and to keep the climbing reasonable",
            {"start": ["ordino"], "end": ["soldeu"]},
        ),
        ("Balade en ville à Helsinki, de Siltasaari à Kluuvi", {"start": ["siltasaari"], "end": ["kluuvi"]}),
        (
            "Toulouse to Foix, then on to Andorra la Vella",
            {"start": ["toulouse"], "via": ["foix"], "end": ["andorra la vella"]},
        ),
        ("arrivée prévue à Andorra la Vella", {"end": ["andorra la vella"]}),
        (
            "Deux jours de Pont-sur-Brumeville à Canillo",
            {"start": ["pont sur brumeville"], "end": ["canillo"]},
        ),
    ],
)
def test_more_place_phrases_as_people_write_them(text: str, expected: dict[str, list[str]]) -> None:
    found = places(text)
    found.pop("bare", None)  # a clause that is only a name is looked at only when nothing else is found
    assert {k: v for k, v in found.items() if v} == expected


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Start: Canillo. End: Ordino. Days: 3", {"durationDays": 3}),
        ("how many days? hmm, let's say five", {"durationDays": 5}),
        ("no more than thirty k a day, we have kids", {"dailyDistanceKm": 30.0}),
        ("from the 14th to the 16th", {"startDate": dt.date(2027, 5, 14), "durationDays": 3}),
        ("du 5 au 6 juin", {"startDate": dt.date(2027, 6, 5), "durationDays": 2}),
        ("du 14 au 16", {"startDate": dt.date(2027, 5, 14), "durationDays": 3}),
        ("on fait le pont", {"durationDays": 3}),
    ],
)
def test_more_slots_as_people_write_them(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


def test_the_other_way_round_swaps_the_ends() -> None:
    assert read_turn("Actually, let's do it the other way round", today=TODAY).reversed
    assert read_turn("on le fait dans l'autre sens", today=TODAY).reversed
    assert not read_turn("round trip from Canillo", today=TODAY).reversed


@pytest.mark.parametrize(
    ("text", "climb", "km"),
    [
        ("60 km max par jour, et je préfère éviter plus de 1200 m de montée par jour", 1200, 60),
        ("no more than 800 m of climbing a day", 800, None),
        ("1000m D+ max", 1000, None),
        ("D+ 1500 par jour", 1500, None),
        ("a 1000 m climb is fine", None, None),
    ],
)
def test_a_daily_climbing_limit(text: str, climb: int | None, km: int | None) -> None:
    read = slots(text)
    assert read.get("dailyClimbM") == climb
    assert read.get("dailyDistanceKm") == km
    assert "durationDays" not in read  # "a day" of a limit is no one-day trip
    assert places(text) == {}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Our apartment is in Escaldes", {"start": ["escaldes"]}),
        ("my brother lives in Juberri", {"start": ["juberri"]}),
        ("we'd like to begin at the campsite in Sant Julià", {"start": ["sant julia"]}),
        (
            "we're arriving in Pas de la Casa by bus and want to ride from there down to Ordino",
            {"start": ["pas de la casa"], "end": ["ordino"]},
        ),
        (
            "on arrive en bus à Soldeu le vendredi et on descend jusqu'à Aixovall",
            {"start": ["soldeu"], "end": ["aixovall"]},
        ),
        ("Base camp will be Ordino - ride out from there", {"start": ["ordino", "ordino"]}),
        ("actually make El Tarter the finish instead", {"end": ["el tarter"]}),
        ("Soldeu is the goal", {"end": ["soldeu"]}),
        ("Objectif : Sant Julià de Lòria", {"end": ["sant julia de loria"]}),
        ("Départ du Pas de la Casa", {"start": ["pas de la casa"]}),
        ("Le point de départ sera Certers", {"start": ["certers"]}),
        ("on démarre à El Tarter", {"start": ["el tarter"]}),
        ("aller d'Encamp à Ordino sans se presser", {"start": ["encamp"], "end": ["ordino"]}),
        ("ALV to SJL", {"start": ["andorra la vella"], "end": ["sant julia de loria"]}),
        ("Starting in Nagol (it's the little village above Sant Julià)", {"start": ["nagol"]}),
        ("want to hit Encamp, Escaldes and Canillo on the way", {"via": ["encamp", "escaldes", "canillo"]}),
        ("going past Hakaniemi and Kluuvi", {"via": ["hakaniemi", "kluuvi"]}),
        (
            "first stop Siltasaari, then Hakaniemi, finishing in Kallio",
            {"via": ["siltasaari", "hakaniemi"], "end": ["kallio"]},
        ),
        (
            "- étapes : Arinsal, La Massana\n- arrivée : Escaldes-Engordany\n- durée : 2 jours",
            {"via": ["arinsal", "la massana"], "end": ["escaldes engordany"]},
        ),
        ("ride out and come back, turning around at El Serrat", {"via": ["el serrat"]}),
    ],
)
def test_where_people_say_they_start_and_go(text: str, expected: dict[str, list[str]]) -> None:
    """The phrase the chat reads first for the start and the end (after a plain word first), and every
    via point in order."""
    assert chosen_places(text) == {k: v[:1] if k != "via" else v for k, v in expected.items()}


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("thinking maybe 2 or 3 days, we'll see", {"durationDays": None}),
        ("ALV -> SJL -> ALV, 1 jour, route", {"profile": "road", "durationDays": 1}),
        ("Départ du Pas de la Casa, 2 jours, route", {"profile": "road"}),
        ("Is there a nice route from Ordino?", {"profile": None}),
    ],
)
def test_undecided_durations_and_a_bare_route(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "i want make tour with bicycle from andorra la vella until el serrat",
            {"start": ["andorra la vella"], "end": ["el serrat"]},
        ),
        ("I'm thinking of doing Soldue to Andora la Vela", {"start": ["soldue"], "end": ["andora la vela"]}),
        (
            "2 days mountain biking out of Arinsal, returning to Arinsal",
            {"start": ["arinsal"], "end": ["arinsal"]},
        ),
        ("ride from Kamppi out to Porvoo", {"start": ["kamppi"], "end": ["porvoo"]}),
        ("with stops at El Serrat and Llorts", {"via": ["el serrat", "llorts"]}),
        ("une semaine de vélo autour d'Escaldes-Engordany", {"start": ["escaldes engordany"]}),
        ("We're coming to Andorra and staying in Escaldes", {"start": ["escaldes"]}),
        ("staying in Escaldes, so that's where we'd start and finish", {"start": ["escaldes"]}),
        ("départ et arrivée à Encamp", {"start": ["encamp"]}),
    ],
)
def test_still_more_ways_to_say_where(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Week-end prolongé à vélo de route", {"durationDays": 3}),
        ("a week, touring, mix of camping and hotels", {"accommodation": "any"}),
        ("hotels, no camping", {"accommodation": "hotel"}),
        ("une semaine de vélo autour d'Escaldes-Engordany", {"roundTrip": True}),
        ("départ et arrivée à Encamp", {"roundTrip": True}),
        ("so that's where we'd start and finish", {"roundTrip": True}),
    ],
)
def test_still_more_slots(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


def test_and_then_we_come_back_turns_at_the_far_end() -> None:
    reading = read_turn("On part de Llorts et on va jusqu'à El Serrat puis on revient", today=TODAY)
    assert reading.out_and_back
    assert read_turn("whether we set off from Soldeu or from El Tarter", today=TODAY).start_unknown


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("date = 2027-05-15", {"startDate": dt.date(2027, 5, 15)}),
        ("Got a free day tomorrow", {"durationDays": 1, "startDate": dt.date(2027, 5, 4)}),
        ("Helsinki day out on e-bikes", {"durationDays": 1, "profile": "e-bike"}),
        ("it's either two days or three days, we haven't decided yet", {"durationDays": None}),
        ("with mountain bicycle", {"profile": "mountain"}),
        ("trois jour. vélo de montagne", {"profile": "mountain"}),
        ("Vélos : route", {"profile": "road"}),
    ],
)
def test_a_fourth_batch_of_slots(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "start = Hakaniemi\nend = Punavuori\nstops = Kallio, Kamppi",
            {"start": ["hakaniemi"], "end": ["punavuori"], "via": ["kallio", "kamppi"]},
        ),
        ("weekend in Helsinki on e-bikes, Ullanlinna start", {"start": ["ullanlinna"]}),
        ("swap Escaldes-Engordany for Encamp please", {"via": ["encamp"]}),
        (
            "hello i am from italy. i want make bicycle trip, Ordino to Arinsal",
            {"start": ["ordino"], "end": ["arinsal"]},
        ),
        (
            "start at la massana and ride up to el serrat going through ordino and llorts it's going to be"
            " four days",
            {"start": ["la massana"], "end": ["el serrat"], "via": ["ordino", "llorts"]},
        ),
        (
            "round trip from Ullanlinna taking in Punavuori and Hakaniemi",
            {"start": ["ullanlinna"], "via": ["punavuori", "hakaniemi"]},
        ),
        ("Boucle depuis Ordino qui passe par Erts", {"start": ["ordino"], "via": ["erts"]}),
    ],
)
def test_a_fourth_batch_of_places(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected
    assert "skip" not in read_turn(text, today=TODAY).places or "swap" in text


def test_where_should_we_start_leaves_the_start_open() -> None:
    assert read_turn(
        "What's a nice place to start a ride that finishes in Arinsal?", today=TODAY
    ).start_unknown


def test_an_english_turn_with_a_french_phrase_stays_english() -> None:
    from tripagent.adapters.rules.brief_reader.words import detect_locale

    mixed = "Encamp to Ordino, three days, gravel, max 40 km a day and pas plus de 900 m de montée par jour"
    assert detect_locale(mixed) == "en"  # was French: four French words sufficed
    assert detect_locale("De Canillo à Soldeu, deux jours, vélo de route") == "fr"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Got a fortnight off!!", {"durationDays": 14}),
        ("Tour de quinze jours en boucle", {"durationDays": 14}),
        ("une quinzaine en VTT", {"durationDays": 14}),
    ],
)
def test_two_weeks_as_people_say_it(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


@pytest.mark.parametrize(
    ("text", "start_unknown", "end_unknown"),
    [
        (
            "Thinking of starting either in Encamp or Canillo, haven't decided yet. Ending in Andorra la"
            " Vella.",
            True,
            False,
        ),
        (
            "Départ de Sornàs, on finira sans doute à El Serrat ou peut-être à Llorts, je sais pas encore.",
            False,
            True,
        ),
        ("Départ de Sornàs, arrivée à El Serrat, ou à Llorts si on est fatigués.", False, False),
    ],
)
def test_a_start_or_an_end_left_undecided(text: str, start_unknown: bool, end_unknown: bool) -> None:
    reading = read_turn(text, today=TODAY)
    assert (reading.start_unknown, reading.end_unknown) == (start_unknown, end_unknown)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Starting from Pas de la Casa I ride through Soldeu",
            {"start": ["pas de la casa"], "via": ["soldeu"]},
        ),
        ("and end the trip at Pas de la Casa, over two days", {"end": ["pas de la casa"]}),
        (
            "we're picking up the bikes in Encamp and riding to Soldeu",
            {"start": ["encamp"], "end": ["soldeu"]},
        ),
        (
            "On arrive à Barcelone en avion. On loue les vélos à Sant Julià, de là on monte jusqu'à Ordino",
            {"start": ["sant julia"], "end": ["ordino"]},
        ),
        (
            "on laisserait la voiture à Sant Julià de Lòria, on terminerait à Pas de la Casa",
            {"start": ["sant julia de loria"], "end": ["pas de la casa"]},
        ),
    ],
)
def test_where_the_bikes_are_picked_up_and_the_trip_ends(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected


@pytest.mark.parametrize(
    ("text", "known", "date"),
    [
        ("sat 8th", None, dt.date(2027, 5, 8)),
        ("et on part le 12/06", None, dt.date(2027, 6, 12)),
        ("start date 22/05/2027", None, dt.date(2027, 5, 22)),
        ("we'd start on the first weekend of June", None, dt.date(2027, 6, 5)),
        ("le premier samedi de juillet", None, dt.date(2027, 7, 3)),
        ("planning for the fourteenth of june", None, dt.date(2027, 6, 14)),
        ("we fly in on the 10th of June and start riding the next day", None, dt.date(2027, 6, 11)),
        ("The day after, we ride", dt.date(2027, 5, 20), dt.date(2027, 5, 21)),
        ("actually we'll start on the 15th", dt.date(2027, 6, 14), dt.date(2027, 6, 15)),
        ("the first may be hard", None, None),
    ],
)
def test_more_dates_as_people_write_them(text: str, known: dt.date | None, date: dt.date | None) -> None:
    assert read_turn(text, today=TODAY, known_date=known).slots.startDate == date


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("we'd start on the first weekend of June", {"durationDays": None}),
        ("Lleida all the way to El Serrat, a full week", {"durationDays": 7}),
        ("Soldeu to Encamp next Monday, single day", {"durationDays": 1}),
        ("Pas plus de 50 bornes par jour svp", {"dailyDistanceKm": 50}),
        ("Vélos de rando chargés", {"profile": "touring"}),
    ],
)
def test_a_fifth_batch_of_slots(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ordino → soldeu 2d gravel", {"start": ["ordino"], "end": ["soldeu"]}),
        (
            "deux jours en VTC entre Kallio et Eira, en passant par Kamppi",
            {"start": ["kallio"], "end": ["eira"], "via": ["kamppi"]},
        ),
        ("deux semaines en Andorre, départ/arrivée Escaldes, camping", {"start": ["escaldes"]}),
        (
            "Boucle de 3 jours depuis Encamp : Meritxell, Prats, Ransol",
            {"start": ["encamp"], "via": ["meritxell", "prats", "ransol"]},
        ),
        (
            "Trois jours en vélo de route : Arans, Ordino, La Massana, Escaldes",
            {"start": ["arans"], "end": ["escaldes"], "via": ["ordino", "la massana"]},
        ),
        ("Espoo → Helsinki centre, 1 day", {"start": ["espoo"], "end": ["helsinki"]}),
        (
            "Sant Julià → Ordino via Andorra la Vella and La Massana",
            {"start": ["sant julia"], "end": ["ordino"], "via": ["andorra la vella", "la massana"]},
        ),
        (
            "pick up bikes in Andorra la Vella, loop up through La Massana",
            {"start": ["andorra la vella"], "via": ["la massana"]},
        ),
        ("we'd ride to el tarter from there", {"end": ["el tarter"]}),
        (
            "quick loop from Hakaniemi, round Kamppi, Kluuvi and Eira",
            {"start": ["hakaniemi"], "via": ["kamppi", "kluuvi", "eira"]},
        ),
        (
            "From Andorra la Vella down to Aixovall for lunch and then back up to Sant Julià",
            {"start": ["andorra la vella"], "end": ["sant julia"], "via": ["aixovall"]},
        ),
    ],
)
def test_a_fifth_batch_of_places(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected


def test_where_people_live_is_a_start_only_if_nothing_says_otherwise() -> None:
    read = read_turn("J'habite à Perpignan. Rando de 3 jours en boucle depuis Encamp", today=TODAY).places
    assert [(p.text, p.strong) for p in read["start"]] == [("perpignan", False), ("encamp", True)]
    assert "end" not in read_turn("on dort à l'auberge de jeunesse", today=TODAY).places


def test_from_there_after_the_bus_is_where_the_bus_went() -> None:
    read = places("finalement on prend le bus jusqu'à Sant Julià et on part de là")
    assert "sant julia" in read["start"]
    assert "end" not in read


@pytest.mark.parametrize(
    ("text", "expected", "read"),
    [
        (
            "Day 1: Ordino → Canillo\nDay 2: Canillo → Soldeu\nDay 3: Soldeu → Pas de la Casa",
            {"start": ["ordino"], "end": ["pas de la casa"], "via": ["canillo", "soldeu"]},
            {"durationDays": 3, "roundTrip": None},
        ),
        (
            "| Day | From | To |\n|---|---|---|\n| 1 | Escaldes | Canillo |\n| 2 | Canillo | El Serrat |\n"
            "| 3 | El Serrat | Escaldes |",
            {"start": ["escaldes"], "via": ["canillo", "el serrat"]},
            {"durationDays": 3, "roundTrip": True},
        ),
        (
            "So the plan: day 1 Andorra la Vella to Encamp, day 2 Encamp to Pas de la Casa, day 3 back down"
            " to Andorra la Vella. Road bike.",
            {"start": ["andorra la vella"], "via": ["encamp", "pas de la casa"]},
            {"durationDays": 3, "roundTrip": True},
        ),
        (
            "J1 : Kamppi - Eira\nJ2 : Eira - Kallio (on dort à l'auberge)",
            {"start": ["kamppi"], "end": ["kallio"], "via": ["eira"]},
            {"durationDays": 2, "roundTrip": None},
        ),
        (
            "Rough itinerary for a long weekend:\n1) Andorra la Vella → Encamp\n2) Encamp → Pas de la Casa\n"
            "3) Pas de la Casa → Foix, then the train home",
            {"start": ["andorra la vella"], "end": ["foix"], "via": ["encamp", "pas de la casa"]},
            {"durationDays": 3, "roundTrip": None},
        ),
        (
            "Day 1 Canillo to Soldeu. Day 2 Soldeu to either Pas de la Casa or back to Canillo, not sure.",
            {"start": ["canillo"], "via": ["soldeu"]},
            {"durationDays": 2, "roundTrip": None},
        ),
    ],
)
def test_a_plan_laid_out_day_by_day(text: str, expected: dict[str, list[str]], read: dict[str, Any]) -> None:
    assert chosen_places(text) == expected
    assert slots_of(text, read) == read


def test_a_numbered_list_of_labels_is_no_plan() -> None:
    assert chosen_places("Trip plan:\n1. Start: La Massana\n2. End: Pas de la Casa\n3. Days: 3") == {
        "start": ["la massana"],
        "end": ["pas de la casa"],
    }


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Dates are 28 June to 2 July.", {"startDate": dt.date(2027, 6, 28), "durationDays": 5}),
        ("Tuesday 8 June to Thursday 10 June.", {"startDate": dt.date(2027, 6, 8), "durationDays": 3}),
        (
            "La semaine prochaine, du lundi au vendredi",
            {"startDate": dt.date(2027, 5, 10), "durationDays": 5},
        ),
        ("This coming Saturday and Sunday, a loop", {"startDate": dt.date(2027, 5, 8), "durationDays": 2}),
        ("Saturday 8th through Monday 10th", {"startDate": dt.date(2027, 5, 8), "durationDays": 3}),
        ("two and a half days, road", {"durationDays": 3}),
        ("deux jours et demi en VTT", {"durationDays": 3}),
        ("3 dayz on mtbs", {"durationDays": 3}),
        ("actually make it 3 days, I can't take the Tuesday off", {"startDate": None, "durationDays": 3}),
        ("depart from Escaldes and return there after five days", {"roundTrip": True, "durationDays": 5}),
    ],
)
def test_a_sixth_batch_of_slots(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Start Encamp, end Soldeu, one day", {"start": ["encamp"], "end": ["soldeu"]}),
        (
            "depart andorre la vieille arrivee ordino via la massana",
            {"start": ["andorre la vieille"], "end": ["ordino"], "via": ["la massana"]},
        ),
        (
            "un séjour au départ d'Ordino, à destination du Pas de la Casa",
            {"start": ["ordino"], "end": ["pas de la casa"]},
        ),
        (
            "jusque Andorre-la-Vieille, passant par La Margineda",
            {"end": ["andorre la vieille"], "via": ["la margineda"]},
        ),
        ("We'll drive down from Toulouse and park in Pas de la Casa", {"start": ["pas de la casa"]}),
        (
            "Boucle au départ d'Escaldes : Engolasters, Encamp, Canillo puis retour à Escaldes",
            {"start": ["escaldes"], "end": ["escaldes"], "via": ["engolasters", "encamp", "canillo"]},
        ),
        ("Est-ce qu'il faut réserver les refuges à l'avance en mai ?", {}),
    ],
)
def test_a_sixth_batch_of_places(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Bon alors : soit on part de Canillo, soit d'Encamp, on verra. Arrivée Pas de la Casa.",
        "starting point... maybe Ordino or Canillo, haven't decided yet",
    ],
)
def test_more_starts_left_undecided(text: str) -> None:
    assert read_turn(text, today=TODAY).start_unknown


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("I'd like to spend that day riding from Kamppi to Kallio", {"durationDays": 1}),
        ("via aixovall. 2 dys. gravle bikes", {"durationDays": 2}),
        ("Peut-être 1 jour, peut-être 2, on n'a pas encore décidé", {"durationDays": None}),
    ],
)
def test_a_seventh_batch_of_slots(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("départ et retour à Andorre-la-Vieille", {"start": ["andorre la vieille"]}),
        (
            "We'd start around the railway station in Kluuvi, head through Kaisaniemi",
            {"start": ["kluuvi"], "via": ["kaisaniemi"]},
        ),
        (
            "Starting from Eira on Saturday, want to see Kaartinkaupunki and Kluuvi",
            {"start": ["eira"], "via": ["kaartinkaupunki", "kluuvi"]},
        ),
        ("j'aimerais voir Kaisaniemi et Kruununhaka", {"via": ["kaisaniemi", "kruununhaka"]}),
        (
            "we're 3 friends, starting Soldeu, loop through El Tarter",
            {"start": ["soldeu"], "via": ["el tarter"]},
        ),
        (
            "La balade commence le 5 juin à Andorre-la-Vieille et finit à Canillo",
            {"start": ["andorre la vieille"], "end": ["canillo"]},
        ),
    ],
)
def test_a_seventh_batch_of_places(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected


def test_a_place_meant_instead_of_another() -> None:
    assert places("Ah non pardon, pas Kalasatama, je voulais dire Kallio.") == {
        "was": ["kalasatama"],
        "now": ["kallio"],
    }
    assert places("not Encamp, I meant Canillo") == {"was": ["encamp"], "now": ["canillo"]}


def test_a_writer_who_capitalizes_names_writes_lowercase_words_that_are_none() -> None:
    """ "on to picnic spots", alone, could be a lowercase name; from one who writes "Ordino", it is not ("we
    want to picnic" is no place at all: an infinitive's "to")."""
    assert "end" not in read_turn("no more than 40km per day, we want to picnic too", today=TODAY).places
    turn = "no more than 40km per day, and on to picnic spots"
    assert [p.cased for p in read_turn(turn, today=TODAY).places["end"]] == [True]
    assert [p.cased for p in read_turn(turn, today=TODAY, capitalizes=True).places["end"]] == [False]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("just Saturday. oh and it's an electric cargo bike", {"durationDays": 1}),
        (
            "I'm no longer sure I can get a whole week off. Let's leave the number of days open.",
            {"durationDays": None},
        ),
        ("Le nombre de jours ? Aucune idée, je te laisse voir.", {"durationDays": None}),
        ("deux semaines de cyclotourisme, départ/arrivée Escaldes", {"roundTrip": True}),
        ("On logera aux Escaldes, donc je partirais de là et j'y reviendrais.", {"roundTrip": True}),
    ],
)
def test_an_eighth_batch_of_slots(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read
    if "nombre" in text or "number" in text:
        assert read_turn(text, today=TODAY).days_unknown


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "wanna go frm andora la vela to ordino thru la masana",
            {"start": ["andora la vela"], "end": ["ordino"], "via": ["la masana"]},
        ),
        ("je veux aller de st julia a ordino", {"start": ["sant julia"], "end": ["ordino"]}),
        (
            "Le soir on dîne à Vallila, mais la sortie vélo c'est Alppiharju → Hakaniemi → Kruununhaka",
            {"start": ["alppiharju"], "end": ["kruununhaka"], "via": ["hakaniemi"]},
        ),
        ("On logera aux Escaldes, donc je partirais de là", {"start": ["escaldes"]}),
        ("kallio to eira youth hostel night in between", {"start": ["kallio"], "end": ["eira"]}),
        (
            "yo. road ride from Pas to Andorra la Vella",
            {"start": ["pas de la casa"], "end": ["andorra la vella"]},
        ),
        ("je ne veux pas de camping, et pas trop loin", {}),
        ("hey", {}),
    ],
)
def test_an_eighth_batch_of_places(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Hmm, maybe Eira or Ullanlinna to start, I'm honestly not sure yet.",
        "Le départ, peut-être Sant Julià, peut-être Aixovall, on ne sait pas encore.",
        "On hésite encore pour le départ : Arinsal ou La Massana.",
        # two people, two starts (session 19)
        "my husband wants to start in Ordino, I want Canillo, we haven't decided",
        "ma femme veut partir de Sant Julià, moi d'Aixovall. arrivée Encamp dans tous les cas",
        "Canillo or Soldeu start, end Andorra la Vella, 2 days",
        "trois départs possibles: canillo, prats, meritxell. boucle 2 jours",
    ],
)
def test_still_more_starts_left_undecided(text: str) -> None:
    assert read_turn(text, today=TODAY).start_unknown


def test_du_is_a_loose_from() -> None:
    read = read_turn("Disons plutôt du Pas de la Case à Andorre-la-Vieille.", today=TODAY).places
    assert ("pas de la case", False) in [(p.text, p.strong) for p in read["start"]]


@pytest.mark.parametrize(
    ("text", "start_unknown", "end_unknown"),
    [
        ("from Encamp, or maybe Canillo, to Soldeu", True, False),
        ("Ordino to El Serrat or Llorts, 2 days", False, True),
        ("from Ordino to Canillo, hotels or camping", False, False),
        ("remonter jusqu'à Sant Julià de Lòria où se termine le voyage", False, False),  # où is where
        ("Day 1 Canillo to Soldeu. Day 2 Soldeu to Pas de la Casa or Grau Roig", False, True),
    ],
)
def test_two_places_for_one_end_leave_it_undecided(text: str, start_unknown: bool, end_unknown: bool) -> None:
    reading = read_turn(text, today=TODAY)
    assert (reading.start_unknown, reading.end_unknown) == (start_unknown, end_unknown)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We want to go Andorre-la-Vieille to Saint-Julien-de-Lòria passing La Margineda",
            {"start": ["andorre la vieille"], "end": ["saint julien de loria"], "via": ["la margineda"]},
        ),
        (
            "On atterrit à Barcelone et on loue des vélos à Andorre-la-Vieille",
            {"start": ["andorre la vieille"]},
        ),
        (
            "Cette fois : Andorre-la-Vieille jusqu'à Pas de la Casa, aller-retour",
            {"start": ["andorre la vieille"], "end": ["pas de la casa"]},
        ),
        (
            "3-day road trip: start Sant Julià de Lòria, drop into La Seu d'Urgell for lunch, then back up"
            " and finish in Canillo",
            {"start": ["sant julia de loria"], "end": ["canillo"], "via": ["la seu d urgell"]},
        ),
    ],
)
def test_a_ninth_batch_of_places(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected


def test_back_and_then_finish_elsewhere_is_no_loop() -> None:
    reading = read_turn(
        "drop into La Seu d'Urgell for lunch, then back up and finish in Canillo", today=TODAY
    )
    assert (reading.slots.roundTrip, reading.out_and_back) == (False, False)


@pytest.mark.parametrize(
    ("text", "start_unknown", "end_unknown", "days_unknown"),
    [
        ("Start from Kamppi I guess. End... either Kallio or Hakaniemi, I can't decide.", False, True, False),
        (
            "Départ peut-être de Sant Julià, ou alors d'Andorre-la-Vieille, je ne suis pas encore fixé.",
            True,
            False,
            False,
        ),
        ("Hmm, actually I'm not sure about two days anymore. Could be one.", False, False, True),
    ],
)
def test_a_fourth_batch_of_things_left_open(
    text: str, start_unknown: bool, end_unknown: bool, days_unknown: bool
) -> None:
    reading = read_turn(text, today=TODAY)
    assert (reading.start_unknown, reading.end_unknown, reading.days_unknown) == (
        start_unknown,
        end_unknown,
        days_unknown,
    )


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Plan: les Escaldes -> Engolasters -> Encamp, day trip, MTB, tomorrow.", {"durationDays": 1}),
        ("Plan me a 2-day trip from Ordino", {"durationDays": 2}),
        ("Un week-end dans Helsinki, départ et arrivée au centre", {"roundTrip": True}),
    ],
)
def test_a_tenth_batch_of_slots(text: str, read: dict[str, Any]) -> None:
    assert slots_of(text, read) == read


def test_not_sure_where_to_end_leaves_the_end_and_the_loop_open() -> None:
    reading = read_turn("Not sure where to end yet, maybe Arinsal or maybe back to Canillo.", today=TODAY)
    assert reading.end_unknown


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Demain je voudrais monter de Soldeu au Pas en vélo de route",
            {"start": ["soldeu"], "end": ["pas de la casa"]},
        ),
        (
            "Either way: Bixessarri to Aubinyà to Juberri, 1 day",
            {"start": ["bixessarri"], "end": ["juberri"], "via": ["aubinya"]},
        ),
    ],
)
def test_a_tenth_batch_of_places(text: str, expected: dict[str, list[str]]) -> None:
    assert chosen_places(text) == expected


def test_au_pas_is_no_place_in_lowercase() -> None:
    read = places("je ne roule pas vite, au pas s'il le faut")
    assert all("pas de la casa" not in texts for texts in read.values())
