"""DynamoDB stream consumers. They raise on failure so that Lambda retries the record and, in the end,
hands it to the on-failure destination; Powertools reports partial batch failures."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from tripagent.observability import LambdaHandler, instrument, logger

_processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def _relay_record(record: DynamoDBRecord) -> None:
    from tripagent.application.outbox import relay
    from tripagent.bootstrap import event_publisher

    image = record.dynamodb.new_image if record.dynamodb else None
    if not image or image.get("type") != "outbox":
        return  # the event source mapping filters these out; a record that slips through is not ours
    relay(event_publisher(), [str(image["detail"])])
    logger.info("operation event relayed", extra={"sk": image.get("SK")})


def _outbox_relay(event: dict[str, Any], context: Any) -> Any:
    return process_partial_response(
        event=event, record_handler=_relay_record, processor=_processor, context=context
    )


outbox_relay_handler: LambdaHandler = instrument(_outbox_relay)
