"""Readings met in fresh blind batches (#17, session 9): where people come from is no start, bikes grabbed
or rented where the ride starts, ends left open while a couple decides, a start anywhere, limits said with
an adverb, when people will talk again (no date), a weekend of a month as two days, days left open beside
the dates of a stay."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tripagent.adapters.rules.brief_reader.reading import read_turn

TODAY = dt.date(2027, 5, 3)  # a Monday


def reading(text: str) -> Any:
    return read_turn(text, today=TODAY)


@pytest.mark.parametrize(
    ("text", "slot", "phrase"),
    [
        ("I'll pick up a rental city bike in Kamppi and loop round to Kallio and back", "start", "kamppi"),
        ("plan is to grab bikes in Kamppi, ride up to Kallio", "start", "kamppi"),
    ],
)
def test_where_bikes_are_grabbed_or_rented_is_the_start(text: str, slot: str, phrase: str) -> None:
    assert next(p.text for p in reading(text).places[slot]) == phrase


def test_where_a_family_comes_from_is_no_place_of_the_trip() -> None:
    places = reading("Toute la famille vient de Lyon, on sera 11").places
    assert "lyon" not in [p.text for ps in places.values() for p in ps]


@pytest.mark.parametrize(
    "text",
    [
        "Either we loop back home or we end at Eira where the kids' grandma lives, still deciding.",
        "elle voudrait revenir à Canillo mais moi j'aimerais finir à Pas de la Casa, on en discute ce soir",
        "en VTT. pour l'arrivée on sait pas encore",
    ],
)
def test_an_end_left_open_while_people_decide(text: str) -> None:
    assert reading(text).end_unknown


def test_either_start_undecided_is_no_end_left_open() -> None:
    read = reading(
        "Thinking of starting either in Encamp or Canillo, haven't decided yet. Ending in Andorra la Vella."
    )
    assert read.start_unknown
    assert not read.end_unknown


def test_a_start_anywhere_is_left_open() -> None:
    assert reading("start? wherever, i'm staying with a friend").start_unknown


@pytest.mark.parametrize(
    ("text", "km"),
    [
        ("The littlest one is 6 so 10 km absolutely maximum.", 10),
        ("10 km grand max, elle ne tient pas plus !", 10),
        ("hybrids, nothing longer than 20km, some people don't cycle much", 20),
    ],
)
def test_a_limit_said_with_an_adverb(text: str, km: int) -> None:
    assert reading(text).slots.dailyDistanceKm == km


@pytest.mark.parametrize(
    "text",
    [
        "je te redis ça demain",
        "I'll decide tomorrow morning",
        "on en discute ce soir",
        "let me check and confirm tomorrow",
    ],
)
def test_when_people_will_talk_again_is_no_date(text: str) -> None:
    read = reading(text)
    assert read.slots.startDate is None
    assert not read.days_hint.within_a_day


def test_a_weekend_of_a_month_is_its_two_days_unless_it_is_when_they_start() -> None:
    assert reading("Le premier week-end de septembre, d'Alppiharju à Ullanlinna").slots.durationDays == 2
    assert reading("we'd start on the first weekend of June").slots.durationDays is None


def test_the_dates_of_a_stay_are_not_the_days_left_open() -> None:
    read = reading(
        "je serai à Helsinki du 10 au 13 mai, je veux faire du vélo un ou deux jours, je sais pas encore"
    )
    assert read.slots.durationDays is None


def test_a_limit_said_again_without_its_unit_replaces_the_one_before() -> None:
    first = reading("Soldeu loop, 2 days, max 60 km a day")
    again = reading("say 45 actually, I'm out of shape after the winter")
    assert again.merged_into(first.merged_into(first.slots)).dailyDistanceKm == 45
    assert "start" not in again.places  # "out of shape" is no start
    # without a distance said before, a figure alone is none
    assert again.merged_into(reading("Soldeu loop, 2 days").slots).dailyDistanceKm is None
    assert reading("en fait max 30, je suis avec mon fils").merged_into(first.slots).dailyDistanceKm == 30


def test_where_people_have_a_flat_is_a_loose_start() -> None:
    places = reading(
        "We have a flat in Ullanlinna. A little ride over to Kruununhaka and back home to Ullanlinna."
    ).places
    assert [(p.text, p.loose) for p in places["start"]] == [("ullanlinna", True)]


def test_three_ends_said_with_or_leave_the_end_open() -> None:
    assert reading(
        "départ Soldeu en gravel, arrivée... Sant Julià, ou Aixovall, ou Santa Coloma, bref en bas"
    ).end_unknown


def test_a_little_tour_tomorrow_is_one_ride() -> None:
    assert reading("Salut ! Petit tour samedi : départ d'Arinsal, retour à Arinsal").days_hint.one_ride


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # both ends said with the verbs' endings: a loop from there
        (
            "The idea is a loop that starts and finishes in Sant Julià de Lòria.",
            {"start": ["sant julia de loria"]},
        ),
        ("de saint julia a encamp en vae, 1 journée, demain", {"start": ["sant julia"], "end": ["encamp"]}),
        ("strt at ordno finsh andora la vela 2 days road", {"start": ["ordno"], "end": ["andora la vela"]}),
        (
            "Depart Ordino, arivée Andore la Viella, 1 jour. Le vélo : ce que vous avez à louer.",
            {"start": ["ordino"], "end": ["andore la viella"]},
        ),
        (
            "Je voudrais faire Saint-Julien-de-Lòria – Certers – Llumeneres – retour à Saint-Julien",
            {"start": ["saint julien de loria"], "via": ["certers", "llumeneres"], "end": ["saint julien"]},
        ),
        (
            "Plan is to set off from Sant Julià de Lòria, ride up past the sanctuary at Meritxell, and end "
            "the trip in Canillo — there's a church with a lovely bell tower near there I want to sketch.",
            {"start": ["sant julia de loria"], "via": ["meritxell"], "end": ["canillo"]},
        ),
        (
            "On veut voir le lac d'Engolasters, le sanctuaire de Meritxell et le musée de l'auto à Encamp",
            {"via": ["le lac d engolasters", "le sanctuaire de meritxell", "encamp"]},
        ),
        (
            "Start in Kamppi. I want to see the Sibelius Monument in Taka-Töölö, then end at Alppiharju.",
            {"start": ["kamppi"], "via": ["taka toolo"], "end": ["alppiharju"]},
        ),
    ],
)
def test_places_said_with_typos_sights_and_infinitives(text: str, expected: dict[str, list[str]]) -> None:
    places = reading(text).places
    assert {
        slot: [p.text for p in places.get(slot, [])][: len(want)] for slot, want in expected.items()
    } == expected
    assert "sketch" not in [p.text for p in places.get("end", [])]


@pytest.mark.parametrize(
    ("text", "start_unknown", "end_unknown"),
    [
        (
            "On démarre de Canillo, mais pour l'arrivée on hésite encore entre Soldeu et Grau Roig",
            False,
            True,
        ),
        ("Start either Ordino or La Massana, haven't decided. End at Sant Julià de Lòria.", True, False),
        (
            "Je pars d'Ordino et j'aimerais finir à Sant Julià, mais je ne sais pas combien de jours",
            False,
            False,
        ),
        ("on hésite entre une journée ou un week-end, en partant d'Andorre-la-Vieille", False, False),
    ],
)
def test_what_is_left_open_is_the_slot_said(text: str, start_unknown: bool, end_unknown: bool) -> None:
    read = reading(text)
    assert (read.start_unknown, read.end_unknown) == (start_unknown, end_unknown)


def test_a_day_or_a_weekend_leaves_the_days_open() -> None:
    assert reading("on hésite entre une journée ou un week-end").slots.durationDays is None
    assert reading("a day or a weekend, not sure").slots.durationDays is None


def test_going_to_see_is_a_stop() -> None:
    places = reading("pour aller voir le sanctuaire de Meritxell en partant d'Andorre-la-Vieille").places
    assert [p.text for p in places["via"]] == ["le sanctuaire de meritxell"]
    assert [p.text for p in places["start"]] == ["andorre la vieille"]


@pytest.mark.parametrize(
    ("text", "days", "date"),
    [
        ("du vendredi 14 au dimanche 16 mai, en passant par Sipoo", 3, dt.date(2027, 5, 14)),
        ("Itinéraire en trois étapes : Escaldes – Engolasters – Encamp", 3, None),
    ],
)
def test_days_said_as_a_range_of_named_days_or_as_stages(text: str, days: int, date: dt.date | None) -> None:
    read = reading(text)
    assert (read.slots.durationDays, read.slots.startDate) == (days, date)


@pytest.mark.parametrize(
    "text",
    [
        "Day loop from Kruununhaka on Saturday the 8th",
        "ride down to la seu for lunch and back up the same day",
    ],
)
def test_a_day_loop_or_the_same_day_fits_in_a_day(text: str) -> None:
    assert reading(text).days_hint.within_a_day


def test_a_plan_by_named_days_is_read_as_one() -> None:
    read = reading(
        "Here's the plan:\n\n"
        "Tue 18 May – Andorra la Vella → Santa Coloma → Sant Julià (camp)\n"
        "Wed 19 May – Sant Julià → Aubinyà → Juberri → back to Sant Julià\n"
        "Thu 20 May – Sant Julià → Andorra la Vella\n\nmtb. tents."
    )
    assert read.slots.durationDays == 3
    assert read.slots.roundTrip
    assert [p.text for p in read.places["start"]] == ["andorra la vella"]
    assert [p.text for p in read.places["via"]] == ["santa coloma", "sant julia", "aubinya", "juberri"]


def test_swinging_by_is_a_stop() -> None:
    assert [p.text for p in reading("want to swing by Katajanokka and Eira").places["via"]] == [
        "katajanokka",
        "eira",
    ]


def test_first_ends_a_stop_and_a_list_goes_on_after_it() -> None:
    assert [
        p.text for p in reading("would love to go through Sant Julià first, then up to Ordino").places["via"]
    ] == ["sant julia"]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'd start somewhere around Kallio or Sörnäinen, haven't decided, and end up in Eira", "start"),
        (
            "On partirait soit de chez lui en prenant le train jusqu'à la gare centrale, soit de Kallio",
            "start",
        ),
        ("on n'a pas encore tranché pour le départ", "start"),
        ("After that I don't know where we'd end up, maybe somewhere for lunch, maybe back home", "end"),
    ],
)
def test_more_ways_of_leaving_a_place_open(text: str, slot: str) -> None:
    assert getattr(reading(text), f"{slot}_unknown")


@pytest.mark.parametrize(
    "text", ["Je ne sais pas si je fais ça en une journée ou en deux", "je sais pas encore, une ou deux"]
)
def test_one_day_or_two_leaves_the_days_open(text: str) -> None:
    assert reading(text).slots.durationDays is None
    assert reading("une ou deux personnes").slots.durationDays is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pas de la case", {"bare": ["pas de la case"]}),  # a name alone, its French "de" inside it
        ("de Llorts", {"start": ["llorts"]}),
        ("ok let's say sant julia", {"bare": ["sant julia"]}),
        ("retour a canillo", {"end": ["canillo"]}),  # "à" typed without its accent
        ("dpuis arinsal jusqua pal", {"start": ["arinsal"], "end": ["pal"]}),
        ("start n end in la massana", {"start": ["la massana"]}),
        (
            "doing the sant julia -> andorra la vella -> encamp -> canillo stretch one way",
            {"start": ["sant julia"], "via": ["andorra la vella", "encamp"]},
        ),
    ],
)
def test_answers_typed_short(text: str, expected: dict[str, list[str]]) -> None:
    places = reading(text).places
    for slot, phrases in expected.items():
        assert set(phrases) <= {p.text for p in places.get(slot, [])}


def test_sms_french_dates_and_huts() -> None:
    read = reading("we du 15-16 en vtt, nuit en cabane")
    assert (read.slots.durationDays, read.slots.startDate, read.slots.accommodation) == (
        2,
        dt.date(2027, 5, 15),
        "hut",
    )


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("gravel. not sure if it's a day ride or if i stay over somewhere, haven't decided", "days_unknown"),
        ("pas encore de date, et je sais pas si je le fais en 1 jour ou si je dors en route", "days_unknown"),
        (
            "Hmm, en fait je ne sais plus si je pars d'Aixirivall. Peut-être de Sant Julià directement.",
            "start_unknown",
        ),
        ("si aller simple, arrivée à Canillo", "end_unknown"),
    ],
)
def test_said_as_still_open(text: str, what: str) -> None:
    assert getattr(reading(text), what)
