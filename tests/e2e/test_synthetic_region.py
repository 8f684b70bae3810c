"""A region no code has ever seen, end to end through the README's commands: the test writes an extract
and an SRTM tile itself (``tests/fixtures/synthetic_region.py``), builds the region with
``tripagent region build``, serves it with ``tripagent dev`` (``REGIONS=``), then plans, generates and
routes a trip there over HTTP. A broken input stops a build with a clear error and leaves the region's
previous version serving."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import gpxpy
import httpx
import pytest

from tests.e2e.conftest import TRIPAGENT, DevServer, start_dev
from tests.fixtures.synthetic_region import HOTEL, VILLAGES, write_extract, write_heights

NAME = "valley"


def build(regions: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TRIPAGENT, "region", "build", *args, "--name", NAME],
        env={"TRIPAGENT_REGIONS_DIR": str(regions), "PATH": str(TRIPAGENT.parent)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def region(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("region")
    pbf = write_extract(folder / "valley.osm.pbf")
    heights = write_heights(folder / "srtm")
    regions = folder / "regions"
    built = build(regions, str(pbf), "--elevation", str(heights.parent))
    assert built.returncode == 0, built.stdout + built.stderr
    # the heights are in the tiles now: the service never sees the SRTM folder
    shutil.rmtree(heights.parent)
    return regions


@pytest.fixture(scope="module")
def server(region: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    log = tmp_path_factory.mktemp("dev") / "dev.log"
    server = start_dev(log, {"REGIONS": NAME, "TRIPAGENT_REGIONS_DIR": str(region)})
    yield server
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGINT)
        server.process.wait(20)


def test_a_trip_is_planned_generated_and_routed_in_a_region_no_code_has_seen(server: DevServer) -> None:
    rider = server.auth("vera")
    brief = "2 days by touring bike from Vrelkstad to Mirnhavn"
    chat = httpx.post(
        f"{server.url}/trips/ai-chat",
        json={"messages": [{"role": "user", "content": brief}], "locale": "en"},
        headers=rider,
        timeout=30,
    )
    assert chat.status_code == 200, chat.text
    collected = chat.json()["collected"]
    assert (collected["start"], collected["end"], collected["durationDays"]) == ("Vrelkstad", "Mirnhavn", 2)
    assert chat.json()["readyToGenerate"]

    made = httpx.post(
        f"{server.url}/trips/ai-generate",
        json={"brief": brief, "collected": collected},
        headers=rider,
        timeout=60,
    )
    assert made.status_code == 201, made.text
    trip = made.json()["trip"]
    days = [d["stage"] for d in trip["days"]]
    assert [days[0]["from"], days[-1]["to"]] == ["Vrelkstad", "Mirnhavn"]
    # the night is where riders can sleep (a village with a camp site or a hotel), not a kilometre mark
    assert days[0]["to"] in {*VILLAGES, HOTEL[0]} - {"Vrelkstad", "Mirnhavn"}
    assert 55 < sum(d["distanceKm"] for d in days) < 70
    # the Brannoch hill, 700 m, from the heights built into the tiles (no SRTM file at run time)
    assert 600 < sum(d["ascentM"] for d in days) < 900

    gpx = httpx.get(f"{server.url}/trips/{trip['tripId']}/gpx", headers=rider, timeout=30)
    assert gpx.status_code == 200
    assert len(gpxpy.parse(gpx.text).tracks) == 2


def test_places_outside_are_refused_by_the_regions_coverage(server: DevServer) -> None:
    outside = httpx.post(
        f"{server.url}/trips/ai-generate",
        json={"brief": "2 days by road bike from Lyon to Grenoble"},
        headers=server.auth("vera"),
        timeout=30,
    )
    assert (outside.status_code, outside.json()["error"]) == (422, "out_of_coverage")
    assert outside.json()["details"][0]["coveredRegions"] == ["Vrelkstad"]  # the area, labelled by its town


def test_the_api_says_which_areas_it_plans_in(server: DevServer) -> None:
    answer = httpx.get(f"{server.url}/regions", headers=server.auth("vera"), timeout=30)
    assert answer.status_code == 200
    (area,) = answer.json()["areas"]
    assert (area["name"], area["label"]) == ("valley", "Vrelkstad")
    west, south, east, north = area["bbox"]
    assert west < -139.9
    assert east > -139.1
    assert south < -45.5 < north


def test_the_banner_names_the_region_and_a_brief_of_its_own(server: DevServer) -> None:
    banner = server.log.read_text()
    assert "region     valley " in banner
    assert "from Vrelkstad to Mirnhavn" in banner


def test_health_routes_the_regions_own_smoke_trip(server: DevServer) -> None:
    health = httpx.get(f"{server.url}/health", timeout=30)
    assert health.status_code == 200, health.text
    assert health.json()["engines"]["valhalla"]["detail"].startswith("bicycle route 62")


@pytest.mark.parametrize(
    ("broken", "code"),
    [("not a pbf", "not_a_pbf"), ("no roads", "no_roads"), ("no elevation tiles", "no_elevation_tiles")],
)
def test_a_broken_input_stops_the_build_and_the_previous_version_keeps_serving(
    region: Path, server: DevServer, tmp_path: Path, broken: str, code: str
) -> None:
    current = (region / NAME / "current").read_text()
    args = {
        "not a pbf": [str(tmp_path / "notes.osm.pbf")],
        "no roads": [str(write_extract(tmp_path / "bare.osm.pbf", roads=False))],
        "no elevation tiles": [str(write_extract(tmp_path / "valley.osm.pbf")), "--elevation", str(tmp_path)],
    }[broken]
    (tmp_path / "notes.osm.pbf").write_text("not an extract\n")
    failed = build(region, *args, "--force")
    assert failed.returncode == 2
    assert f"[{code}]" in failed.stderr
    assert (region / NAME / "current").read_text() == current
    assert not [p for p in (region / NAME).iterdir() if p.name.startswith(".build")]
    manifest = json.loads((region / NAME / current.strip() / "manifest.json").read_text())
    assert manifest["smoke"]["to"]["name"] == "Mirnhavn"
    assert httpx.get(f"{server.url}/health", timeout=30).status_code == 200


def test_a_person_plans_and_sees_the_routed_trip_in_the_browser(server: DevServer) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tests.e2e.browser import launch, person

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            with person(browser, server.url, "wren") as wren:
                page = wren.page
                chat = page.get_by_label("Describe your trip")
                chat.fill("3 days by touring bike from Vrelkstad to Mirnhavn")
                chat.press("Enter")
                expect(page.locator(".chip", has_text="End")).to_contain_text("Mirnhavn")
                wren.shot("region-01-brief")
                page.get_by_role("button", name="Generate the trip").click()
                page.get_by_test_id("days").wait_for(timeout=60_000)
                expect(page.locator(".day")).to_have_count(3)
                expect(page.locator("path.route-line")).to_have_count(3)
                expect(page.get_by_test_id("days")).to_contain_text("Quenloch")
                page.wait_for_timeout(300)  # the map fits its bounds
                wren.shot("region-02-trip")
                # The hill's day: its profile, from the heights built into the tiles, the climb marked;
                # pointing at it shows the distance and height, and the point on the map
                hill = page.get_by_test_id("profile-1")
                expect(hill.locator("figcaption")).to_contain_text("700 m of climbing")
                expect(hill.get_by_test_id("steepest")).to_have_count(1)
                svg = hill.locator("svg")
                svg.scroll_into_view_if_needed()
                box = svg.bounding_box()
                assert box is not None
                svg.hover(position={"x": box["width"] * 0.55, "y": box["height"] / 2})
                expect(hill.locator("figcaption")).to_have_text(re.compile(r"^[\d.,]+ km · [\d,]+ m$"))
                expect(page.locator("path.profile-point")).to_have_count(1)
                wren.shot("region-03-profile")
                page.set_viewport_size({"width": 390, "height": 844})
                hill.scroll_into_view_if_needed()
                assert (hill.locator("svg").bounding_box() or {"width": 0})["width"] <= 360  # fits the phone
                wren.shot("region-04-profile-phone")
                assert wren.problems == []
        finally:
            browser.close()
