"""Instants as the API and the store write them: ISO 8601 in UTC with milliseconds and a ``Z``."""

from __future__ import annotations

import datetime as dt


def iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_iso(text: str) -> dt.datetime:
    """An ISO instant; one without a zone is taken as UTC."""
    moment = dt.datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def epoch(text: str) -> int:
    return int(parse_iso(text).timestamp())
