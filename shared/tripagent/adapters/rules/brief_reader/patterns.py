"""Patterns compiled on first use: the reader holds a few hundred, and a turn that never needs one (or a
function that never reads a brief) should not pay to compile it. ``lazy`` stands for ``re.compile``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, cast

_METHODS = (
    "search",
    "match",
    "fullmatch",
    "sub",
    "subn",
    "split",
    "findall",
    "finditer",
    "groupindex",
    "groups",
)


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern  # (read without compiling: other patterns are built from it)
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        """The first use of any of a pattern's methods compiles it, and keeps the compiled one's methods
        (later calls do not come here)."""
        compiled = re.compile(self.pattern, self.flags)
        for method in _METHODS:
            self.__dict__[method] = getattr(compiled, method)
        return getattr(compiled, name)


def one_of(alternatives: Iterable[str]) -> str:
    """``a|b|c`` for a group, longest first; a pattern that matches nothing when there are none (a
    region whose data gives no words of a kind: an empty group would match everywhere)."""
    words = sorted(alternatives, key=len, reverse=True)
    return "|".join(words) if words else "(?!)"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile``, on first use."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))
