"""Regions in AWS: the builder task and the routing service's start, in the image of ``valhalla/Dockerfile``.

``python -m tripagent_local.regions.aws build SOURCE… --name NAME [--elevation skadi|DIR]``
    (the builder task: ECS on Fargate for a country, AWS Batch or EC2 for a continent) downloads the
    extracts (``https://`` or ``s3://``), builds the region as ``tripagent region build`` does (the build
    routes its smoke trip before it is kept), uploads ``regions/<name>/<version>/`` to the regions bucket,
    then moves the SSM parameter to ``<name>/<version>``, and asks the routing service for new tasks.
``python -m tripagent_local.regions.aws serve``
    (the routing service's task start) downloads the current ``tiles.tar`` to the task's ephemeral
    storage and runs ``valhalla_service`` on it, memory-mapped; a new version is new tasks (Valhalla has
    no hot reload of tiles). With the parameter at ``packaged``, the bundled region the image carries.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx

from tripagent_local.regions import bundle as bundles
from tripagent_local.regions.elevation import srtm_tiles
from tripagent_local.regions.errors import RegionBuildError

PACKAGED = "packaged"  # the parameter's value before any build: the region the image and functions carry
BUNDLE_FILES = ("tiles.tar", "places.sqlite", "coverage.geojson")  # manifest.json is written last
SKADI = "https://elevation-tiles-prod.s3.amazonaws.com/skadi"  # the public terrain tiles (SRTM and others)


def _clients(region: str | None = None) -> tuple[Any, Any, Any]:
    import boto3

    session = boto3.session.Session(region_name=region or os.environ.get("AWS_REGION"))
    return session.client("s3"), session.client("ssm"), session.client("ecs")


def current(ssm: Any, parameter: str) -> str:
    return str(ssm.get_parameter(Name=parameter)["Parameter"]["Value"]).strip().strip("/")


def publish(found: bundles.Bundle, *, bucket: str, parameter: str, s3: Any, ssm: Any) -> str:
    """Upload a built (and smoke-routed) bundle, manifest last, then move the pointer to it."""
    prefix = f"regions/{found.name}/{found.version}"
    for name in (*BUNDLE_FILES, "manifest.json"):
        s3.upload_file(str(found.path / name), bucket, f"{prefix}/{name}")
    pointer = f"{found.name}/{found.version}"
    ssm.put_parameter(Name=parameter, Value=pointer, Type="String", Overwrite=True)
    return pointer


def fetch(pointer: str, *, bucket: str, s3: Any, into: Path, files: tuple[str, ...]) -> Path:
    """The pointer's files under ``into/<name>/<version>/`` (kept across restarts of the same version)."""
    folder = into / pointer
    folder.mkdir(parents=True, exist_ok=True)
    for name in files:
        target = folder / name
        if not target.exists():
            partial = target.with_suffix(".part")
            s3.download_file(bucket, f"regions/{pointer}/{name}", str(partial))
            partial.replace(target)
    return folder


def download(source: str, into: Path, s3: Any, http: httpx.Client) -> Path:
    """An extract from ``s3://bucket/key`` or ``https://…``, streamed to disk."""
    target = into / source.rstrip("/").rsplit("/", 1)[-1]
    if source.startswith("s3://"):
        bucket, key = source[5:].split("/", 1)
        s3.download_file(bucket, key, str(target))
        return target
    if not source.startswith("https://"):
        raise RegionBuildError("missing_input", f"{source}: an extract is an s3:// or https:// address")
    with http.stream("GET", source) as response:
        if response.status_code != 200:
            raise RegionBuildError("missing_input", f"{source}: HTTP {response.status_code}")
        with target.open("wb") as out:
            for chunk in response.iter_bytes(1 << 20):
                out.write(chunk)
    return target


def skadi(tiles: list[str], into: Path, http: httpx.Client) -> Path:
    """The tiles from the public terrain bucket (``SKADI/N42/N42E001.hgt.gz``); the sea has none (404)."""
    into.mkdir(parents=True, exist_ok=True)
    for tile in tiles:
        response = http.get(f"{SKADI}/{tile[:3]}/{tile}.hgt.gz")
        if response.status_code == 200:
            (into / f"{tile}.hgt.gz").write_bytes(response.content)
        elif response.status_code != 404:
            raise RegionBuildError("bad_elevation", f"elevation tile {tile}: HTTP {response.status_code}")
    return into


def build(args: argparse.Namespace) -> int:
    from tripagent_local.regions.build import build_region
    from tripagent_local.regions.extract import CELL_DEG, Extras, read_extract

    s3, ssm, ecs = _clients()
    work = Path(args.work)
    (work / "in").mkdir(parents=True, exist_ok=True)
    with httpx.Client(timeout=httpx.Timeout(60, connect=10), follow_redirects=True) as http:
        pbfs = [download(source, work / "in", s3, http) for source in args.sources]
        elevation: list[Path] = []
        if args.elevation == "skadi":
            cells = set().union(*(read_extract(p, Extras.beside(p)).cells for p in pbfs))
            elevation = [skadi(srtm_tiles(cells, CELL_DEG), work / "elevation", http)]
        elif args.elevation:
            elevation = [Path(args.elevation)]
    found = build_region(
        pbfs, name=args.name, elevation=elevation, regions_dir=work / "regions", log=sys.stdout
    )
    pointer = publish(found, bucket=args.bucket, parameter=args.parameter, s3=s3, ssm=ssm)
    print(json.dumps({"published": pointer, "manifest": found.manifest["seconds"]}), flush=True)
    if args.cluster and args.service:  # new tasks load the new version; the old ones serve until replaced
        ecs.update_service(cluster=args.cluster, service=args.service, forceNewDeployment=True)
    return 0


def serve(args: argparse.Namespace) -> None:
    """Start the routing service on the current version's tiles (exec: the task's process is Valhalla)."""
    from tripagent_local.regions.valhalla_tiles import serving_config, valhalla_binary

    s3, ssm, _ = _clients()
    pointer = current(ssm, args.parameter) if args.parameter else PACKAGED
    if pointer == PACKAGED:
        tiles = Path(args.packaged)
    else:
        tiles = fetch(
            pointer, bucket=args.bucket, s3=s3, into=Path(args.data), files=("tiles.tar", "manifest.json")
        )
        tiles = tiles / "tiles.tar"
    config = Path(args.data) / "valhalla.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps(serving_config(tiles, args.listen)))
    print(json.dumps({"region": pointer, "tiles": str(tiles), "bytes": tiles.stat().st_size}), flush=True)
    threads = str(os.cpu_count() or 1)
    os.execv(valhalla_binary("valhalla_service"), ["valhalla_service", str(config), threads])  # noqa: S606


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tripagent_local.regions.aws", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build a region from extracts and publish it (the builder task)")
    b.add_argument("sources", nargs="+", help="extracts: s3://bucket/key or https://… (.osm.pbf)")
    b.add_argument("--name", required=True)
    b.add_argument("--elevation", help="'skadi' (the public terrain tiles the region covers) or a folder")
    b.add_argument(
        "--bucket", default=os.environ.get("REGIONS_BUCKET"), required="REGIONS_BUCKET" not in os.environ
    )
    b.add_argument(
        "--parameter",
        default=os.environ.get("REGION_PARAMETER"),
        required="REGION_PARAMETER" not in os.environ,
    )
    b.add_argument("--cluster", default=os.environ.get("VALHALLA_CLUSTER"))
    b.add_argument("--service", default=os.environ.get("VALHALLA_SERVICE"))
    b.add_argument("--work", default=os.environ.get("BUILD_DIR", "/data/build"))
    s = sub.add_parser("serve", help="serve the current region (the routing service's task)")
    s.add_argument("--bucket", default=os.environ.get("REGIONS_BUCKET"))
    s.add_argument("--parameter", default=os.environ.get("REGION_PARAMETER"))
    s.add_argument("--data", default=os.environ.get("DATA_DIR", "/data"))
    s.add_argument("--packaged", default=os.environ.get("PACKAGED_TILES", "/srv/packaged/tiles.tar"))
    s.add_argument("--listen", default="tcp://0.0.0.0:8002")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args)
        return 0
    try:
        return build(args)
    except RegionBuildError as exc:  # the pointer has not moved: the current version keeps serving
        print(f"region build stopped: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
