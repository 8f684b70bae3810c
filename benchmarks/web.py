"""The web app: the first page's weight, and how long a trip page takes to become usable.

Goals: the first page's files (HTML, its script and the chunks that script imports, styles) ≤ 110 KB
gzipped (the map and the agent load with the trip page); the time from navigation to an
interactive trip page ≤ 1.5× the time of the API calls on its critical path, as the page itself timed
them (Resource Timing: config.json, then the slowest of the trip's parallel reads). Measured in headless
Chromium against the local stack, the median of 10 visits by a signed-in member.
"""

from __future__ import annotations

import gzip
import json
import re
import statistics
from pathlib import Path
from typing import Any

import httpx
from tripagent_local import devauth, webapp
from tripagent_local.server import BackgroundGateway
from tripagent_local.stack import LocalStack

BUNDLE_GOAL_KB = 110
INTERACTIVE_GOAL = 1.5
VISITS = 10

# The trip page's reads (parallel, after config.json): the trip, the ops registry, the open suggestions.
TRIP_READS = re.compile(r"/trips/[\w-]+(/ops|/agent/suggestions)?$")


def first_page_files() -> list[Path]:
    """index.html, what it names, and the chunks those scripts import statically (esbuild's metafile): not
    the chunks loaded on demand (``import()``), which the first page never fetches."""
    dist = webapp.WEB_DIST
    outputs = json.loads((dist / "meta.json").read_text())["outputs"]
    index = (dist / "index.html").read_text()
    wanted = [f"{dist.name}/assets/{n}" for n in re.findall(r'/assets/([\w.-]+)"', index)]
    seen: list[str] = []
    while wanted:
        name = wanted.pop()
        if name in seen:
            continue
        seen.append(name)
        key = next((k for k in outputs if k.endswith(name.split("/", 1)[1])), None)
        if key is not None:
            wanted += [
                f"{dist.name}/" + i["path"].split(f"{dist.name}/", 1)[1]
                for i in outputs[key].get("imports", [])
                if i.get("kind") == "import-statement" and not i.get("external")
            ]
    return [dist / "index.html", *(dist / n.split("/", 1)[1] for n in seen)]


def first_page_kb() -> float:
    return sum(len(gzip.compress(f.read_bytes(), 9)) for f in first_page_files()) / 1024


def _visit(page: Any, url: str) -> tuple[float, float]:
    page.goto("about:blank")
    page.goto(url)
    page.get_by_test_id("days").wait_for()
    timing = page.evaluate(
        """() => ({
            interactive: performance.getEntriesByName("trip-interactive")[0]?.startTime,
            resources: performance.getEntriesByType("resource").map(r => ({
                name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd})),
        })"""
    )
    resources = timing["resources"]
    config = next(r for r in resources if r["name"] == "/config.json")
    reads = [r for r in resources if TRIP_READS.search(r["name"]) and r["start"] >= config["end"]]
    api_ms = (config["end"] - config["start"]) + max(r["end"] - r["start"] for r in reads)
    return float(timing["interactive"]), api_ms


def interactive_trip_page(stack: LocalStack) -> tuple[float, float]:
    from playwright.sync_api import sync_playwright

    from tests.e2e.browser import launch, sign_in

    base = stack.url
    auth = {"Authorization": f"Bearer {devauth.mint_token('bench-web', state_dir=stack.config.state_dir)}"}
    created = httpx.post(
        f"{base}/trips/ai-generate",
        headers=auth,
        json={"brief": "2 days by road bike from Sant Julià de Lòria to Soldeu"},
        timeout=60,
    )
    created.raise_for_status()
    trip_url = f"{base}/#/trips/{created.json()['trip']['tripId']}"
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page()
        sign_in(page, base, "bench-web")
        _visit(page, trip_url)  # warm: the functions' first invocations are cold starts
        visits = [_visit(page, trip_url) for _ in range(VISITS)]
        browser.close()
    return statistics.median(v[0] for v in visits), statistics.median(v[1] for v in visits)


def report(stack: LocalStack) -> bool:
    size = first_page_kb()
    with BackgroundGateway(stack):
        interactive_ms, api_ms = interactive_trip_page(stack)
    ratio = interactive_ms / api_ms
    print("web app")
    verdict = _verdict(size <= BUNDLE_GOAL_KB)
    print(f"  first page, gzipped      {size:8.1f} KB   (goal ≤ {BUNDLE_GOAL_KB} KB)   {verdict}")
    print(
        f"  trip page interactive    {interactive_ms:8.1f} ms   its API calls {api_ms:.1f} ms: "
        f"{ratio:.2f}× (goal ≤ {INTERACTIVE_GOAL}×)   {_verdict(ratio <= INTERACTIVE_GOAL)}"
    )
    return size <= BUNDLE_GOAL_KB and ratio <= INTERACTIVE_GOAL


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"
