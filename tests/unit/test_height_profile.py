"""A stage's heights at a fixed step, compact enough for the trip document, and the GPX's <ele> from them."""

from __future__ import annotations

import pytest
from tripagent.domain.gpx import heights_at
from tripagent.domain.stages import Sample, height_profile
from tripagent.domain.trip import MAX_PROFILE_POINTS, ElevationProfile, Stage


def ramp(km: float, every_m: int = 100) -> list[Sample]:
    """A straight line east, climbing 10 m per km, a sample every ``every_m``."""
    count = round(km * 1000 / every_m)
    return [
        Sample((0.0, i * every_m / 111_320), i * every_m / 1000, 500 + i * every_m / 100)
        for i in range(count + 1)
    ]


def test_a_short_stage_has_a_height_every_100_m() -> None:
    profile = height_profile(ramp(12))
    assert profile is not None
    assert profile.step_m == 100
    assert len(profile.heights_m) == 121
    assert (profile.heights_m[0], profile.heights_m[60], profile.heights_m[-1]) == (500, 560, 620)


def test_a_long_stage_keeps_to_the_documents_budget_with_a_longer_step() -> None:
    profile = height_profile(ramp(95, every_m=250))
    assert profile is not None
    assert profile.step_m == 400
    assert len(profile.heights_m) <= MAX_PROFILE_POINTS + 1
    assert profile.heights_m[-1] == 1450  # the stage's end, whatever the step


def test_a_stage_with_unknown_heights_has_no_profile() -> None:
    samples = ramp(5)
    samples[3] = Sample(samples[3].point, samples[3].km, None)
    assert height_profile(samples) is None


def test_the_gpx_points_take_their_heights_from_the_profile_by_their_share_of_the_way() -> None:
    stage = Stage.model_validate(
        {
            "from": "A",
            "to": "B",
            "distanceKm": 2.0,
            "durationMin": 10,
            "elevation": ElevationProfile(stepM=1000, heightsM=[100, 200, 150]),
        }
    )
    points = [(0.0, 0.0), (0.0, 0.5 / 111.32), (0.0, 1.0 / 111.32), (0.0, 2.0 / 111.32)]
    assert heights_at(points, stage) == pytest.approx([100, 150, 200, 150], abs=1)
    assert heights_at(points, stage.model_copy(update={"elevation": None})) == [None] * 4
