"""The route fits the rider: the profile, the pace and the daily climbing limit reach Valhalla's costing."""

from __future__ import annotations

import pytest
from tripagent.application.generate import COSTING, TripSpec, costing


def spec(**values: object) -> TripSpec:
    return TripSpec.model_validate({"start": "A", "end": "B", "durationDays": 2, **values})


def test_the_profile_sets_the_bicycle_and_its_defaults() -> None:
    assert costing(spec(profile="road")) == COSTING["road"]
    assert costing(spec(profile="mountain"))["bicycle_type"] == "Mountain"


def test_a_relaxed_ride_avoids_climbs_and_busy_roads_whatever_the_bike() -> None:
    """The issue's weekend: relaxed, on e-bikes, was sent over a high point with use_hills 0.8."""
    relaxed = costing(spec(profile="e-bike", pace="relaxed"))
    assert relaxed["use_hills"] == 0.1
    assert relaxed["use_roads"] <= 0.25
    assert relaxed["bicycle_type"] == "Hybrid"
    assert costing(spec(profile="e-bike"))["use_hills"] < 0.5  # a motor makes climbs easier, not wanted


def test_a_brisk_ride_welcomes_hills() -> None:
    assert costing(spec(profile="touring", pace="brisk"))["use_hills"] == 0.7


@pytest.mark.parametrize(("climb", "hills"), [(300, 0.15), (500, 0.25), (5000, 0.5)])
def test_the_daily_climbing_limit_caps_the_willingness_to_climb(climb: int, hills: float) -> None:
    assert costing(spec(profile="road", dailyClimbM=climb))["use_hills"] == hills
