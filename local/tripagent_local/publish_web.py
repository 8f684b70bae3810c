"""Publish the built web app to a deployed stack: web/dist into its bucket, with the runtime
configuration (``config.json``) written from the stack's outputs, then the distribution's cached
entry points invalidated. Run after ``sam deploy``: ``make publish-web STACK=tripagent``."""

from __future__ import annotations

import json
import mimetypes
import time
from pathlib import Path
from typing import Any

from tripagent_local.webapp import WEB_DIST, runtime_config

# Hashed names never change content; the entry points must be read again on every visit.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
ENTRY_POINTS = ("/index.html", "/config.json", "/sw.js")


def stack_outputs(cloudformation: Any, stack_name: str) -> dict[str, str]:
    (stack,) = cloudformation.describe_stacks(StackName=stack_name)["Stacks"]
    return {o["OutputKey"]: o["OutputValue"] for o in stack.get("Outputs", [])}


def deployed_config(outputs: dict[str, str], *, tile_url: str | None = None) -> dict[str, Any]:
    if not outputs.get("OidcClientId"):
        raise SystemExit(
            "the stack has no OidcClientId output (JwtIssuer was given): write config.json by hand"
        )
    return runtime_config(
        api_url=outputs["ApiUrl"],
        agent_url=outputs["AgentChatStreamUrl"],
        websocket_url=outputs["WebSocketUrl"],
        authority=outputs["OidcAuthority"],
        client_id=outputs["OidcClientId"],
        tile_url=tile_url,
    )


def publish(
    s3: Any, cloudfront: Any, outputs: dict[str, str], *, dist: Path = WEB_DIST, tile_url: str | None = None
) -> list[str]:
    """Upload every file of ``dist`` (assets first, index.html last) and config.json; return the keys.
    Source maps stay here: they carry the app's whole source (``make web`` keeps them for local debugging)."""
    if not (dist / "index.html").is_file():
        raise SystemExit(f"{dist} has no index.html: run `make web` first")
    bucket = outputs["WebBucketName"]
    files = sorted(
        (p for p in dist.rglob("*") if p.is_file() and p.name != "meta.json" and p.suffix != ".map"),
        # the files that name the assets go up after them: a page or a service worker never names a
        # file that is not there yet
        key=lambda p: p.name in ("index.html", "sw.js"),
    )
    keys = []
    for path in files:
        key = path.relative_to(dist).as_posix()
        s3.put_object(
            Bucket=bucket,
            Key=key,
            Body=path.read_bytes(),
            ContentType=mimetypes.guess_type(path.name)[0] or "application/octet-stream",
            CacheControl=IMMUTABLE if key.startswith("assets/") else REVALIDATE,
        )
        keys.append(key)
    s3.put_object(
        Bucket=bucket,
        Key="config.json",
        Body=json.dumps(deployed_config(outputs, tile_url=tile_url)).encode(),
        ContentType="application/json",
        CacheControl=REVALIDATE,
    )
    keys.append("config.json")
    cloudfront.create_invalidation(
        DistributionId=outputs["WebDistributionId"],
        InvalidationBatch={
            "Paths": {"Quantity": len(ENTRY_POINTS), "Items": list(ENTRY_POINTS)},
            "CallerReference": f"tripagent-{time.time_ns()}",
        },
    )
    return keys
