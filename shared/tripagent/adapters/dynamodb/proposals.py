"""Proposals (agent approvals and reviewer suggestions) in the trip's session partition: one item each,
``PROPOSAL#<id>``, its ``type`` the proposal's kind (the table's stream tells members about suggestions by
it). ``status``, ``decidedBy``, ``decidedAt``, ``claimedAt``, ``failure`` and the set of members who hid a
suggestion are attributes, so that every move is one conditional write; the rest is a JSON document.
Open proposals sit in GSI1's ``PROPOSALS#OPEN`` partition sorted by expiry, for the sweep.

The lease of a claim is reckoned from the caller's own clock (``at``), as is the expiry.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import after_transactions, condition_failed
from tripagent.adapters.dynamodb.keys import OPEN_PROPOSALS, proposal_sk, session_pk
from tripagent.adapters.dynamodb.paging import query_items
from tripagent.domain.proposal import CLAIM_LEASE_S, ClaimOutcome, Proposal, ProposalKind
from tripagent.domain.times import epoch

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

KEEP_DECIDED_S = 7 * 86400
STATE = ("status", "decidedBy", "decidedAt", "failure")  # attributes, not in the document


class DynamoProposalStore:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def _key(self, trip_id: str, proposal_id: str) -> Any:
        return {"PK": {"S": session_pk(trip_id)}, "SK": {"S": proposal_sk(proposal_id)}}

    def create(self, proposal: Proposal) -> bool:
        static = proposal.model_dump(mode="json", exclude=set(STATE))
        item: Any = {
            **self._key(proposal.tripId, proposal.proposalId),
            "type": {"S": proposal.kind},
            "status": {"S": proposal.status},
            "expiresAt": {"S": proposal.expiresAt},
            "doc": {"S": json.dumps(static)},
            "ttl": {"N": str(epoch(proposal.expiresAt) + KEEP_DECIDED_S)},
            "GSI1PK": {"S": OPEN_PROPOSALS},
            "GSI1SK": {"S": f"{proposal.expiresAt}#{proposal.tripId}#{proposal.proposalId}"},
        }
        try:
            self._db.put_item(
                TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(PK)"
            )
        except ClientError as exc:
            if condition_failed(exc):
                return False
            raise
        return True

    @staticmethod
    def read_item(item: Any) -> Proposal:
        doc = json.loads(item["doc"]["S"])
        for name in STATE:
            doc[name] = item.get(name, {}).get("S")
        return Proposal.model_validate(doc)

    def get(self, trip_id: str, proposal_id: str) -> Proposal | None:
        item = self._db.get_item(
            TableName=self._table, Key=self._key(trip_id, proposal_id), ConsistentRead=True
        ).get("Item")
        return self.read_item(item) if item else None

    def of_trip(self, trip_id: str, kind: ProposalKind) -> dict[str, Proposal]:
        items = query_items(
            self._db,
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :proposal)",
            FilterExpression="#type = :kind",
            ExpressionAttributeNames={"#type": "type"},
            ExpressionAttributeValues={
                ":pk": {"S": session_pk(trip_id)},
                ":proposal": {"S": proposal_sk("")},
                ":kind": {"S": kind},
            },
            ConsistentRead=True,
        )
        found = (self.read_item(i) for i in items)
        return {p.proposalId: p for p in found}

    def visible(self, trip_id: str, user_id: str, now: str) -> list[Proposal]:
        # Decided proposals stay a week, so the filter may leave pages empty: query_items reads every page.
        items = query_items(
            self._db,
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :proposal)",
            FilterExpression="#type = :suggestion AND #status IN (:pending, :claimed) AND expiresAt > :now "
            "AND NOT contains(deniedBy, :me)",
            ExpressionAttributeNames={"#status": "status", "#type": "type"},
            ExpressionAttributeValues={
                ":pk": {"S": session_pk(trip_id)},
                ":proposal": {"S": proposal_sk("")},
                ":suggestion": {"S": "suggestion"},
                ":pending": {"S": "pending"},
                ":claimed": {"S": "claimed"},
                ":now": {"S": now},
                ":me": {"S": user_id},
            },
            ConsistentRead=True,
        )
        found = [self.read_item(i) for i in items]
        return sorted(found, key=lambda p: p.createdAt, reverse=True)

    def hide(self, trip_id: str, proposal_id: str, user_id: str) -> Proposal | None:
        return after_transactions(lambda: self._hide_once(trip_id, proposal_id, user_id))

    def _hide_once(self, trip_id: str, proposal_id: str, user_id: str) -> Proposal | None:
        try:
            hidden = self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, proposal_id),
                UpdateExpression="ADD deniedBy :me",
                ConditionExpression="#type = :suggestion",  # only a suggestion is hidden per member
                ExpressionAttributeNames={"#type": "type"},
                ExpressionAttributeValues={":me": {"SS": [user_id]}, ":suggestion": {"S": "suggestion"}},
                ReturnValues="ALL_NEW",
            )
        except ClientError as exc:
            if condition_failed(exc):
                return None
            raise
        return self.read_item(hidden["Attributes"])

    def due(self, now: str) -> list[tuple[str, str]]:
        due = query_items(
            self._db,
            TableName=self._table,
            IndexName="GSI1",
            KeyConditionExpression="GSI1PK = :open AND GSI1SK < :now",
            ExpressionAttributeValues={":open": {"S": OPEN_PROPOSALS}, ":now": {"S": now}},
            ProjectionExpression="PK, SK",
        )
        return [
            (i["PK"]["S"].removeprefix(session_pk("")), i["SK"]["S"].removeprefix(proposal_sk("")))
            for i in due
        ]

    def settle(self, trip_id: str, proposal_id: str, status: str, by: str, at: str) -> bool:
        try:
            self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, proposal_id),
                UpdateExpression="SET #status = :status, decidedBy = :by, decidedAt = :at "
                "REMOVE GSI1PK, GSI1SK, claimedAt",
                # A claim whose holder died is settled too: past the expiry nobody may take it over.
                ConditionExpression="#status = :pending OR (#status = :claimed AND claimedAt < :lease)",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":status": {"S": status},
                    ":pending": {"S": "pending"},
                    ":claimed": {"S": "claimed"},
                    ":lease": {"N": str(epoch(at) - CLAIM_LEASE_S)},
                    ":by": {"S": by},
                    ":at": {"S": at},
                },
            )
        except ClientError as exc:
            if condition_failed(exc):
                return False
            raise
        return True

    def claim(
        self, trip_id: str, proposal_id: str, by: str, at: str, kind: ProposalKind
    ) -> ClaimOutcome | None:
        return after_transactions(lambda: self._claim_once(trip_id, proposal_id, by, at, kind))

    def _claim_once(
        self, trip_id: str, proposal_id: str, by: str, at: str, kind: ProposalKind
    ) -> ClaimOutcome | None:
        now = epoch(at)
        try:
            won = self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, proposal_id),
                UpdateExpression="SET #status = :claimed, decidedBy = :by, decidedAt = :at, claimedAt = :now",
                ConditionExpression="#type = :kind AND expiresAt > :at AND "
                "(#status = :pending OR (#status = :claimed AND claimedAt < :lease))",
                ExpressionAttributeNames={"#status": "status", "#type": "type"},
                ExpressionAttributeValues={
                    ":kind": {"S": kind},
                    ":claimed": {"S": "claimed"},
                    ":pending": {"S": "pending"},
                    ":by": {"S": by},
                    ":at": {"S": at},
                    ":now": {"N": str(now)},
                    ":lease": {"N": str(now - CLAIM_LEASE_S)},
                },
                ReturnValues="ALL_NEW",
                # The loser learns the decision, who made it and when, from the same call.
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as exc:
            if not condition_failed(exc):
                raise
            old: Any = exc.response.get("Item")
            if not old or old.get("type", {}).get("S") != kind:
                return None  # no such proposal of this kind: nothing of the other kind is told
            return ClaimOutcome(won=False, proposal=self.read_item(old))
        return ClaimOutcome(won=True, proposal=self.read_item(won["Attributes"]))

    def finish(
        self, trip_id: str, proposal_id: str, by: str, status: str, at: str, *, failure: str | None = None
    ) -> None:
        reopen = status == "pending"
        values: dict[str, Any] = {":status": {"S": status}, ":claimed": {"S": "claimed"}, ":by": {"S": by}}
        if reopen:
            update = "SET #status = :status REMOVE decidedBy, decidedAt, claimedAt"
        else:
            update = "SET #status = :status, decidedAt = :at" + (", failure = :failure" if failure else "")
            update += " REMOVE GSI1PK, GSI1SK, claimedAt"
            values[":at"] = {"S": at}
            if failure:
                values[":failure"] = {"S": failure}
        try:
            self._db.update_item(
                TableName=self._table,
                Key=self._key(trip_id, proposal_id),
                UpdateExpression=update,
                ConditionExpression="#status = :claimed AND decidedBy = :by",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=values,
            )
        except ClientError as exc:
            if not condition_failed(exc):
                raise  # a lost claim: whoever holds it now decides
