"""Cold import of each function as built for Lambda, against a minimal Powertools + boto3 handler.

Each sample is a fresh interpreter (``python -S``: no site-packages) with only the built layers and the
function's directory on its path, as in the Lambda runtime; the baseline runs the same way with the same
layers. Samples are interleaved so that machine noise hits every function alike; medians are compared.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

from tripagent_local.paths import REPO_ROOT
from tripagent_local.stack import LocalStack, StackConfig

BUILD = REPO_ROOT / ".aws-sam" / "build"
GOAL = 1.0
PROBE = "import time; t = time.perf_counter(); import app; print(time.perf_counter() - t)"


def _sample(code_dir: Path, env: dict[str, str]) -> float:
    path = [code_dir, BUILD / "TripagentLayer" / "python", BUILD / "DependenciesLayer" / "python"]
    out = subprocess.run(
        [sys.executable, "-S", "-c", PROBE],
        env={**env, "PYTHONPATH": ":".join(map(str, path)), "PYTHONDONTWRITEBYTECODE": "1"},
        cwd=code_dir,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def run(samples: int = 15) -> list[tuple[str, float, float]]:
    if not (BUILD / "template.yaml").exists():
        raise SystemExit("no .aws-sam/build: run `make build`")
    stack = LocalStack(StackConfig(start_engines=False))
    functions = stack.template.functions()
    envs = {fid: {**stack.function_environment(fid), "PATH": "/usr/bin:/bin"} for fid in functions}
    envs["minimal"] = envs["TripsFunction"]
    targets = {"minimal": REPO_ROOT / "benchmarks" / "minimal"} | {fid: BUILD / fid for fid in functions}
    for name, code_dir in targets.items():  # warm the OS page cache and the .pyc files
        _sample(code_dir, envs[name])
    times: dict[str, list[float]] = {name: [] for name in targets}
    for _ in range(samples):
        for name, code_dir in targets.items():
            times[name].append(_sample(code_dir, envs[name]))
    baseline = statistics.median(times.pop("minimal"))
    return [(name, statistics.median(t), statistics.median(t) / baseline) for name, t in times.items()] + [
        ("minimal", baseline, 1.0)
    ]


def report() -> bool:
    rows = run()
    print(f"cold import (median of 15, fresh interpreter, built layers) — goal: ratio ≤ {GOAL}")
    ok = True
    for name, seconds, ratio in rows:
        verdict = "" if name == "minimal" else ("ok" if ratio <= GOAL else "OVER")
        ok &= name == "minimal" or ratio <= GOAL
        print(f"  {name:<24} {seconds * 1000:7.1f} ms   ratio {ratio:4.2f}  {verdict}")
    return ok
