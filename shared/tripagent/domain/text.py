"""Names compared as people mean them: case, accents and punctuation fold away."""

from __future__ import annotations

import re
import unicodedata

_SEPARATORS = re.compile(r"[\s\-‐‑‒–—_'’`.,/()\"“”«»#]+")


def normalize(text: str) -> str:
    """``"Sant Julià de Lòria"`` → ``"sant julia de loria"``; ``"Saint-Julien-de-Lòria"`` → ``"saint julien
    de loria"``: case, accents and punctuation fold away."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    stripped = (
        stripped.replace("ß", "ss").replace("ø", "o").replace("æ", "ae").replace("œ", "oe").replace("ł", "l")
    )
    return _SEPARATORS.sub(" ", stripped).strip()
