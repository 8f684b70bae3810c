"""Elevation for a region's tiles: a folder of SRTM tiles (``.hgt``, ``.hgt.gz``, ``.hgt.zip``) laid out
as Valhalla reads them (``ELEVDIR/N42/N42E001.hgt``, 1 arc-second). Valhalla builds the heights into the
routing tiles, so the folder is needed only while building."""

from __future__ import annotations

import gzip
import math
import re
import zipfile
from pathlib import Path

import numpy as np

from tripagent_local.regions.errors import RegionBuildError

SRTM1_SIZE = 3601  # Valhalla reads 1 arc-second SRTM tiles only
SRTM1_BYTES = SRTM1_SIZE * SRTM1_SIZE * 2
SRTM_VOID = -32768
TILE_NAME = re.compile(r"^([NS]\d{2})([EW]\d{3})\.hgt", re.IGNORECASE)


def resample_srtm3_to_srtm1(raw: bytes) -> bytes:
    """Bilinear resample of a 1201×1201 SRTM3 tile to 3601×3601 (big-endian int16, voids kept)."""
    size = round((len(raw) // 2) ** 0.5)
    if size * size * 2 != len(raw):
        raise ValueError(f"not a square SRTM tile: {len(raw)} bytes")
    src = np.frombuffer(raw, dtype=">i2").reshape(size, size).astype(np.float64)
    void = src == SRTM_VOID
    if void.any():
        src[void] = np.nan
    pos = np.linspace(0, size - 1, SRTM1_SIZE)
    i0 = np.clip(np.floor(pos).astype(int), 0, size - 2)
    frac = pos - i0
    rows = src[i0, :] * (1 - frac)[:, None] + src[i0 + 1, :] * frac[:, None]
    out = rows[:, i0] * (1 - frac)[None, :] + rows[:, i0 + 1] * frac[None, :]
    out = np.where(np.isnan(out), SRTM_VOID, np.rint(out))
    return out.astype(">i2").tobytes()


def tiles_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and TILE_NAME.match(p.name))


def _read(path: Path) -> tuple[str, bytes]:
    name = TILE_NAME.match(path.name)
    assert name is not None
    tile = f"{name.group(1).upper()}{name.group(2).upper()}"
    if path.name.lower().endswith(".zip"):
        with zipfile.ZipFile(path) as zf:
            member = next((n for n in zf.namelist() if n.lower().endswith(".hgt")), None)
            if member is None:
                raise RegionBuildError("bad_elevation", f"{path} holds no .hgt file")
            return tile, zf.read(member)
    if path.name.lower().endswith(".gz"):
        return tile, gzip.decompress(path.read_bytes())
    return tile, path.read_bytes()


def prepare(folders: list[Path], target: Path) -> list[str]:
    """Lay the folders' tiles out under ``target`` for Valhalla (decompressed: building from ``.gz`` is
    very slow, valhalla#4377; SRTM3 resampled to SRTM1); return the tiles' names."""
    found = []
    for folder in folders:
        if not folder.is_dir():
            raise RegionBuildError("no_elevation_tiles", f"{folder}: no such folder of elevation tiles")
        if not (mine := tiles_in(folder)):
            raise RegionBuildError(
                "no_elevation_tiles",
                f"{folder} holds no SRTM tile (.hgt, .hgt.gz or .hgt.zip named like N42E001)",
            )
        found += mine
    names: list[str] = []
    for path in found:
        tile, raw = _read(path)
        if tile in names:  # the same tile in two folders, or zipped and not
            continue
        if len(raw) != SRTM1_BYTES:
            try:
                raw = resample_srtm3_to_srtm1(raw)
            except ValueError as exc:
                raise RegionBuildError("bad_elevation", f"{path}: {exc}") from exc
        out = target / tile[:3] / f"{tile}.hgt"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(raw)
        names.append(tile)
    return names


def srtm_tiles(cells: set[tuple[int, int]], cell_deg: float) -> list[str]:
    """The names of the 1°×1° SRTM tiles that cover coverage cells (``N42E001``, ``S46W140``)."""
    names = set()
    for x, y in cells:
        lat, lon = math.floor(y * cell_deg), math.floor(x * cell_deg)
        names.add(f"{'N' if lat >= 0 else 'S'}{abs(lat):02d}{'E' if lon >= 0 else 'W'}{abs(lon):03d}")
    return sorted(names)
