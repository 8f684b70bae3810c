"""Valhalla's tiles for a region, built by the executables the ``pyvalhalla`` wheel ships, in the order
valhalla's own ``docker/scripts/configure_valhalla.sh`` runs them: admins, tiles (elevation built in
during the enhance stage), then one ``tiles.tar`` that the service memory-maps."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tripagent_local.regions.errors import RegionBuildError


def valhalla_binary(name: str) -> str:
    """The executables the pyvalhalla wheel ships (its console wrappers need the venv on PATH)."""
    try:
        import valhalla
    except ImportError as exc:  # pragma: no cover - the dev venv always has it
        raise SystemExit("pyvalhalla is not installed: run `make venv`") from exc
    exe = Path(valhalla.__file__).parent / "bin" / name
    if not exe.exists():
        raise SystemExit(f"{exe} is missing from the pyvalhalla wheel")
    return str(exe)


def config(
    *,
    tile_dir: Path | None,
    tile_extract: Path | None,
    admin: Path | None = None,
    elevation: Path | None = None,
    listen: str = "tcp://127.0.0.1:8002",
    concurrency: int = 2,
) -> dict[str, Any]:
    """A Valhalla config from ``valhalla_build_config`` (the wheel's module), with our paths."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "valhalla.valhalla_build_config",
            "--mjolnir-tile-dir",
            str(tile_dir or ""),
            "--mjolnir-tile-extract",
            str(tile_extract or ""),
            "--mjolnir-traffic-extract",
            "",
            "--mjolnir-admin",
            str(admin or ""),
            "--mjolnir-timezone",
            "",
            "--additional-data-elevation",
            str(elevation or ""),
            "--httpd-service-listen",
            listen,
            "--mjolnir-concurrency",
            str(concurrency),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def serving_config(tiles_tar: Path, listen: str) -> dict[str, Any]:
    """What the service needs to serve a bundle: the tar alone (heights are in the tiles)."""
    return config(tile_dir=None, tile_extract=tiles_tar, listen=listen)


def _run(step: str, cmd: list[str], cwd: Path, log: Path) -> None:
    with log.open("a") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        done = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        tail = log.read_text(errors="replace").strip().splitlines()[-5:]
        raise RegionBuildError(
            "valhalla_failed", f"{step} failed (exit {done.returncode}): " + " | ".join(tail)
        )


def build(pbf: Path, work: Path, elevation: Path | None, tiles_tar: Path, log: Path) -> dict[str, float]:
    """Admins, tiles and the tar; return each step's seconds."""
    import time

    cfg_path = work / "build.json"
    cfg = config(
        tile_dir=work / "tiles", tile_extract=tiles_tar, admin=work / "admins.sqlite", elevation=elevation
    )
    cfg_path.write_text(json.dumps(cfg))
    timings: dict[str, float] = {}
    steps = [
        ("admins", [valhalla_binary("valhalla_build_admins"), "-c", str(cfg_path), str(pbf)]),
        ("tiles", [valhalla_binary("valhalla_build_tiles"), "-c", str(cfg_path), str(pbf)]),
        ("tar", [sys.executable, "-m", "valhalla.valhalla_build_extract", "-c", str(cfg_path), "-O"]),
    ]
    for step, cmd in steps:
        began = time.monotonic()
        _run(step, cmd, work, log)
        timings[step] = round(time.monotonic() - began, 2)
    if not tiles_tar.exists() or tiles_tar.stat().st_size == 0:
        raise RegionBuildError("valhalla_failed", "valhalla_build_extract wrote no tiles.tar")
    return timings
