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
from tripagent_local.engines import port_is_free
from tripagent_local.paths import REPO_ROOT

from tests.e2e.conftest import DevServer, start_dev

TRIPAGENT = Path(sys.executable).with_name("tripagent")


def test_the_banner_shows_the_url_a_token_and_curl_lines(dev_server: DevServer) -> None:
    banner = dev_server.log.read_text()
    assert dev_server.url in banner
    assert "export TOKEN=ey" in banner
    assert banner.count("curl ") >= 2


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
