"""The API fuzzed from its own OpenAPI document (schemathesis) against `tripagent dev`: no input may be
answered with a server error, and every answer must be one the document describes.

Bounded and repeatable: every operation of ``/openapi.json`` (the HTTP API of template.yaml) through all of
schemathesis' phases - its examples; the coverage phase's boundary and wrong-type cases (other media
types, missing and extra fields, bodies that are not UTF-8); ``MAX_EXAMPLES`` generated cases each; and
stateful sequences along the links it infers (create a trip, then read, edit, chat in it) - with a fixed
seed, as a signed-in member, every failure collected rather than the first per operation. Every check of
schemathesis' default set runs and gates, but two that do not apply here:

- ``positive_data_acceptance`` (a schema-valid request must be accepted): business rules no schema says
  (a trip keeps an owner, a member is not added twice, a brief names a start) answer 422 by design;
- ``unsupported_method`` (an undeclared method must be 405): API Gateway's HTTP API answers a route it
  does not have with 404 ``{"message": "Not Found"}``, and the local gateway answers as it does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import DevServer

MAX_EXAMPLES = 25
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def test_no_input_is_answered_with_a_server_error_nor_off_the_document(
    dev_server: DevServer, tmp_path: Path
) -> None:
    run = subprocess.run(
        [
            SCHEMATHESIS,
            "run",
            f"{dev_server.url}/openapi.json",
            "--header",
            f"Authorization: Bearer {dev_server.token('fuzzer')}",
            "--exclude-checks",
            "positive_data_acceptance,unsupported_method",
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
