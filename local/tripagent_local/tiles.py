"""Build Valhalla routing tiles and the elevation tile from the extracts in ``valhalla/data``.

Idempotent: a stamp file records the inputs' digests, so a second run with the same data does nothing.
The container image (``valhalla/Dockerfile``) runs this same module, so local and AWS tiles match.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np

from tripagent_local.paths import STATE_DIR, VALHALLA_DATA

SRTM1_SIZE = 3601  # Valhalla reads 1 arc-second SRTM tiles only
SRTM_VOID = -32768
DEFAULT_EXTRACTS = ("andorra.osm.pbf", "helsinki.osm.pbf")


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


def _digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(hashlib.sha256(p.read_bytes()).digest())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


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


def valhalla_config_path(state_dir: Path = STATE_DIR, listen: str = "tcp://127.0.0.1:8002") -> Path:
    """One config per listening address, so that several stacks (make dev, tests) share the tiles."""
    port = listen.rsplit(":", 1)[-1]
    return state_dir / "valhalla" / f"valhalla-{port}.json"


def build(
    state_dir: Path = STATE_DIR,
    data_dir: Path = VALHALLA_DATA,
    extracts: tuple[str, ...] = DEFAULT_EXTRACTS,
    listen: str = "tcp://127.0.0.1:8002",
    force: bool = False,
    config_path: Path | None = None,
) -> Path:
    """Build elevation, config and tiles under ``state_dir/valhalla``; return the config path."""
    state_dir.mkdir(parents=True, exist_ok=True)
    with (state_dir / "tiles.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # make dev and a test run may build at the same time
        return _build_locked(state_dir, data_dir, extracts, listen, force, config_path)


def _build_locked(
    state_dir: Path,
    data_dir: Path,
    extracts: tuple[str, ...],
    listen: str,
    force: bool,
    config_path: Path | None,
) -> Path:
    root = state_dir / "valhalla"
    pbfs = [data_dir / name for name in extracts]
    hgt_zips = sorted(data_dir.glob("*.hgt.zip"))
    stamp = root / "stamp.json"
    digest = _digest(pbfs + hgt_zips)
    config_path = config_path or valhalla_config_path(state_dir, listen)
    if not force and stamp.exists() and json.loads(stamp.read_text()).get("digest") == digest:
        _write_config(config_path, root, listen)
        return config_path
    if root.exists():
        shutil.rmtree(root)
    (root / "tiles").mkdir(parents=True)
    for hgt_zip in hgt_zips:
        with zipfile.ZipFile(hgt_zip) as zf:
            member = next(n for n in zf.namelist() if n.endswith(".hgt"))
            tile_name = Path(member).name
            raw = zf.read(member)
        # Valhalla looks for ELEVDIR/N42/N42E001.hgt
        target = root / "elevation" / tile_name[:3] / tile_name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(resample_srtm3_to_srtm1(raw))
    _write_config(config_path, root, listen)
    subprocess.run(
        [valhalla_binary("valhalla_build_tiles"), "-c", str(config_path), *map(str, pbfs)],
        check=True,
        cwd=root,
        stdout=subprocess.DEVNULL,
    )
    stamp.write_text(json.dumps({"digest": digest, "extracts": list(extracts)}))
    return config_path


def _write_config(config_path: Path, root: Path, listen: str) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "valhalla.valhalla_build_config",
            "--mjolnir-tile-dir",
            str(root / "tiles"),
            "--mjolnir-tile-extract",
            "",
            "--mjolnir-traffic-extract",
            "",
            "--mjolnir-admin",
            "",
            "--mjolnir-timezone",
            "",
            "--additional-data-elevation",
            str(root / "elevation"),
            "--httpd-service-listen",
            listen,
            "--mjolnir-concurrency",
            "2",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    config_path.parent.mkdir(parents=True, exist_ok=True)
    config_path.write_text(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--state-dir", type=Path, default=STATE_DIR)
    parser.add_argument("--data-dir", type=Path, default=VALHALLA_DATA)
    parser.add_argument("--listen", default="tcp://127.0.0.1:8002")
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args(argv)
    print(build(args.state_dir, args.data_dir, listen=args.listen, force=args.force))


if __name__ == "__main__":
    main()
