"""The house rules, checked: the domain and the use cases import no AWS SDK, no HTTP client, no adapter
and not the composition root; adapters are plugged in from the outside."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "shared" / "tripagent"
FORBIDDEN = (
    "boto3",
    "botocore",
    "httpx",
    "tripagent.adapters",
    "tripagent.bootstrap",
    "tripagent.entrypoints",
    "aws_lambda_powertools",
)


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", ["domain", "application"])
def test_inner_layers_import_nothing_from_the_outside(layer: str) -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(n for n in imports(path) if n.startswith(FORBIDDEN))
        for path in (PACKAGE / layer).rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}
