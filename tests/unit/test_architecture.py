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


def test_no_module_is_imported_by_a_string_where_the_layering_cannot_see_it() -> None:
    """``importlib.import_module("tripagent...")`` hid a loop from the test above (the rules engines lived
    in application and were loaded by name from an adapter)."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module",
                "__import__",
            ):
                offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []


def test_the_model_port_carries_data_only_never_a_live_object() -> None:
    from tripagent.adapters.places.gazetteer import Gazetteer
    from tripagent.application.llm import ChatOptions, ChatRequest

    def request(context: dict[str, object]) -> ChatRequest:
        options = ChatOptions(max_output_tokens=10)
        return ChatRequest(model="m", system="", messages=(), options=options, context=context)

    assert request({"trip": {"days": []}, "findings": [{"code": "duplicate"}]}).context["trip"] == {
        "days": []
    }
    with pytest.raises(TypeError, match="JSON data"):
        request({"places": Gazetteer()})  # an engine gets its index where it is built, not through here


def test_the_rules_engines_are_adapters_built_with_what_they_need() -> None:
    from tripagent.adapters.llm.rules import TASKS, rule_engines

    class Places:
        def search(self, query: str, **_: object) -> object:
            raise AssertionError("not asked here")

    engines = rule_engines(Places())  # type: ignore[arg-type]
    assert set(engines) == set(TASKS)
    assert all(callable(engine) for engine in engines.values())
    assert not list((PACKAGE / "application").glob("*_rules.py"))  # none left inside the use cases


READER = "tripagent.adapters.rules.brief_reader"
# The rules provider's table of engines is where the offline reader is plugged in, as one provider's
# adapter; nothing else may know it exists (the use cases talk to every provider through the model port).
READER_PLUG = "adapters/llm/rules.py"


def test_nothing_outside_the_offline_reader_imports_it() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(n for n in imports(path) if n.startswith(READER))
        for path in PACKAGE.rglob("*.py")
        if "brief_reader" not in path.parts and str(path.relative_to(PACKAGE)) != READER_PLUG
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_reader_is_plugged_in_lazily_where_the_rules_engines_are_built() -> None:
    """Its one importer loads it inside the function that builds the engines, never at import: a
    function that does not run the offline reader never pays for it."""
    tree = ast.parse((PACKAGE / READER_PLUG).read_text())
    top_level = {
        node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(READER)
    }
    assert top_level == set()
    assert any(n.startswith(READER) for n in imports(PACKAGE / READER_PLUG))


BUNDLED_NAMES = ("andorr", "helsin", "canillo", "ordino", "kallio", "soldeu", "encamp", "escaldes")


def code_strings(path: Path) -> list[str]:
    """The string literals of a module's code, its docstrings aside (examples in prose are no rule)."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


@pytest.mark.parametrize("layer", ["domain", "application", "adapters/rules/brief_reader"])
def test_no_rule_of_the_business_names_a_bundled_region(layer: str) -> None:
    """Regions come from data (the served region's places index): no code of the domain, the
    use cases or the offline reader names a place of the bundled ones, so that a deployment elsewhere runs
    the same rules."""
    offenders = {
        str(path.relative_to(PACKAGE)): [
            s for s in code_strings(path) if any(n in s.lower() for n in BUNDLED_NAMES)
        ]
        for path in (PACKAGE / layer).rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


BUNDLED_REGIONS = ("andorr", "helsin")  # the bundled extracts' regions, in any language (Andorre)


def test_no_file_of_the_shared_package_names_a_bundled_region() -> None:
    """A region is data built from its extracts (``tripagent region build``, ``NAME.places.json`` beside
    them): no code, comment, docstring or data file of ``shared/`` names the bundled ones, so that a
    deployment elsewhere needs no change there."""
    import subprocess

    tracked = subprocess.run(
        ["git", "ls-files", "shared/"], cwd=PACKAGE.parents[1], capture_output=True, text=True, check=True
    ).stdout.split()
    offenders = {
        path: [
            line.strip()[:80] for line in text.splitlines() if any(n in line.lower() for n in BUNDLED_REGIONS)
        ]
        for path in tracked
        if path.endswith((".py", ".json", ".md", ".txt", ".toml"))
        and (text := (PACKAGE.parents[1] / path).read_text())
    }
    assert {k: v for k, v in offenders.items() if v} == {}
