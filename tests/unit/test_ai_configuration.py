"""Which provider a caller gets, the checks on a user's own provider, and secrets kept out of logs."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import respx
from tripagent.adapters.llm.instrumented import InstrumentedProvider
from tripagent.adapters.llm.openai_compat import OpenAICompatibleProvider
from tripagent.application.ai_config import (
    ProviderConfig,
    StoredProvider,
    check_base_url,
    resolve,
    set_own_provider,
)
from tripagent.application.llm import ChatOptions, ChatRequest, Message
from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import AiNotConfigured, AiUnavailable, ConfigurationError, ValidationFailed
from tripagent.settings import AiSettings

from tests.fixtures.events import FakeLambdaContext, http_event

SECRET = "sk-live-THIS-MUST-NEVER-BE-LOGGED"
PROMPT = "my private itinerary: the 14 rue des Secrets"


class MemoryStore:
    def __init__(self) -> None:
        self.items: dict[str, ProviderConfig] = {}
        self.reads = 0

    def get(self, user_id: str) -> StoredProvider | None:
        c = self.items.get(user_id)
        return StoredProvider(c.provider, c.model, c.base_url, bool(c.api_key)) if c else None

    def get_with_key(self, user_id: str) -> ProviderConfig | None:
        self.reads += 1
        return self.items.get(user_id)

    def put(self, user_id: str, config: ProviderConfig) -> None:
        self.items[user_id] = config

    def delete(self, user_id: str) -> bool:
        return self.items.pop(user_id, None) is not None


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def captured_logs(capsys: pytest.CaptureFixture[str]) -> Iterator[Callable[[], str]]:
    """Every log line as Powertools writes it (JSON with extras), plus whatever reached stdout."""
    from tripagent.observability import logger

    handler = _Capture()
    handler.setFormatter(logger.registered_formatter)
    logger._logger.addHandler(handler)
    try:
        yield lambda: "\n".join(handler.lines) + capsys.readouterr().out
    finally:
        logger._logger.removeHandler(handler)


ENV = ProviderConfig("bedrock", "anthropic.claude-sonnet", source="environment")


def test_a_users_own_provider_wins_over_the_environment() -> None:
    store = MemoryStore()
    store.put("alice", ProviderConfig("anthropic", "claude-x", api_key=SECRET, source="user"))
    assert resolve("alice", store, ENV).provider == "anthropic"
    assert resolve("bob", store, ENV) == ENV


def test_with_neither_the_answer_is_ai_not_configured() -> None:
    with pytest.raises(AiNotConfigured) as refused:
        resolve("alice", MemoryStore(), None)
    assert (status_of(refused.value), refused.value.code) == (422, "ai_not_configured")


def test_a_config_never_shows_its_key() -> None:
    config = ProviderConfig("openai", "gpt", api_key=SECRET)
    assert SECRET not in repr(config)
    assert SECRET not in str(config)


@pytest.mark.parametrize(
    "url",
    [
        "http://api.example.com",
        "https://127.0.0.1:8080",
        "https://169.254.169.254/latest",
        "https://10.0.0.8",
        "https://localhost:11434",
        "https://[::1]/v1",
        "https://valhalla.internal",
        "ftp://x.example.com",
        "not a url",
    ],
)
def test_private_or_plain_http_base_urls_are_refused(url: str) -> None:
    with pytest.raises(ValidationFailed):
        check_base_url(url, allow_private=False)


def test_public_https_base_urls_are_accepted_and_the_local_stack_may_use_loopback() -> None:
    assert (
        check_base_url("https://openrouter.ai/api/v1/", allow_private=False) == "https://openrouter.ai/api/v1"
    )
    assert check_base_url("http://127.0.0.1:11434/v1", allow_private=True) == "http://127.0.0.1:11434/v1"


def test_anthropic_needs_a_key_and_openai_a_key_or_a_base_url() -> None:
    store = MemoryStore()
    with pytest.raises(ValidationFailed):
        set_own_provider(store, "a", ProviderConfig("anthropic", "claude"), allow_private=False)
    with pytest.raises(ValidationFailed):
        set_own_provider(store, "a", ProviderConfig("openai", "gpt"), allow_private=False)
    set_own_provider(
        store,
        "a",
        ProviderConfig("openai", "llama3", base_url="http://127.0.0.1:11434/v1"),
        allow_private=True,
    )
    assert store.items["a"].source == "user"


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({"AI_PROVIDER": "anthropic", "AI_MODEL": "claude"}, "AI_API_KEY"),
        ({"AI_PROVIDER": "openai"}, "AI_MODEL"),
        ({"AI_PROVIDER": "gemini", "AI_MODEL": "x"}, "AI_PROVIDER"),
    ],
)
def test_an_incomplete_ai_environment_fails_at_cold_start(env: dict[str, str], missing: str) -> None:
    with pytest.raises(ConfigurationError, match=missing):
        AiSettings.from_env(env)


def test_model_calls_log_usage_but_never_the_key_or_the_prompt(captured_logs: Callable[[], str]) -> None:
    request = ChatRequest(
        "gpt-test", "Be brief.", (Message("user", PROMPT),), ChatOptions(max_output_tokens=64)
    )
    provider = InstrumentedProvider(
        OpenAICompatibleProvider(api_key=SECRET, base_url="http://llm.test/v1", backoff_s=0.01)
    )
    with respx.mock() as router:
        router.post("http://llm.test/v1/chat/completions").mock(
            side_effect=[
                httpx.Response(
                    200,
                    json={
                        "model": "gpt-test",
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": "Noted: " + PROMPT},
                            }
                        ],
                        "usage": {"prompt_tokens": 11, "completion_tokens": 5},
                    },
                ),
                httpx.Response(503),
                httpx.Response(503),
                httpx.Response(503),
            ]
        )
        provider.chat(request)
        with pytest.raises(AiUnavailable):
            provider.chat(request)
    logs = captured_logs()
    assert '"inputTokens":11' in logs.replace(" ", "")
    assert "model call failed" in logs
    assert SECRET not in logs
    assert PROMPT not in logs


def test_every_model_call_is_held_to_the_deployments_timeout_and_output_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """AI_TIMEOUT_S and AI_MAX_OUTPUT_TOKENS bound what a feature asks for, on the wire."""
    from tripagent import bootstrap
    from tripagent.settings import ai_settings

    monkeypatch.setenv("AI_TIMEOUT_S", "7")
    monkeypatch.setenv("AI_MAX_OUTPUT_TOKENS", "100")
    ai_settings.cache_clear()
    try:
        provider = bootstrap._instrumented(
            ProviderConfig("openai", "gpt-test", "https://llm.test/v1", api_key="k")
        )
    finally:
        ai_settings.cache_clear()
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        message = {"role": "assistant", "content": "ok"}
        choice = {"index": 0, "finish_reason": "stop", "message": message}
        return httpx.Response(200, json={"model": "gpt-test", "choices": [choice]})

    with respx.mock() as router:
        router.post("https://llm.test/v1/chat/completions").mock(side_effect=answer)
        for asked_tokens, asked_timeout in [(600, 30.0), (64, 3.0)]:
            options = ChatOptions(max_output_tokens=asked_tokens, timeout_s=asked_timeout)
            provider.chat(ChatRequest("gpt-test", "Be brief.", (Message("user", "hi"),), options))
    bodies = [json.loads(r.content) for r in sent]
    assert [b["max_tokens"] for b in bodies] == [100, 64]  # capped; a smaller ask is kept
    read_timeouts = [r.extensions["timeout"]["read"] for r in sent]
    assert 6 < read_timeouts[0] <= 7
    assert 2 < read_timeouts[1] <= 3


def test_put_and_get_my_provider_never_echo_the_key(
    monkeypatch: pytest.MonkeyPatch, captured_logs: Callable[[], str]
) -> None:
    from tripagent import bootstrap
    from tripagent.entrypoints.http.api import build_resolver
    from tripagent.entrypoints.http.me import router
    from tripagent.settings import UserProviderSettings

    store = MemoryStore()
    monkeypatch.setattr(bootstrap, "user_provider_store", lambda: store)
    monkeypatch.setattr(
        "tripagent.settings.user_provider_settings",
        lambda: UserProviderSettings.from_env({"TABLE_NAME": "tbl", "KMS_KEY_ID": "k"}),
    )
    resolver = build_resolver(router)

    def call(method: str, body: Any = None) -> dict[str, Any]:
        response: dict[str, Any] = resolver.resolve(
            http_event(method, "/me/ai-provider", body=body), FakeLambdaContext()
        )
        return response

    put = call("PUT", {"provider": "anthropic", "model": "claude-sonnet", "apiKey": SECRET})
    assert put["statusCode"] == 204
    got = call("GET")
    assert json.loads(got["body"]) == {
        "provider": "anthropic",
        "model": "claude-sonnet",
        "baseUrl": None,
        "hasKey": True,
    }
    bad = call("PUT", {"provider": "anthropic", "model": "", "apiKey": SECRET})
    assert bad["statusCode"] == 422
    ssrf = call(
        "PUT", {"provider": "openai", "model": "x", "baseUrl": "https://169.254.169.254", "apiKey": SECRET}
    )
    assert ssrf["statusCode"] == 422
    assert call("DELETE")["statusCode"] == 204
    assert call("GET")["statusCode"] == 404
    logs = captured_logs()
    assert "request refused" in logs  # the refusals were logged, without the key
    everything = json.dumps([put, got, bad, ssrf]) + logs
    assert SECRET not in everything
