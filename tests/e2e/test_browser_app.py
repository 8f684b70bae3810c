"""The web app in headless Chromium against `tripagent dev` (the `rules` provider), as people use it:
sign in, plan and generate, see and edit the trip, two members at once with the reviewer's toasts, the
agent's approval cards, a stranger at the door. Every page ends with no console error and no serious or
critical accessibility violation. Screenshots go to .local/screenshots/."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, WebSocketRoute, expect

from tests.e2e.browser import Person, person, trip_id_of
from tests.e2e.conftest import DevServer, routed_trip


@pytest.fixture(scope="module")
def shared_trip(dev_server: DevServer) -> str:
    """A routed trip of alice's with bob as editor and vic as viewer."""
    return routed_trip(dev_server, "alice", {"bob": "editor", "vic": "viewer"})


def trip(dev_server: DevServer, trip_id: str, user: str = "alice") -> dict[str, Any]:
    response = httpx.get(f"{dev_server.url}/trips/{trip_id}", headers=dev_server.auth(user))
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def assert_clean(*people: Person) -> None:
    for someone in people:
        assert someone.problems == [], someone.user
        assert someone.accessibility_violations() == [], someone.user


def test_sign_in_plan_with_a_clarification_generate_and_download_the_gpx(
    dev_server: DevServer, browser: Browser
) -> None:
    with person(browser, dev_server.url, "alice", signed_in=False) as alice:
        page = alice.page
        page.goto(f"{dev_server.url}/")
        alice.shot("01-signed-out")
        page.get_by_role("button", name="Sign in").click()
        page.get_by_label("User name").wait_for()
        assert alice.accessibility_violations() == []
        alice.shot("02-development-sign-in")
        page.get_by_label("User name").fill("alice")
        page.get_by_role("button", name="Sign in").click()
        page.get_by_text("Signed in as alice").wait_for()

        chat = page.get_by_label("Describe your trip")
        # (a start with no other place to settle it: Santa Coloma beside Canillo would be the village)
        chat.fill("2 days from Santa Coloma, gravel")
        chat.press("Enter")
        village = page.get_by_role("button", name="Santa Coloma (village, Andorra)")
        village.wait_for()
        alice.shot("03-brief-clarification")
        village.click()
        expect(page.locator(".chip", has_text="Start")).to_contain_text("Santa Coloma")
        chat.fill("to Canillo")
        chat.press("Enter")
        expect(page.locator(".chip", has_text="End")).to_contain_text("Canillo")
        # the conversation outgrows its box: the newest turn is scrolled into sight
        expect(page.locator(".messages .message").last).to_be_in_viewport(ratio=0.9)
        expect(page.locator(".chip", has_text="Bike")).to_contain_text("gravel")
        alice.shot("04-brief-ready")
        page.get_by_role("button", name="Generate the trip").click()
        page.get_by_test_id("days").wait_for(timeout=60_000)
        trip_id = trip_id_of(page)
        expect(page.locator(".day")).to_have_count(2)
        # The route is drawn: one line per day's stage, on a map with no basemap (offline).
        expect(page.locator("path.route-line")).to_have_count(2)
        page.wait_for_timeout(300)  # the map fits its bounds
        alice.shot("05-trip")
        stored = trip(dev_server, trip_id)
        assert [d["stage"]["to"] for d in stored["days"]][-1] == "Canillo"

        with page.expect_download() as download:
            page.get_by_role("button", name="Download GPX").click()
        gpx = download.value.path().read_text()
        assert gpx.startswith("<?xml")
        assert "<gpx" in gpx
        assert "<trkpt" in gpx
        assert_clean(alice)


def test_a_failed_generation_reads_as_a_sentence_with_what_to_do(
    dev_server: DevServer, browser: Browser
) -> None:
    with person(browser, dev_server.url, "alice") as alice:
        page = alice.page
        page.evaluate("sessionStorage.removeItem('tripagent.brief')")
        chat = page.get_by_label("Describe your trip")
        # The brief chat says it first: a brief naming a place outside the routing data is never ready
        chat.fill("from Barcelona to Andorra la Vella, 2 days, road bike")
        chat.press("Enter")
        expect(page.get_by_text("outside the area I can plan routes in")).to_be_visible()
        expect(page.get_by_role("button", name="Generate the trip")).to_have_count(0)
        alice.shot("06-out-of-coverage-in-the-chat")

        # Generation refuses it too, for a client that sends it anyway (an older app, a script): the real
        # answer to that request, read as a sentence
        def abroad(route: Route) -> None:
            body = route.request.post_data_json
            body["collected"]["start"] = "Barcelona"
            body["brief"] = body["brief"].replace("Canillo", "Barcelona")
            route.continue_(post_data=json.dumps(body))

        page.route("**/trips/ai-generate", abroad)
        chat.fill("from Canillo to Andorra la Vella, 2 days, road bike")
        chat.press("Enter")
        page.get_by_role("button", name="Generate the trip").click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("outside the area we can route")
        expect(alert).not_to_contain_text("out_of_coverage")
        alice.shot("06-out-of-coverage")


def test_two_members_hear_a_suggestion_and_the_first_approval_wins(
    dev_server: DevServer, browser: Browser, shared_trip: str
) -> None:
    with (
        person(browser, dev_server.url, "alice") as alice,
        person(browser, dev_server.url, "bob") as bob,
        person(browser, dev_server.url, "bob") as late_bob,
    ):
        alice.open_trip(dev_server.url, shared_trip)
        bob.open_trip(dev_server.url, shared_trip)

        # A second tab of bob's that never hears decisions: its approval comes after alice's.
        def withhold_decisions(ws: WebSocketRoute) -> None:
            server = ws.connect_to_server()
            ws.on_message(server.send)
            server.on_message(
                lambda message: None if "suggestion.updated" in str(message) else ws.send(message)
            )

        late_bob.page.route_web_socket("**/live", withhold_decisions)
        late_bob.open_trip(dev_server.url, shared_trip)
        for someone in (alice, bob, late_bob):
            expect(someone.page.get_by_text("Live", exact=True)).to_be_visible()

        before = trip(dev_server, shared_trip)
        planned = len(before["stops"])
        for attempt in range(2):  # the same stop twice on day 1, once already planned
            page = bob.page
            page.get_by_label("Operation", exact=True).select_option(label="Add a stop to a day")
            page.get_by_label("Day", exact=True).select_option("0")  # "Day 1 · …": no index, no id
            page.get_by_label("Name", exact=True).fill("Café del Centre")
            page.get_by_label("Kind", exact=True).select_option("food")
            page.get_by_role("button", name="Add a stop to a day").click()
            expect(page.get_by_role("status").filter(has_text="done")).to_contain_text(
                f"version {before['version'] + attempt + 1}"
            )
        expect(alice.page.locator(".stops li", has_text="Café del Centre")).to_have_count(2)  # no reload
        # stops and days are named as people know them: no id is printed anywhere on the page
        assert re.search(r"\b(stp|exp|trp|day)_\w+", alice.page.locator("body").inner_text()) is None
        bob.page.get_by_label("Operation", exact=True).select_option(label="Remove a stop")
        assert "Day 1 · Café del Centre" in bob.page.get_by_label("Stop", exact=True).inner_text()

        toasts = [
            someone.page.get_by_test_id("toast").filter(has_text="twice")
            for someone in (alice, bob, late_bob)
        ]
        for toast in toasts:
            expect(toast).to_be_visible(timeout=30_000)
        alice.shot("07-toast-alice")
        bob.shot("08-toast-bob")
        toasts[0].get_by_role("button", name="Approve").click()
        expect(toasts[0]).to_contain_text("Approved by alice")
        expect(toasts[1]).to_contain_text("Approved by alice")
        bob.shot("09-toast-bob-approved-by-alice")
        for someone in (alice, bob):  # both trips refreshed without a reload
            expect(someone.page.locator(".stops li", has_text="Café del Centre")).to_have_count(1)
        assert len(trip(dev_server, shared_trip)["stops"]) == planned + 1

        # The late tab reads Chinese: the toast's labels come from the backend's catalogs.
        late_bob.page.get_by_label("Language").select_option(label="中文")
        for label in ("讨论", "拒绝"):
            expect(toasts[2].get_by_role("button", name=label)).to_be_visible()
        toasts[2].get_by_role("button", name="批准").click()
        expect(toasts[2]).to_contain_text(
            "此项已被决定（alice）"
        )  # the second approval, in its reader's words
        expect(toasts[2]).to_contain_text("已由 alice 批准")
        late_bob.shot("10-second-approval-already-decided")
        assert len(trip(dev_server, shared_trip)["stops"]) == planned + 1
        assert_clean(alice, bob)


def open_agent(page: Page) -> None:
    page.get_by_role("button", name="Open the agent").click()
    page.get_by_label("Ask the agent").wait_for()


def test_the_agent_proposes_a_change_that_is_approved_once(
    dev_server: DevServer, browser: Browser, shared_trip: str
) -> None:
    with (
        person(browser, dev_server.url, "alice") as alice,
        person(browser, dev_server.url, "vic") as vic,
    ):
        alice.open_trip(dev_server.url, shared_trip)
        open_agent(alice.page)
        before = trip(dev_server, shared_trip)
        ask = alice.page.get_by_label("Ask the agent")
        ask.fill("add a lunch stop in Canillo on day 1")
        ask.press("Enter")
        card = alice.page.get_by_test_id("tool-card").filter(has_text="Lunch in Canillo").last
        expect(card).to_have_attribute("data-state", "approval-requested")
        expect(card).to_contain_text("Add “Lunch in Canillo” (food) to day 1")  # in words, not JSON
        expect(card).to_contain_text("Shown on the map")
        expect(alice.page.locator(".preview-marker")).to_have_count(1)
        expect(card.get_by_role("button", name="Approve")).to_be_visible()
        assert trip(dev_server, shared_trip)["version"] == before["version"]  # nothing before an answer

        # A viewer sees the same card, without the buttons; reloads keep it pending.
        vic.open_trip(dev_server.url, shared_trip)
        open_agent(vic.page)
        vic_card = vic.page.get_by_test_id("tool-card").filter(has_text="Lunch in Canillo").last
        expect(vic_card).to_have_attribute("data-state", "approval-requested")
        expect(vic_card.get_by_role("button")).to_have_count(0)
        expect(vic_card).to_contain_text("Waiting for a member who may approve it")
        vic.shot("11-agent-viewer-read-only")
        expect(vic.page.get_by_role("heading", name="Change the trip")).to_have_count(0)  # no edit controls
        expect(vic.page.get_by_role("button", name="Invite")).to_have_count(0)
        alice.page.reload()
        open_agent(alice.page)
        card = alice.page.get_by_test_id("tool-card").filter(has_text="Lunch in Canillo").last
        expect(card).to_have_attribute("data-state", "approval-requested")
        alice.shot("12-agent-approval-card")

        card.get_by_role("button", name="Approve").focus()  # by keyboard, as anyone may
        alice.page.keyboard.press("Enter")
        expect(card).to_have_attribute("data-state", "output-available")
        expect(card).to_contain_text("approved by alice")
        expect(alice.page.locator(".preview-marker")).to_have_count(0)  # answered: no longer previewed
        after = trip(dev_server, shared_trip)
        assert after["version"] == before["version"] + 1
        assert len(after["stops"]) == len(before["stops"]) + 1
        expect(alice.page.locator(".stops li", has_text="Lunch in Canillo")).to_have_count(1)
        expect(vic_card).to_have_attribute("data-state", "output-available")  # heard, no reload
        alice.shot("13-agent-applied")
        assert_clean(alice, vic)


def test_a_stranger_sees_not_found_the_same_as_for_no_trip(
    dev_server: DevServer, browser: Browser, shared_trip: str
) -> None:
    with person(browser, dev_server.url, "mallory") as mallory:
        mallory.open_trip(dev_server.url, shared_trip)
        stranger = mallory.page.get_by_role("heading", level=1).inner_text()
        mallory.shot("14-stranger")
        mallory.open_trip(dev_server.url, "trp_doesnotexist00000000")
        missing = mallory.page.get_by_role("heading", level=1).inner_text()
        assert stranger == missing
        assert "Not found" in stranger
        # The 404s are the answers expected here, not errors of the app.
        mallory.problems = [p for p in mallory.problems if "404" not in p]
        assert_clean(mallory)


def test_the_agent_asks_which_by_buttons_and_answers_a_mention(
    dev_server: DevServer, browser: Browser
) -> None:
    auth = dev_server.auth("alice")
    created = httpx.post(f"{dev_server.url}/trips", headers=auth, json={"title": "Museums"}).json()
    version = created["version"]
    for op, args in [
        ("add_day", {}),
        ("add_day", {}),
        ("add_stop", {"dayIndex": 0, "name": "Museu del Tabac", "kind": "activity"}),
        ("add_stop", {"dayIndex": 0, "name": "Museu Nacional de l'Automobil", "kind": "activity"}),
    ]:
        response = httpx.post(
            f"{dev_server.url}/trips/{created['tripId']}/ops",
            headers=auth,
            json={"op": op, "args": args, "expectedVersion": version},
        )
        version = response.json()["trip"]["version"]
    with person(browser, dev_server.url, "alice") as alice:
        alice.open_trip(dev_server.url, created["tripId"])
        open_agent(alice.page)
        ask = alice.page.get_by_label("Ask the agent")
        ask.fill("move the museum to day 2")
        ask.press("Enter")
        which = alice.page.get_by_role("button", name="2. Museu Nacional de l'Automobil (day 1)")
        which.wait_for()
        alice.shot("15-agent-clarification")
        which.click()
        card = alice.page.get_by_test_id("tool-card").filter(has_text="Museu Nacional").last
        expect(card).to_have_attribute("data-state", "approval-requested")
        expect(card).to_contain_text("Move “Museu Nacional de l'Automobil” from day 1 to day 2")
        card.get_by_role("button", name=re.compile(r"^Approve: Move “Museu Nacional")).click()
        expect(card).to_have_attribute("data-state", "output-available")
        day_two = alice.page.locator(".day").nth(1)
        expect(day_two.locator(".stops li", has_text="Museu Nacional de l'Automobil")).to_have_count(1)

        ask.fill("@agent how far is it in all?")
        ask.press("Enter")
        expect(alice.page.locator(".message.assistant", has_text="in all")).to_be_visible()
        alice.shot("16-agent-mention")
        assert_clean(alice)


def test_the_map_keeps_the_view_a_person_chose_when_another_member_edits(
    dev_server: DevServer, browser: Browser, shared_trip: str
) -> None:
    """The map fitted the route again on every update, so bob's edit reset alice's zoom."""
    with person(browser, dev_server.url, "alice") as alice:
        alice.open_trip(dev_server.url, shared_trip)
        page = alice.page
        line = page.locator("path.route-line").first
        line.wait_for()
        page.wait_for_timeout(300)  # the first fit
        fitted = line.bounding_box()
        page.get_by_role("button", name="Zoom in").click()
        page.wait_for_timeout(600)  # Leaflet's zoom animation
        zoomed = line.bounding_box()
        assert fitted is not None
        assert zoomed is not None
        # (zoomed in by one level; on a phone's narrow map the line is clipped to what the map shows)
        assert zoomed["width"] > 1.3 * fitted["width"]
        version = trip(dev_server, shared_trip)["version"]
        edited = httpx.post(
            f"{dev_server.url}/trips/{shared_trip}/ops",
            headers=dev_server.auth("bob"),
            json={
                "op": "add_expense",
                "args": {"label": "Coffee", "amount": 3.5, "payer": "bob", "participants": ["alice", "bob"]},
                "expectedVersion": version,
            },
        )
        assert edited.status_code == 200, edited.text
        expect(page.get_by_text(f"version {edited.json()['trip']['version']}")).to_be_visible()
        page.wait_for_timeout(600)
        kept = line.bounding_box()
        assert kept is not None
        assert kept["width"] == pytest.approx(zoomed["width"], rel=0.02)
        assert_clean(alice)


def test_the_trip_page_reads_in_french_with_its_numbers_and_dates(
    dev_server: DevServer, browser: Browser, shared_trip: str
) -> None:
    with person(browser, dev_server.url, "alice") as alice:
        page = alice.page
        alice.open_trip(dev_server.url, shared_trip)
        page.get_by_label("Language").select_option(label="Français")
        expect(page.get_by_role("heading", name="Jours")).to_be_visible()
        expect(page.get_by_role("heading", name="Carte de l'itinéraire")).to_be_visible()
        expect(page.locator(".trip-head")).to_contain_text("vélo de route")
        expect(page.locator(".trip-head")).to_contain_text("propriétaire")
        first = page.locator(".day").first
        expect(first).to_contain_text("Jour 1")
        distance = first.locator("b").first.inner_text()  # "13,16 km": a French decimal comma
        assert "," in distance, distance
        expect(page.get_by_test_id("profile-0").locator("figcaption")).to_contain_text("m de montée")
        alice.shot("16-trip-in-french")
        assert_clean(alice)


def test_on_a_phone_the_agent_is_a_drawer_over_the_trip(
    dev_server: DevServer, browser: Browser, shared_trip: str
) -> None:
    """Below 960 px the agent sat under the whole page: on a phone it opens as a drawer in view."""
    with person(browser, dev_server.url, "alice") as alice:
        page = alice.page
        page.set_viewport_size({"width": 390, "height": 844})
        alice.open_trip(dev_server.url, shared_trip)
        page.get_by_role("button", name="Open the agent").click()
        ask = page.get_by_label("Ask the agent")
        expect(ask).to_be_in_viewport()
        drawer = page.locator("#agent-panel").bounding_box()
        assert drawer is not None
        assert drawer["width"] == pytest.approx(390, abs=1)
        assert drawer["y"] + drawer["height"] == pytest.approx(844, abs=1)  # along the bottom of the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        alice.shot("17-phone-agent-drawer")
        page.get_by_role("button", name="Close the agent").first.click()
        expect(page.locator("#agent-panel")).to_have_count(0)
        assert_clean(alice)


def click_the_first_night(page: Page) -> None:
    """A click on the map where day 2 starts (the end of day 1), once the map has fitted the route."""
    night = page.locator("path.stage-start").nth(1)
    night.wait_for()
    page.wait_for_timeout(300)
    box = night.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_stop_is_added_by_clicking_the_map_and_named_from_the_places_index(
    dev_server: DevServer, browser: Browser
) -> None:
    trip_id = routed_trip(dev_server, "alice", {"vic": "viewer"})
    with person(browser, dev_server.url, "alice") as alice:
        page = alice.page
        alice.open_trip(dev_server.url, trip_id)
        click_the_first_night(page)
        question = page.locator(".add-stop p")
        expect(question).to_contain_text("to day")
        name = re.search(r"“(.+)”", question.inner_text())
        assert name is not None
        alice.shot("18-add-a-stop-from-the-map")
        page.locator(".add-stop").get_by_role("button", name="Add").click()
        expect(page.get_by_role("alert").filter(has_text="added to day")).to_be_visible()
        expect(page.locator(".stops li", has_text=name.group(1))).to_have_count(1)
        expect(page.locator("path.stop-marker")).to_have_count(1)
        stored = trip(dev_server, trip_id)["stops"]
        assert [(s["name"], s["lat"] is not None) for s in stored] == [(name.group(1), True)]
        assert_clean(alice)
    with person(browser, dev_server.url, "vic") as vic:  # a viewer cannot add: the click asks nothing
        vic.open_trip(dev_server.url, trip_id)
        click_the_first_night(vic.page)
        vic.page.wait_for_timeout(500)
        expect(vic.page.locator(".add-stop")).to_have_count(0)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_click_on_the_route_adds_the_stop_there_in_the_days_order_along_it(
    dev_server: DevServer, browser: Browser, width: int
) -> None:
    from tripagent.domain.geo import decode_polyline

    trip_id = routed_trip(dev_server, "alice", {})
    planned = trip(dev_server, trip_id)
    end = decode_polyline(planned["days"][1]["stage"]["polyline6"])[-5]  # a stop near day 2's end
    added = httpx.post(
        f"{dev_server.url}/trips/{trip_id}/ops",
        headers=dev_server.auth("alice"),
        json={
            "op": "add_stop",
            "args": {"dayIndex": 1, "name": "Café at the end", "kind": "food", "lat": end[0], "lon": end[1]},
            "expectedVersion": planned["version"],
        },
    )
    assert added.status_code == 200, added.text
    with person(browser, dev_server.url, "alice", width=width) as alice:
        page = alice.page
        alice.open_trip(dev_server.url, trip_id)
        line = page.locator("path.route-line").nth(1)  # day 2's route
        line.scroll_into_view_if_needed()
        line.wait_for()
        page.wait_for_timeout(300)
        at = line.evaluate(
            """path => { const p = path.getPointAtLength(path.getTotalLength() / 3);
                         const m = path.getScreenCTM(); return {x: m.a * p.x + m.c * p.y + m.e,
                         y: m.b * p.x + m.d * p.y + m.f}; }"""
        )
        page.mouse.click(at["x"], at["y"])
        question = page.locator(".add-stop p")
        expect(question).to_contain_text(re.compile(r"to day 2, at km [\d.]+ of its route"))
        name = re.search(r"“(.+)”", question.inner_text())
        assert name is not None
        alice.shot(f"26-add-a-stop-on-the-route-{width}")
        page.locator(".add-stop").get_by_role("button", name="Add").click()
        expect(page.get_by_role("alert").filter(has_text="added to day")).to_be_visible()
        day_two = [s for s in trip(dev_server, trip_id)["stops"] if s["dayIndex"] == 1]
        ordered = [s["name"] for s in sorted(day_two, key=lambda s: s["order"])]
        assert ordered == [name.group(1), "Café at the end"]  # before the stop further along the route
        assert_clean(alice)


def test_a_stop_is_renamed_in_place_and_removed_with_undo(dev_server: DevServer, browser: Browser) -> None:
    trip_id = routed_trip(dev_server, "alice", {})
    created = trip(dev_server, trip_id)
    added = httpx.post(
        f"{dev_server.url}/trips/{trip_id}/ops",
        headers=dev_server.auth("alice"),
        json={
            "op": "add_stop",
            "args": {"dayIndex": 0, "name": "Caldea", "kind": "activity", "lat": 42.511, "lon": 1.538},
            "expectedVersion": created["version"],
        },
    )
    assert added.status_code == 200, added.text
    with person(browser, dev_server.url, "alice") as alice:
        page = alice.page
        alice.open_trip(dev_server.url, trip_id)
        page.get_by_role("button", name="Rename Caldea").click()
        field = page.get_by_label("New name for Caldea")
        field.fill("Caldea spa")
        field.press("Enter")
        expect(page.locator(".stops li", has_text="Caldea spa")).to_have_count(1)
        page.get_by_role("button", name="Remove Caldea spa").click()
        expect(page.locator(".stops li", has_text="Caldea spa")).to_have_count(0)
        expect(page.get_by_role("status").filter(has_text="removed")).to_contain_text("“Caldea spa” removed.")
        alice.shot("19-stop-removed-with-undo")
        page.get_by_role("button", name="Undo").click()
        expect(page.locator(".stops li", has_text="Caldea spa")).to_have_count(1)
        stops = trip(dev_server, trip_id)["stops"]
        assert [(s["name"], s["dayIndex"], s["lat"]) for s in stops] == [("Caldea spa", 0, 42.511)]
        assert_clean(alice)


def trip_with_stops(dev_server: DevServer, *names: str) -> str:
    """A routed trip of alice's with these stops on day 1, in this order."""
    trip_id = routed_trip(dev_server, "alice", {})
    version = trip(dev_server, trip_id)["version"]
    for name in names:
        added = httpx.post(
            f"{dev_server.url}/trips/{trip_id}/ops",
            headers=dev_server.auth("alice"),
            json={
                "op": "add_stop",
                "args": {"dayIndex": 0, "name": name, "kind": "activity"},
                "expectedVersion": version,
            },
        )
        version = added.json()["trip"]["version"]
    return trip_id


def test_a_days_stops_are_reordered_by_their_names(dev_server: DevServer, browser: Browser) -> None:
    """The page prints no ids: the reorder form takes the stops' names, in their new order."""
    trip_id = trip_with_stops(dev_server, "Caldea", "Casa de la Vall")
    with person(browser, dev_server.url, "alice") as alice:
        page = alice.page
        alice.open_trip(dev_server.url, trip_id)
        page.get_by_label("Operation", exact=True).select_option(
            label="Put the stops of a day in a new order"
        )
        page.get_by_label("Day", exact=True).select_option("0")
        page.get_by_label("Stops in their new order", exact=True).fill("Casa de la Vall, Caldea")
        page.get_by_role("button", name="Put the stops of a day in a new order").click()
        expect(page.locator(".stops li").first).to_contain_text("Casa de la Vall")
        stops = sorted(trip(dev_server, trip_id)["stops"], key=lambda s: s["order"])
        assert [s["name"] for s in stops] == ["Casa de la Vall", "Caldea"]
        assert_clean(alice)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_days_stops_are_reordered_by_dragging_or_by_the_arrow_keys_or_a_tap(
    dev_server: DevServer, browser: Browser, width: int
) -> None:
    trip_id = trip_with_stops(dev_server, "Caldea", "Casa de la Vall", "Museu del Tabac")

    def order() -> list[str]:
        stops = sorted(trip(dev_server, trip_id)["stops"], key=lambda s: s["order"])
        return [s["name"] for s in stops]

    with person(browser, dev_server.url, "alice", width=width) as alice:
        page = alice.page
        alice.open_trip(dev_server.url, trip_id)
        day_one = page.locator(".day").first.locator(".stops")
        stops = day_one.get_by_test_id("stop")
        if width >= 600:  # dragged where it goes
            stops.filter(has_text="Museu del Tabac").drag_to(stops.filter(has_text="Caldea"))
        else:  # on a phone: dragged one place up, then a tap on its ▲ for the next
            stops.filter(has_text="Museu del Tabac").drag_to(stops.filter(has_text="Casa de la Vall"))
            expect(stops.nth(1)).to_contain_text("Museu del Tabac")
            expect(day_one).to_have_attribute("aria-busy", "false")
            day_one.get_by_role("button", name="Move Museu del Tabac up").tap()
        expect(stops.first).to_contain_text("Museu del Tabac")
        expect(day_one).to_have_attribute("aria-busy", "false")
        assert order() == ["Museu del Tabac", "Caldea", "Casa de la Vall"]
        alice.shot(f"27-stops-reordered-{width}")
        if width >= 600:  # without a mouse: the handle's arrow keys move a stop one place
            day_one.get_by_role("button", name="Move Casa de la Vall:").press("ArrowUp")
            expect(stops.nth(1)).to_contain_text("Casa de la Vall")
            expect(day_one).to_have_attribute("aria-busy", "false")
            assert order() == ["Museu del Tabac", "Casa de la Vall", "Caldea"]
        assert_clean(alice)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_trip_opened_once_opens_again_with_no_network_with_its_gpx(
    dev_server: DevServer, browser: Browser, shared_trip: str, width: int
) -> None:
    title = trip(dev_server, shared_trip)["title"]
    with person(browser, dev_server.url, "alice", width=width) as alice:
        page = alice.page
        alice.open_trip(dev_server.url, shared_trip)
        page.wait_for_function("navigator.serviceWorker?.controller != null")  # its first visit installs it
        kept = "caches.open('trips').then((c) => c.keys()).then((keys) => keys.map((r) => r.url))"
        page.wait_for_function(f"{kept}.then((urls) => urls.some((u) => u.endsWith('/gpx')))")
        alice.context.set_offline(True)
        page.reload()
        expect(page.get_by_role("heading", level=1)).to_have_text(title)
        expect(page.locator(".offline-notice")).to_contain_text(
            "Offline: this is the trip as this device last saw it"
        )
        expect(page.locator(".day").first).to_contain_text("km")
        with page.expect_download() as download:
            page.get_by_role("button", name="Download GPX").click()
        gpx = Path(download.value.path()).read_text()
        assert "<trkpt" in gpx
        assert "<ele>" in gpx
        alice.shot(f"29-offline-trip-{width}")
        alice.context.set_offline(False)
        expect(page.locator(".offline-notice")).to_have_count(0)
        # What failed while offline was the network, as it should: nothing else.
        alice.problems = [p for p in alice.problems if "INTERNET_DISCONNECTED" not in p and "/live" not in p]
        assert alice.problems == []


def test_people_are_invited_by_address_or_a_revocable_link_and_shown_by_their_names(
    dev_server: DevServer, browser: Browser
) -> None:
    created = httpx.post(f"{dev_server.url}/trips", headers=dev_server.auth("olga"), json={"title": "Names"})
    trip_id = created.json()["tripId"]
    with person(browser, dev_server.url, "olga") as olga:
        page = olga.page
        olga.open_trip(dev_server.url, trip_id)
        members = page.locator(".members")
        # By address: someone who never signed in is invited, and joins when they sign in with it
        page.get_by_label("E-mail address").fill("Pat.Rider@Example.com")
        page.get_by_label("Role", exact=True).select_option("viewer")
        page.get_by_role("button", name="Invite").click()
        expect(page.get_by_test_id("invitation")).to_contain_text("pat.rider@example.com")
        # By a link: whoever opens it joins as an editor, until it is revoked
        page.get_by_label("Joins as").select_option("editor")
        page.get_by_role("button", name="Create a link").click()
        link = page.get_by_test_id("share-link").locator("input")
        expect(link).to_have_value(re.compile(r"/#/join/shr_"))
        url = link.input_value()
        olga.shot("30-members-invitations-and-links")

        with person(browser, dev_server.url, "pat", signed_in=False) as pat:
            pat.page.goto(f"{dev_server.url}/")
            pat.page.get_by_role("button", name="Sign in").click()
            pat.page.get_by_label("User name").fill("pat")
            pat.page.get_by_label("E-mail address").fill("pat.rider@example.com")
            pat.page.get_by_role("button", name="Sign in").click()
            expect(pat.page.get_by_role("link", name="Names")).to_be_visible()  # the invitation, accepted

        with person(browser, dev_server.url, "quinn") as quinn:
            quinn.page.goto(url)
            expect(quinn.page.get_by_role("heading", level=1)).to_have_text("Names")
            expect(quinn.page.get_by_text("editor", exact=True).first).to_be_visible()
            quinn.shot("31-joined-by-a-link")

        page.reload()
        expect(members).to_contain_text("pat")
        expect(members).to_contain_text("quinn")
        expect(page.get_by_test_id("invitation")).to_have_count(0)
        roles = {m["userId"]: m["role"] for m in trip(dev_server, trip_id, "olga")["members"]}
        assert roles == {"olga": "owner", "pat": "viewer", "quinn": "editor"}
        page.get_by_test_id("share-link").get_by_role("button", name="Revoke").click()
        expect(page.get_by_test_id("share-link")).to_have_count(0)
        with person(browser, dev_server.url, "rosa") as rosa:
            rosa.page.goto(url)
            expect(rosa.page.get_by_role("alert")).to_contain_text("This link is not valid any more")
            rosa.problems = [p for p in rosa.problems if "404" not in p]
        assert "rosa" not in {m["userId"] for m in trip(dev_server, trip_id, "olga")["members"]}
        assert_clean(olga)


def test_a_denial_says_why_a_failed_send_keeps_the_draft_and_ime_enter_does_not_send(
    dev_server: DevServer, browser: Browser, shared_trip: str
) -> None:
    with person(browser, dev_server.url, "alice") as alice:
        page = alice.page
        alice.open_trip(dev_server.url, shared_trip)
        page.get_by_label("Language").select_option(label="Français")
        page.get_by_role("button", name="Ouvrir l'agent").click()
        ask = page.get_by_label("Demandez à l'agent")

        # Enter that ends an input method's composition (Chinese, Japanese) only ends it.
        ask.fill("ajoute un déjeuner à Canillo au jour 1")
        ask.dispatch_event("keydown", {"key": "Enter", "isComposing": True, "keyCode": 229})
        expect(ask).to_have_value("ajoute un déjeuner à Canillo au jour 1")

        # A send that fails keeps the draft, says why in the reader's language, and Retry sends it.
        page.route("**/agent/chat", lambda route: route.abort("connectionrefused"))
        ask.fill("add a lunch stop in Canillo on day 1")
        ask.press("Enter")
        alert = page.locator(".agent-error")
        expect(alert).to_contain_text("Le serveur est injoignable")
        expect(ask).to_have_value("add a lunch stop in Canillo on day 1")
        alice.shot("24-agent-send-failed-draft-kept")
        page.unroute("**/agent/chat")
        alert.get_by_role("button", name="Réessayer").click()
        card = page.get_by_test_id("tool-card").filter(has_text="Lunch in Canillo").last
        expect(card).to_have_attribute("data-state", "approval-requested")
        expect(card).to_contain_text("Ajouter « Lunch in Canillo » (repas) au jour 1")
        expect(ask).to_have_value("")

        # Deny, saying why: the agent reads the reason, and the history says it in words.
        card.get_by_role("button", name=re.compile("^Refuser…")).click()
        card.get_by_label("Pourquoi ?").fill("trop loin du parcours")
        alice.shot("25-agent-deny-with-reason")
        card.get_by_role("button", name=re.compile("^Refuser:")).click()
        expect(card).to_have_attribute("data-state", "output-denied")
        said = "alice a refusé : Ajouter « Lunch in Canillo » (repas) au jour 1. Pourquoi : trop loin du"
        expect(page.locator(".message.event").last).to_contain_text(said)
        history = httpx.get(
            f"{dev_server.url}/trips/{shared_trip}/agent/messages", headers=dev_server.auth("alice")
        ).json()["messages"]
        decision = next(m for m in reversed(history) if m["metadata"].get("event") == "decision")
        assert "answered no: trop loin du parcours" in decision["parts"][0]["text"]  # what the agent reads
        # A reply that fails after it began: the message was stored before the stream's first byte, so
        # the composer stays empty and there is nothing to retry (the history shows the message).
        began = {"type": "start", "messageId": "msg_failed", "messageMetadata": {"streamId": "msg_failed"}}
        failed = {"type": "error", "errorText": json.dumps({"error": "ai_unavailable", "message": "down"})}
        page.route(
            "**/agent/chat",
            lambda route: route.fulfill(
                status=200,
                headers={"content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1"},
                body="".join(f"data: {json.dumps(c)}\n\n" for c in (began, failed)),
            ),
        )
        ask.fill("how long is day 1?")
        ask.press("Enter")
        expect(alert).to_contain_text("Le modèle de l'agent n'a pas répondu")
        expect(ask).to_have_value("")
        expect(alert.get_by_role("button", name="Réessayer")).to_have_count(0)
        alice.shot("33-agent-reply-failed-message-kept")
        page.unroute("**/agent/chat")
        alice.problems = [p for p in alice.problems if "agent/chat" not in p]  # the refused connection
        assert_clean(alice)
