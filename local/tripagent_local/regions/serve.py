"""Which region bundle a local stack serves: ``REGIONS`` (names of built regions, or extracts to build),
else the bundled region, built from the extracts in ``valhalla/data``."""

from __future__ import annotations

import shutil
from pathlib import Path

from tripagent_local.paths import REPO_ROOT, VALHALLA_DATA
from tripagent_local.regions import bundle as bundles
from tripagent_local.regions.build import build_region
from tripagent_local.regions.errors import RegionBuildError

BUNDLED = "bundled"
PACKAGED = REPO_ROOT / "shared" / "tripagent" / "data" / "places.sqlite"


def bundled(regions_dir: Path = bundles.REGIONS_DIR) -> bundles.Bundle:
    """The bundled region (idempotent), its places index also packaged with the functions: the index a
    function reads when no region is named (unit tests, ``sam build``)."""
    found = build_region(
        sorted(VALHALLA_DATA.glob("*.osm.pbf")),
        name=BUNDLED,
        elevation=[VALHALLA_DATA],
        regions_dir=regions_dir,
    )
    if (
        not PACKAGED.exists()
        or PACKAGED.stat().st_size != found.places.stat().st_size
        or _older(PACKAGED, found.places)
    ):
        tmp = PACKAGED.with_suffix(".tmp")
        shutil.copyfile(found.places, tmp)
        tmp.replace(PACKAGED)
    return found


def _older(a: Path, b: Path) -> bool:
    return a.stat().st_mtime < b.stat().st_mtime


def resolve(regions: list[str], regions_dir: Path = bundles.REGIONS_DIR) -> bundles.Bundle:
    """One bundle for the names and extracts given. Several built regions are served as one region built
    from all their extracts (Valhalla cannot join tiles built apart)."""
    regions = [r.strip() for r in regions if r.strip()]
    if not regions:
        return bundled(regions_dir)
    extracts = [Path(r) for r in regions if r.endswith(".pbf")]
    names = [r for r in regions if not r.endswith(".pbf")]
    if len(names) == 1 and not extracts:
        if names[0] == BUNDLED:
            return bundled(regions_dir)
        found = bundles.current(names[0], regions_dir)
        if found is None:
            raise RegionBuildError(
                "region_not_built",
                f"no region {names[0]!r} is built here (built: {_built(regions_dir)}): "
                "make region PBF=path/to/extract.osm.pbf NAME=" + names[0],
            )
        return found
    elevation: list[Path] = []
    for name in names:
        found = bundles.current(name, regions_dir) if name != BUNDLED else bundled(regions_dir)
        if found is None:
            raise RegionBuildError("region_not_built", f"no region {name!r} is built here")
        extracts += [Path(s["path"]) for s in found.manifest["sources"]]
        elevation += [Path(f) for f in found.manifest["elevation"]["folders"]]
    return build_region(
        list(dict.fromkeys(extracts)),
        name="+".join(regions),
        elevation=list(dict.fromkeys(elevation)) or None,
        regions_dir=regions_dir,
    )


def _built(regions_dir: Path) -> str:
    return ", ".join(b.name for b in bundles.built(regions_dir)) or "none"
