"""Driving the web app in headless Chromium (Debian's, through Playwright for Python): sign-in as a person
does it, every console error and failed request kept, screenshots of each step, and axe-core's check."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, Request, WebSocket
from tripagent_local.paths import REPO_ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = REPO_ROOT / ".local" / "screenshots"
AXE = REPO_ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
TIMEOUT_MS = 30_000


def launch(playwright: Playwright) -> Browser:
    # As root Chromium needs --no-sandbox; Playwright's own browser download is never used.
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


@dataclass
class Person:
    """One person in one browser context (their own cookies and storage), on one page."""

    user: str
    context: BrowserContext
    page: Page
    problems: list[str] = field(default_factory=list)
    heard: list[str] = field(default_factory=list)  # the trip channel's frames, shown when a test fails

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def open_trip(self, base_url: str, trip_id: str) -> None:
        self.page.goto(f"{base_url}/#/trips/{trip_id}")
        self.page.get_by_role("heading", level=1).wait_for()

    def accessibility_violations(self) -> list[dict[str, Any]]:
        """axe-core's serious and critical violations of the page as it is now."""
        self.page.add_script_tag(path=str(AXE))
        result = self.page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        return [
            {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]


def _watch(person: Person) -> None:
    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            person.problems.append(f"console: {message.text} ({message.location.get('url')})")

    def on_failed(request: Request) -> None:
        failure = request.failure or ""
        if "ERR_ABORTED" not in failure:  # a navigation away cancels what was in flight
            person.problems.append(f"request failed: {request.method} {request.url} {failure}")

    person.page.on("console", on_console)
    person.page.on("pageerror", lambda error: person.problems.append(f"page error: {error} {error.stack}"))
    person.page.on("requestfailed", on_failed)

    def on_socket(ws: WebSocket) -> None:
        person.heard.append(f"{time.monotonic():.1f} open {ws.url}")
        ws.on(
            "framereceived", lambda frame: person.heard.append(f"{time.monotonic():.1f} {str(frame)[:150]}")
        )
        ws.on("close", lambda _: person.heard.append(f"{time.monotonic():.1f} closed"))

    person.page.on("websocket", on_socket)


def sign_in(page: Page, base_url: str, user: str) -> None:
    page.goto(f"{base_url}/")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("User name").fill(user)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text(f"Signed in as {user}").wait_for()


@contextmanager
def person(
    browser: Browser, base_url: str, user: str, *, signed_in: bool = True, width: int | None = None
) -> Iterator[Person]:
    """Someone in a browser of their own: at 1280 px a desktop's window, at 390 px a phone's (844 high, a
    touch screen). ``BROWSER_WIDTH`` is the width of the scenarios that do not choose one (the suite runs
    them at 1280, then again at 390)."""
    width = width or int(os.environ.get("BROWSER_WIDTH", "1280"))
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": 844 if phone else 900},
        accept_downloads=True,
        has_touch=phone,
        is_mobile=phone,
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    someone = Person(user, context, page)
    _watch(someone)
    try:
        if signed_in:
            sign_in(page, base_url, user)
        yield someone
    except BaseException:
        someone.shot(f"FAILED-{user}")  # what the person saw when the test failed
        print(f"{user}'s console and requests:", *someone.problems, sep="\n  ")
        print(f"{user} heard:", *someone.heard, sep="\n  ")
        raise
    finally:
        context.close()


def trip_id_of(page: Page) -> str:
    found = re.search(r"#/trips/([\w-]+)$", page.url)
    assert found, page.url
    return found.group(1)
