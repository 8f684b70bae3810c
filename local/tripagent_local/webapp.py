"""The web app, served by the local gateway as CloudFront serves it in AWS: the built static files of
``web/dist`` at ``/``, and ``/config.json``, the runtime configuration the app reads at start (in AWS
the deploy step writes the same file into the bucket), so one bundle runs anywhere.

``python -m tripagent_local.webapp openapi PATH`` writes the API's OpenAPI document, from which the app's
API client types are generated (``web/src/api/schema.d.ts``).
"""

from __future__ import annotations

import json
import mimetypes
import os
import sys
from pathlib import Path
from typing import Any

from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

from tripagent_local import devauth
from tripagent_local.paths import REPO_ROOT

WEB_DIST = REPO_ROOT / "web" / "dist"
NOT_BUILT = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tripagent</title></head>
<body><main><h1>The web app is not built</h1><p>Run <code>make dev</code> (it builds <code>web/</code>),
or <code>make web</code>.</p></main></body></html>"""


def runtime_config(
    *,
    api_url: str,
    agent_url: str,
    websocket_url: str | None,
    authority: str,
    client_id: str,
    metadata_url: str | None = None,
    tile_url: str | None = None,
    tile_attribution: str | None = None,
) -> dict[str, Any]:
    """The one shape of ``config.json`` (``web/src/config.ts`` reads it), locally and in AWS."""
    return {
        "apiUrl": api_url.rstrip("/"),
        "agentUrl": agent_url.rstrip("/"),
        "webSocketUrl": websocket_url,
        "oidc": {
            "authority": authority,
            "metadataUrl": metadata_url,
            "clientId": client_id,
            "scope": "openid profile",
        },
        # A raster tile URL template ({z}/{x}/{y}); none by default, as these machines are offline.
        "tileUrl": tile_url,
        "tileAttribution": tile_attribution,
    }


def local_runtime_config(base_url: str, websocket_path: str | None) -> dict[str, Any]:
    ws_base = base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    return runtime_config(
        api_url=base_url,
        agent_url=base_url,  # in AWS the streamed chat is a Function URL of its own
        websocket_url=f"{ws_base}{websocket_path}" if websocket_path else None,
        authority=devauth.ISSUER,
        client_id=devauth.AUDIENCE,
        # The tokens' issuer is not a URL of this machine: discovery is the gateway's.
        metadata_url=f"{base_url}/.well-known/openid-configuration",
        tile_url=os.environ.get("TILE_URL") or None,
        tile_attribution=os.environ.get("TILE_ATTRIBUTION") or None,
    )


def serve_static(path: str, dist: Path = WEB_DIST) -> Response | None:
    """A file of the built app, or None when the path is not one (the gateway then answers 404)."""
    if path in ("/", "/index.html"):
        index = dist / "index.html"
        if not index.is_file():
            return HTMLResponse(NOT_BUILT, status_code=503)
        return FileResponse(index, headers={"cache-control": "no-cache"})
    relative = path.lstrip("/")
    try:
        candidate = (dist / relative).resolve()
        if not relative or not candidate.is_file() or not candidate.is_relative_to(dist.resolve()):
            return None
    except (ValueError, OSError):  # a NUL byte, a name too long: not a file of the app
        return None
    media_type = mimetypes.guess_type(candidate.name)[0] or "application/octet-stream"
    # Hashed asset names never change content: cache them; everything else revalidates.
    immutable = "/assets/" in path and "-" in candidate.stem
    cache = "public, max-age=31536000, immutable" if immutable else "no-cache"
    return FileResponse(candidate, media_type=media_type, headers={"cache-control": cache})


def config_response(base_url: str, websocket_path: str | None) -> Response:
    return JSONResponse(local_runtime_config(base_url, websocket_path), headers={"cache-control": "no-cache"})


def write_openapi(path: Path) -> None:
    from tripagent.entrypoints.http.docs import openapi_document

    path.write_text(json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "openapi":
        sys.exit("usage: python -m tripagent_local.webapp openapi PATH")
    write_openapi(Path(sys.argv[2]))
