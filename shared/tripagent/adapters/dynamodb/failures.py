"""What a DynamoDB write's failure means, named once for every store."""

from __future__ import annotations

from collections.abc import Callable

from botocore.exceptions import ClientError

from tripagent.adapters.retries import linear, retrying


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def condition_failed(exc: ClientError) -> bool:
    """The write's condition did not hold: an expected answer (someone else was first), not a fault."""
    return _code(exc) == "ConditionalCheckFailedException"


def in_a_transaction(exc: ClientError) -> bool:
    """The item is part of a transaction in flight: a moment later the answer is clear."""
    return _code(exc) == "TransactionConflictException"


def transaction_cancelled(exc: ClientError) -> bool:
    return _code(exc) == "TransactionCanceledException"


def after_transactions[T](write: Callable[[], T], attempts: int = 5) -> T:
    """``write``, tried again (briefly backing off) while the item is part of a transaction in flight."""
    conflicting = lambda exc: isinstance(exc, ClientError) and in_a_transaction(exc)  # noqa: E731
    for attempt in retrying(attempts=attempts, wait=linear(0.02), retry_on=conflicting):
        with attempt:
            return write()
    raise AssertionError("unreachable")  # retrying raises the last failure
