"""Which part of the corpus an item belongs to: a fixed 30 % held out, by a hash of its id, so that the
split never depends on who wrote an item or when, and a new batch splits the same way as the old ones.

The held-out part is scored once, when a piece of work is finished (a release), never while tuning:
a figure looked at to choose between two rules is a development figure. Conversations the offline
reader was tuned on carry ``"tuned": true`` wherever the rule puts them; its honest held-out figure is
the one on the others (``make eval`` prints both), while a model never tuned on any is measured on all.
"""

from __future__ import annotations

import hashlib
from typing import Literal

Part = Literal["dev", "heldout"]
PARTS: tuple[Part, ...] = ("dev", "heldout")
HELD_OUT_TENTHS = 3


def part_of(item_id: str) -> Part:
    """The part an item's id falls in: 3 ids in 10 are held out."""
    return (
        "heldout" if int(hashlib.sha256(item_id.encode()).hexdigest(), 16) % 10 < HELD_OUT_TENTHS else "dev"
    )
