"""Retention by inactivity on DynamoDB Local: an idle session goes with its turns; an active one stays."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.sessions import DynamoSessionStore
from tripagent.adapters.system import new_id
from tripagent.application.sessions import purge_idle_sessions
from tripagent.domain.session import Turn, TurnMetadata
from tripagent_local.paths import REPO_ROOT
from tripagent_local.stack import LocalStack


def store(stack: LocalStack) -> DynamoSessionStore:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    return DynamoSessionStore(client, next(iter(stack.table_names.values())), retention_s=400 * 86400)


def talk(sessions: DynamoSessionStore, trip_id: str, at: dt.datetime, n: int = 3) -> None:
    for i in range(n):
        sessions.append(
            trip_id,
            Turn(
                role="user",
                kind="chat",
                text=f"hello {i}",
                metadata=TurnMetadata(
                    actor="ana",
                    at=at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                    source="chat",
                ),
            ),
        )


def items(stack: LocalStack, trip_id: str) -> int:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    return int(
        client.query(
            TableName=next(iter(stack.table_names.values())),
            KeyConditionExpression="PK = :pk",
            ExpressionAttributeValues={":pk": {"S": f"SESSION#{trip_id}"}},
        )["Count"]
    )


def test_the_purge_deletes_an_idle_session_and_keeps_an_active_one(local_stack: LocalStack) -> None:
    sessions, now = store(local_stack), dt.datetime.now(dt.UTC)
    idle, active = new_id("trp"), new_id("trp")
    talk(sessions, idle, now - dt.timedelta(days=45))
    talk(sessions, active, now - dt.timedelta(days=2))
    purged = purge_idle_sessions(sessions, now=now, idle_days=30)
    assert idle in purged
    assert active not in purged
    assert items(local_stack, idle) == 0
    assert items(local_stack, active) == 4  # the session item and three turns
    assert [t.text for t in sessions.turns(active)] == ["hello 0", "hello 1", "hello 2"]


def test_the_purge_command_runs_the_same_use_case(local_stack: LocalStack) -> None:
    sessions, now = store(local_stack), dt.datetime.now(dt.UTC)
    idle = new_id("trp")
    talk(sessions, idle, now - dt.timedelta(days=10), n=1)
    env = {
        **os.environ,
        "DYNAMODB_PORT": str(local_stack.config.dynamodb_port),
        "PORT": str(local_stack.config.port),
    }
    result = subprocess.run(
        [str(Path(sys.executable).with_name("tripagent")), "purge", "--idle-days", "7"],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        check=True,
        timeout=60,
    )
    assert idle in json.loads(result.stdout.strip().splitlines()[-1])["purged"]
    assert items(local_stack, idle) == 0
