"""Pending approvals of the agent's write tools, kept server-side: the client's word is no proof."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import condition_failed
from tripagent.adapters.dynamodb.keys import session_pk
from tripagent.adapters.dynamodb.paging import query_items
from tripagent.application.approvals import PendingApproval

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _sk(approval_id: str) -> str:
    return f"APPROVAL#{approval_id}"


class DynamoApprovalStore:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def put(self, approval: PendingApproval) -> None:
        item: Any = {
            "PK": {"S": session_pk(approval.tripId)},
            "SK": {"S": _sk(approval.approvalId)},
            "type": {"S": "approval"},
            "status": {"S": "pending"},
            "doc": {"S": approval.model_dump_json()},
            "ttl": {"N": str(approval.expiresAt + 86400)},
        }
        self._db.put_item(TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(PK)")

    def get(self, trip_id: str, approval_id: str) -> tuple[PendingApproval, str] | None:
        item = self._db.get_item(
            TableName=self._table,
            ConsistentRead=True,
            Key={"PK": {"S": session_pk(trip_id)}, "SK": {"S": _sk(approval_id)}},
        ).get("Item")
        if item is None:
            return None
        return PendingApproval.model_validate(json.loads(item["doc"]["S"])), item["status"]["S"]

    def all(self, trip_id: str) -> dict[str, tuple[PendingApproval, str]]:
        """Every approval of the trip with its status, by id: one query, however many a history shows."""
        out: dict[str, tuple[PendingApproval, str]] = {}
        for item in query_items(
            self._db,
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :approval)",
            ExpressionAttributeValues={":pk": {"S": session_pk(trip_id)}, ":approval": {"S": _sk("")}},
            ConsistentRead=True,
        ):
            approval = PendingApproval.model_validate(json.loads(item["doc"]["S"]))
            out[approval.approvalId] = (approval, item["status"]["S"])
        return out

    def pending(self, trip_id: str) -> list[PendingApproval]:
        return [approval for approval, status in self.all(trip_id).values() if status == "pending"]

    def decide(self, trip_id: str, approval_id: str, status: str, by: str) -> bool:
        """Move a pending approval to ``status``; ``False`` when someone decided first."""
        try:
            self._db.update_item(
                TableName=self._table,
                Key={"PK": {"S": session_pk(trip_id)}, "SK": {"S": _sk(approval_id)}},
                UpdateExpression="SET #status = :status, decidedBy = :by",
                ConditionExpression="#status = :pending",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":status": {"S": status},
                    ":by": {"S": by},
                    ":pending": {"S": "pending"},
                },
            )
        except ClientError as exc:
            if condition_failed(exc):
                return False
            raise
        return True

    def failed(self, trip_id: str, approval_id: str, reason: str) -> None:
        try:
            self._db.update_item(
                TableName=self._table,
                Key={"PK": {"S": session_pk(trip_id)}, "SK": {"S": _sk(approval_id)}},
                UpdateExpression="SET #status = :failed, failure = :reason",
                ConditionExpression="#status = :approved",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":failed": {"S": "failed"},
                    ":approved": {"S": "approved"},
                    ":reason": {"S": reason},
                },
            )
        except ClientError as exc:
            if not condition_failed(exc):
                raise
