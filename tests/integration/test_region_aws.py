"""Regions in AWS, against moto's S3 and SSM: the builder task builds from an extract in S3, publishes the
bundle and moves the pointer only once the build has routed; the routing service's start and the functions'
cold start read the version the pointer names."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import httpx
import pytest
from moto import mock_aws
from tripagent_local.regions import aws

from tests.fixtures.synthetic_region import write_extract

BUCKET, PARAMETER = "tripagent-regions", "tripagent-region"


@pytest.fixture
def cloud(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Any]]:
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        s3 = boto3.client("s3", region_name="eu-west-1")
        ssm = boto3.client("ssm", region_name="eu-west-1")
        s3.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
        ssm.put_parameter(Name=PARAMETER, Value=aws.PACKAGED, Type="String")
        yield s3, ssm


def run_builder(source: str, work: Path) -> int:
    return aws.main(
        [
            "build",
            source,
            "--name",
            "valley",
            "--bucket",
            BUCKET,
            "--parameter",
            PARAMETER,
            "--work",
            str(work),
        ]
    )


def test_the_builder_publishes_a_routed_bundle_then_moves_the_pointer(
    cloud: tuple[Any, Any], tmp_path: Path
) -> None:
    s3, ssm = cloud
    s3.upload_file(str(write_extract(tmp_path / "valley.osm.pbf")), BUCKET, "sources/valley.osm.pbf")
    assert run_builder(f"s3://{BUCKET}/sources/valley.osm.pbf", tmp_path / "work") == 0
    pointer = aws.current(ssm, PARAMETER)
    name, version = pointer.split("/")
    assert name == "valley"
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET, Prefix=f"regions/{pointer}/")["Contents"]}
    assert keys == {
        f"regions/{pointer}/{f}" for f in ("tiles.tar", "places.sqlite", "coverage.geojson", "manifest.json")
    }
    manifest = json.loads(s3.get_object(Bucket=BUCKET, Key=f"regions/{pointer}/manifest.json")["Body"].read())
    assert manifest["version"] == version
    assert manifest["smoke"]["km"] > 50

    # the routing service's start: the current tar, downloaded once per version
    served = aws.fetch(pointer, bucket=BUCKET, s3=s3, into=tmp_path / "data", files=("tiles.tar",))
    assert (served / "tiles.tar").stat().st_size == manifest["files"]["tiles.tar"]["bytes"]


def test_a_failed_build_leaves_the_pointer_where_it_was(cloud: tuple[Any, Any], tmp_path: Path) -> None:
    s3, ssm = cloud
    s3.put_object(Bucket=BUCKET, Key="sources/broken.osm.pbf", Body=b"<html>not found</html>")
    assert run_builder(f"s3://{BUCKET}/sources/broken.osm.pbf", tmp_path / "work") == 2
    assert aws.current(ssm, PARAMETER) == aws.PACKAGED
    assert "Contents" not in s3.list_objects_v2(Bucket=BUCKET, Prefix="regions/")


def test_the_elevation_tiles_a_region_needs_come_from_the_public_terrain_bucket(tmp_path: Path) -> None:
    """Only the 1°×1° tiles the region's roads cover; the sea has none (404 is no error)."""
    assert aws.srtm_tiles({(100, 4250), (179, 4265), (-13990, -4550)}, 0.01) == ["N42E001", "S46W140"]
    asked = []

    def terrain(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        return httpx.Response(200, content=b"hgt") if "N42" in request.url.path else httpx.Response(404)

    with httpx.Client(transport=httpx.MockTransport(terrain)) as http:
        folder = aws.skadi(["N42E001", "S46W140"], tmp_path / "srtm", http)
    assert asked == ["/skadi/N42/N42E001.hgt.gz", "/skadi/S46/S46W140.hgt.gz"]
    assert [p.name for p in folder.iterdir()] == ["N42E001.hgt.gz"]


def test_a_function_copies_the_current_places_index_to_tmp_once_and_logs_its_version(
    cloud: tuple[Any, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from tripagent.adapters.aws import s3_client, ssm_client
    from tripagent.adapters.places import region_bundle
    from tripagent.settings import region_settings

    s3, ssm = cloud
    s3.put_object(Bucket=BUCKET, Key="regions/valley/v2/places.sqlite", Body=b"an index")
    for name, value in {
        "REGION_PARAMETER": PARAMETER,
        "REGIONS_BUCKET": BUCKET,
        "REGIONS_CACHE_DIR": str(tmp_path),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("PLACES_PATH", raising=False)
    for cached in (region_settings, region_bundle.places_file, s3_client, ssm_client):
        cached.cache_clear()
    try:
        assert region_bundle.places_file() == region_bundle.PACKAGED  # nothing built yet
        region_bundle.places_file.cache_clear()
        ssm.put_parameter(Name=PARAMETER, Value="valley/v2", Type="String", Overwrite=True)
        with caplog.at_level(logging.INFO):
            path = region_bundle.places_file()
        assert path == tmp_path / "places-valley-v2.sqlite"
        assert path.read_bytes() == b"an index"
        assert any(getattr(r, "region_bundle", None) == "valley/v2" for r in caplog.records)
    finally:
        for cached in (region_settings, region_bundle.places_file, s3_client, ssm_client):
            cached.cache_clear()
