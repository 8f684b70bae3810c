"""Dates people correct and count from today ("non, jeudi plutôt", "Friday week", "in a fortnight",
"29/5", "10.5."), routes turned round in everyday words ("other way", "swap start and end", "l'inverse"),
"A to B" then "aller-retour", and a day named beside a route as one ride."""

import datetime as dt

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.rules.brief_reader.reading import read_turn

from tests.fixtures.brief_chat import last_reply

TODAY = dt.date(2027, 5, 3)  # a Monday


@pytest.mark.parametrize(
    ("text", "known", "date"),
    [
        ("Demain... non, jeudi plutôt. De Pas de la Casa à Andorre", None, "2027-05-06"),
        ("ah non pardon, pas mardi, mercredi", None, "2027-05-05"),
        ("oh wait, saturday doesn't work, sunday then", "2027-05-08", "2027-05-09"),
        ("wait the 14th is a Friday, make it the 15th", "2027-05-14", "2027-05-15"),
        (
            "we'd start on Friday 21st... actually the kids have school, make it the Saturday",
            None,
            "2027-05-22",
        ),
        ("ah non le lundi 10 c'est pas possible, plutôt le mardi 11", None, "2027-05-11"),
        (
            "Actually make that the 12th of June instead, the 5th clashes with a wedding.",
            "2027-06-05",
            "2027-06-12",
        ),
        ("ah non pas demain, après-demain plutôt, il pleut demain", "2027-05-04", "2027-05-05"),
        ("we want to go Friday week", None, "2027-05-14"),
        ("vendredi en huit on voudrait faire une boucle", None, "2027-05-14"),
        ("lundi en huit, 3 jours", None, "2027-05-10"),
        ("A week on Saturday, from Pal to Soldeu", None, "2027-05-15"),
        ("start the Saturday after next", None, "2027-05-15"),
        ("Finalement plutôt le samedi d'après", "2027-05-08", "2027-05-15"),
        ("Thinking of doing Andorra in a fortnight's time", None, "2027-05-17"),
        ("dans quinze jours je pars faire un petit tour", None, "2027-05-17"),
        ("dans 3 semaines, boucle de 4 jours", None, "2027-05-24"),
        ("We start three weeks from today.", None, "2027-05-24"),
        ("le weekend du 22, de Sant Julià à Encamp", None, "2027-05-22"),
        ("no just today", None, "2027-05-03"),
        ("road bike, today, something short", None, "2027-05-03"),
        ("cet aprèm : Alppiharju, Kallio", None, "2027-05-03"),
        ("tomorow i ride from Kamppi", None, "2027-05-04"),
        ("2d, 50km/d max, Canillo→Ordino, gravel, 29/5", None, "2027-05-29"),
        ("starting 8.5. from Linjat to Punavuori", None, "2027-05-08"),
        ("Bonjour. 1.6. je veux faire vélo électrique Eira - Kamppi", None, "2027-06-01"),
    ],
)
def test_the_date_a_turn_settles_on(text: str, known: str | None, date: str) -> None:
    reading = read_turn(text, today=TODAY, known_date=dt.date.fromisoformat(known) if known else None)
    assert reading.slots.startDate == dt.date.fromisoformat(date)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("I've got a fortnight off", 14),  # how long, not when
        ("Toulouse to Andorra la Vella in a week", 7),
        ("A week on Saturday, from Pal to Soldeu", None),  # when, not how long
        ("We start three weeks from today.", None),
    ],
)
def test_a_fortnight_is_how_long_unless_it_is_from_now(text: str, days: int | None) -> None:
    reading = read_turn(text, today=TODAY)
    assert reading.slots.durationDays == days
    if days:
        assert reading.slots.startDate is None


@pytest.mark.parametrize(
    "text",
    [
        "difficulty 8/10, gravel",  # a grade, not a date
        "the climb is 10.5 km at 6%",  # a decimal
        "today I looked at the map, 3 days from Encamp",  # when people write, not when they ride
        "bon finalement le réparateur l'a fait ce matin, VAE !",
        "saturday, no more than 40 km, no camping",  # "no" takes back no date
    ],
)
def test_no_date_where_none_is_corrected_or_said(text: str) -> None:
    date = read_turn(text, today=TODAY).slots.startDate
    assert date is None or (text.startswith("saturday") and date == dt.date(2027, 5, 8))


@pytest.mark.parametrize(
    ("turns", "locale", "start", "end", "via"),
    [
        (["Encamp-Canillo, 1d", "other way"], "en", "Canillo", "Encamp", []),
        (["hey cna you plan anddora la vella to pas de la casa 3 days", "wiat revers it"], "en",
         "Pas de la Casa", "Andorra la Vella", []),
        (["Pal → La Massana → Escaldes, 1 day", "swap start and end"], "en",
         "les Escaldes", "Pal (village, Andorra)", ["La Massana"]),
        (["pal->arinsal 1j", "l'inverse"], "fr", "Arinsal", "Pal (village, Andorra)", []),
        (["De Pas de la Casa à Andorre la Vieille par Soldeu, Canillo, Encamp, 2 jours", "on inverse tout"],
         "fr", "Andorra la Vella", "Pas de la Casa", ["Encamp", "Canillo", "Soldeu"]),
        (["Erts → La Massana → Andorre-la-Vieille, 1 jour", "échange départ et arrivée"], "fr",
         "Andorra la Vella", "Erts", ["La Massana"]),
    ],
)  # fmt: skip
def test_a_route_turned_round_with_its_stops(
    gazetteer: Gazetteer, turns: list[str], locale: str, start: str, end: str, via: list[str]
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert (reply.collected.start, reply.collected.end, reply.collected.via) == (start, end, via)
    assert not reply.collected.roundTrip


def test_a_loop_turned_round_is_its_stops_reversed(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer, ["boucle depuis Sispony par Arinsal puis Erts, 1 jour", "dans l'autre sens"], "fr"
    )
    assert reply.collected.roundTrip
    assert reply.collected.via == ["Erts", "Arinsal"]


def test_any_other_way_is_no_turn(gazetteer: Gazetteer) -> None:
    """(A guard: "any other way" asks a question, it turns nothing round.)"""
    reply = last_reply(gazetteer, ["Encamp to Canillo, 1 day", "is there any other way to get there?"], "en")
    assert (reply.collected.start, reply.collected.end) == ("Encamp", "Canillo")


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["d'Anyós à Erts", "aller-retour", "1 jour, VTT"], "fr"),
        (["ordino to arinsal", "yes back to ordino at the end", "2 days"], "en"),
    ],
)
def test_an_end_said_then_back_to_the_start_is_where_the_loop_turns(
    gazetteer: Gazetteer, turns: list[str], locale: str
) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.roundTrip
    assert len(reply.collected.via) == 1
    assert reply.readyToGenerate


def test_an_end_corrected_to_the_start_is_no_stop(gazetteer: Gazetteer) -> None:
    """(A guard: "no, end in Ordino" takes the end back; Arinsal is no stop.)"""
    reply = last_reply(gazetteer, ["ordino to arinsal", "no, end in ordino, 2 days"], "en")
    assert reply.collected.via == []


def test_a_stop_said_in_french(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["de Linjat a Punavuori, 1 jour", "avec un stop a Kamppi"], "fr")
    assert (reply.collected.end, reply.collected.via) == ("Punavuori", ["Kamppi"])


@pytest.mark.parametrize(
    ("turns", "locale", "days"),
    [
        (["from Kallio on thursday to Punavuori"], "en", 1),
        (["On the 12th I'd like a loop from Kruununhaka going through Kallio and Alppiharju"], "en", 1),
        (["Le 12 on voudrait faire Sant Julià - Andorre la Vieille - Ordino, en VTT"], "fr", 1),
        (["from Kallio, thursday to saturday, to Punavuori"], "en", 3),  # a range: its days
        (["depart sant julia, arrivee ordino, le 20", "pr la duree on sait pas encore"], "fr", None),
    ],
)
def test_a_day_named_beside_a_route_is_one_ride(
    gazetteer: Gazetteer, turns: list[str], locale: str, days: int | None
) -> None:
    assert last_reply(gazetteer, turns, locale).collected.durationDays == days


@pytest.mark.parametrize(
    ("turns", "locale", "via"),
    [
        (["Encamp to Soldeu, 1 day", "add Canillo"], "en", ["Canillo"]),
        (
            ["Andorra la Vella to Soldeu, 2 days, gravel, via Encamp", "add Canillo before Soldeu",
             "and Escaldes before Encamp"],
            "en",
            ["les Escaldes", "Encamp", "Canillo"],
        ),
        (["2 days, Encamp to Arinsal, via La Massana", "add Sispony after La Massana"], "en",
         ["La Massana", "Sispony"]),
        (["Sant Julià à Encamp par Escaldes, 2 jours", "ajoute Aixovall juste après le départ"], "fr",
         ["Aixovall", "les Escaldes"]),
        (
            ["Andorre-la-Vieille → Pas de la Casa, vélo de route, via Encamp",
             "ajoute Canillo puis Soldeu après Encamp", "et Escaldes avant Encamp"],
            "fr",
            ["les Escaldes", "Encamp", "Canillo", "Soldeu"],
        ),
        (["Je pars d'Encamp pour aller à Soldeu, VTT", "ajoute Canillo avant Soldeu"], "fr", ["Canillo"]),
    ],
)  # fmt: skip
def test_a_stop_added_goes_where_the_turn_puts_it(
    gazetteer: Gazetteer, turns: list[str], locale: str, via: list[str]
) -> None:
    assert last_reply(gazetteer, turns, locale).collected.via == via


def test_a_stop_said_again_stays_where_it_was() -> None:
    """(A guard: "nuit à Andorra la Vella" after a route through it moves nothing.)"""
    from tripagent.adapters.rules.brief_reader.stops import placed

    stops = ["Sant Julià de Lòria", "Andorra la Vella", "La Massana"]
    said = [("Andorra la Vella", "andorra la vella")]
    assert placed(said, stops, "2 jours nuit a andorra la vella", {}) == stops


def test_a_time_after_a_name_places_no_stop() -> None:
    """(A guard: "Soldeu before dark" says when, not where a stop goes.)"""
    from tripagent.adapters.rules.brief_reader.places import place_phrases

    assert "via" not in place_phrases("Soldeu before dark", locale="en")


@pytest.mark.parametrize("choice", ["1", "the Andorran one", "the one in Andorra", "the village"])
def test_a_name_with_namesakes_abroad_given_alone_is_asked_then_chosen(
    gazetteer: Gazetteer, choice: str
) -> None:
    """The answer "Santa Coloma" to "where does it start?" is asked about (not dropped, not guessed), and
    the choice, by number or description, is the start."""
    asked = last_reply(gazetteer, ["gravel trip, 3 days", "Santa Coloma"], "en")
    assert asked.clarification is not None
    assert asked.collected.start is None
    reply = last_reply(gazetteer, ["gravel trip, 3 days", "Santa Coloma", choice, "end in Canillo"], "en")
    assert reply.collected.start == "Santa Coloma (village, Andorra)"
    assert reply.readyToGenerate


@pytest.mark.parametrize(
    ("turns", "locale"),
    [
        (["un tour de Helsinki en velo de ville demain", "depart de Kamppi", "oui on revient a Kamppi"],
         "fr"),
        (["on voudrait faire 3 jours en partant du camping de Canillo et en revenant au camping chaque soir"],
         "fr"),
        (["a day in Helsinki", "start from Kamppi, ride around, come back"], "en"),
        (["We'd like to ride each day from Ordino and be back for dinner, 3 days"], "en"),
    ],
)  # fmt: skip
def test_coming_back_to_the_start_is_a_loop(gazetteer: Gazetteer, turns: list[str], locale: str) -> None:
    reply = last_reply(gazetteer, turns, locale)
    assert reply.collected.roundTrip
    assert reply.readyToGenerate


def test_a_choice_of_ends_then_the_start_is_no_open_start() -> None:
    """(A guard: "Aixirivall or Juberri. start Ordino" chooses among ends, the start is said.)"""
    assert not read_turn(
        "end options: Sant Julià, Aixirivall or Juberri. start Ordino", today=TODAY
    ).start_unknown
