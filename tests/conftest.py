"""Fixtures shared by the suites: the repository, the template, and the local engines (once per session)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from tripagent_local.engines import free_port
from tripagent_local.paths import REPO_ROOT
from tripagent_local.server import BackgroundGateway
from tripagent_local.stack import LocalStack, StackConfig
from tripagent_local.template import Template

# Powertools: no X-Ray daemon and no metric flushes in tests.
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "TripagentTests")
os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "tripagent-tests")
os.environ.setdefault("AWS_DEFAULT_REGION", "eu-west-1")
# The tests' own clients of DynamoDB Local (the functions get theirs from their own environment).
os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def template() -> Template:
    return Template()


@pytest.fixture(scope="session")
def local_stack() -> Iterator[LocalStack]:
    """The whole local stack on free ports: DynamoDB Local and Valhalla, the table created from
    template.yaml, the gateway and bus serving; each function runs in execution environments of its own.
    Tiles are shared with `make dev` (built once, idempotent)."""
    logs = REPO_ROOT / ".local" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    function_log = (logs / f"functions-tests-{os.getpid()}.log").open("w")  # the functions' own output
    config = StackConfig(
        port=free_port(),
        dynamodb_port=free_port(),
        valhalla_port=free_port(),
        state_dir=REPO_ROOT / ".local",
        function_log=function_log,
    )
    stack = LocalStack(config)
    stack.start()
    try:
        with BackgroundGateway(stack):
            yield stack
    finally:
        stack.stop()
        function_log.close()
