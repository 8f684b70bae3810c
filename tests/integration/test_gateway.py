"""The local gateway and bus over real HTTP, on a fixture template (tests/fixtures/stack)."""

from __future__ import annotations

import http.client
import itertools
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import boto3
import httpx
import pytest
from tripagent_local import devauth
from tripagent_local.engines import free_port
from tripagent_local.lambdas import FunctionError
from tripagent_local.runtime import load_module
from tripagent_local.server import BackgroundGateway
from tripagent_local.stack import LocalStack, StackConfig

FIXTURE = Path(__file__).parents[1] / "fixtures" / "stack" / "template.yaml"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, LocalStack]]:
    state = tmp_path_factory.mktemp("state")
    log = (state / "functions.log").open("w")
    stack = LocalStack(
        StackConfig(
            port=free_port(), template_path=FIXTURE, state_dir=state, start_engines=False, function_log=log
        )
    )
    stack.bus.backoff_s = 0.01
    stack.start()
    try:
        with BackgroundGateway(stack):
            yield stack.url, stack
    finally:
        stack.stop()
        log.close()


def auth(stack: LocalStack, user: str = "alice", **claims: object) -> dict[str, str]:
    return {"Authorization": f"Bearer {devauth.mint_token(user, state_dir=stack.config.state_dir, **claims)}"}


def test_a_request_becomes_an_http_api_v2_event_with_claims(gateway: tuple[str, LocalStack]) -> None:
    url, stack = gateway
    response = httpx.post(
        f"{url}/echo/Ordino?x=1&x=2&y=",
        json={"a": 1},
        headers={**auth(stack, groups=["a", "b"]), "Cookie": "c1=1; c2=2"},
    )
    assert response.status_code == 200
    event = response.json()
    assert event["version"] == "2.0"
    assert event["routeKey"] == "POST /echo/{name}"
    assert event["pathParameters"] == {"name": "Ordino"}
    assert event["queryStringParameters"] == {"x": "1,2", "y": ""}
    assert event["cookies"] == ["c1=1", "c2=2"]
    assert json.loads(event["body"]) == {"a": 1}
    claims = event["requestContext"]["authorizer"]["jwt"]["claims"]
    assert claims["sub"] == "alice"
    assert claims["groups"] == "[a b]"
    assert claims["aud"] == devauth.AUDIENCE
    assert event["requestContext"]["http"]["method"] == "POST"


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic YWxpY2U6eA=="}],
)
def test_the_authorizer_refuses_before_any_handler_runs(
    gateway: tuple[str, LocalStack], headers: dict[str, str]
) -> None:
    url, _ = gateway
    response = httpx.post(f"{url}/echo/x", json={}, headers=headers)
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthorized"}


def test_an_expired_token_is_refused(gateway: tuple[str, LocalStack]) -> None:
    url, stack = gateway
    token = devauth.mint_token("alice", ttl_s=-10, state_dir=stack.config.state_dir)
    assert httpx.post(f"{url}/echo/x", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_public_routes_need_no_token(gateway: tuple[str, LocalStack]) -> None:
    url, _ = gateway
    response = httpx.get(f"{url}/public")
    assert response.status_code == 200
    assert "authorizer" not in response.json()["requestContext"]


def test_an_idle_keep_alive_connection_outlives_a_clients_pause(gateway: tuple[str, LocalStack]) -> None:
    """A pooled connection reused after a few seconds idle is still open (uvicorn closes it after 5 s by
    default: a request sent as it closed got no answer at all, one approval in 150 in the soak)."""
    url, _ = gateway
    connection = http.client.HTTPConnection(url.removeprefix("http://"), timeout=10)
    try:
        connection.request("GET", "/public")
        assert connection.getresponse().read()
        assert connection.sock is not None
        time.sleep(6)  # idle past uvicorn's default keep-alive
        connection.request("GET", "/public")  # on the same socket: http.client reopens only if told closed
        assert connection.getresponse().status == 200
    finally:
        connection.close()


def test_unknown_routes_and_methods_are_404(gateway: tuple[str, LocalStack]) -> None:
    url, stack = gateway
    assert httpx.get(f"{url}/nope", headers=auth(stack)).status_code == 404
    assert httpx.get(f"{url}/echo/x", headers=auth(stack)).status_code == 404


def test_a_function_past_its_timeout_is_503_and_a_crash_is_500(gateway: tuple[str, LocalStack]) -> None:
    url, _ = gateway
    assert httpx.get(f"{url}/slow", timeout=10).status_code == 503
    crash = httpx.get(f"{url}/crash")
    assert crash.status_code == 500
    assert crash.json() == {"message": "Internal Server Error"}


def test_cors_preflight_and_headers_follow_the_template(gateway: tuple[str, LocalStack]) -> None:
    url, _ = gateway
    preflight = httpx.options(
        f"{url}/echo/x", headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == "https://app.example"
    assert "POST" in preflight.headers["access-control-allow-methods"]
    other = httpx.options(f"{url}/echo/x", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers


def test_a_streaming_function_reaches_the_client_chunk_by_chunk(gateway: tuple[str, LocalStack]) -> None:
    url, stack = gateway
    arrivals: list[tuple[float, str]] = []
    started = time.monotonic()
    with httpx.stream("GET", f"{url}/stream", headers=auth(stack, "bob"), timeout=10) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("data: "):
                arrivals.append((time.monotonic() - started, line[6:]))
    assert [a[1] for a in arrivals][-1] == "[DONE]"
    assert json.loads(arrivals[0][1]) == {"i": 0, "sub": "bob"}
    # The function sleeps 0.5 s between chunks: buffered, all would arrive together at the end. (Gaps, not
    # absolute times: a fresh execution environment's start varies with the machine's load.)
    chunks = [t for t, data in arrivals if data != "[DONE]"]
    assert all(later - earlier > 0.3 for earlier, later in itertools.pairwise(chunks))
    assert arrivals[-1][0] - arrivals[0][0] > 1.0


def test_an_event_put_through_boto3_reaches_the_function_its_rule_names(
    gateway: tuple[str, LocalStack],
) -> None:
    url, stack = gateway
    response = httpx.post(
        f"{url}/publish", content=json.dumps({"op": "stop.add", "n": 1}), headers=auth(stack)
    )
    assert response.status_code == 202
    event_id = response.text
    assert stack.bus.wait_idle()
    received = _received_by_consumer(stack)
    assert [e["id"] for e in received if e["id"] == event_id] == [event_id]
    assert next(e for e in received if e["id"] == event_id)["detail"] == {"op": "stop.add", "n": 1}


def _received_by_consumer(stack: LocalStack) -> list[dict[str, Any]]:
    """What the consumer was handed and took (its own memory is in its execution environment's process)."""
    return [d["event"] for d in stack.bus.deliveries if d["function"] == "ConsumerFunction"]


def test_an_event_the_rule_does_not_match_reaches_nobody(gateway: tuple[str, LocalStack]) -> None:
    url, stack = gateway
    before = len(_received_by_consumer(stack))
    client = boto3.client(
        "events", endpoint_url=url, region_name="eu-west-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    result = client.put_events(
        Entries=[
            {
                "Source": "fixture.trips",
                "DetailType": "Op",
                "Detail": json.dumps({"op": "expense.add"}),
                "EventBusName": "tripagent-local-bus",
            }
        ]
    )
    assert result["FailedEntryCount"] == 0
    assert stack.bus.wait_idle()
    assert len(_received_by_consumer(stack)) == before


def test_a_failing_consumer_ends_in_the_visible_dead_letter_log(gateway: tuple[str, LocalStack]) -> None:
    url, stack = gateway
    client = boto3.client(
        "events", endpoint_url=url, region_name="eu-west-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    result = client.put_events(
        Entries=[
            {
                "Source": "fixture.trips",
                "DetailType": "Op",
                "Detail": json.dumps({"op": "stop.move", "fail": True}),
                "EventBusName": "tripagent-local-bus",
            }
        ]
    )
    assert stack.bus.wait_idle()
    dead = httpx.get(f"{url}/_local/dead-letters").json()["deadLetters"]
    assert [d["eventId"] for d in dead] == [result["Entries"][0]["EventId"]]
    assert dead[0]["attempts"] == 3
    assert "asked to fail" in dead[0]["error"]


def test_the_aws_apis_answer_errors_as_aws_does(gateway: tuple[str, LocalStack]) -> None:
    """boto3 reads ``__type`` into the error code: a refused call and a body that is not JSON."""
    url, _ = gateway
    client = boto3.client(
        "events", endpoint_url=url, region_name="eu-west-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    with pytest.raises(client.exceptions.ResourceNotFoundException):
        client.describe_event_bus(Name="nope")
    for target in ("AWSEvents.PutEvents", "TrentService.Decrypt", "AmazonSQS.SendMessage"):
        for body in (b"{not json", b"[]"):
            answer = httpx.post(url, content=body, headers={"X-Amz-Target": target})
            assert answer.status_code == 400, (target, body)
            assert answer.json()["__type"] == "SerializationException"


# ---------------------------------------------------------------------------- execution environments
def test_concurrent_users_each_get_their_own_answer_from_their_own_environments(
    gateway: tuple[str, LocalStack],
) -> None:
    """WhoFunction keeps the caller in module state across a 0.3 s sleep: two requests sharing one
    instance (threads in one process, as before) would answer each other's callers."""
    url, stack = gateway
    users = [f"user{i}" for i in range(8)]

    def ask(user: str) -> dict[str, Any]:
        response = httpx.get(f"{url}/who", headers=auth(stack, user), timeout=30)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    with ThreadPoolExecutor(max_workers=len(users)) as pool:
        answers = list(pool.map(ask, users))
    assert [a["sub"] for a in answers] == users  # nobody got another's answer
    assert {a["function"] for a in answers} == {"WhoFunction"}  # and its logs name the right function
    stats = stack.functions.stats("WhoFunction")
    assert 1 < stats.started <= stack.config.max_instances  # scaled out, up to the limit
    assert stats.peak_busy <= stack.config.max_instances
    assert len({a["pid"] for a in answers}) == stats.started  # each answer from one of those processes


def test_a_function_missing_a_variable_the_template_gives_only_another_fails_as_in_aws(
    gateway: tuple[str, LocalStack],
) -> None:
    url, stack = gateway
    assert "NEEDED_VAR" in stack.function_environment("WhoFunction")  # a merged environment would have it
    assert "NEEDED_VAR" not in stack.function_environment("NeedsFunction")
    response = httpx.get(f"{url}/needs", headers=auth(stack), timeout=30)
    assert response.status_code == 500  # its cold start fails: KeyError NEEDED_VAR
    with pytest.raises(FunctionError, match="NEEDED_VAR"):
        stack.functions.invoke("NeedsFunction", {})


def test_a_function_past_its_timeout_is_stopped_and_the_next_event_gets_a_fresh_environment(
    gateway: tuple[str, LocalStack],
) -> None:
    url, stack = gateway
    before = stack.functions.stats("SlowFunction").timeouts
    assert httpx.get(f"{url}/slow", headers=auth(stack), timeout=10).status_code == 503
    stats = stack.functions.stats("SlowFunction")
    assert stats.timeouts == before + 1
    assert stats.live == 0  # killed, as Lambda stops a timed-out environment


def test_the_control_one_instance_shared_by_threads_answers_other_callers() -> None:
    """How the stack ran before: one loaded module, concurrent invocations in threads. The test above
    would catch it: callers get each other's answers."""
    module = load_module("WhoControl", FIXTURE.parent / "functions" / "who" / "app.py")
    users = [f"user{i}" for i in range(8)]

    def ask(user: str) -> str:
        event = {"requestContext": {"authorizer": {"jwt": {"claims": {"sub": user}}}}}
        return str(json.loads(module.handler(event, None)["body"])["sub"])

    with ThreadPoolExecutor(max_workers=len(users)) as pool:
        answers = list(pool.map(ask, users))
    assert answers != users


def test_a_stopped_stack_starts_no_environment_for_a_late_retry(tmp_path: Path) -> None:
    stack = LocalStack(StackConfig(template_path=FIXTURE, state_dir=tmp_path, start_engines=False))
    event = {"requestContext": {"authorizer": {"jwt": {"claims": {"sub": "ana"}}}}}
    assert stack.functions.invoke("WhoFunction", event)["statusCode"] == 200
    assert stack.functions.stats("WhoFunction").live == 1
    stack.stop()
    with pytest.raises(FunctionError, match="stopped"):  # a bus retry or queue batch arriving after stop
        stack.functions.invoke("WhoFunction", event)
