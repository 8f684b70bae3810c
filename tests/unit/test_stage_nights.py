"""Where each day ends: where riders can sleep, balanced by effort (distance and climbing), within the
rider's daily distance."""

from __future__ import annotations

from tripagent.domain.stages import Sample, StopCandidate, plan_stages


def flat_route(km: int, climb_at: tuple[float, float] | None = None) -> list[Sample]:
    """A straight route east along the equator, a sample every 100 m; ``climb_at``: (km, metres) of a
    steady climb over the 5 km before that point."""
    samples = []
    for i in range(km * 10 + 1):
        at = i / 10
        height = 100.0
        if climb_at is not None:
            top, metres = climb_at
            height += metres * min(1.0, max(0.0, (at - (top - 5)) / 5))
        samples.append(Sample((0.0, at / 111.32), at, height))
    return samples


def stages(
    samples: list[Sample], days: int, places: list[StopCandidate], max_day_km: float | None = None
) -> list[str]:
    plans = plan_stages(
        samples,
        days,
        start_name="A",
        end_name="B",
        total_duration_s=3600,
        stops_near=lambda lo, hi: [p for p in places if lo <= p.along_km <= hi],
        max_day_km=max_day_km,
    )
    return [p.to_name for p in plans[:-1]]


def test_a_town_with_a_bed_beats_a_hamlet_at_the_ideal_point() -> None:
    places = [
        StopCandidate("Hamlet", 50.0, 0.1, "hamlet"),
        StopCandidate("Bedtown", 46.0, 0.3, "village", beds_near=True),
    ]
    assert stages(flat_route(100), 2, places) == ["Bedtown"]


def test_lodging_alone_beats_a_village_without_one() -> None:
    places = [
        StopCandidate("Bedless", 50.0, 0.1, "village"),
        StopCandidate("Camping du Lac", 49.0, 0.2, "camp_site", lodging=True),
    ]
    assert stages(flat_route(100), 2, places) == ["Camping du Lac"]


def test_a_place_to_sleep_further_off_beats_a_kilometre_mark() -> None:
    """Nothing within a fifth of a day's effort of the ideal cut (km 40-60): the wider window finds the
    village with a hotel at km 33, rather than ending the day at "km 50"."""
    places = [StopCandidate("Farville", 33.0, 0.2, "village", beds_near=True)]
    assert stages(flat_route(100), 2, places) == ["Farville"]


def test_climbing_counts_as_effort_so_the_hilly_day_is_shorter() -> None:
    """1,000 m of climbing between km 65 and 70 weigh 10 km: the ideal cut moves from km 50 to km 55,
    and the second day, the one that climbs, is 45 km."""
    places = [
        StopCandidate("Flatville", 50.0, 0.1, "village", beds_near=True),
        StopCandidate("Hillfoot", 55.0, 0.1, "village", beds_near=True),
    ]
    assert stages(flat_route(100), 2, places) == ["Flatville"]
    assert stages(flat_route(100, climb_at=(70, 1000)), 2, places) == ["Hillfoot"]


def test_a_night_past_the_daily_distance_is_taken_only_when_nothing_nearer_will_do() -> None:
    places = [
        StopCandidate("Far", 52.0, 0.1, "village", beds_near=True),
        StopCandidate("Near", 44.0, 0.1, "village"),
    ]
    assert stages(flat_route(100), 2, places) == ["Far"]
    assert stages(flat_route(100), 2, places, max_day_km=45) == ["Near"]
    assert stages(flat_route(100), 2, places[:1], max_day_km=45) == ["Far"]
