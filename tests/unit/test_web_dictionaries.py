"""The web app's words: every language has every key, each sentence keeps the placeholders its English
has, and the components write no sentence of their own (everything goes through the dictionaries)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
CHROME = ROOT / "web" / "src" / "locales"
SHARED = ROOT / "shared" / "tripagent" / "data" / "labels"
LANGUAGES = ("en", "fr", "zh-Hans")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def dictionary(language: str) -> dict[str, str]:
    chrome: dict[str, str] = json.loads((CHROME / f"{language}.json").read_text())
    shared: dict[str, str] = json.loads((SHARED / f"{language}.json").read_text())
    return shared | chrome


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_every_key_with_its_placeholders(language: str) -> None:
    english, other = dictionary("en"), dictionary(language)
    assert sorted(set(english) - set(other)) == []  # missing here
    assert sorted(set(other) - set(english)) == []  # unknown to the app
    changed = {
        key: (sorted(PLACEHOLDER.findall(text)), sorted(PLACEHOLDER.findall(other[key])))
        for key, text in english.items()
        if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(other[key]))
    }
    assert changed == {}
    assert all(text.strip() for text in other.values())


# Text between tags, or in the attributes people read or hear, that is a word of English and not a value
JSX_TEXT = re.compile(
    r"(?<!=)>\s*[A-Za-z][A-Za-z ,.:;!?…'-]{2,}\s*<|(?:aria-label|placeholder|title)=\"[A-Za-z][^\"]*\""
)


def test_the_components_write_no_sentence_of_their_own() -> None:
    found = {
        str(path.relative_to(ROOT)): JSX_TEXT.findall(path.read_text())
        for path in (ROOT / "web" / "src" / "components").glob("*.tsx")
    }
    assert {k: v for k, v in found.items() if v} == {}


def test_every_operation_of_the_registry_has_its_name_and_its_sentence() -> None:
    """The cards, toasts and forms write an operation from ``op.<name>`` and ``opName.<name>``: a new
    operation without them would read as its code."""
    from tripagent.domain.ops import REGISTRY

    english = dictionary("en")
    missing = [k for name in REGISTRY for k in (f"op.{name}", f"opName.{name}") if k not in english]
    assert missing == []
