"""``python -m benchmarks.soak`` (``make soak``): one member alone, then the soak with its faults, then the
checks."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.soak.faults import AI_TIMEOUT_S, FAULT_MAX_S, FAULTS, heal, inject, recovery_s
from benchmarks.soak.invariants import report
from benchmarks.soak.members import Ledger, member_class

CHILDREN: list[subprocess.Popen[bytes]] = []  # helper processes to end with the soak (the fake model)
ALONE_WARMUP_S, ALONE_S = 45.0, 30.0  # one member's run, before the soak: at most its warm-up, measured
# What a member's tasks call (not approvals, which wait for a suggestion, nor its first trip and editors)
TASK_ROUTES = {
    "GET /me", "GET /trips", "GET /trips/{id}", "GET suggestions", "POST ops", "POST ai-chat",
    "POST ai-generate", "POST agent/chat", "POST mentions",
}  # fmt: skip


def _start_stack(log: Path, faults: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """``tripagent dev`` on free ports, a process of its own (Locust's gevent patches this one). With the
    store's fault, DynamoDB Local keeps its data on disk (a directory of the soak's own, emptied first), so
    that it survives its stop."""
    import shutil

    import httpx
    from tripagent_local.engines import free_port

    ports = {"PORT": free_port(), "DYNAMODB_PORT": free_port(), "VALHALLA_PORT": free_port()}
    env = {**os.environ, **{k: str(v) for k, v in ports.items()}}
    if "dynamodb" in faults:
        data = log.parent.parent / "soak-dynamodb"
        shutil.rmtree(data, ignore_errors=True)
        env["PERSIST_DIR"] = str(data)
    if "model" in faults:  # the deployment's provider: an OpenAI-compatible server that fails on command
        model_port = free_port()
        with (log.parent / "soak-model.log").open("wb") as out:
            model = subprocess.Popen(
                [sys.executable, "-m", "benchmarks.fake_model", "--port", str(model_port)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        CHILDREN.append(model)
        os.environ["SOAK_MODEL_URL"] = f"http://127.0.0.1:{model_port}"
        env |= {
            "AI_PROVIDER": "openai",
            "AI_MODEL": "fake",
            "AI_BASE_URL": f"http://127.0.0.1:{model_port}/v1",
            "AI_TIMEOUT_S": str(AI_TIMEOUT_S),
        }
    tripagent = Path(sys.executable).with_name("tripagent")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [tripagent, "dev", "--quiet"], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{ports['PORT']}"
    os.environ["SOAK_DYNAMODB_PORT"] = str(ports["DYNAMODB_PORT"])  # for the invariants read from the table
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"tripagent dev exited; see {log}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code in (200, 503):
                return process, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit(f"tripagent dev did not answer; see {log}")


def run(users: int, seconds: float, faults: list[str]) -> bool:
    from tripagent_local.paths import STATE_DIR

    log = STATE_DIR / "logs" / "soak-dev.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    process, url = _start_stack(log, faults)
    try:
        import gevent
        from locust.env import Environment

        ledger = Ledger()
        member = member_class(ledger, {})
        ledger.alone_p95_ms = _one_member(member, url)
        # stop_timeout: a member finishes the request in flight, so that what it saw is what happened
        env = Environment(user_classes=[member], host=url, stop_timeout=30)
        runner = env.create_local_runner()
        runner.start(users, spawn_rate=max(1.0, users / 4))
        started = time.monotonic()
        if faults:
            lasting = min(seconds / 3, FAULT_MAX_S)
            gevent.sleep(seconds / 3)
            for name in faults:
                inject(url, name, lasting)
            gevent.sleep(lasting)
            for name in faults:
                heal(url, name)
            recoveries = [gevent.spawn(recovery_s, url, name) for name in faults]
            gevent.joinall(recoveries)
            ledger.recovered_after_s = {name: r.value for name, r in zip(faults, recoveries, strict=True)}
        gevent.sleep(max(0.0, seconds - (time.monotonic() - started)))
        members = runner.user_count
        runner.stop()  # waits, up to stop_timeout, for the requests in flight
        runner.quit()
        import httpx

        idle = bool(httpx.get(f"{url}/_local/idle?timeout=60", timeout=90).json()["idle"])
        gevent.sleep(3)  # the last pushes on their way (the stream delivers after the table wrote)
        ledger.listening = False
        gevent.sleep(2.5)  # each listener's recv times out and it closes its socket
        return report(env, url, ledger, members, faults, idle)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
        for child in CHILDREN:
            child.terminate()


def _one_member(member: type, url: str) -> float:
    """The p95 of the same mix with one member on the same stack, measured first: once every route has
    been called twice (its functions' first environments started), for ``ALONE_S``, with no pause between
    actions so that the p95 rests on a few hundred requests (one member alone has nobody to wait for)."""
    import gevent
    from locust import constant
    from locust.env import Environment

    alone = type("AloneMember", (member,), {"wait_time": constant(0.02)})
    env = Environment(user_classes=[alone], host=url, stop_timeout=30)
    runner = env.create_local_runner()
    runner.start(1, spawn_rate=1)
    warm_until = time.monotonic() + ALONE_WARMUP_S
    while time.monotonic() < warm_until:
        counts = {e.name: e.num_requests for e in env.stats.entries.values()}
        if all(counts.get(route, 0) >= 2 for route in TASK_ROUTES):
            break
        gevent.sleep(0.5)
    env.stats.reset_all()
    gevent.sleep(ALONE_S)
    runner.stop()
    runner.quit()
    return float(env.stats.total.get_response_time_percentile(0.95))


def main() -> int:
    parser = argparse.ArgumentParser(prog="make soak")
    parser.add_argument("--users", type=int, default=int(os.environ.get("SOAK_USERS", "16")))
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", "120")))
    parser.add_argument(
        "--fault",
        default=os.environ.get("SOAK_FAULT", ""),
        help=f"{', '.join(FAULTS)}, several with commas, or all (together, from 1/3 to 2/3 of the run)",
    )
    args = parser.parse_args()
    faults = list(FAULTS) if args.fault == "all" else [f for f in args.fault.split(",") if f]
    if unknown := set(faults) - set(FAULTS):
        parser.error(f"no fault {', '.join(sorted(unknown))}: {', '.join(FAULTS)} or all")
    return 0 if run(args.users, args.seconds, faults) else 1


if __name__ == "__main__":
    sys.exit(main())
