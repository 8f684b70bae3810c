"""The API fuzzed from its own OpenAPI document (schemathesis) against `tripagent dev`: no input may be
answered with a server error.

Bounded and repeatable: every operation of ``/openapi.json`` (the HTTP API of template.yaml) through all of
schemathesis' phases - its examples; the coverage phase's boundary and wrong-type cases (other media
types, missing and extra fields, bodies that are not UTF-8); ``MAX_EXAMPLES`` generated cases each; and
stateful sequences along the links it infers (create a trip, then read, edit, chat in it) - with a fixed
seed, as a signed-in member, every failure collected rather than the first per operation. The gate is the
``not_a_server_error`` check: any 5xx fails the test with the cases that caused it. The rest of the default
checks are not a gate yet (README, "Fuzzing").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import DevServer

MAX_EXAMPLES = 25
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def test_no_input_is_answered_with_a_server_error(dev_server: DevServer, tmp_path: Path) -> None:
    run = subprocess.run(
        [
            SCHEMATHESIS,
            "run",
            f"{dev_server.url}/openapi.json",
            "--header",
            f"Authorization: Bearer {dev_server.token('fuzzer')}",
            "--checks",
            "not_a_server_error",
            "--max-examples",
            str(MAX_EXAMPLES),
            "--seed",
            "42",
            "--continue-on-failure",
            "--generation-database",
            "none",
            "--request-timeout",
            "30",
            "--no-color",
        ],
        cwd=tmp_path,  # its replay store lands here, not in the repository
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "No issues found" in run.stdout or "passed" in run.stdout, run.stdout[-3000:]
