"""Every retry of the system, in one shape (tenacity): how many attempts, how long to wait between them,
which failures are worth another attempt, and an optional deadline past which no attempt starts.

Model calls, DynamoDB's transaction conflicts and unprocessed batch keys, and the local stack's bus and
stream deliveries all retry through ``retrying``; a call asks for another attempt by raising
(``TryAgain`` carries a result and a hint, for loops whose failure is an answer, not an exception).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    stop_before_delay,
    wait_exponential,
    wait_incrementing,
    wait_random_exponential,
)
from tenacity.stop import stop_base
from tenacity.wait import wait_base

Wait = wait_base


class TryAgain(Exception):  # a request, not an error
    """Raised by an attempt whose answer says "later": ``value`` is the answer, ``after_s`` a hint."""

    def __init__(self, value: Any = None, *, after_s: float | None = None) -> None:
        super().__init__("try again")
        self.value = value
        self.after_s = after_s


def full_jitter(base_s: float, cap_s: float = 30.0) -> Wait:
    """AWS's full jitter: a uniform wait in [0, base × 2^(attempt-1)], capped."""
    return wait_random_exponential(multiplier=base_s, max=cap_s)


def linear(step_s: float) -> Wait:
    return wait_incrementing(start=step_s, increment=step_s)


def exponential(base_s: float, cap_s: float | None = None) -> Wait:
    """base, 2 × base, 4 × base, ... (at most ``cap_s``) without jitter (one caller waiting on one store)."""
    return (
        wait_exponential(multiplier=base_s)
        if cap_s is None
        else wait_exponential(multiplier=base_s, max=cap_s)
    )


class _AtLeastTheHint(wait_base):
    """A wait that honours a ``TryAgain``'s hint (a provider's Retry-After) as its floor."""

    def __init__(self, wait: Wait) -> None:
        self.wait = wait

    def __call__(self, retry_state: RetryCallState) -> float:
        delay = float(self.wait(retry_state))
        failure = retry_state.outcome.exception() if retry_state.outcome else None
        hint = failure.after_s if isinstance(failure, TryAgain) else None
        return max(delay, hint) if hint is not None else delay


def _sleep(seconds: float) -> None:
    time.sleep(seconds)  # looked up when it sleeps, so that a test may patch time.sleep


def retrying(
    *,
    attempts: int,
    wait: Wait,
    retry_on: Callable[[BaseException], bool] = lambda exc: isinstance(exc, TryAgain),
    deadline: float | None = None,
    sleep: Callable[[float], None] | None = None,
) -> Retrying:
    """Iterate ``for attempt in retrying(...): with attempt: ...``. The last failure is raised as it
    was (``reraise``); with a ``deadline`` (``time.monotonic()``), no wait ends past it."""
    stop: stop_base = stop_after_attempt(attempts)
    if deadline is not None:
        stop = stop | stop_before_delay(max(0.0, deadline - time.monotonic()))
    return Retrying(
        stop=stop,
        wait=_AtLeastTheHint(wait),
        retry=retry_if_exception(retry_on),
        reraise=True,
        sleep=sleep or _sleep,
    )
