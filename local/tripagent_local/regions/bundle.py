"""Where region bundles live and which version of each is current.

``REGIONS_DIR/<name>/<version>/`` holds one build; ``<name>/current`` names the version served. The
pointer moves (an atomic rename) only after the new version routed its smoke trip, so a failed build
leaves the previous version serving.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from tripagent_local.paths import STATE_DIR

REGIONS_DIR = Path(os.environ.get("TRIPAGENT_REGIONS_DIR", STATE_DIR / "regions"))
KEEP_VERSIONS = 3


@dataclass(frozen=True)
class Bundle:
    name: str
    version: str
    path: Path

    @property
    def tiles_tar(self) -> Path:
        return self.path / "tiles.tar"

    @property
    def places(self) -> Path:
        return self.path / "places.sqlite"

    @cached_property  # read once: the banner, each function's environment and the health route ask
    def manifest(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.path / "manifest.json").read_text())
        return data

    @property
    def health_route(self) -> str:
        """The smoke trip's two points (``lat,lon;lat,lon``), which the health check routes again."""
        smoke = self.manifest["smoke"]
        return ";".join(f"{p['lat']},{p['lon']}" for p in (smoke["from"], smoke["to"]))


def current(name: str, regions_dir: Path = REGIONS_DIR) -> Bundle | None:
    pointer = regions_dir / name / "current"
    if not pointer.exists():
        return None
    version = pointer.read_text().strip()
    path = regions_dir / name / version
    return Bundle(name, version, path) if (path / "manifest.json").exists() else None


def built(regions_dir: Path = REGIONS_DIR) -> list[Bundle]:
    if not regions_dir.is_dir():
        return []
    return [b for d in sorted(regions_dir.iterdir()) if d.is_dir() and (b := current(d.name, regions_dir))]


def publish(name: str, version: str, regions_dir: Path = REGIONS_DIR) -> Bundle:
    """Make ``version`` current, then prune the oldest versions beyond ``KEEP_VERSIONS``."""
    root = regions_dir / name
    tmp = root / f".current-{os.getpid()}"
    tmp.write_text(version + "\n")
    tmp.replace(root / "current")
    versions = sorted(
        (d for d in root.iterdir() if d.is_dir() and not d.name.startswith(".")), key=lambda d: d.name
    )
    for old in versions[:-KEEP_VERSIONS]:
        if old.name != version:
            shutil.rmtree(old, ignore_errors=True)
    return Bundle(name, version, root / version)
