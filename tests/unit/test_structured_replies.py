"""A corpus of realistic malformed model replies, and what the lenient parser makes of them."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict
from tripagent.application.structured import Parsed, Unparseable, parse_structured


class Verdict(BaseModel):
    model_config = ConfigDict(extra="ignore")

    reply: str
    readyToGenerate: bool = False
    days: int | None = None
    places: list[str] = []


GOOD = {"reply": "Where do you start?", "readyToGenerate": False, "days": 3, "places": ["Ordino"]}

CORPUS: list[tuple[str, str, dict[str, object] | None]] = [
    (
        "plain",
        '{"reply": "Where do you start?", "readyToGenerate": false, "days": 3, "places": ["Ordino"]}',
        GOOD,
    ),
    ("json fence", '```json\n{"reply": "Where do you start?", "days": 3, "places": ["Ordino"]}\n```', GOOD),
    ("bare fence", '```\n{"reply": "Where do you start?", "days": 3, "places": ["Ordino"]}\n```', GOOD),
    (
        "fence with prose",
        'Sure! Here you go:\n```json\n{"reply": "Where do you start?", "days": 3, '
        '"places": ["Ordino"]}\n```\nLet me know.',
        GOOD,
    ),
    (
        "prose before",
        'Here is the JSON: {"reply": "Where do you start?", "days": 3, "places": ["Ordino"]}',
        GOOD,
    ),
    (
        "prose after",
        '{"reply": "Where do you start?", "days": 3, "places": ["Ordino"]} Hope this helps!',
        GOOD,
    ),
    ("trailing comma", '{"reply": "Where do you start?", "days": 3, "places": ["Ordino",],}', GOOD),
    ("single quotes", "{'reply': 'Where do you start?', 'days': 3, 'places': ['Ordino']}", GOOD),
    (
        "line comment",
        '{\n  "reply": "Where do you start?", // the question\n  "days": 3,\n  "places": ["Ordino"]\n}',
        GOOD,
    ),
    ("block comment", '{"reply": "Where do you start?", /* asked */ "days": 3, "places": ["Ordino"]}', GOOD),
    (
        "python booleans",
        "{'reply': 'Where do you start?', 'readyToGenerate': False, 'days': 3, 'places': ['Ordino']}",
        GOOD,
    ),
    ("unquoted keys", '{reply: "Where do you start?", days: 3, places: ["Ordino"]}', GOOD),
    ("truncated string", '{"reply": "Where do you start?", "days": 3, "places": ["Ordino"', GOOD),
    ("truncated after key", '{"reply": "Where do you start?", "days": 3, "places": ["Ordino"], "ready', GOOD),
    (
        "missing optional fields",
        '{"reply": "Where do you start?"}',
        {"reply": "Where do you start?", "readyToGenerate": False, "days": None, "places": []},
    ),
    (
        "extra fields",
        '{"reply": "Where do you start?", "days": 3, "places": ["Ordino"], "mood": "cheerful", '
        '"internal": {"x": 1}}',
        GOOD,
    ),
    ("number as string", '{"reply": "Where do you start?", "days": "3", "places": ["Ordino"]}', GOOD),
    (
        "bool as string",
        '{"reply": "Where do you start?", "readyToGenerate": "false", "days": 3, "places": ["Ordino"]}',
        GOOD,
    ),
    (
        "newlines inside",
        '{\n"reply":\n"Where do you start?",\n"days":\n3,\n"places":\n[\n"Ordino"\n]\n}',
        GOOD,
    ),
    (
        "unicode",
        '{"reply": "D\'on sortiu? Sant Julià de Lòria?", "days": 2}',
        {"reply": "D'on sortiu? Sant Julià de Lòria?", "readyToGenerate": False, "days": 2, "places": []},
    ),
    (
        "escaped quotes",
        '{"reply": "Start at \\"Ordino\\"?", "days": 3}',
        {"reply": 'Start at "Ordino"?', "readyToGenerate": False, "days": 3, "places": []},
    ),
    ("crlf", '{\r\n"reply": "Where do you start?",\r\n"days": 3,\r\n"places": ["Ordino"]\r\n}', GOOD),
    (
        "leading bom and spaces",
        '\ufeff   {"reply": "Where do you start?", "days": 3, "places": ["Ordino"]}  ',
        GOOD,
    ),
    (
        "two fences, first valid",
        '```json\n{"reply": "Where do you start?", "days": 3, "places": ["Ordino"]}\n```\n'
        '```json\n{"reply": "other"}\n```',
        GOOD,
    ),
    ("unclosed fence", '```json\n{"reply": "Where do you start?", "days": 3, "places": ["Ordino"]}', GOOD),
    ("missing closing brace", '{"reply": "Where do you start?", "days": 3, "places": ["Ordino"]', GOOD),
    (
        "nested in prose with braces",
        'I think {this} matters. {"reply": "Where do you start?", "days": 3, "places": ["Ordino"]}',
        GOOD,
    ),
    # hopeless or wrong: an Unparseable, never an exception
    ("empty", "", None),
    ("whitespace", "   \n  ", None),
    ("prose only", "I'm sorry, I can't help with planning that trip.", None),
    ("array not object", '["Ordino", "Canillo"]', None),
    ("missing required field", '{"days": 3, "places": ["Ordino"]}', None),
    ("wrong type beyond repair", '{"reply": "x", "days": "three", "places": ["Ordino"]}', None),
    ("html error page", "<html><body>502 Bad Gateway</body></html>", None),
    ("just a number", "42", None),
]


@pytest.mark.parametrize(("label", "text", "expected"), CORPUS, ids=[c[0] for c in CORPUS])
def test_corpus(label: str, text: str, expected: dict[str, object] | None) -> None:
    result = parse_structured(text, Verdict)
    if expected is None:
        assert isinstance(result, Unparseable)
        assert result.reason
        assert result.raw == text
    else:
        assert isinstance(result, Parsed), result
        assert result.value.model_dump() == {
            "readyToGenerate": False,
            "days": None,
            "places": [],
            **expected,
        }


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 30


def test_a_validation_failure_explains_itself_for_a_corrective_reprompt() -> None:
    result = parse_structured('{"days": 3}', Verdict)
    assert isinstance(result, Unparseable)
    assert "reply" in result.reason
