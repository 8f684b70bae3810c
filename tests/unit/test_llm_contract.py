"""One contract, every provider: the same scripted conversations through OpenAI-compatible, Anthropic
and Bedrock wire formats (respx; botocore's Stubber and its own event-stream parser) and through the
offline rules provider (a scripted rule engine)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import boto3
import httpx
import pytest
import respx
from botocore.awsrequest import AWSResponse
from botocore.stub import Stubber
from tripagent.adapters.llm.anthropic import AnthropicProvider
from tripagent.adapters.llm.bedrock import BedrockProvider
from tripagent.adapters.llm.openai_compat import OpenAICompatibleProvider
from tripagent.adapters.llm.rules import RulesProvider
from tripagent.application.llm import (
    ChatOptions,
    ChatRequest,
    ChatResult,
    Message,
    ModelProvider,
    ResponseFormat,
    ToolCall,
    ToolSpec,
    Usage,
)
from tripagent.application.llm_stream import StreamFinished, TextDelta, ToolCallReady, collect
from tripagent.errors import AiAuthFailed, AiBadResponse, AiRateLimited, AiTimeout, AiUnavailable

from tests.fixtures.eventstream import event_stream

WEATHER = ToolSpec(
    "get_weather",
    "Weather for a day and place",
    {"type": "object", "properties": {"day": {"type": "integer"}}, "required": ["day"]},
)


def request(tools: tuple[ToolSpec, ...] = ()) -> ChatRequest:
    return ChatRequest(
        model="test-model",
        system="You plan bike trips.",
        messages=(Message("user", "Is day 2 rainy?"),),
        options=ChatOptions(max_output_tokens=321, temperature=0.2, timeout_s=5, task="contract"),
        tools=tools,
    )


class Backend:
    """A provider behind a scripted remote end."""

    name: str

    def provider(self) -> ModelProvider: ...
    def reply(self, text: str) -> None: ...
    def reply_tool(self, call: ToolCall) -> None: ...
    def stream_text(self, chunks: list[str]) -> None: ...
    def stream_tool(self, call: ToolCall, pieces: list[str]) -> None: ...
    def max_tokens_sent(self) -> int: ...


# ---------------------------------------------------------------------------------------------- http
class HttpBackend(Backend):
    url: str

    def __init__(self, router: respx.MockRouter) -> None:
        self.queue: list[httpx.Response] = []
        self.route = router.post(self.url).mock(side_effect=lambda req: self.queue.pop(0))

    def sent(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self.route.calls.last.request.content)
        return body

    def sse(self, events: list[tuple[str | None, Any]]) -> httpx.Response:
        lines = []
        for name, data in events:
            if name:
                lines.append(f"event: {name}")
            lines.append(f"data: {data if isinstance(data, str) else json.dumps(data)}\n")
        return httpx.Response(
            200, text="\n".join(lines) + "\n", headers={"content-type": "text/event-stream"}
        )


class OpenAIBackend(HttpBackend):
    name, url = "openai", "http://llm.test/v1/chat/completions"

    def provider(self) -> ModelProvider:
        return OpenAICompatibleProvider(
            api_key="sk-test-secret", base_url="http://llm.test/v1", backoff_s=0.01
        )

    def reply(self, text: str) -> None:
        self.queue.append(
            httpx.Response(
                200,
                json={
                    "model": "test-model",
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 7, "completion_tokens": 3},
                },
            )
        )

    def reply_tool(self, call: ToolCall) -> None:
        self.queue.append(
            httpx.Response(
                200,
                json={
                    "model": "test-model",
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "tool_calls",
                            "message": {
                                "role": "assistant",
                                "content": None,
                                "tool_calls": [
                                    {
                                        "id": call.id,
                                        "type": "function",
                                        "function": {
                                            "name": call.name,
                                            "arguments": json.dumps(call.arguments),
                                        },
                                    }
                                ],
                            },
                        }
                    ],
                    "usage": {"prompt_tokens": 7, "completion_tokens": 3},
                },
            )
        )

    def stream_text(self, chunks: list[str]) -> None:
        events: list[tuple[str | None, Any]] = [
            (None, {"model": "test-model", "choices": [{"index": 0, "delta": {"content": c}}]})
            for c in chunks
        ]
        events += [
            (None, {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
            (None, {"choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 3}}),
            (None, "[DONE]"),
        ]
        self.queue.append(self.sse(events))

    def stream_tool(self, call: ToolCall, pieces: list[str]) -> None:
        events: list[tuple[str | None, Any]] = [
            (
                None,
                {
                    "choices": [
                        {
                            "index": 0,
                            "delta": {
                                "tool_calls": [
                                    {
                                        "index": 0,
                                        "id": call.id,
                                        "type": "function",
                                        "function": {"name": call.name, "arguments": ""},
                                    }
                                ]
                            },
                        }
                    ]
                },
            )
        ]
        events += [
            (
                None,
                {
                    "choices": [
                        {"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": p}}]}}
                    ]
                },
            )
            for p in pieces
        ]
        events += [
            (
                None,
                {
                    "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                    "usage": {"prompt_tokens": 7, "completion_tokens": 3},
                },
            ),
            (None, "[DONE]"),
        ]
        self.queue.append(self.sse(events))

    def max_tokens_sent(self) -> int:
        return int(self.sent()["max_tokens"])


class AnthropicBackend(HttpBackend):
    name, url = "anthropic", "http://claude.test/v1/messages"

    def provider(self) -> ModelProvider:
        return AnthropicProvider(api_key="sk-ant-secret", base_url="http://claude.test", backoff_s=0.01)

    def _message(self, content: list[dict[str, Any]], stop: str) -> httpx.Response:
        return httpx.Response(
            200,
            json={
                "type": "message",
                "role": "assistant",
                "model": "test-model",
                "content": content,
                "stop_reason": stop,
                "usage": {"input_tokens": 7, "output_tokens": 3},
            },
        )

    def reply(self, text: str) -> None:
        self.queue.append(self._message([{"type": "text", "text": text}], "end_turn"))

    def reply_tool(self, call: ToolCall) -> None:
        self.queue.append(
            self._message(
                [{"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}], "tool_use"
            )
        )

    def _stream(self, blocks: list[tuple[dict[str, Any], list[dict[str, Any]]]], stop: str) -> None:
        events: list[tuple[str | None, Any]] = [
            (
                "message_start",
                {
                    "type": "message_start",
                    "message": {"model": "test-model", "usage": {"input_tokens": 7, "output_tokens": 1}},
                },
            ),
            ("ping", {"type": "ping"}),
        ]
        for index, (start, deltas) in enumerate(blocks):
            events.append(
                (
                    "content_block_start",
                    {"type": "content_block_start", "index": index, "content_block": start},
                )
            )
            events += [
                ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
                for d in deltas
            ]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        events += [
            (
                "message_delta",
                {"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": 3}},
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        self.queue.append(self.sse(events))

    def stream_text(self, chunks: list[str]) -> None:
        self._stream(
            [({"type": "text", "text": ""}, [{"type": "text_delta", "text": c} for c in chunks])], "end_turn"
        )

    def stream_tool(self, call: ToolCall, pieces: list[str]) -> None:
        self._stream(
            [
                (
                    {"type": "tool_use", "id": call.id, "name": call.name, "input": {}},
                    [{"type": "input_json_delta", "partial_json": p} for p in pieces],
                )
            ],
            "tool_use",
        )

    def max_tokens_sent(self) -> int:
        return int(self.sent()["max_tokens"])


# ---------------------------------------------------------------------------------------------- bedrock
class BedrockBackend(Backend):
    name = "bedrock"

    def __init__(self) -> None:
        self.client = boto3.client(
            "bedrock-runtime", region_name="eu-west-1", aws_access_key_id="x", aws_secret_access_key="x"
        )
        self.stubber = Stubber(self.client)
        self.stream_body: bytes | None = None
        self.sent_params: dict[str, Any] = {}
        self.client.meta.events.register("before-send.bedrock-runtime.ConverseStream", self._send_stream)
        self.client.meta.events.register("before-parameter-build.bedrock-runtime.*", self._remember)

    def _remember(self, params: dict[str, Any], **_: Any) -> None:
        self.sent_params = params

    def _send_stream(self, request: Any, **_: Any) -> AWSResponse:
        assert self.stream_body is not None, "no stream scripted"
        raw = _Raw(self.stream_body)
        return AWSResponse(request.url, 200, {"content-type": "application/vnd.amazon.eventstream"}, raw)

    def provider(self) -> ModelProvider:
        return BedrockProvider(self.client, backoff_s=0.001)

    def _converse(self, content: list[dict[str, Any]], stop: str) -> None:
        self.stubber.add_response(
            "converse",
            {
                "output": {"message": {"role": "assistant", "content": content}},
                "stopReason": stop,
                "usage": {"inputTokens": 7, "outputTokens": 3, "totalTokens": 10},
                "metrics": {"latencyMs": 5},
            },
        )
        self.stubber.activate()

    def reply(self, text: str) -> None:
        self._converse([{"text": text}], "end_turn")

    def reply_tool(self, call: ToolCall) -> None:
        self._converse(
            [{"toolUse": {"toolUseId": call.id, "name": call.name, "input": call.arguments}}], "tool_use"
        )

    def _stream(self, events: list[dict[str, Any]], stop: str) -> None:
        self.stream_body = event_stream(
            [
                {"messageStart": {"role": "assistant"}},
                *events,
                {"messageStop": {"stopReason": stop}},
                {
                    "metadata": {
                        "usage": {"inputTokens": 7, "outputTokens": 3, "totalTokens": 10},
                        "metrics": {"latencyMs": 5},
                    }
                },
            ]
        )

    def stream_text(self, chunks: list[str]) -> None:
        self._stream(
            [{"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": c}}} for c in chunks]
            + [{"contentBlockStop": {"contentBlockIndex": 0}}],
            "end_turn",
        )

    def stream_tool(self, call: ToolCall, pieces: list[str]) -> None:
        self._stream(
            [
                {
                    "contentBlockStart": {
                        "contentBlockIndex": 0,
                        "start": {"toolUse": {"toolUseId": call.id, "name": call.name}},
                    }
                }
            ]
            + [
                {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": p}}}}
                for p in pieces
            ]
            + [{"contentBlockStop": {"contentBlockIndex": 0}}],
            "tool_use",
        )

    def max_tokens_sent(self) -> int:
        return int(self.sent_params["inferenceConfig"]["maxTokens"])


class _Raw:
    """The raw body botocore's event-stream parser reads."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self._data

    def read(self, *_: Any) -> bytes:
        return self._data


# ---------------------------------------------------------------------------------------------- rules
class RulesBackend(Backend):
    """The rules provider's contract: it answers through its task engine, and streams that answer."""

    name = "rules"

    def __init__(self) -> None:
        self.script: list[ChatResult] = []
        self.requests: list[ChatRequest] = []

    def _engine(self, req: ChatRequest) -> ChatResult:
        self.requests.append(req)
        return self.script.pop(0)

    def provider(self) -> ModelProvider:
        return RulesProvider({"contract": self._engine})

    def reply(self, text: str) -> None:
        self.script.append(ChatResult(text, (), "stop", "rules", Usage(7, 3)))

    def reply_tool(self, call: ToolCall) -> None:
        self.script.append(ChatResult("", (call,), "tool_calls", "rules", Usage(7, 3)))

    def stream_text(self, chunks: list[str]) -> None:
        self.reply("".join(chunks))

    def stream_tool(self, call: ToolCall, pieces: list[str]) -> None:
        self.reply_tool(call)

    def max_tokens_sent(self) -> int:
        return self.requests[-1].options.max_output_tokens


@pytest.fixture(params=["openai", "anthropic", "bedrock", "rules"])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    if request.param in ("openai", "anthropic"):
        with respx.mock(assert_all_called=False) as router:
            yield (OpenAIBackend if request.param == "openai" else AnthropicBackend)(router)
    elif request.param == "bedrock":
        yield BedrockBackend()
    else:
        yield RulesBackend()


def expected_model(backend: Backend) -> str:
    return "rules" if backend.name == "rules" else "test-model"


def test_a_plain_answer(backend: Backend) -> None:
    backend.reply("Day 2 looks dry.")
    result = backend.provider().chat(request())
    assert result.text == "Day 2 looks dry."
    assert result.tool_calls == ()
    assert result.finish_reason == "stop"
    assert result.model == expected_model(backend)
    assert result.usage == Usage(7, 3)
    assert backend.max_tokens_sent() == 321


def test_a_tool_call(backend: Backend) -> None:
    call = ToolCall("call_1", "get_weather", {"day": 2})
    backend.reply_tool(call)
    result = backend.provider().chat(request(tools=(WEATHER,)))
    assert result.tool_calls == (call,)
    assert result.finish_reason == "tool_calls"


def test_streamed_text_arrives_in_pieces_and_adds_up(backend: Backend) -> None:
    backend.stream_text(["Day ", "2 looks ", "dry."])
    events = list(backend.provider().stream(request()))
    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert len(deltas) >= 3
    assert "".join(deltas) == "Day 2 looks dry."
    finished = events[-1]
    assert isinstance(finished, StreamFinished)
    assert (finished.finish_reason, finished.usage) == ("stop", Usage(7, 3))


def test_a_streamed_tool_call_is_assembled(backend: Backend) -> None:
    call = ToolCall("call_9", "get_weather", {"day": 2})
    backend.stream_tool(call, ['{"da', 'y": 2}'])
    result = collect(backend.provider().stream(request(tools=(WEATHER,))))
    assert result.tool_calls == (call,)
    assert result.finish_reason == "tool_calls"
    events = list(_replay(backend, call))
    assert [e.call for e in events if isinstance(e, ToolCallReady)] == [call]


def test_streamed_tool_arguments_that_are_not_json_are_a_bad_response(backend: Backend) -> None:
    if backend.name == "rules":
        pytest.skip("the rules engines build their calls in Python: nothing to parse")
    call = ToolCall("call_9", "get_weather", {"day": 2})
    backend.stream_tool(call, ['{"day": ', "tw"])
    with pytest.raises(AiBadResponse):
        list(backend.provider().stream(request(tools=(WEATHER,))))


def _replay(backend: Backend, call: ToolCall) -> Iterator[Any]:
    backend.stream_tool(call, ['{"day"', ": 2}"])
    yield from backend.provider().stream(request(tools=(WEATHER,)))


# ---------------------------------------------------------------------------------------------- failures
HTTP_BACKENDS = ["openai", "anthropic"]


@pytest.fixture(params=HTTP_BACKENDS)
def http_backend(request: pytest.FixtureRequest) -> Iterator[HttpBackend]:
    with respx.mock(assert_all_called=False) as router:
        yield (OpenAIBackend if request.param == "openai" else AnthropicBackend)(router)


def test_a_server_error_is_retried_with_backoff_then_succeeds(http_backend: HttpBackend) -> None:
    http_backend.queue.append(httpx.Response(503, text="overloaded"))
    http_backend.reply("ok")
    assert http_backend.provider().chat(request()).text == "ok"
    assert http_backend.route.call_count == 2


def test_rate_limits_are_retried_after_the_providers_hint_then_reported(http_backend: HttpBackend) -> None:
    for _ in range(3):
        http_backend.queue.append(httpx.Response(429, headers={"retry-after": "0"}))
    with pytest.raises(AiRateLimited) as limited:
        http_backend.provider().chat(request())
    assert http_backend.route.call_count == 3
    assert limited.value.headers["Retry-After"] == "1"


def test_a_retry_after_beyond_the_deadline_is_not_waited_for(http_backend: HttpBackend) -> None:
    http_backend.queue.append(httpx.Response(429, headers={"retry-after": "120"}))
    with pytest.raises(AiRateLimited) as limited:
        http_backend.provider().chat(request())
    assert http_backend.route.call_count == 1
    assert limited.value.headers["Retry-After"] == "120"


@pytest.mark.parametrize(
    ("status", "error"), [(401, AiAuthFailed), (403, AiAuthFailed), (400, AiBadResponse)]
)
def test_client_errors_are_not_retried(
    http_backend: HttpBackend, status: int, error: type[Exception]
) -> None:
    http_backend.queue.append(httpx.Response(status, json={"error": "no"}))
    with pytest.raises(error):
        http_backend.provider().chat(request())
    assert http_backend.route.call_count == 1


def test_a_timeout_is_ai_timeout(http_backend: HttpBackend) -> None:
    http_backend.route.side_effect = httpx.ReadTimeout("slow")
    with pytest.raises(AiTimeout):
        http_backend.provider().chat(request())


def test_an_unreachable_provider_is_unavailable_after_retries(http_backend: HttpBackend) -> None:
    http_backend.route.side_effect = httpx.ConnectError("refused")
    with pytest.raises(AiUnavailable):
        http_backend.provider().chat(request())
    assert http_backend.route.call_count == 3


def test_a_reply_that_is_not_json_is_a_bad_response(http_backend: HttpBackend) -> None:
    http_backend.queue.append(httpx.Response(200, text="<html>proxy error</html>"))
    with pytest.raises(AiBadResponse):
        http_backend.provider().chat(request())


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("ThrottlingException", AiRateLimited),
        ("AccessDeniedException", AiAuthFailed),
        ("ServiceUnavailableException", AiUnavailable),
        ("ModelTimeoutException", AiTimeout),
        ("ValidationException", AiBadResponse),
    ],
)
def test_bedrock_errors_are_typed(code: str, error: type[Exception]) -> None:
    backend = BedrockBackend()
    for _ in range(3):  # throttling and unavailability are retried: the third refusal is the answer
        backend.stubber.add_client_error("converse", service_error_code=code, http_status_code=400)
    backend.stubber.activate()
    with pytest.raises(error):
        backend.provider().chat(request())
    retried = error in (AiRateLimited, AiUnavailable)
    assert len(backend.stubber._queue) == (0 if retried else 2)  # the answers left unasked


def test_bedrock_retries_within_the_deadline_only() -> None:
    backend = BedrockBackend()
    backend.stubber.add_client_error(
        "converse", service_error_code="ThrottlingException", http_status_code=400
    )
    backend.reply("after a pause")
    assert backend.provider().chat(request()).text == "after a pause"

    backend = BedrockBackend()
    backend.stubber.add_client_error(
        "converse", service_error_code="ThrottlingException", http_status_code=400
    )
    backend.reply("too late")
    hurried = ChatRequest(
        "m", "sys", (Message("user", "hi"),), ChatOptions(max_output_tokens=50, timeout_s=0.01)
    )
    with pytest.raises(AiRateLimited):  # a backoff that cannot fit the deadline is not waited for
        BedrockProvider(backend.client, backoff_s=60).chat(hurried)


def test_the_openai_wire_format_carries_system_tools_and_tool_results() -> None:
    with respx.mock() as router:
        backend = OpenAIBackend(router)
        backend.reply("fine")
        history = (
            Message("user", "weather?"),
            Message("assistant", "", (ToolCall("c1", "get_weather", {"day": 2}),)),
            Message("tool", '{"rain": false}', tool_call_id="c1"),
        )
        backend.provider().chat(
            ChatRequest("m", "sys", history, ChatOptions(max_output_tokens=50), (WEATHER,))
        )
        sent = backend.sent()
        authorization = router.calls.last.request.headers["authorization"]
    assert sent["messages"][0] == {"role": "system", "content": "sys"}
    assert sent["messages"][2]["tool_calls"][0]["function"] == {
        "name": "get_weather",
        "arguments": '{"day": 2}',
    }
    assert sent["messages"][3] == {"role": "tool", "tool_call_id": "c1", "content": '{"rain": false}'}
    assert sent["tools"][0]["function"]["parameters"] == WEATHER.parameters
    assert authorization == "Bearer sk-test-secret"


def test_the_anthropic_wire_format_groups_tool_results_in_a_user_turn() -> None:
    with respx.mock() as router:
        backend = AnthropicBackend(router)
        backend.reply("fine")
        history = (
            Message("user", "weather?"),
            Message("assistant", "checking", (ToolCall("t1", "get_weather", {"day": 2}),)),
            Message("tool", "dry", tool_call_id="t1"),
        )
        backend.provider().chat(
            ChatRequest("m", "sys", history, ChatOptions(max_output_tokens=50), (WEATHER,))
        )
        sent = backend.sent()
        headers = router.calls.last.request.headers
    assert sent["system"] == "sys"
    assert sent["messages"][1]["content"][1] == {
        "type": "tool_use",
        "id": "t1",
        "name": "get_weather",
        "input": {"day": 2},
    }
    assert sent["messages"][2] == {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "dry"}],
    }
    assert sent["tools"][0]["input_schema"] == WEATHER.parameters
    assert (headers["x-api-key"], headers["anthropic-version"]) == ("sk-ant-secret", "2023-06-01")


def test_rules_without_an_engine_for_the_task_says_what_it_is() -> None:
    result = RulesProvider({}).chat(request())
    assert result.model == "rules"
    assert "no language model" in result.text


SHAPE = ResponseFormat(
    "brief_understanding",
    "The reply and the brief.",
    {"type": "object", "properties": {"reply": {"type": "string"}}, "required": ["reply"]},
)


def test_structured_output_is_asked_in_each_providers_own_way_and_answered_as_the_object() -> None:
    """OpenAI ``response_format`` json_schema; Anthropic and Bedrock a forced tool whose input is the
    answer: each comes back as the object's JSON in the text, for one lenient parser."""
    answer = {"reply": "Where do you start?"}
    shaped = replace(request(), response_format=SHAPE)
    with respx.mock() as router:
        openai = OpenAIBackend(router)
        openai.reply(json.dumps(answer))
        assert json.loads(openai.provider().chat(shaped).text) == answer
        assert openai.sent()["response_format"]["json_schema"]["schema"] == SHAPE.schema
    with respx.mock() as router:
        anthropic = AnthropicBackend(router)
        anthropic.reply_tool(ToolCall("t1", SHAPE.name, answer))
        result = anthropic.provider().chat(shaped)
        sent = anthropic.sent()
    assert (json.loads(result.text), result.tool_calls) == (answer, ())
    assert sent["tool_choice"] == {"type": "tool", "name": SHAPE.name}
    assert sent["tools"][-1]["input_schema"] == SHAPE.schema
    bedrock = BedrockBackend()
    bedrock.reply_tool(ToolCall("b1", SHAPE.name, answer))
    result = bedrock.provider().chat(shaped)
    assert (json.loads(result.text), result.tool_calls) == (answer, ())
    assert bedrock.sent_params["toolConfig"]["toolChoice"] == {"tool": {"name": SHAPE.name}}


def test_a_server_without_structured_output_is_asked_again_without_it() -> None:
    """An OpenAI-compatible server that refuses ``response_format`` (HTTP 400) gets the same request
    without it: the prompt asks for the JSON, read leniently."""
    with respx.mock() as router:
        backend = OpenAIBackend(router)
        backend.queue.append(
            httpx.Response(400, json={"error": {"message": "unknown field response_format"}})
        )
        backend.reply('{"reply": "ok"}')
        result = backend.provider().chat(replace(request(), response_format=SHAPE))
        assert json.loads(result.text) == {"reply": "ok"}
        assert "response_format" not in backend.sent()
        assert len(router.calls) == 2


def test_a_bedrock_model_that_cannot_be_forced_to_a_tool_is_asked_again_without_it() -> None:
    bedrock = BedrockBackend()
    bedrock.stubber.add_client_error("converse", "ValidationException", "toolChoice is not supported")
    bedrock.reply('{"reply": "ok"}')
    result = bedrock.provider().chat(replace(request(), response_format=SHAPE))
    assert json.loads(result.text) == {"reply": "ok"}
    assert "toolConfig" not in bedrock.sent_params
