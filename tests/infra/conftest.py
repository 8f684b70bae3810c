from __future__ import annotations

from pathlib import Path

import pytest
from tripagent_local.paths import REPO_ROOT

TOOLS_BIN = REPO_ROOT / ".venv-tools" / "bin"


@pytest.fixture(scope="session")
def tools_bin() -> Path:
    if not (TOOLS_BIN / "cfn-lint").exists():
        pytest.fail("the template tools venv is missing: run `make tools` (make test does)")
    return TOOLS_BIN
