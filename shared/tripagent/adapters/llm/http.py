"""What the HTTP providers share: timeouts, bounded jittered retries on 429/5xx only, a deadline for the
whole call, Server-Sent Events, and the mapping of failures to typed errors."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from tripagent.adapters.retries import TryAgain, full_jitter, retrying
from tripagent.errors import AiAuthFailed, AiBadResponse, AiRateLimited, AiTimeout, AiUnavailable

RETRYABLE = {429, 500, 502, 503, 504, 529}


class HttpModelClient:
    def __init__(
        self,
        base_url: str,
        headers: dict[str, str],
        *,
        max_attempts: int = 3,
        backoff_s: float = 0.5,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._client = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, transport=transport)
        self._max_attempts = max_attempts
        self._backoff_s = backoff_s

    @contextmanager
    def post(
        self, path: str, body: dict[str, Any], *, timeout_s: float, stream: bool = False
    ) -> Iterator[httpx.Response]:
        """POST, retrying until ``timeout_s`` has passed; yield the successful (maybe streaming) response."""
        deadline = time.monotonic() + timeout_s
        try:
            for attempt in retrying(
                attempts=self._max_attempts,
                wait=full_jitter(self._backoff_s),
                retry_on=lambda exc: isinstance(exc, TryAgain | _Unreachable),
                deadline=deadline,
            ):
                with attempt:
                    response = self._send(path, body, deadline, stream=stream)
        except _Unreachable as exc:
            raise AiUnavailable(f"The model provider is unreachable ({exc}).") from exc.__cause__
        except TryAgain as exc:  # 429 or 5xx on the last attempt, or a Retry-After past the deadline
            raise _error_for(exc.value) from None
        try:
            yield response
        finally:
            response.close()

    def _send(self, path: str, body: dict[str, Any], deadline: float, *, stream: bool) -> httpx.Response:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AiTimeout("The model provider did not answer in time.")
        timeout = httpx.Timeout(remaining, connect=min(5.0, remaining))
        try:
            request = self._client.build_request("POST", path, json=body, timeout=timeout)
            response = self._client.send(request, stream=stream)
        except httpx.TimeoutException as exc:
            raise AiTimeout("The model provider did not answer in time.") from exc
        except httpx.HTTPError as exc:
            raise _Unreachable(type(exc).__name__) from exc
        if response.status_code < 400:
            return response
        if stream:
            response.read()
        if response.status_code in RETRYABLE:  # a provider's Retry-After is the floor of the wait
            raise TryAgain(response, after_s=_retry_after(response))
        raise _error_for(response)


class _Unreachable(Exception):
    """The request never got an answer (connection refused, reset): worth another attempt."""


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _error_for(response: httpx.Response) -> Exception:
    status = response.status_code
    if status == 429:
        retry_after = _retry_after(response)
        hint = 30 if retry_after is None else int(retry_after)
        return AiRateLimited("The model provider is rate-limiting requests.", retry_after_s=hint)
    if status in (401, 403):
        return AiAuthFailed("The model provider refused the credentials.")
    if status in RETRYABLE:
        return AiUnavailable(f"The model provider is unavailable (HTTP {status}).")
    return AiBadResponse(f"The model provider rejected the request (HTTP {status}).")


def sse_events(response: httpx.Response) -> Iterator[tuple[str | None, str]]:
    """Yield ``(event, data)`` for each Server-Sent Event of a streaming response."""
    event: str | None = None
    data: list[str] = []
    for line in response.iter_lines():
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = None, []
        elif line.startswith(":"):
            continue
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
    if data:
        yield event, "\n".join(data)


def json_or_bad_response(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AiBadResponse("The model provider sent a reply that is not JSON.") from exc
