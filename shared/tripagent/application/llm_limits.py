"""The deployment's ceiling on every model call, whoever's provider answers it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tripagent.application.llm import ChatRequest, ChatResult, ModelProvider

if TYPE_CHECKING:
    from tripagent.application.llm_stream import StreamEvent


@dataclass(frozen=True, slots=True)
class CallLimits:
    """The deployment's ceiling on every model call (``AI_TIMEOUT_S``, ``AI_MAX_OUTPUT_TOKENS``): a
    feature asks for what it needs, and gets at most this."""

    timeout_s: float
    max_output_tokens: int


class LimitedProvider:
    """A provider whose requests are held to the deployment's ``CallLimits``. The timeout matters most:
    a call must end inside the function's own timeout (29 s behind the HTTP API) so that the caller gets
    a typed ``ai_timeout``, not a gateway 503."""

    def __init__(self, inner: ModelProvider, limits: CallLimits) -> None:
        self._inner = inner
        self._limits = limits
        self.name = inner.name

    def chat(self, request: ChatRequest) -> ChatResult:
        return self._inner.chat(self._limited(request))

    def stream(self, request: ChatRequest) -> Iterator[StreamEvent]:
        return self._inner.stream(self._limited(request))

    def _limited(self, request: ChatRequest) -> ChatRequest:
        asked = request.options
        options = replace(
            asked,
            timeout_s=min(asked.timeout_s, self._limits.timeout_s),
            max_output_tokens=min(asked.max_output_tokens, self._limits.max_output_tokens),
        )
        return request if options == asked else replace(request, options=options)
