"""Places against the real router: coverage with Valhalla's /locate, POIs along a real route."""

from __future__ import annotations

import pytest
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.valhalla import ValhallaClient
from tripagent.application.places import check_coverage, pois_along
from tripagent.domain.geo import decode_polyline
from tripagent.domain.places import Found
from tripagent_local.stack import LocalStack


@pytest.fixture(scope="module")
def router(local_stack: LocalStack) -> ValhallaClient:
    return ValhallaClient(f"http://127.0.0.1:{local_stack.config.valhalla_port}")


def place(gazetteer: Gazetteer, name: str) -> tuple[float, float]:
    outcome = gazetteer.search(name)
    assert isinstance(outcome, Found)
    return outcome.place.lat, outcome.place.lon


def test_towns_of_the_extracts_are_covered_and_cities_outside_are_not(router: ValhallaClient) -> None:
    g = Gazetteer()
    for town in ("Andorra la Vella", "Soldeu", "Helsinki"):
        assert check_coverage(place(g, town), g, router, max_snap_m=2000).covered, town
    barcelona = check_coverage(place(g, "Barcelona"), g, router, max_snap_m=2000)
    assert not barcelona.covered
    assert barcelona.covered_regions == ("Andorra", "central Helsinki")


def test_a_point_in_the_area_but_far_from_a_road_is_not_covered(router: ValhallaClient) -> None:
    g = Gazetteer()
    coverage = check_coverage(place(g, "Ordino"), g, router, max_snap_m=0.5)  # demand a road within 50 cm
    assert not coverage.covered
    assert coverage.region == "Andorra"
    assert coverage.snapped_m is not None
    assert "nearest road" in coverage.reason


def test_pois_along_a_real_route_come_in_riding_order(router: ValhallaClient) -> None:
    g = Gazetteer()
    route = router.route(
        [place(g, "Sant Julià de Lòria"), place(g, "Soldeu")], options={"bicycle_type": "Road"}
    )
    line = decode_polyline(route.shape)
    result = pois_along(g, line, corridor_km=1.0, category="lodging")
    assert len(result.hits) >= 5
    along = [h.along_km for h in result.hits]
    assert along == sorted(along)
    assert all(h.distance_km <= 1.0 for h in result.hits)
    assert along[-1] <= route.distance_km + 1


def test_nothing_along_one_stage_points_to_the_stage_that_has_it(router: ValhallaClient) -> None:
    g = Gazetteer()
    sant_julia, andorra = place(g, "Sant Julià de Lòria"), place(g, "Andorra la Vella")
    canillo, soldeu = place(g, "Canillo"), place(g, "Soldeu")
    day1 = decode_polyline(router.route([sant_julia, andorra]).shape)
    day2 = decode_polyline(router.route([canillo, soldeu]).shape)
    soldeu_hotels = pois_along(g, day2, corridor_km=0.3, category="lodging", text="himalaya")
    assert soldeu_hotels.hits  # the Hotel Himalaya lies at Soldeu
    result = pois_along(
        g, day1, corridor_km=0.3, category="lodging", text="himalaya", other_stages={"day 2": day2}
    )
    assert result.empty
    assert ("stage", "day 2") in {(a.kind, a.value) for a in result.alternatives}
