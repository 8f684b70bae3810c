"""The gateway serves the built app's files, and nothing else of the machine."""

from __future__ import annotations

from pathlib import Path

import pytest
from tripagent_local.webapp import serve_static


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    root = tmp_path / "dist"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html>")
    (root / "assets" / "app-ABC.js").write_text("1")
    (tmp_path / "secret.txt").write_text("no")
    (root / "assets" / "link.txt").symlink_to(tmp_path / "secret.txt")
    return root


def test_the_entry_point_and_assets_are_served_with_their_cache_rules(dist: Path) -> None:
    index = serve_static("/", dist)
    assert index is not None
    assert index.headers["cache-control"] == "no-cache"
    asset = serve_static("/assets/app-ABC.js", dist)
    assert asset is not None
    assert "immutable" in asset.headers["cache-control"]


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/assets/../../secret.txt",
        "/assets/link.txt",
        "/nothing.js",
        "/a\x00b",
        "/" + "x" * 5000,
    ],
)
def test_nothing_outside_the_app_is_served(dist: Path, path: str) -> None:
    assert serve_static(path, dist) is None
