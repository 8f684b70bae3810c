"""Why a region build stops: a stable code and a sentence for the person who ran it."""

from __future__ import annotations


class RegionBuildError(Exception):
    """The build stopped before publishing: the region's previous version keeps serving."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"
