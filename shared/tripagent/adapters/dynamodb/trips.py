"""Trips in DynamoDB: one item per trip (the aggregate as a JSON document and its version), one index
item per member (``GSI1``: the trips of a user), and outbox items for operation events, all written in
one transaction conditioned on the version read."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import transaction_cancelled
from tripagent.adapters.dynamodb.keys import (
    META,
    member_sk,
    outbox_sk,
    proposal_sk,
    session_pk,
    trip_pk,
    user_pk,
    user_trip_sk,
)
from tripagent.adapters.dynamodb.paging import query_items
from tripagent.adapters.retries import TryAgain, exponential, retrying
from tripagent.application.ports import ProposalClaim, TripSummary
from tripagent.domain.events import TripOperationCommitted
from tripagent.domain.trip import Role, Trip
from tripagent.errors import ClaimLost, StoreBusy, VersionConflict, WriteConflict

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

OUTBOX_RETENTION_S = 7 * 24 * 3600
BATCH_ATTEMPTS = 8  # about 6 s of backoff in all, within every function's timeout


class DynamoTripRepository:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    # ------------------------------------------------------------------ reads
    def get(self, trip_id: str) -> Trip | None:
        item = self._db.get_item(
            TableName=self._table, Key={"PK": {"S": trip_pk(trip_id)}, "SK": {"S": META}}, ConsistentRead=True
        ).get("Item")
        return Trip.model_validate_json(item["doc"]["S"]) if item else None

    def role_of(self, trip_id: str, user_id: str) -> Role | None:
        # The member item is written in the same transaction as the trip, so it is as current as the trip.
        item = self._db.get_item(
            TableName=self._table,
            Key={"PK": {"S": trip_pk(trip_id)}, "SK": {"S": member_sk(user_id)}},
            ConsistentRead=True,
            ProjectionExpression="#role",
            ExpressionAttributeNames={"#role": "role"},
        ).get("Item")
        return Role(item["role"]["S"]) if item else None

    def member_ids(self, trip_id: str) -> set[str]:
        members = query_items(
            self._db,
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :member)",
            ExpressionAttributeValues={":pk": {"S": trip_pk(trip_id)}, ":member": {"S": member_sk("")}},
            ProjectionExpression="userId",
            ConsistentRead=True,
        )
        return {item["userId"]["S"] for item in members}

    def list_for_user(self, user_id: str) -> list[TripSummary]:
        memberships = query_items(
            self._db,
            TableName=self._table,
            IndexName="GSI1",
            KeyConditionExpression="GSI1PK = :u",
            ExpressionAttributeValues={":u": {"S": user_pk(user_id)}},
            ScanIndexForward=False,
        )
        roles = {item["tripId"]["S"]: Role(item["role"]["S"]) for item in memberships}
        trips = self._batch_get(list(roles))
        # The index is eventually consistent: trust the trip document for the caller's current role.
        summaries = []
        for trip in trips:
            role = trip.role_of(user_id)
            if role is not None:
                summaries.append(
                    TripSummary(
                        trip.tripId,
                        trip.title,
                        role,
                        trip.startDate.isoformat() if trip.startDate else None,
                        trip.version,
                        trip.updatedAt,
                    )
                )
        return sorted(summaries, key=lambda s: s.updatedAt, reverse=True)

    def _batch_get(self, trip_ids: list[str]) -> list[Trip]:
        trips: list[Trip] = []
        for start in range(0, len(trip_ids), 100):
            keys: list[Any] = [
                {"PK": {"S": trip_pk(t)}, "SK": {"S": META}} for t in trip_ids[start : start + 100]
            ]
            request: dict[str, Any] = {self._table: {"Keys": keys, "ProjectionExpression": "doc"}}
            try:
                for attempt in retrying(attempts=BATCH_ATTEMPTS, wait=exponential(0.05)):
                    with attempt:
                        response = self._db.batch_get_item(RequestItems=request)
                        trips += [
                            Trip.model_validate_json(i["doc"]["S"])
                            for i in response["Responses"].get(self._table, [])
                        ]
                        request = dict(response.get("UnprocessedKeys") or {})
                        if request:
                            raise TryAgain
            except TryAgain:  # still throttled: a list missing trips would be a silent lie
                raise StoreBusy("The trip store is busy; try again in a moment.", retry_after_s=1) from None
        return trips

    # ------------------------------------------------------------------ writes
    def create(self, trip: Trip) -> None:
        items: list[TransactWriteItemTypeDef] = [
            {
                "Put": {
                    "TableName": self._table,
                    "Item": self._trip_item(trip),
                    "ConditionExpression": "attribute_not_exists(PK)",
                }
            }
        ]
        items += [
            {"Put": {"TableName": self._table, "Item": self._member_item(trip, m.userId)}}
            for m in trip.members
        ]
        self._db.transact_write_items(TransactItems=items)

    def commit(
        self,
        trip: Trip,
        *,
        expected_version: int,
        membership_changed: set[str],
        event: TripOperationCommitted | None,
        claim: ProposalClaim | None = None,
    ) -> None:
        put_trip: Any = {
            "TableName": self._table,
            "Item": self._trip_item(trip),
            **self._version_condition(expected_version),
            # A conflict reports the version that beat us from this same call, not from another read.
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
        items: list[TransactWriteItemTypeDef] = [{"Put": put_trip}]
        current = {m.userId for m in trip.members}
        for user_id in sorted(membership_changed):
            if user_id in current:
                items.append({"Put": {"TableName": self._table, "Item": self._member_item(trip, user_id)}})
            else:
                key: Any = {"PK": {"S": trip_pk(trip.tripId)}, "SK": {"S": member_sk(user_id)}}
                items.append({"Delete": {"TableName": self._table, "Key": key}})
        if event is not None:
            items.append({"Put": {"TableName": self._table, "Item": self._outbox_item(event)}})
        if claim is not None:
            items.append({"Update": self._claim_update(claim)})
        try:
            self._db.transact_write_items(TransactItems=items)
        except ClientError as exc:
            if not transaction_cancelled(exc):
                raise
            reasons = exc.response.get("CancellationReasons") or []
            codes = [r.get("Code") for r in reasons]
            if claim is not None and len(codes) == len(items) and codes[-1] == "ConditionalCheckFailed":
                raise ClaimLost(claim.proposal_id) from exc
            if "TransactionConflict" in codes:
                raise WriteConflict("Another change to this trip was being written; try again.") from exc
            if reasons and reasons[0].get("Code") == "ConditionalCheckFailed":
                old: Any = reasons[0].get("Item") or {}
                winning = old.get("version", {}).get("N")
                raise VersionConflict(int(winning) if winning else expected_version) from exc
            raise

    def _claim_update(self, claim: ProposalClaim) -> Any:
        return claim_update(self._table, claim)

    def _version_condition(self, expected_version: int) -> dict[str, Any]:
        return {
            "ConditionExpression": "version = :expected",
            "ExpressionAttributeValues": {":expected": {"N": str(expected_version)}},
        }

    # ------------------------------------------------------------------ items
    def _trip_item(self, trip: Trip) -> dict[str, Any]:
        return {
            "PK": {"S": trip_pk(trip.tripId)},
            "SK": {"S": META},
            "type": {"S": "trip"},
            "version": {"N": str(trip.version)},
            "updatedAt": {"S": trip.updatedAt},
            "doc": {"S": trip.model_dump_json(by_alias=True)},
        }

    def _member_item(self, trip: Trip, user_id: str) -> dict[str, Any]:
        role = trip.role_of(user_id)
        assert role is not None
        return {
            "PK": {"S": trip_pk(trip.tripId)},
            "SK": {"S": member_sk(user_id)},
            "GSI1PK": {"S": user_pk(user_id)},
            "GSI1SK": {"S": user_trip_sk(trip.createdAt, trip.tripId)},
            "type": {"S": "member"},
            "tripId": {"S": trip.tripId},
            "userId": {"S": user_id},
            "role": {"S": role.value},
        }

    def _outbox_item(self, event: TripOperationCommitted) -> dict[str, Any]:
        return {
            "PK": {"S": trip_pk(event.tripId)},
            "SK": {"S": outbox_sk(event.operationId)},
            "type": {"S": "outbox"},
            "detailType": {"S": "TripOperationCommitted"},
            "detail": {"S": event.model_dump_json()},
            "ttl": {"N": str(int(time.time()) + OUTBOX_RETENTION_S)},
        }


def claim_update(table: str, claim: ProposalClaim) -> Any:
    """The approver's claim → applied, on condition that the claim is still theirs."""
    return {
        "TableName": table,
        "Key": {"PK": {"S": session_pk(claim.trip_id)}, "SK": {"S": proposal_sk(claim.proposal_id)}},
        "UpdateExpression": "SET #status = :applied, decidedAt = :at REMOVE GSI1PK, GSI1SK, claimedAt",
        "ConditionExpression": "#status = :claimed AND decidedBy = :by",
        "ExpressionAttributeNames": {"#status": "status"},
        "ExpressionAttributeValues": {
            ":applied": {"S": "applied"},
            ":claimed": {"S": "claimed"},
            ":by": {"S": claim.by},
            ":at": {"S": claim.at},
        },
    }
