"""Who people are and where they come from is no start ("I'm a 34yo MTB rider from Lyon", "a couple from
Manchester", "coming from Girona"); where they stay with someone is where they are ("staying with a friend in
Ordino, so I'll start from there"); the stops of a route said with "then" are on the way ("start in Arinsal,
then Pal, La Massana, then over to Canillo")."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)


def _places(text: str) -> dict[str, list[str]]:
    return {slot: [p.text for p in ps] for slot, ps in read_turn(text, today=TODAY).places.items()}


@pytest.mark.parametrize(
    "text",
    [
        "We're a couple from Manchester, mid-30s, doing 3 days in Andorra",
        "I'm a 34yo MTB rider from Lyon, got a few days off in June",
        "a bunch of friends from London and Dublin",
    ],
)
def test_who_people_are_and_where_from_is_no_start(text: str) -> None:
    assert "start" not in _places(text)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("I'm a student from Encamp and I'd like to ride from Canillo to Soldeu", ["canillo"], ["soldeu"]),
        ("we're two riders from Encamp to Canillo", ["encamp"], ["canillo"]),
    ],
)
def test_a_route_said_after_who_people_are_is_read(text: str, start: list[str], end: list[str]) -> None:
    places = _places(text)
    assert (places["start"], places["end"]) == (start, end)


def test_coming_from_a_town_abroad_is_no_start_beside_one_we_route(gazetteer: Gazetteer) -> None:
    turns = ["we're a group of five coming from Girona for three days of gravel, from Encamp to Ordino"]
    assert last_reply(gazetteer, turns).collected.start == "Encamp"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Good evening. I'm a 34yo MTB rider from Lyon. I'll be staying with a friend in Ordino so I'll "
         "start from there. 2 days, ending in Soldeu", "en"),
        ("On dort chez ma tante à Ordino et on part de là, deux jours jusqu'à Soldeu", "fr"),
    ],
)  # fmt: skip
def test_where_people_stay_with_someone_is_there(gazetteer: Gazetteer, text: str, locale: str) -> None:
    reply = last_reply(gazetteer, [text], locale)
    assert (reply.collected.start, reply.collected.end) == ("Ordino", "Soldeu")


@pytest.mark.parametrize(
    ("text", "via"),
    [
        (
            "We start in Arinsal, then Pal, La Massana, Ordino, Llorts, then over to Canillo and Ransol, "
            "and finish in Soldeu. 4 days",
            ["Pal", "La Massana", "Ordino", "Llorts", "Canillo", "Ransol"],
        ),
        (
            "Start in Ordino then La Cortinada and Llorts, and finish in El Serrat. 2 days",
            ["La Cortinada", "Llorts"],
        ),
    ],
)
def test_the_stops_of_a_route_said_with_then(gazetteer: Gazetteer, text: str, via: list[str]) -> None:
    reply = last_reply(gazetteer, [text])
    assert [v.split(" (")[0].casefold() for v in reply.collected.via] == [v.casefold() for v in via]


def test_then_before_another_way_of_saying_a_stop_keeps_it() -> None:
    text = "Je pars de Foix, en passant par Ax-les-Thermes pour les thermes, puis par Pas de la Casa"
    assert _places(text)["via"][:2] == ["ax les thermes", "pas de la casa"]


@pytest.mark.parametrize(
    ("turns", "start", "end", "loop"),
    [
        # a lodging's town is where it is ("de notre Airbnb à", "au même hôtel à"), not where the trip goes
        (
            ["On partirait de notre Airbnb à Ullanlinna, par Eira et Kamppi pour rentrer. 1 jour"],
            "Ullanlinna",
            "Ullanlinna",
            True,
        ),
        (
            ["On loge toujours au même hôtel à Canillo. trois jours au départ de Canillo",
             "pour l'arrivée, pas le Pas de la Case non plus. Ailleurs, à voir"],
            "Canillo",
            None,
            False,
        ),
        # where people have arrived is where they are; "redescendre vers" goes somewhere (no loop)
        (
            ["On est partis de Lyon, et là on est arrivés à Encamp en passant par la France. On veut "
             "redescendre vers l'Espagne : on part d'Encamp, on passe par les Escaldes, et on finit "
             "à Sant Julià. Deux jours"],
            "Encamp",
            "Sant Julià de Lòria",
            False,
        ),
        # a bus home is no loop
        (
            ["départ Pas de la Casa, 3 jours, gravel", "arrivée Sant Julià, y a un bus pour rentrer"],
            "Pas de la Casa",
            "Sant Julià de Lòria",
            False,
        ),
    ],
)  # fmt: skip
def test_where_people_stay_and_arrive_in_french(
    gazetteer: Gazetteer, turns: list[str], start: str, end: str | None, loop: bool
) -> None:
    trip = last_reply(gazetteer, turns, "fr").collected
    assert (trip.start, trip.end if not loop else trip.start, trip.roundTrip) == (start, end, loop)
    assert "France" not in " ".join(trip.via)


def test_a_stop_of_several_places_lies_among_the_other_places_when_the_start_is_said_later(
    gazetteer: Gazetteer,
) -> None:
    # the start comes from where they stay, found once the turn's phrases are read: the stop is settled
    # by the other places said (Andorra la Vella, Sant Julià), not asked between the village and Gramenet
    text = (
        "My mum and I are spending the week in Escaldes and on Sunday we want to ride to Sant Julia, going "
        "via Andorra la Vella and then Santa Coloma to see the church there. Just the day."
    )
    reply = last_reply(gazetteer, [text])
    assert reply.clarification is None
    assert reply.collected.via == ["Andorra la Vella", "Santa Coloma (village, Andorra)"]


def test_a_start_of_several_places_is_the_one_inside_the_area_of_the_others(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["from Santa Coloma to Soldeu via Andorra la Vella, 2 days"])
    assert reply.clarification is None
    assert reply.collected.start == "Santa Coloma (village, Andorra)"
    asked = last_reply(gazetteer, ["I live in Barcelona. From Santa Coloma to Soldeu, 2 days"])
    assert asked.clarification is not None  # a place abroad among the others: Gramenet may be meant


@pytest.mark.parametrize(
    "turns",
    [["1d recon sant julia → arinsal", "road wed"], ["ride sant julia -> arinsal, 1 day"]],
)
def test_a_start_said_after_other_words_is_found_by_its_first_words(
    gazetteer: Gazetteer, turns: list[str]
) -> None:
    reply = last_reply(gazetteer, turns)
    assert (reply.collected.start, reply.collected.end) == ("Sant Julià de Lòria", "Arinsal")


@pytest.mark.parametrize(
    ("turns", "locale", "start"),
    [
        # where people come from by car, bus or boat is no start beside one we route
        (
            ["On arrive de Barcelone en voiture, on fait une boucle de 3 jours",
             "la voiture on la laisse à Encamp, départ de là"],
            "fr",
            "Encamp",
        ),
        (
            ["we are a family from Freiburg and we come to Helsinki with the ship from Travemünde",
             "Start is our hotel in Kamppi and we come back there. Only one day."],
            "en",
            "Kamppi",
        ),
    ],
)  # fmt: skip
def test_where_people_come_from_by_car_bus_or_boat_is_no_start(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.start == start


@pytest.mark.parametrize(
    "text",
    [
        "Hello from Rotterdam! We would like to cycle 6 days",
        "Hello, we come with camper from Eindhoven and we stay two weeks in Andorra",
        "Bonjour, je suis espagnol de Valencia, excuse mon français",
        "Bonjour, nous sommes néerlandais, de Groningen",
        "On arrive en train de Turku à la gare centrale le vendredi 14 mai",
    ],
)
def test_a_greeting_a_nationality_or_a_train_to_the_station_is_no_start(text: str) -> None:
    """(At most where people come from: a start only if nothing else is.)"""
    starts = read_turn(text, today=TODAY).places.get("start", [])
    assert all(p.loose for p in starts)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("hey from certers to llumeneres and then to sant julia", ["certers"]),
        ("nous sommes partis de Canillo vers Encamp", ["canillo"]),
        ("Départ à Encamp, arrivée à Canillo", ["encamp"]),
        ("Départ prévu à Ordino le 12 mai", ["ordino"]),
    ],
)
def test_a_route_after_a_greeting_or_said_as_depart_a_has_its_start(text: str, start: list[str]) -> None:
    """("Départ à": new; a greeting's route and "partis de" guard the readings of origin.)"""
    assert start[0] in _places(text).get("start", [])


def test_ou_where_ends_the_place_before_it(gazetteer: Gazetteer) -> None:
    """ "où" (where; not "ou", or) ends the place before it: what follows is what happens there."""
    text = "on descend jusqu'à Sant Julià où ma femme nous attend pour manger une glace"
    assert last_reply(gazetteer, [text], "fr").collected.end == "Sant Julià de Lòria"


def test_bikes_rented_in_a_shop_in_a_town_start_there(gazetteer: Gazetteer) -> None:
    """ "on loue des VTT dans une boutique à La Massana": words between the verb and "à"."""
    text = "Samedi on loue des VTT dans une boutique à La Massana, on monte à Pal et on finit à Arinsal"
    assert last_reply(gazetteer, [text], "fr").collected.start == "La Massana"


@pytest.mark.parametrize(
    ("turns", "locale", "expected"),
    [
        (
            [
                "We are two friends from Valencia. We fly to Barcelona and then take the bus to Andorra la"
                " Vella. Then we ride to Arinsal and finish in Sant Julia. 3 days"
            ],
            "en",
            {"end": "Sant Julià de Lòria"},
        ),
        (
            [
                "From Pas de la Casa to Sant Julià de Lòria over 2 days, stopping overnight in Escaldes."
                " Then we drive home via Barcelona."
            ],
            "en",
            {"via": ["les Escaldes"], "end": "Sant Julià de Lòria"},
        ),
        (
            [
                "on habite à toulouse, on monte en voiture vendredi soir et on dort à l'hôtel à"
                " ax-les-thermes",
                "samedi matin départ du pas de la case, arrivée à andorre la vieille, 1 jour",
            ],
            "fr",
            {"via": [], "start": "Pas de la Casa"},
        ),
    ],
)
def test_places_abroad_passed_on_the_way_there_are_no_places_of_the_ride(
    gazetteer: Gazetteer, turns: list[str], locale: str, expected: dict[str, object]
) -> None:
    collected = last_reply(gazetteer, turns, locale).collected
    assert {slot: getattr(collected, slot) for slot in expected} == expected
    assert not {"Barcelona", "Ax-les-Thermes", "Toulouse"} & {collected.start, collected.end, *collected.via}


def test_a_place_abroad_ridden_to_is_still_its_end(gazetteer: Gazetteer) -> None:
    """(A guard: riding to Porvoo, not driving, is a place of the ride.)"""
    assert last_reply(gazetteer, ["from Kallio we ride to Porvoo, 2 days"], "en").collected.end == "Porvoo"
