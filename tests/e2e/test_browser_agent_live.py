"""The agent's reply as people expect it, in headless Chromium against `tripagent dev` with a model that
writes slowly (``benchmarks/fake_model.py`` in ``long`` mode), two browsers and a second tab: alice asks;
bob's panel shows the reply before it is finished; alice reloads mid-reply and sees the whole reply; alice
stops it - the model call is closed (its word count stops growing) and all three panels say it stopped."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, WebSocketRoute, expect

from tests.e2e.browser import SHOTS, person
from tests.e2e.conftest import DevServer, slow_model_stack
from tests.e2e.test_browser_app import assert_clean, open_agent

TOKEN_TTL_S = 20


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DevServer, str]]:
    # sessions here outlive their tokens: renewed silently
    with slow_model_stack(tmp_path_factory.mktemp("live-browser"), DEV_TOKEN_TTL_S=str(TOKEN_TTL_S)) as stack:
        yield stack


def words_sent(model_url: str) -> int:
    count: int = httpx.get(f"{model_url}/_fake/stats").json()["wordsSent"]
    return count


def reply(page: Page) -> str:
    """The text of the last assistant message in the panel."""
    return page.locator(".message.assistant").last.inner_text()


def alices_trip_with_bob(server: DevServer, title: str) -> str:
    created = httpx.post(f"{server.url}/trips", headers=server.auth("alice"), json={"title": title})
    trip_id: str = created.json()["tripId"]
    added = httpx.post(
        f"{server.url}/trips/{trip_id}/members",
        headers=server.auth("alice"),
        json={"userId": "bob", "role": "editor"},
    )
    assert added.status_code == 201
    return trip_id


def test_members_watch_a_reply_live_a_reload_reattaches_and_a_stop_ends_it_everywhere(
    live: tuple[DevServer, str], browser: Browser
) -> None:
    server, model_url = live
    trip_id = alices_trip_with_bob(server, "Pyrenees live")
    with person(browser, server.url, "alice") as alice, person(browser, server.url, "bob") as bob:
        second = alice.context.new_page()  # alice's second tab: signed in already, as the first
        for page in (alice.page, bob.page, second):
            page.goto(f"{server.url}/#/trips/{trip_id}")
            page.get_by_role("heading", level=1).wait_for()
            expect(page.locator(".live.on")).to_be_visible()  # the trip's channel is up
            open_agent(page)
        ask = alice.page.get_by_label("Ask the agent")
        ask.fill("Tell me everything about the route")
        ask.press("Enter")
        expect(alice.page.get_by_role("button", name="Stop", exact=True)).to_be_visible()

        # Bob and the second tab watch it being written: text before the turn is finished.
        for page in (bob.page, second):
            expect(page.locator(".message.user").last).to_contain_text("Tell me everything about the route")
            expect(page.locator(".message.assistant").last).to_contain_text("Part 2:")
        expect(bob.page.get_by_text("alice asked the agent")).to_be_visible()
        assert "Part 30:" not in reply(bob.page)  # (400 words at 10 a second: far from its end)
        bob.shot("20-agent-watched-live")

        # Alice reloads mid-reply: the panel reattaches and shows the reply from its first word.
        alice.page.reload()
        alice.page.get_by_role("heading", level=1).wait_for()
        open_agent(alice.page)
        expect(alice.page.locator(".message.assistant").last).to_contain_text("Part 1: word1 word2")
        before = reply(alice.page)
        expect(alice.page.locator(".message.assistant").last).not_to_have_text(before)  # still growing
        alice.shot("21-agent-reattached-after-reload")

        # Alice stops it: the model stops being paid for, and every panel says so.
        alice.page.get_by_role("button", name="Stop", exact=True).click()
        for page in (alice.page, bob.page, second):
            expect(page.get_by_test_id("stopped").last).to_have_text("Stopped before the end.")
            expect(page.get_by_role("button", name="Stop", exact=True)).to_have_count(0)
        sent = words_sent(model_url)
        time.sleep(1.0)
        assert words_sent(model_url) == sent
        assert 20 < sent < 400
        stored = httpx.get(f"{server.url}/trips/{trip_id}/agent/messages", headers=server.auth("bob")).json()
        last = stored["messages"][-1]
        assert last["metadata"]["stopped"] == "stop"
        for page in (alice.page, bob.page, second):  # the same words everywhere, as stored
            expect(page.locator(".message.assistant").last).to_contain_text(
                last["parts"][0]["text"].strip()[-40:]
            )
        second.screenshot(path=str(SHOTS / "22-agent-stopped-second-tab.png"), full_page=True)
        bob.shot("23-agent-stopped-bob")
        assert_clean(alice, bob)


def test_a_panel_that_finds_a_reply_on_its_own_shows_its_question(
    live: tuple[DevServer, str], browser: Browser
) -> None:
    """The race CI met: bob's panel read the history before alice's question was stored, and its resume on
    opening found her reply before the channel's news of it came (here: the resume held, the news lost).
    The reply's own metadata says who asked what, so the question is shown above it all the same."""
    server, _ = live
    trip_id = alices_trip_with_bob(server, "Raced")
    with person(browser, server.url, "bob") as bob:
        page = bob.page
        held: list[Route] = []

        def hold(route: Route) -> None:  # (Playwright takes a handler it can inspect, not a bound builtin)
            held.append(route)

        page.route(lambda url: url.endswith(f"/trips/{trip_id}/agent/chat/stream"), hold)

        # The channel's news of her turn reaches bob too late to matter: here, never.
        lost = r'"type": "agent\.(turn\.started|message)"'

        def announcements_lost(ws: WebSocketRoute) -> None:
            upstream = ws.connect_to_server()
            upstream.on_message(lambda m: None if re.search(lost, str(m)) else ws.send(m))

        page.route_web_socket(re.compile(r"/live"), announcements_lost)
        bob.open_trip(server.url, trip_id)
        expect(page.locator(".live.on")).to_be_visible()
        open_agent(page)
        expect(page.get_by_label("Ask the agent")).to_be_enabled()  # the history is read: empty
        for _ in range(100):  # the resume on opening, held
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the panel did not try to reattach on opening"

        with httpx.stream(  # alice asks, reads a little, and goes away; her reply goes on
            "POST",
            f"{server.url}/trips/{trip_id}/agent/chat",
            headers=server.auth("alice"),
            json={
                "messages": [
                    {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Which pass first?"}]}
                ]
            },
            timeout=30,
        ) as response:
            assert response.status_code == 200
            lines = response.iter_lines()
            start = json.loads(next(line for line in lines if '"start"' in line).removeprefix("data: "))
            next(line for line in lines if '"text-delta"' in line)
        held[0].continue_()  # bob's resume reaches the server now: it finds her reply

        expect(page.locator(".message.assistant").last).to_contain_text("Part 1:")
        expect(page.locator(".message.user").last).to_contain_text("Which pass first?")
        expect(page.get_by_text("alice asked the agent")).to_be_visible()
        bob.shot("32-agent-reply-found-on-opening-with-its-question")
        stop = httpx.post(
            f"{server.url}/trips/{trip_id}/agent/turns/{start['messageId']}/stop",
            headers=server.auth("alice"),
        )
        assert stop.status_code == 202
        expect(page.get_by_test_id("stopped").last).to_be_visible()
        expect(page.locator(".message.user")).to_have_count(1)  # the stored question replaced the shown one
        assert_clean(bob)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_session_outlives_its_tokens_and_a_sign_in_again_keeps_the_draft(
    live: tuple[DevServer, str], browser: Browser, width: int
) -> None:
    server, _ = live
    created = httpx.post(f"{server.url}/trips", headers=server.auth("alice"), json={"title": "Long day"})
    trip_id = created.json()["tripId"]
    with person(browser, server.url, "alice", width=width) as alice:
        page = alice.page
        renewals: list[str] = []
        page.on(
            "request",
            lambda r: (
                renewals.append(r.url)
                if "/oauth2/token" in r.url and "refresh_token" in (r.post_data or "")
                else None
            ),
        )
        alice.open_trip(server.url, trip_id)
        expect(page.locator(".live.on")).to_be_visible()
        page.wait_for_timeout((TOKEN_TTL_S + 5) * 1000)  # past the first token's expiry
        assert renewals, "the access token was not renewed"
        # Every path still works on the renewed token: the API (an invitation), and the channel.
        page.get_by_label("E-mail address").fill("carol@example.com")
        page.get_by_role("button", name="Invite").click()
        expect(page.get_by_test_id("invitation").filter(has_text="carol@example.com")).to_be_visible()
        expect(page.locator(".live.on")).to_be_visible()

        # A 401 anyway (a revoked token): the one handler renews and tries again, unseen.
        refused: list[str] = []

        def once_unauthorized(route: Route) -> None:
            if not refused:
                refused.append(route.request.url)
                route.fulfill(status=401, json={"message": "Unauthorized"})
            else:
                route.continue_()

        page.route(f"**/trips/{trip_id}/invitations", once_unauthorized)
        page.get_by_label("E-mail address").fill("dave@example.com")
        page.get_by_role("button", name="Invite").click()
        expect(page.get_by_test_id("invitation").filter(has_text="dave@example.com")).to_be_visible()
        assert refused
        page.unroute(f"**/trips/{trip_id}/invitations")

        # A session that cannot be renewed any more: sign in again, back on the trip, the draft kept.
        page.get_by_role("button", name="Open the agent").click()
        ask = page.get_by_label("Ask the agent")
        ask.fill("A draft I do not want to lose")
        page.get_by_role("button", name="Close the agent").first.click()  # (on a phone it covers the page)
        page.route(
            "**/oauth2/token", lambda route: route.fulfill(status=400, json={"error": "invalid_grant"})
        )
        page.route(
            f"**/trips/{trip_id}/ops",
            lambda route: route.fulfill(status=401, json={"message": "Unauthorized"}),
        )
        page.get_by_label("Operation", exact=True).select_option(label="Add a day")
        page.get_by_role("button", name="Add a day").click()
        page.get_by_label("User name").wait_for()  # the provider's sign-in page
        page.unroute("**/oauth2/token")
        page.unroute(f"**/trips/{trip_id}/ops")
        page.get_by_label("User name").fill("alice")
        page.get_by_role("button", name="Sign in").click()
        page.get_by_role("heading", name="Long day").wait_for()
        page.get_by_role("button", name="Open the agent").click()
        expect(page.get_by_label("Ask the agent")).to_have_value("A draft I do not want to lose")
        alice.shot(f"28-signed-in-again-draft-kept-{width}")
        alice.problems = [p for p in alice.problems if "401" not in p and "oauth2/token" not in p]
        assert_clean(alice)
