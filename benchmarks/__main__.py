"""Run every benchmark and print its ratios; exit 1 if a goal is missed."""

from __future__ import annotations

import sys

from benchmarks import cold_import, places


def main() -> int:
    ok = cold_import.report()
    ok &= places.report()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
