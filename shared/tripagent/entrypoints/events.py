"""EventBridge consumers. Each validates the event against its schema first and raises on failure, so
that Lambda retries it and the on-failure destination keeps what could not be processed."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.utilities.parser import envelopes, parse

from tripagent.domain.events import TripOperationCommitted
from tripagent.observability import EVENTBRIDGE_CORRELATION_ID, LambdaHandler, instrument, logger


def _record_operation(event: dict[str, Any], context: Any) -> dict[str, Any]:
    from tripagent.application.sessions import record_operation
    from tripagent.bootstrap import session_store

    detail = parse(event=event, model=TripOperationCommitted, envelope=envelopes.EventBridgeEnvelope)
    if not isinstance(detail, TripOperationCommitted):
        raise TypeError("an EventBridge event carries exactly one detail")
    seq = record_operation(session_store(), detail)
    logger.info(
        "operation recorded" if seq else "duplicate operation ignored",
        extra={"tripId": detail.tripId, "operationId": detail.operationId, "seq": seq},
    )
    return {"recorded": seq is not None, "seq": seq}


operation_recorder_handler: LambdaHandler = instrument(
    _record_operation, correlation_id_path=EVENTBRIDGE_CORRELATION_ID
)


def _purge_sessions(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Scheduled: delete agent sessions idle longer than the retention window."""
    import datetime as dt

    from tripagent.application.sessions import purge_idle_sessions
    from tripagent.bootstrap import session_purger
    from tripagent.settings import session_settings

    purged = purge_idle_sessions(
        session_purger(), now=dt.datetime.now(dt.UTC), idle_days=session_settings().session_retention_days
    )
    logger.info("idle sessions purged", extra={"count": len(purged)})
    return {"purged": len(purged)}


purge_sessions_handler: LambdaHandler = instrument(_purge_sessions)


def _review(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """ReviewerFunction. From EventBridge: a whitelisted operation to enlist for review. From the FIFO
    queue: trips to review, one record at a time in order (a failure returns it and the rest of its
    group to the queue)."""
    from tripagent.bootstrap import reviewer

    if "Records" in event:
        from aws_lambda_powertools.utilities.batch import SqsFifoPartialProcessor, process_partial_response
        from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

        def review_one(record: SQSRecord) -> None:
            body = json.loads(record.body)
            outcome = reviewer().review(str(body["tripId"]))
            logger.info(
                "trip reviewed" if outcome.model_called else "nothing left to review",
                extra={
                    "tripId": outcome.trip_id,
                    "operations": outcome.reviewed,
                    "suggestionId": outcome.suggestion.proposalId if outcome.suggestion else None,
                },
            )

        return dict(
            process_partial_response(
                event=event,
                record_handler=review_one,
                processor=SqsFifoPartialProcessor(skip_group_on_error=True),
                context=context,
            )
        )
    detail = parse(event=event, model=TripOperationCommitted, envelope=envelopes.EventBridgeEnvelope)
    if not isinstance(detail, TripOperationCommitted):
        raise TypeError("an EventBridge event carries exactly one detail")
    queued = reviewer().enlist(detail)
    logger.info(
        "operation queued for review" if queued else "operation not reviewed again",
        extra={"tripId": detail.tripId, "operationId": detail.operationId, "op": detail.op},
    )
    return {"queued": queued}


reviewer_handler: LambdaHandler = instrument(_review, correlation_id_path=EVENTBRIDGE_CORRELATION_ID)


def _expire_suggestions(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Scheduled: open proposals (suggestions and agent approvals) past their expiry become expired
    (members hear of suggestions through the stream)."""
    from tripagent.adapters.system import SystemClock
    from tripagent.application.proposals import expire_due
    from tripagent.bootstrap import proposal_store

    expired = expire_due(proposal_store(), SystemClock().now_iso())
    logger.info("proposals expired", extra={"count": len(expired)})
    return {"expired": len(expired)}


expire_suggestions_handler: LambdaHandler = instrument(_expire_suggestions)
