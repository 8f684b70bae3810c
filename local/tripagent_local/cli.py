"""``tripagent``: the local stack's command line.

tripagent dev [--port N] [--persist]        run the whole system locally (make dev)
tripagent token USER [--ttl S]              print a valid development token for USER
tripagent invoke FunctionId --event FILE    invoke one function with an event, as `sam local invoke`
tripagent put-event --detail-type T --source S --detail JSON   put an event on the running local bus
tripagent region build PBF… [--name N] [--elevation DIR]   build a region bundle from OpenStreetMap extracts
tripagent region bundled                    build the bundled region (valhalla/data) and package its index
tripagent region list                       the regions built here and their current versions
tripagent engine stop|start dynamodb|valhalla   stop or start an engine of the running stack (faults)
tripagent fault consumers RATE               make the stream, queue and bus consumers fail mid-batch (0 heals)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from tripagent_local import devauth


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tripagent", description="Tripagent's local stack")
    sub = parser.add_subparsers(dest="command", required=True)

    dev = sub.add_parser("dev", help="run the whole system locally")
    dev.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    dev.add_argument("--persist", action="store_true", help="keep DynamoDB Local data in .local/dynamodb")
    dev.add_argument("--quiet", action="store_true", help="no banner (tests)")

    token = sub.add_parser("token", help="print a development token")
    token.add_argument("user")
    token.add_argument("--ttl", type=int, default=devauth.TOKEN_TTL_S)

    invoke = sub.add_parser("invoke", help="invoke one function with an event")
    invoke.add_argument("function_id")
    invoke.add_argument("--event", type=Path, required=True)

    put = sub.add_parser("put-event", help="put an event on the running local bus")
    put.add_argument("--source", required=True)
    put.add_argument("--detail-type", required=True)
    put.add_argument("--detail", required=True, help="JSON object")
    put.add_argument("--url", default=f"http://127.0.0.1:{os.environ.get('PORT', '3000')}")

    purge = sub.add_parser("purge", help="delete agent sessions idle past the retention window")
    purge.add_argument("--idle-days", type=int, default=None, help="default: SESSION_RETENTION_DAYS or 30")

    engine = sub.add_parser("engine", help="stop or start an engine of the running stack")
    engine.add_argument("action", choices=("stop", "start"))
    engine.add_argument("name", choices=("dynamodb", "valhalla"))
    engine.add_argument("--url", default=f"http://127.0.0.1:{os.environ.get('PORT', '3000')}")

    fault = sub.add_parser("fault", help="inject faults into the running stack's consumers")
    fault.add_argument("target", choices=("consumers",))
    fault.add_argument("rate", type=float, help="the share of invocations that fail mid-batch; 0 heals")
    fault.add_argument("--url", default=f"http://127.0.0.1:{os.environ.get('PORT', '3000')}")

    publish = sub.add_parser("publish-web", help="upload web/dist and its config.json to a deployed stack")
    publish.add_argument("--stack", default="tripagent")
    publish.add_argument("--tile-url", default=os.environ.get("TILE_URL") or None)

    region = sub.add_parser("region", help="build region bundles: routing tiles, elevation and places")
    region_sub = region.add_subparsers(dest="region_command", required=True)
    build = region_sub.add_parser("build", help="build a region from one or more OpenStreetMap extracts")
    build.add_argument("pbf", nargs="+", type=Path)
    build.add_argument("--name", help="the region's name (default: the extracts' names joined by +)")
    build.add_argument(
        "--elevation", type=Path, action="append", help="a folder of SRTM .hgt/.hgt.gz/.hgt.zip tiles"
    )
    build.add_argument("--force", action="store_true", help="build again even if nothing changed")
    region_sub.add_parser("bundled", help="build the bundled region from valhalla/data")
    region_sub.add_parser("list", help="the regions built here")

    args = parser.parse_args(argv)
    if args.command == "token":
        print(devauth.mint_token(args.user, ttl_s=args.ttl))
        return 0
    if args.command == "region":
        return _region(args)
    if args.command == "invoke":
        return _invoke(args.function_id, args.event)
    if args.command == "purge":
        return _purge(args.idle_days)
    if args.command == "engine":
        return _engine(args.url, args.action, args.name)
    if args.command == "fault":
        return _fault(args.url, args.target, args.rate)
    if args.command == "publish-web":
        return _publish_web(args.stack, args.tile_url)
    if args.command == "put-event":
        return _put_event(args.url, args.source, args.detail_type, args.detail)
    return _dev(args.port, args.persist, args.quiet)


def _region(args: argparse.Namespace) -> int:
    from tripagent_local.regions import bundle as bundles
    from tripagent_local.regions.build import build_region
    from tripagent_local.regions.errors import RegionBuildError
    from tripagent_local.regions.serve import bundled

    try:
        if args.region_command == "build":
            print(f"building region from {', '.join(str(p) for p in args.pbf)}", flush=True)
            found = build_region(
                args.pbf, name=args.name, elevation=args.elevation, force=args.force, log=sys.stdout
            )
        elif args.region_command == "bundled":
            found = bundled()
        else:
            for b in bundles.built():
                m = b.manifest
                areas = ", ".join(a["label"] for a in m["areas"])
                size = m["files"]["tiles.tar"]["bytes"] / 1e6
                print(f"{b.name:24} {b.version}  {areas}  ({size:.1f} MB tiles)")
            return 0
    except RegionBuildError as exc:
        print(f"tripagent region: {exc}", file=sys.stderr)
        return 2
    m = found.manifest
    print(
        f"region {found.name} {found.version}: {', '.join(a['label'] for a in m['areas'])}; "
        f"{m['places']['places']} places, {m['places']['lodging']} lodgings; "
        f"smoke route {m['smoke']['from']['name']} → {m['smoke']['to']['name']} {m['smoke']['km']} km; "
        f"built in {m['seconds']['total']} s\n  {found.path}\n  serve it: make dev REGIONS={found.name}"
    )
    return 0


def _publish_web(stack_name: str, tile_url: str | None) -> int:
    import boto3

    from tripagent_local.publish_web import publish, stack_outputs

    outputs = stack_outputs(boto3.client("cloudformation"), stack_name)
    keys = publish(boto3.client("s3"), boto3.client("cloudfront"), outputs, tile_url=tile_url)
    print(f"published {len(keys)} files; the app is at {outputs['WebUrl']}")
    return 0


def _invoke(function_id: str, event_path: Path) -> int:
    from tripagent_local.lambdas import FunctionError
    from tripagent_local.stack import LocalStack, StackConfig

    # Function output goes to stderr, as with `sam local invoke`: stdout is the result.
    stack = LocalStack(StackConfig.from_env(start_engines=False, function_log=sys.stderr))
    if function_id not in stack.functions.specs:
        print(
            f"no function {function_id}; the template has: {', '.join(stack.functions.specs)}",
            file=sys.stderr,
        )
        return 2
    event = json.loads(event_path.read_text())  # the engines of a running `make dev` are used if present
    try:
        result = stack.functions.invoke(function_id, event)
    except FunctionError as exc:
        print(json.dumps({"errorType": exc.error_type, "errorMessage": exc.error_message}, indent=2))
        return 1
    finally:
        stack.stop()
    print(json.dumps(result, indent=2, default=str))
    return 0


def _purge(idle_days: int | None) -> int:
    """The scheduled purge, on demand, against the running local stack's DynamoDB Local."""
    import datetime as dt

    from tripagent.application.sessions import purge_idle_sessions
    from tripagent.bootstrap import session_purger
    from tripagent.settings import session_settings

    from tripagent_local.stack import LocalStack, StackConfig

    stack = LocalStack(StackConfig.from_env(start_engines=False))
    os.environ.update(stack.function_environment("PurgeSessionsFunction"))  # run here as that function
    days = idle_days if idle_days is not None else session_settings().session_retention_days
    purged = purge_idle_sessions(session_purger(), now=dt.datetime.now(dt.UTC), idle_days=days)
    print(json.dumps({"purged": purged, "idleDays": days}))
    return 0


def _engine(url: str, action: str, name: str) -> int:
    import httpx

    response = httpx.post(f"{url}/_local/engines/{name}/{action}", timeout=60)
    print(response.text)
    return 0 if response.status_code == 200 else 1


def _fault(url: str, target: str, rate: float) -> int:
    import httpx

    response = httpx.post(f"{url}/_local/faults/{target}", json={"rate": rate}, timeout=30)
    print(response.text)
    return 0 if response.status_code == 200 else 1


def _put_event(url: str, source: str, detail_type: str, detail: str) -> int:
    import boto3

    client: Any = boto3.client(
        "events",
        endpoint_url=url,
        region_name="eu-west-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    from tripagent_local.stack import STACK_NAME

    result = client.put_events(
        Entries=[
            {
                "Source": source,
                "DetailType": detail_type,
                "Detail": detail,
                "EventBusName": f"{STACK_NAME}-bus",
            }
        ]
    )
    print(json.dumps({k: v for k, v in result.items() if k != "ResponseMetadata"}))
    return 1 if result["FailedEntryCount"] else 0


def _dev(port: int, persist: bool, quiet: bool) -> int:
    import warnings

    import uvicorn

    # Metrics are off locally; Powertools still warns on every empty flush.
    warnings.filterwarnings("ignore", message="No application metrics to publish")

    from tripagent_local.regions.errors import RegionBuildError
    from tripagent_local.server import gateway_config
    from tripagent_local.stack import LocalStack, StackConfig

    # --persist, or PERSIST / PERSIST_DIR in the environment
    stack = LocalStack(StackConfig.from_env(port=port, **({"persist": True} if persist else {})))
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        stack.start()
        if not quiet:
            print(_banner(stack), flush=True)
        uvicorn.Server(gateway_config(stack, port)).run()
    except KeyboardInterrupt:
        pass
    except RegionBuildError as exc:  # REGIONS names a region not built here, or its extracts are broken
        print(f"tripagent dev: {exc}", file=sys.stderr, flush=True)
        return 2
    finally:
        stack.stop()
        if not quiet:
            print("tripagent: every process stopped", flush=True)
    return 0


def _banner(stack: Any) -> str:
    token = devauth.mint_token("alice", state_dir=stack.config.state_dir)
    url = stack.url
    where = stack.config.persist_dir or stack.config.state_dir / "dynamodb"
    storage = f"persistent ({where})" if stack.config.persist else "in memory"
    provider = os.environ.get("AI_PROVIDER", "rules")
    ws = url.replace("http://", "ws://") + stack.websocket.path if stack.websocket else "(none)"
    manifest = stack.bundle.manifest
    areas = ", ".join(a["label"] for a in manifest["areas"])
    smoke = manifest["smoke"]
    brief = f"2 days by road bike from {smoke['from']['name']} to {smoke['to']['name']}"
    brief = brief.replace('"', "").replace("'", "'\\''")  # inside the shell's single quotes
    return f"""
Tripagent is running at {url}  (DynamoDB Local: {storage}; model provider: {provider})
  region     {stack.bundle.name} {stack.bundle.version}: {areas}  (make region PBF=…, make dev REGIONS=…)
  web app    {url}/  (sign in with any user name: alice, bob, ...)
  API docs   {url}/docs
  health     {url}/health
  realtime   {ws}?token=$TOKEN  (then send {{"action": "subscribe", "tripId": "..."}})

A development token for user "alice" (valid 12 h; another: make token USER=bob):
  export TOKEN={token}

Try:
  curl -s {url}/health
  curl -s -H "Authorization: Bearer $TOKEN" {url}/me
  curl -s -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" {url}/trips/ai-generate \\
       -d '{{"brief": "{brief}"}}'

Ctrl-C stops every process.
"""


if __name__ == "__main__":
    raise SystemExit(main())
