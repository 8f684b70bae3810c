"""Places on the embedded gazetteer (built from valhalla/data by `make gazetteer`) and the domain rules."""

from __future__ import annotations

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.application.places import pois_near
from tripagent.domain.geo import decode_polyline, encode_polyline, line_length_km, project
from tripagent.domain.places import (
    Ambiguous,
    Candidate,
    Found,
    NotFound,
    Place,
    decide,
    normalize,
    settled_by,
)


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return Gazetteer()


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Andora la Vela", "Andorra la Vella"),
        ("andorra la vella", "Andorra la Vella"),
        ("Canilo", "Canillo"),
        ("Encanp", "Encamp"),
        ("Escaldes Engordany", "les Escaldes"),
        ("escaldes", "les Escaldes"),
        ("La Masana", "La Massana"),
        ("Ordíno", "Ordino"),
        ("Sant Julia de Loria", "Sant Julià de Lòria"),
        ("sant julia de lria", "Sant Julià de Lòria"),
    ],
)
def test_every_parish_capital_is_found_from_a_misspelled_or_unaccented_name(
    gazetteer: Gazetteer, query: str, expected: str
) -> None:
    outcome = gazetteer.search(query)
    assert isinstance(outcome, Found), outcome
    assert outcome.place.name == expected
    assert outcome.place.region == "andorra"


@pytest.mark.parametrize("query", ["Andorre-la-Vieille", "Andorra la Vieja", "ANDORRA LA VELLA"])
def test_names_in_other_languages_and_cases(gazetteer: Gazetteer, query: str) -> None:
    outcome = gazetteer.search(query)
    assert isinstance(outcome, Found)
    assert outcome.place.name == "Andorra la Vella"


@pytest.mark.parametrize(
    ("query", "district"),
    [
        ("Berghäll", "Kallio"),
        ("Kronohagen", "Kruununhaka"),
        ("Rödbergen", "Punavuori"),
        ("gardesstaden", "Kaartinkaupunki"),
        ("Främre Tölö", "Etu-Töölö"),  # (no boundary of the extract: an alias)
        ("Ulrikasborg", "Ullanlinna"),
    ],
)
def test_a_district_is_found_by_the_name_its_boundary_gives_it_in_swedish(
    gazetteer: Gazetteer, query: str, district: str
) -> None:
    outcome = gazetteer.search(query)
    assert isinstance(outcome, Found)
    assert (outcome.place.name, outcome.place.region) == (district, "helsinki")


def test_a_swedish_district_name_shared_with_a_town_abroad_is_asked(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("Kampen")  # Kamppi, or Kampen in the Netherlands
    assert isinstance(outcome, Ambiguous)
    assert {c.place.name for c in outcome.candidates} >= {"Kamppi", "Kampen"}


def test_an_ambiguous_name_returns_numbered_candidates(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("Santa Coloma")
    assert isinstance(outcome, Ambiguous)
    labels = [o["label"] for o in outcome.options()]
    assert [o["index"] for o in outcome.options()] == list(range(1, len(labels) + 1))
    assert "Santa Coloma (village, Andorra)" in labels
    assert "Santa Coloma de Gramenet (city, Spain)" in labels


def test_proximity_settles_an_ambiguity(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("Santa Coloma", near=(42.51, 1.53))
    assert isinstance(outcome, Found)
    assert outcome.place.country == "Andorra"


def test_a_bigger_namesake_wins_a_tie_of_names(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("Barcelona")
    assert isinstance(outcome, Found)
    assert outcome.place.country == "Spain"


def test_a_city_outside_the_extracts_is_found_and_not_covered(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("Paris")
    assert isinstance(outcome, Found)
    assert outcome.place.country == "France"
    assert gazetteer.covered_region(outcome.place.lat, outcome.place.lon) is None
    andorra = gazetteer.search("Ordino")
    assert isinstance(andorra, Found)
    assert gazetteer.covered_region(andorra.place.lat, andorra.place.lon) == "andorra"


def test_nothing_found_comes_with_suggestions(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("Xyzzyville")
    assert isinstance(outcome, NotFound)
    assert outcome.suggestions


def test_nothing_found_says_what_each_word_alone_finds(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("Ordino Pyrenees Lodge")
    assert isinstance(outcome, NotFound)
    assert any("Ordino" in label for label in outcome.by_word.get("ordino", ()))


def test_pois_near_a_point_by_category_nearest_first(gazetteer: Gazetteer) -> None:
    soldeu = gazetteer.search("Soldeu")
    assert isinstance(soldeu, Found)
    result = pois_near(gazetteer, (soldeu.place.lat, soldeu.place.lon), radius_km=1.5, category="lodging")
    assert result.hits
    distances = [h.distance_km for h in result.hits]
    assert distances == sorted(distances)
    assert all(h.place.category == "lodging" and h.distance_km <= 1.5 for h in result.hits)


def test_zero_pois_come_back_with_alternatives(gazetteer: Gazetteer) -> None:
    soldeu = gazetteer.search("Soldeu")
    assert isinstance(soldeu, Found)
    result = pois_near(
        gazetteer,
        (soldeu.place.lat, soldeu.place.lon),
        radius_km=0.05,
        category="lodging",
        text="hotel piolets spa",
    )
    assert result.empty
    assert {(a.kind, a.value) for a in result.alternatives} >= {("term", "hotel"), ("term", "piolets")}
    closer = pois_near(gazetteer, (soldeu.place.lat, soldeu.place.lon), radius_km=0.01, category="lodging")
    assert closer.empty
    assert [a.kind for a in closer.alternatives] == ["radius"]
    assert closer.alternatives[0].count >= 1


def test_normalization_folds_case_accents_and_punctuation() -> None:
    assert normalize("Sant Julià de Lòria") == "sant julia de loria"
    assert normalize("Andorre-la-Vieille") == "andorre la vieille"
    assert normalize("  L'Aldosa ") == "l aldosa"


def _candidate(name: str, importance: float, lat: float, score: float) -> Candidate:
    return Candidate(Place(1, name, "city", "place", lat, 0.0, importance, "X"), score, normalize(name))


def test_decide_is_none_below_the_match_floor() -> None:
    assert decide("Ordino", [_candidate("Ondara", 0.5, 0.0, 0.6)]) is None


def test_the_polyline_encoder_matches_the_published_example() -> None:
    # Google's Encoded Polyline Algorithm Format documentation, precision 5.
    points = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]
    assert encode_polyline(points, precision=5) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
    assert decode_polyline("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision=5) == points


def test_polylines_round_trip_at_precision_6() -> None:
    line = [(42.463612, 1.491304), (42.5, 1.5), (42.576612, 1.668401)]
    assert decode_polyline(encode_polyline(line)) == line


def test_projection_tells_how_far_off_and_how_far_along() -> None:
    line = [(42.0, 1.0), (42.0, 1.1), (42.0, 1.2)]  # about 16.5 km due east
    where = project((42.01, 1.15), line)
    assert where.offset_km == pytest.approx(1.11, abs=0.02)
    assert where.along_km == pytest.approx(line_length_km(line) * 0.75, rel=0.01)


@pytest.mark.parametrize("label", ["Santa Coloma (village, Andorra)", "santa coloma (Village, andorra)"])
def test_a_label_we_handed_out_finds_exactly_its_place(gazetteer: Gazetteer, label: str) -> None:
    assert isinstance(gazetteer.search("Santa Coloma"), Ambiguous)
    found = gazetteer.search(label)
    assert isinstance(found, Found)
    assert (found.place.name, found.place.country) == ("Santa Coloma", "Andorra")


def test_a_label_of_no_place_is_not_found(gazetteer: Gazetteer) -> None:
    assert not isinstance(gazetteer.search("Santa Coloma (city, Peru)"), Found)


@pytest.mark.parametrize("town", ["Foix", "La Seu d'Urgell", "Ax-les-Thermes", "Hanko"])
def test_a_small_town_abroad_is_known_so_it_is_outside_coverage_not_unknown(
    gazetteer: Gazetteer, town: str
) -> None:
    """GeoNames' towns down to 500 people: a real town of 9,000 is "outside the area we route"."""
    outcome = gazetteer.search(town)
    assert isinstance(outcome, Found)
    assert outcome.place.region is None
    assert gazetteer.covered_region(outcome.place.lat, outcome.place.lon) is None


def test_a_small_town_abroad_is_found_by_its_exact_name_only(gazetteer: Gazetteer) -> None:
    """Not by a typo, nor by the start of its name: "Vila" is not a question of every Vila Nova."""
    assert not isinstance(gazetteer.search("Fiox"), Found)
    vila = gazetteer.search("Vila")
    places = [c.place for c in vila.candidates] if isinstance(vila, Ambiguous) else [vila.place]  # type: ignore[union-attr]
    assert places[0].label == "Vila (village, Andorra)"
    assert not any(p.name.startswith("Vila ") for p in places)


def test_a_village_we_route_is_asked_beside_a_larger_namesake_abroad(gazetteer: Gazetteer) -> None:
    """Pal, Andorra (a village) and Pal, Senegal (a larger town): asked, not guessed, ours first."""
    outcome = gazetteer.search("Pal")
    assert isinstance(outcome, Ambiguous)
    assert outcome.candidates[0].place.label == "Pal (village, Andorra)"
    assert any(c.place.region is None for c in outcome.candidates)


def test_a_place_we_route_wins_over_a_namesake_abroad_no_larger_than_it(gazetteer: Gazetteer) -> None:
    """Alppila, Helsinki, and Alppila near Oulu (slightly smaller): the one we route, not a question
    whose two options read the same, "Alppila (town, Finland)"."""
    outcome = gazetteer.search("Alppila")
    assert isinstance(outcome, Found)
    assert outcome.place.region == "helsinki"


def test_a_town_abroad_whose_streets_we_route_is_in_the_region(gazetteer: Gazetteer) -> None:
    outcome = gazetteer.search("Pas de la Casa")
    assert isinstance(outcome, Found)
    assert outcome.place.region == "andorra"


def test_the_other_places_of_a_brief_settle_a_name_far_from_its_namesakes(gazetteer: Gazetteer) -> None:
    pal = gazetteer.search("Pal")
    llorts, paris, canillo = (gazetteer.search(n) for n in ("Llorts", "Paris", "Canillo"))
    assert isinstance(llorts, Found)
    assert isinstance(paris, Found)
    assert isinstance(canillo, Found)
    settled = settled_by(pal, [llorts.place])
    assert isinstance(settled, Found)
    assert settled.place.label == "Pal (village, Andorra)"
    assert settled_by(pal, [paris.place]) is pal  # near none of the Pals: still a question
    assert settled_by(pal, []) is pal
    # Santa Coloma de Gramenet is near enough to ride from, but only the village is inside the area
    # Canillo is routed in: a trip from Gramenet could not be planned here
    santa_coloma = gazetteer.search("Santa Coloma")
    assert isinstance(santa_coloma, Ambiguous)
    village = settled_by(santa_coloma, [canillo.place])
    assert isinstance(village, Found)
    assert village.place.label == "Santa Coloma (village, Andorra)"
    # a place abroad among the others (where someone lives) leaves it a question; so does none
    assert isinstance(settled_by(santa_coloma, [canillo.place, paris.place]), Ambiguous)
    assert isinstance(settled_by(santa_coloma, [paris.place]), Ambiguous)
    assert settled_by(santa_coloma, []) is santa_coloma


@pytest.mark.parametrize(
    "name", ["L'Hospitalet-près-l'Andorre", "Nuuksio", "Latour-de-Carol", "Bourg-Madame"]
)
def test_a_hamlet_at_the_areas_doors_under_geonames_cut_is_outside_not_unknown(
    gazetteer: Gazetteer, name: str
) -> None:
    """The railway station under Pas de la Casa (about 90 people) and the national park beside Helsinki
    are named by travellers: "outside the area we route", named, never "no place called"."""
    outcome = gazetteer.search(name)
    assert isinstance(outcome, Found)
    assert outcome.place.name == name
    assert outcome.place.region is None


@pytest.mark.parametrize(("said", "name"), [("la seu", "La Seu d'Urgell"), ("Sipoo", "Sibbo")])
def test_a_town_at_the_doors_by_the_name_travellers_use(gazetteer: Gazetteer, said: str, name: str) -> None:
    """ "La Seu" is La Seu d'Urgell (not "did you mean Seoul?"); Sipoo is the town GeoNames names Sibbo:
    outside the area we route, never "no place called"."""
    outcome = gazetteer.search(said)
    assert isinstance(outcome, Found)
    assert outcome.place.name == name
    assert outcome.place.region is None


def test_a_hamlet_the_extract_routes_though_abroad_is_in_the_region(gazetteer: Gazetteer) -> None:
    """Os de Civís, Spain, is reached only through Andorra: its roads are in the extract."""
    outcome = gazetteer.search("Os de Civis")
    assert isinstance(outcome, Found)
    assert outcome.place.region == "andorra"


def test_a_name_whose_every_namesake_is_outside_is_no_question(gazetteer: Gazetteer) -> None:
    """The answer is "outside" whichever was meant: the namesake near the brief's other places is named.
    Near none, or with a namesake we route, it is still asked."""
    hospitalet = gazetteer.search("l'Hospitalet")
    assert isinstance(hospitalet, Ambiguous)
    pas = gazetteer.search("Pas de la Casa")
    assert isinstance(pas, Found)
    near_pas = settled_by(hospitalet, [pas.place])
    assert isinstance(near_pas, Found)
    assert near_pas.place.name == "L'Hospitalet-près-l'Andorre"
    assert settled_by(hospitalet, []) is hospitalet
    helsinki = gazetteer.search("Kallio")
    assert isinstance(helsinki, Found)
    assert settled_by(hospitalet, [helsinki.place]) is hospitalet
    assert isinstance(settled_by(gazetteer.search("Pal"), []), Ambiguous)


def test_a_typo_of_a_place_we_route_is_never_lost_to_an_exact_name_abroad(gazetteer: Gazetteer) -> None:
    """ "Orino" is a town in Italy and one letter from Ordino: asked, ours first, and settled by the brief's
    other places; "ngol" (Nagol) no longer finds Angol, Chile alone."""
    from tripagent.domain.places import settled_by

    for typo, ours in (("Orino", "Ordino"), ("ngol", "Nagol")):
        outcome = gazetteer.search(typo)
        assert isinstance(outcome, Ambiguous)
        assert outcome.candidates[0].place.name == ours
        canillo = gazetteer.search("Canillo")
        assert isinstance(canillo, Found)
        settled = settled_by(outcome, [canillo.place])
        assert isinstance(settled, Found)
        assert settled.place.name == ours


def test_a_name_said_exactly_is_not_a_question_of_far_longer_names(gazetteer: Gazetteer) -> None:
    """ "Vila" is the village (not Vila Velha, Brazil, nor Matola, once Vila Salazar); Santa Coloma, with
    Santa Coloma de Gramenet 120 km away, is still asked."""
    vila = gazetteer.search("Vila")
    assert isinstance(vila, Found)
    assert vila.place.label == "Vila (village, Andorra)"
    assert isinstance(gazetteer.search("Santa Coloma"), Ambiguous)


def test_two_letters_swapped_or_a_name_without_its_article_are_close(gazetteer: Gazetteer) -> None:
    """ "Soldue" is Soldeu (two letters swapped, one edit); "Masana" is close to La Massana, so it is asked
    beside Masana, South Africa, rather than taken for it."""
    soldue = gazetteer.search("Soldue")
    assert isinstance(soldue, Found)
    assert soldue.place.name == "Soldeu"
    masana = gazetteer.search("Masana")
    assert isinstance(masana, Ambiguous)
    assert masana.candidates[0].place.name == "La Massana"


def test_a_place_abroad_said_by_one_of_its_names_is_no_loose_reading(gazetteer: Gazetteer) -> None:
    """ "Barcelone" is Barcelona, said in French: named; "de temps" (Tempe, Arizona, by a typo) and "de
    Lòria" (Glória, Brazil) are loose readings, not places the rider named."""
    from tripagent.adapters.rules.brief_reader.place_reading import far_fetched

    assert not far_fetched(gazetteer.search("Barcelone"), "barcelone")
    assert far_fetched(gazetteer.search("temps"), "temps")
    assert far_fetched(gazetteer.search("loria"), "loria")


def test_a_letter_dropped_from_a_long_name_we_route_finds_it(gazetteer: Gazetteer) -> None:
    """ "Ullanlina": the trigram search ranks the names sharing most of its rare trigrams first, so the
    one meant is among those compared, not lost after 150 others."""
    outcome = gazetteer.search("Ullanlina")
    assert isinstance(outcome, Found)
    assert outcome.place.name == "Ullanlinna"


def test_a_mere_resemblance_abroad_does_not_compete_with_a_closer_place_we_route(
    gazetteer: Gazetteer,
) -> None:
    """ "La Masana" is La Massana, not Mashhad (once "Masant"); a name that begins with the query still
    competes (Santa Coloma de Gramenet)."""
    for typo, ours in (("La Masana", "La Massana"), ("el serat", "el Serrat")):
        outcome = gazetteer.search(typo)
        assert isinstance(outcome, Found)
        assert outcome.place.name == ours
    assert isinstance(gazetteer.search("Santa Coloma"), Ambiguous)
