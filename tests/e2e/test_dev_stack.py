"""The Foundation's promise, over HTTP against `tripagent dev`."""

from __future__ import annotations

import base64
import json
import signal
import subprocess
import sys
from pathlib import Path

import boto3
import httpx
import pytest
from tripagent_local.engines import port_is_free
from tripagent_local.paths import REPO_ROOT

from tests.e2e.conftest import DevServer, start_dev

TRIPAGENT = Path(sys.executable).with_name("tripagent")


def test_the_banner_shows_the_url_a_token_and_curl_lines(dev_server: DevServer) -> None:
    banner = dev_server.log.read_text()
    assert dev_server.url in banner
    assert f"web app    {dev_server.url}/" in banner
    assert "export TOKEN=ey" in banner
    assert banner.count("curl ") >= 2
    assert "region     bundled " in banner  # the region served, and a brief between its own places
    assert "Andorra, central Helsinki" in banner


def test_health_is_all_green_with_a_real_route(dev_server: DevServer) -> None:
    response = httpx.get(f"{dev_server.url}/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert {name: e["state"] for name, e in body["engines"].items()} == {
        "dynamodb": "ok",
        "eventbridge": "ok",
        "valhalla": "ok",
    }
    assert "bicycle route" in body["engines"]["valhalla"]["detail"]


def test_a_request_with_a_token_reaches_its_handler(dev_server: DevServer) -> None:
    response = httpx.get(f"{dev_server.url}/me", headers=dev_server.auth("bob"))
    assert response.status_code == 200
    assert response.json() == {"userId": "bob"}


def test_the_printed_token_works(dev_server: DevServer) -> None:
    banner = dev_server.log.read_text()
    token = banner.split("export TOKEN=", 1)[1].split()[0]
    response = httpx.get(f"{dev_server.url}/me", headers={"Authorization": f"Bearer {token}"})
    assert response.json() == {"userId": "alice"}


def test_the_token_command_prints_a_token_the_gateway_accepts(dev_server: DevServer) -> None:
    token = subprocess.run(
        [TRIPAGENT, "token", "carol"], capture_output=True, text=True, check=True, cwd=REPO_ROOT
    ).stdout.strip()
    response = httpx.get(f"{dev_server.url}/me", headers={"Authorization": f"Bearer {token}"})
    assert response.json() == {"userId": "carol"}


def test_requests_without_a_valid_token_get_401(dev_server: DevServer) -> None:
    _header, payload, _ = dev_server.token().split(".")
    none_header = base64.urlsafe_b64encode(json.dumps({"alg": "none"}).encode()).rstrip(b"=").decode()
    for headers in (
        {},
        {"Authorization": "Bearer x.y.z"},
        {"Authorization": f"Bearer {none_header}.{payload}."},
    ):
        response = httpx.get(f"{dev_server.url}/me", headers=headers)
        assert response.status_code == 401, headers


def test_the_openapi_document_and_its_browsable_view(dev_server: DevServer) -> None:
    document = httpx.get(f"{dev_server.url}/openapi.json").json()
    assert {"/health", "/me", "/openapi.json"} <= set(document["paths"])
    page = httpx.get(f"{dev_server.url}/docs")
    assert page.status_code == 200
    assert "/openapi.json" in page.text
    asset = httpx.get(f"{dev_server.url}/docs/swagger-ui-bundle.js")
    assert asset.status_code == 200
    assert len(asset.content) > 100_000


def test_the_local_bus_accepts_events_from_a_boto3_client(dev_server: DevServer) -> None:
    client = boto3.client(
        "events",
        endpoint_url=dev_server.url,
        region_name="eu-west-1",
        aws_access_key_id="x",
        aws_secret_access_key="x",
    )
    bus = client.describe_event_bus(Name="tripagent-local-bus")
    assert bus["Arn"].endswith(":event-bus/tripagent-local-bus")
    result = client.put_events(
        Entries=[
            {
                "Source": "tripagent.e2e",
                "DetailType": "Ping",
                "Detail": "{}",
                "EventBusName": "tripagent-local-bus",
            }
        ]
    )
    assert result["FailedEntryCount"] == 0


def test_invoke_runs_a_function_with_a_sample_event(dev_server: DevServer) -> None:
    result = subprocess.run(
        [TRIPAGENT, "invoke", "MeFunction", "--event", "events/MeFunction.json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
    )
    response = json.loads(result.stdout)
    assert response["statusCode"] == 200
    assert json.loads(response["body"]) == {"userId": "alice"}


def test_ctrl_c_stops_every_process(tmp_path: Path) -> None:
    server = start_dev(tmp_path / "dev.log")
    assert not port_is_free(server.ports["DYNAMODB_PORT"])
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(20) == 0
    for port in server.ports.values():
        assert port_is_free(port), port
    assert "every process stopped" in server.log.read_text()


@pytest.mark.parametrize("path", ["/trips", "/trips/trp_x/agent/chat"])
def test_a_preflight_passes_from_the_apps_origin_only(dev_server: DevServer, path: str) -> None:
    """The API and the streamed chat allow the web app's origin (locally, the gateway's own) and no other."""
    ask = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}
    ours = httpx.options(f"{dev_server.url}{path}", headers={"Origin": dev_server.url, **ask})
    assert ours.status_code == 204
    assert ours.headers["access-control-allow-origin"] == dev_server.url
    assert "authorization" in ours.headers["access-control-allow-headers"].lower()
    theirs = httpx.options(f"{dev_server.url}{path}", headers={"Origin": "https://evil.example", **ask})
    assert "access-control-allow-origin" not in theirs.headers


def test_the_web_app_and_its_runtime_configuration_are_served(dev_server: DevServer) -> None:
    page = httpx.get(f"{dev_server.url}/")
    assert page.status_code == 200
    assert '<div id="root">' in page.text
    asset = page.text.split('src="', 1)[1].split('"', 1)[0]
    assert httpx.get(f"{dev_server.url}{asset}").headers["content-type"].startswith("text/javascript")
    config = httpx.get(f"{dev_server.url}/config.json").json()
    assert config["apiUrl"] == dev_server.url
    assert config["webSocketUrl"] == dev_server.url.replace("http", "ws") + "/live"
    discovery = httpx.get(config["oidc"]["metadataUrl"]).json()
    assert discovery["issuer"] == config["oidc"]["authority"]
    assert httpx.get(f"{dev_server.url}/../../etc/passwd").status_code == 404
