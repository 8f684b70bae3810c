"""Where the local stack keeps its files. Everything generated lives under ``.local/`` (git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(os.environ.get("TRIPAGENT_REPO", Path(__file__).resolve().parents[2]))
STATE_DIR = Path(os.environ.get("TRIPAGENT_STATE_DIR", REPO_ROOT / ".local"))
TEMPLATE = REPO_ROOT / "template.yaml"
VALHALLA_DATA = REPO_ROOT / "valhalla" / "data"
