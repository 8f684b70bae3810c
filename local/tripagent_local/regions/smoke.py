"""A region is published only once it routes: the built tar is served on a free port and asked for a
bicycle route between two of the region's own places."""

from __future__ import annotations

import itertools
import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import httpx

from tripagent_local.regions.errors import RegionBuildError
from tripagent_local.regions.valhalla_tiles import serving_config, valhalla_binary

MIN_KM = 0.3  # two points this far apart make a route, not a snap
NO_HEIGHT_BELOW_M = -499.0


def _pairs(places_db: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Pairs of each area's most important places, the likeliest connected first."""
    db = sqlite3.connect(f"file:{places_db}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT name, lat, lon, region FROM places WHERE region IS NOT NULL AND category = 'place' "
        "ORDER BY importance DESC LIMIT 40"
    ).fetchall()
    db.close()
    places = [{"name": n, "lat": lat, "lon": lon, "area": r} for n, lat, lon, r in rows]
    pairs = []
    for a, b in itertools.combinations(places, 2):
        far = abs(a["lat"] - b["lat"]) + abs(a["lon"] - b["lon"]) > MIN_KM / 111
        if a["area"] == b["area"] and far:
            pairs.append((a, b))
    return pairs[:8]


def smoke_route(tiles_tar: Path, places_db: Path, port: int, log: Path) -> dict[str, Any]:
    """The first of the region's pairs of places that routes; stop the build when none does."""
    from tripagent_local.processes import EngineProcess

    pairs = _pairs(places_db)
    if not pairs:
        raise RegionBuildError("smoke_failed", "the region has no two named places to route between")
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "valhalla.json"
        cfg.write_text(json.dumps(serving_config(tiles_tar, f"tcp://127.0.0.1:{port}")))
        service = EngineProcess(
            "Valhalla (smoke route)",
            [valhalla_binary("valhalla_service"), str(cfg), "1"],
            cwd=Path(tmp),
            log_path=log,
        )
        try:
            try:
                service.wait_ready(lambda: httpx.get(f"{base}/status", timeout=1).status_code == 200, 30)
            except RuntimeError as exc:
                raise RegionBuildError(
                    "smoke_failed", f"the routing service did not start on the new tiles: {exc}"
                ) from exc
            for a, b in pairs:
                routed = _route(base, a, b)
                if routed is not None:
                    return routed
        finally:
            service.stop(grace_s=0.2)  # it holds nothing to save, and waits ~30 s on SIGTERM for its workers
    raise RegionBuildError(
        "smoke_failed",
        "no route between the region's main places: "
        + ", ".join(f"{a['name']}→{b['name']}" for a, b in pairs),
    )


def _route(base: str, a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any] | None:
    body = {
        "locations": [{"lat": a["lat"], "lon": a["lon"]}, {"lat": b["lat"], "lon": b["lon"]}],
        "costing": "bicycle",
        "directions_type": "none",
        "elevation_interval": 100,
    }
    answer = httpx.post(f"{base}/route", json=body, timeout=10)
    if answer.status_code != 200:
        return None
    trip = answer.json()["trip"]
    heights = [h for leg in trip["legs"] for h in leg.get("elevation", [])]
    return {
        "from": a,
        "to": b,
        "km": round(float(trip["summary"]["length"]), 2),
        # (where its tiles have no elevation Valhalla answers its floor, -500 m: that is no height)
        "heights": any(h is not None and h > NO_HEIGHT_BELOW_M for h in heights),
    }
