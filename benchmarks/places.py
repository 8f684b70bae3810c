"""Places: gazetteer load and first query after a cold import, then 1,000 queries, with memory.

Goals: first query ≤ 100 ms after the cold import, p50 ≤ 2 ms, resident memory ≤ 50 MB for the index
(the process's RSS growth from opening it through 1,000 queries; the whole process's RSS is printed too).
Measured in a fresh interpreter (``-S``) with the built layers only, as in Lambda.
"""

from __future__ import annotations

import json
import subprocess
import sys

from benchmarks.cold_import import BUILD

PROBE = r"""
import json, statistics, time

def rss_mb():
    with open("/proc/self/status") as fh:
        return next(int(l.split()[1]) for l in fh if l.startswith("VmRSS")) / 1024

t0 = time.perf_counter()
from tripagent.adapters.places.gazetteer import Gazetteer
g = Gazetteer()
before = rss_mb()
t1 = time.perf_counter()
g.search("Andorra la Vella")
first_ms = (time.perf_counter() - t1) * 1000
import_ms = (t1 - t0) * 1000
queries = ["Andorra la Vella", "Ordino", "Canillo", "Encamp", "La Massana", "Sant Julia de Loria", "Soldeu",
           "Escaldes", "Andora la Vela", "Canilo", "Barcelona", "Paris", "Helsinki", "Santa Coloma",
           "Arinsal",
           "Pal", "El Tarter", "Ransol", "Llorts", "Erts"]
times = []
for i in range(1000):
    q = queries[i % len(queries)]
    g.forget()  # measure the search, not the memo of answers
    t = time.perf_counter(); g.search(q); times.append((time.perf_counter() - t) * 1000)
times.sort()
print(json.dumps({"import_ms": import_ms, "first_ms": first_ms, "p50_ms": statistics.median(times),
                  "p95_ms": times[949], "rss_mb": rss_mb(), "index_mb": rss_mb() - before}))
"""


def report() -> bool:
    path = [BUILD / "TripagentLayer" / "python", BUILD / "DependenciesLayer" / "python"]
    out = subprocess.run(
        [sys.executable, "-S", "-c", PROBE],
        env={"PYTHONPATH": ":".join(map(str, path))},
        capture_output=True,
        text=True,
        check=True,
    )
    m = json.loads(out.stdout)
    checks = [
        ("first query after import", m["first_ms"], 100, "ms"),
        ("p50 of 1,000 queries", m["p50_ms"], 2, "ms"),
        ("memory of the index", m["index_mb"], 50, "MB"),
    ]
    print(
        f"places (gazetteer, built layers; import {m['import_ms']:.0f} ms, p95 {m['p95_ms']:.2f} ms, "
        f"process RSS {m['rss_mb']:.0f} MB)"
    )
    ok = True
    for label, value, goal, unit in checks:
        ok &= value <= goal
        print(
            f"  {label:<26} {value:8.2f} {unit}  goal ≤ {goal} {unit}  ratio {value / goal:4.2f}  "
            f"{'ok' if value <= goal else 'OVER'}"
        )
    return ok
