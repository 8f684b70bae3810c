"""What deploys is what was tested: each function from .aws-sam/build, with only its layers on the path,
called with its sample event against the local engines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tripagent_local.paths import REPO_ROOT
from tripagent_local.stack import LocalStack
from tripagent_local.template import Template

BUILD = REPO_ROOT / ".aws-sam" / "build"


@pytest.fixture(scope="module")
def build_dir() -> Path:
    if not (BUILD / "template.yaml").exists():
        pytest.fail("no .aws-sam/build: run `make build` (make test does)")
    newest_source = max(p.stat().st_mtime for p in (REPO_ROOT / "shared" / "tripagent").rglob("*.py"))
    if (BUILD / "TripagentLayer" / "python").stat().st_mtime < newest_source - 1:
        pytest.fail("the build is older than shared/: run `make build` (make test does)")
    return BUILD


def run_built(
    build: Path, function_id: str, handler: str, event: Path, env: dict[str, str]
) -> dict[str, Any]:
    module, name = handler.rsplit(".", 1)
    pythonpath = [
        build / function_id,
        build / "TripagentLayer" / "python",
        build / "DependenciesLayer" / "python",
    ]
    result = subprocess.run(
        [sys.executable, "-S", Path(__file__).with_name("run_built.py"), module, name, event],
        env={
            **env,
            "PYTHONPATH": ":".join(map(str, pythonpath)),
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
            "PATH": "/usr/bin:/bin",
        },
        capture_output=True,
        text=True,
        cwd=build / function_id,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    output: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return output


IDLE_TRIP = "trp_builtidle0000000000000"
DUE_SUGGESTION = ("trp_builtdue00000000000000", "sug_builtdue")


def seed_scheduled_work(stack: LocalStack) -> None:
    """Work for the scheduled functions to find: a session idle for a year, a suggestion past its expiry."""
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.proposals import DynamoProposalStore
    from tripagent.adapters.dynamodb.sessions import DynamoSessionStore
    from tripagent.domain.session import Turn, TurnMetadata

    from tests.fixtures.review import a_suggestion

    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    table = next(iter(stack.table_names.values()))
    a_year_ago = "2025-11-01T10:00:00.000Z"
    DynamoSessionStore(client, table, retention_s=10 * 365 * 86400).append(
        IDLE_TRIP,
        Turn(
            role="user",
            kind="chat",
            text="hi",
            metadata=TurnMetadata(actor="ana", at=a_year_ago, source="chat"),
        ),
    )
    DynamoProposalStore(client, table).create(
        a_suggestion(
            DUE_SUGGESTION[0],
            None,
            proposalId=DUE_SUGGESTION[1],
            expiresAt="2000-01-01T00:00:00.000Z",
            createdAt="2000-01-01T00:00:00.000Z",
        )
    )


@pytest.fixture(scope="module")
def built_results(build_dir: Path, template: Template, local_stack: LocalStack) -> dict[str, dict[str, Any]]:
    seed_scheduled_work(local_stack)
    return {
        fid: run_built(
            build_dir,
            fid,
            spec.handler,
            REPO_ROOT / "events" / f"{fid}.json",
            local_stack.function_environment(fid),
        )
        for fid, spec in template.functions().items()
        if not spec.web_adapter
    }


def test_built_functions_import_only_from_their_layers(built_results: dict[str, dict[str, Any]]) -> None:
    for fid, output in built_results.items():
        for path in output["paths"]:
            assert str(BUILD) in path, (fid, path)


def test_built_health_function_reports_every_engine_up(built_results: dict[str, dict[str, Any]]) -> None:
    result = built_results["HealthFunction"]["result"]
    assert result["statusCode"] == 200, result
    body = json.loads(result["body"])
    assert body["status"] == "ok"
    assert set(body["engines"]) == {"dynamodb", "eventbridge", "valhalla"}


def test_built_me_function_answers_the_caller(built_results: dict[str, dict[str, Any]]) -> None:
    result = built_results["MeFunction"]["result"]
    assert result["statusCode"] == 200
    assert json.loads(result["body"]) == {"userId": "alice"}


def test_built_openapi_function_serves_the_document(built_results: dict[str, dict[str, Any]]) -> None:
    result = built_results["OpenApiFunction"]["result"]
    assert result["statusCode"] == 200
    assert json.loads(result["body"])["openapi"] == "3.1.0"


def test_built_trips_function_lists_the_callers_trips(built_results: dict[str, dict[str, Any]]) -> None:
    result = built_results["TripsFunction"]["result"]
    assert result["statusCode"] == 200, result
    assert "trips" in json.loads(result["body"])


def test_built_outbox_relay_puts_the_event_on_the_bus(
    built_results: dict[str, dict[str, Any]], local_stack: LocalStack
) -> None:
    assert built_results["OutboxRelayFunction"]["result"] == {"batchItemFailures": []}
    relayed = [
        e for e in local_stack.bus.events if e["detail"].get("operationId") == "op_sample0000000000000001"
    ]
    assert [e["detail-type"] for e in relayed] == ["TripOperationCommitted"]
    assert relayed[0]["source"] == "tripagent.trips"


def test_built_operation_recorder_records_the_event_in_the_session(
    built_results: dict[str, dict[str, Any]],
) -> None:
    assert built_results["OperationRecorderFunction"]["result"]["recorded"] is True


def test_built_brief_chat_answers_with_the_rules_provider(built_results: dict[str, dict[str, Any]]) -> None:
    result = built_results["BriefChatFunction"]["result"]
    assert result["statusCode"] == 200, result
    body = json.loads(result["body"])
    assert body["readyToGenerate"] is True
    assert body["model"] == "rules"


def test_built_generate_function_creates_a_routed_trip(built_results: dict[str, dict[str, Any]]) -> None:
    result = built_results["GenerateFunction"]["result"]
    assert result["statusCode"] == 201, result
    trip = json.loads(result["body"])["trip"]
    assert len(trip["days"]) == 2
    assert trip["days"][0]["stage"]["ascentM"] > 0


def test_built_agent_function_hides_a_trip_it_cannot_show(built_results: dict[str, dict[str, Any]]) -> None:
    result = built_results["AgentChatFunction"]["result"]  # the sample trip does not exist
    assert result["statusCode"] == 404
    assert json.loads(result["body"])["error"] == "not_found"


def test_built_purge_function_deletes_an_idle_session(
    built_results: dict[str, dict[str, Any]], local_stack: LocalStack
) -> None:
    from tripagent.adapters.aws import dynamodb_client

    assert built_results["PurgeSessionsFunction"]["result"]["purged"] >= 1
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{local_stack.config.dynamodb_port}")
    left = client.query(
        TableName=next(iter(local_stack.table_names.values())),
        KeyConditionExpression="PK = :pk",
        ExpressionAttributeValues={":pk": {"S": f"SESSION#{IDLE_TRIP}"}},
    )["Items"]
    assert left == []


def test_built_web_adapter_function_ships_its_script_and_app(build_dir: Path, template: Template) -> None:
    for fid, spec in template.functions().items():
        if spec.web_adapter:
            script = build_dir / fid / spec.handler
            assert script.exists(), fid
            assert "app:asgi_app" in script.read_text()
            assert (build_dir / fid / "app.py").exists()


def test_built_reviewer_enlists_a_whitelisted_operation(built_results: dict[str, dict[str, Any]]) -> None:
    assert built_results["ReviewerFunction"]["result"] == {"queued": True}


def test_built_suggestions_function_hides_a_trip_it_cannot_show(
    built_results: dict[str, dict[str, Any]],
) -> None:
    result = built_results["SuggestionsFunction"]["result"]
    assert result["statusCode"] == 404
    assert json.loads(result["body"])["error"] == "not_found"


def test_built_realtime_function_refuses_a_connection_without_a_token(
    built_results: dict[str, dict[str, Any]],
) -> None:
    assert built_results["RealtimeFunction"]["result"]["statusCode"] == 401


def test_built_notifier_reads_its_stream_record(built_results: dict[str, dict[str, Any]]) -> None:
    assert built_results["NotifierFunction"]["result"] == {"batchItemFailures": []}


def test_built_suggestion_expiry_expires_a_due_suggestion(
    built_results: dict[str, dict[str, Any]], local_stack: LocalStack
) -> None:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.proposals import DynamoProposalStore

    assert built_results["SuggestionExpiryFunction"]["result"]["expired"] >= 1
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{local_stack.config.dynamodb_port}")
    store = DynamoProposalStore(client, next(iter(local_stack.table_names.values())))
    due = store.get(*DUE_SUGGESTION)
    assert due is not None
    assert due.status == "expired"
