"""The WebSocket API's routes (RealtimeFunction) and the stream consumer that pushes (NotifierFunction).

``$connect`` verifies the same JWT as the HTTP API - no JWT authorizer exists for WebSocket APIs - taken
from the ``token`` query parameter or from the subprotocol header (``Sec-WebSocket-Protocol: tripagent,
<token>``), and refuses anyone else with 401. Messages are JSON with an ``action``: ``subscribe`` and
``unsubscribe`` name a trip; anything else is answered with an error. Replies come back on the route's
response (two-way routes).
"""

from __future__ import annotations

import json
from typing import Any

from tripagent.entrypoints.http.statuses import status_of
from tripagent.errors import AppError, Unauthorized
from tripagent.observability import LambdaHandler, instrument, logger

SUBPROTOCOL = "tripagent"


def _token(event: dict[str, Any]) -> tuple[str | None, bool]:
    """The bearer token, and whether it came as a subprotocol (which must then be echoed)."""
    query = event.get("queryStringParameters") or {}
    if query.get("token"):
        return str(query["token"]), False
    headers = {k.lower(): v for k, v in (event.get("headers") or {}).items()}
    offered = [p.strip() for p in str(headers.get("sec-websocket-protocol", "")).split(",") if p.strip()]
    if SUBPROTOCOL in offered:
        rest = [p for p in offered if p != SUBPROTOCOL]
        return (rest[0] if rest else None), True
    return None, False


def _reply(message: dict[str, Any], status: int = 200) -> dict[str, Any]:
    return {"statusCode": status, "body": json.dumps(message, ensure_ascii=False)}


def _websocket(event: dict[str, Any], context: Any) -> dict[str, Any]:
    from tripagent.bootstrap import realtime, token_verifier

    request = event.get("requestContext") or {}
    route, connection_id = request.get("routeKey"), str(request.get("connectionId", ""))
    if route == "$connect":
        token, as_subprotocol = _token(event)
        try:
            claims = token_verifier().verify_header(f"Bearer {token}" if token else None)
        except Unauthorized:
            return {"statusCode": 401, "body": "Unauthorized"}
        realtime().connect(str(claims["sub"]), connection_id)
        headers = {"Sec-WebSocket-Protocol": SUBPROTOCOL} if as_subprotocol else {}
        return {"statusCode": 200, "headers": headers}
    if route == "$disconnect":
        realtime().disconnect(connection_id)
        return {"statusCode": 200}
    try:
        body = json.loads(event.get("body") or "{}")
    except json.JSONDecodeError:
        return _reply({"type": "error", "error": "invalid_json", "message": "Send a JSON object."}, 400)
    trip_id = str(body.get("tripId") or "") if isinstance(body, dict) else ""
    if route in ("subscribe", "unsubscribe") and not trip_id:
        return _reply({"type": "error", "error": "validation_error", "message": "tripId is required."}, 400)
    try:
        if route == "subscribe":
            return _reply(realtime().subscribe(connection_id, trip_id))
        if route == "unsubscribe":
            return _reply(realtime().unsubscribe(connection_id, trip_id))
    except AppError as exc:  # the missing-trip answer for non-members too
        return _reply({"type": "error", "tripId": trip_id, **exc.body()}, status_of(exc))
    return _reply(
        {"type": "error", "error": "unknown_action", "message": "Actions: subscribe, unsubscribe."}, 400
    )


websocket_handler: LambdaHandler = instrument(_websocket)


def _notify(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Stream records → pushes. A failure reports its record (and the ones after it) for a retry."""
    from tripagent.adapters.dynamodb.changes import decode_change
    from tripagent.bootstrap import realtime

    failures = []
    pushed = 0
    for index, record in enumerate(event.get("Records", [])):
        try:
            change = decode_change(record)
            if change is not None:
                pushed += realtime().notify(change)
        except Exception:
            logger.exception("push failed", extra={"eventID": record.get("eventID")})
            failures = [{"itemIdentifier": r["dynamodb"]["SequenceNumber"]} for r in event["Records"][index:]]
            break
    logger.info("changes pushed", extra={"records": len(event.get("Records", [])), "pushed": pushed})
    return {"batchItemFailures": failures}


notifier_handler: LambdaHandler = instrument(_notify)
