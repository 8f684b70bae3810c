"""Every model call, measured: token usage as metrics per provider and model, latency and failures in the
log. Prompts, replies and keys are never logged."""

from __future__ import annotations

import time
from collections.abc import Iterator

from tripagent.application.llm import ChatRequest, ChatResult, ModelProvider
from tripagent.application.llm_stream import StreamEvent, StreamFinished
from tripagent.errors import AppError
from tripagent.observability import logger, record_model_usage


class InstrumentedProvider:
    def __init__(self, inner: ModelProvider) -> None:
        self._inner = inner
        self.name = inner.name

    def chat(self, request: ChatRequest) -> ChatResult:
        started = time.perf_counter()
        try:
            result = self._inner.chat(request)
        except AppError as exc:
            self._failed(request, exc, started)
            raise
        record_model_usage(
            self.name,
            result.model,
            result.usage.input_tokens,
            result.usage.output_tokens,
            (time.perf_counter() - started) * 1000,
        )
        return result

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        started = time.perf_counter()
        try:
            for event in self._inner.stream(request):
                if isinstance(event, StreamFinished):
                    record_model_usage(
                        self.name,
                        event.model,
                        event.usage.input_tokens,
                        event.usage.output_tokens,
                        (time.perf_counter() - started) * 1000,
                    )
                yield event
        except AppError as exc:
            self._failed(request, exc, started)
            raise

    def _failed(self, request: ChatRequest, exc: AppError, started: float) -> None:
        logger.warning(
            "model call failed",
            extra={
                "provider": self.name,
                "model": request.model,
                "error": exc.code,
                "errorType": type(exc).__name__,
                "latencyMs": round((time.perf_counter() - started) * 1000, 1),
            },
        )
