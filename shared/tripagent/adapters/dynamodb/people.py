"""Profiles, invitations and share links in the single table (``application/people``).

A profile is ``USER#<id> / PROFILE``, and its address ``EMAIL#<address> / USER`` names who has it. An
invitation is written twice in one transaction: under the address (``INVITE#<trip>``, what its sign-in
accepts) and under the trip (``TRIPPEOPLE#<trip> / INVITE#<address>``, what its owners list). A share link
is ``SHARE#<token> / META`` (what opening it reads) and ``TRIPPEOPLE#<trip> / SHARE#<token>``; revoking
deletes both at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from tripagent.adapters.dynamodb.failures import transaction_cancelled
from tripagent.adapters.dynamodb.keys import (
    META,
    PROFILE,
    email_pk,
    share_pk,
    trip_people_pk,
    user_pk,
)
from tripagent.domain.people import Invitation, Profile, ShareLink
from tripagent.domain.trip import Role

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _s(item: dict[str, Any], name: str) -> str:
    return str(item[name]["S"])


class DynamoPeopleStore:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    # ------------------------------------------------------------------ profiles
    def save_profile(self, profile: Profile) -> None:
        item: dict[str, Any] = {
            "PK": {"S": user_pk(profile.userId)},
            "SK": {"S": PROFILE},
            "type": {"S": "profile"},
            "displayName": {"S": profile.displayName},
        }
        writes: list[Any] = []
        if profile.email:
            item["email"] = {"S": profile.email}
            writes.append(
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": {
                            "PK": {"S": email_pk(profile.email)},
                            "SK": {"S": "USER"},
                            "type": {"S": "email"},
                            "userId": {"S": profile.userId},
                        },
                    }
                }
            )
        writes.append({"Put": {"TableName": self._table, "Item": item}})
        self._db.transact_write_items(TransactItems=writes)

    def profiles(self, user_ids: list[str]) -> dict[str, Profile]:
        found: dict[str, Profile] = {}
        ids = list(dict.fromkeys(user_ids))
        for start in range(0, len(ids), 100):
            keys = [{"PK": {"S": user_pk(u)}, "SK": {"S": PROFILE}} for u in ids[start : start + 100]]
            request: Any = {self._table: {"Keys": keys}}
            while request:
                answer = self._db.batch_get_item(RequestItems=request)
                for item in answer["Responses"].get(self._table, []):
                    user = _s(item, "PK").removeprefix(user_pk(""))
                    email = item.get("email", {}).get("S")
                    found[user] = Profile(user, _s(item, "displayName"), email)
                request = answer.get("UnprocessedKeys") or {}
        return found

    def user_with_email(self, email: str) -> str | None:
        item = self._db.get_item(
            TableName=self._table,
            Key={"PK": {"S": email_pk(email)}, "SK": {"S": "USER"}},
            ConsistentRead=True,
        ).get("Item")
        return _s(item, "userId") if item else None

    # ------------------------------------------------------------------ invitations
    def invite(self, invitation: Invitation, expires_at: int) -> None:
        body = {
            "type": {"S": "invitation"},
            "tripId": {"S": invitation.tripId},
            "email": {"S": invitation.email},
            "role": {"S": invitation.role.value},
            "invitedBy": {"S": invitation.invitedBy},
            "at": {"S": invitation.at},
            "ttl": {"N": str(expires_at)},
        }
        self._db.transact_write_items(
            TransactItems=[
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": {
                            "PK": {"S": email_pk(invitation.email)},
                            "SK": {"S": f"INVITE#{invitation.tripId}"},
                        }
                        | body,
                    }
                },
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": {
                            "PK": {"S": trip_people_pk(invitation.tripId)},
                            "SK": {"S": f"INVITE#{invitation.email}"},
                        }
                        | body,
                    }
                },
            ]
        )

    def _invitations(self, pk: str) -> list[Invitation]:
        items = self._db.query(
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :invite)",
            FilterExpression="#ttl > :now",
            ExpressionAttributeNames={"#ttl": "ttl"},
            ExpressionAttributeValues={
                ":pk": {"S": pk},
                ":invite": {"S": "INVITE#"},
                ":now": {"N": str(_now())},
            },
            ConsistentRead=True,
        )["Items"]
        return [
            Invitation(_s(i, "tripId"), _s(i, "email"), Role(_s(i, "role")), _s(i, "invitedBy"), _s(i, "at"))
            for i in items
        ]

    def invitations_of_trip(self, trip_id: str) -> list[Invitation]:
        return self._invitations(trip_people_pk(trip_id))

    def invitations_for(self, email: str) -> list[Invitation]:
        return self._invitations(email_pk(email))

    def drop_invitation(self, trip_id: str, email: str) -> bool:
        return self._delete_both(
            {"PK": {"S": email_pk(email)}, "SK": {"S": f"INVITE#{trip_id}"}},
            {"PK": {"S": trip_people_pk(trip_id)}, "SK": {"S": f"INVITE#{email}"}},
        )

    # ------------------------------------------------------------------ share links
    def create_link(self, link: ShareLink) -> None:
        body = {
            "type": {"S": "sharelink"},
            "tripId": {"S": link.tripId},
            "token": {"S": link.token},
            "role": {"S": link.role.value},
            "createdBy": {"S": link.createdBy},
            "createdAt": {"S": link.createdAt},
        }
        self._db.transact_write_items(
            TransactItems=[
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": {"PK": {"S": share_pk(link.token)}, "SK": {"S": META}} | body,
                        "ConditionExpression": "attribute_not_exists(PK)",
                    }
                },
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": {"PK": {"S": trip_people_pk(link.tripId)}, "SK": {"S": f"SHARE#{link.token}"}}
                        | body,
                    }
                },
            ]
        )

    @staticmethod
    def _link(item: dict[str, Any]) -> ShareLink:
        return ShareLink(
            _s(item, "token"),
            _s(item, "tripId"),
            Role(_s(item, "role")),
            _s(item, "createdBy"),
            _s(item, "createdAt"),
        )

    def link(self, token: str) -> ShareLink | None:
        item = self._db.get_item(
            TableName=self._table, Key={"PK": {"S": share_pk(token)}, "SK": {"S": META}}, ConsistentRead=True
        ).get("Item")
        return self._link(item) if item else None

    def links_of_trip(self, trip_id: str) -> list[ShareLink]:
        items = self._db.query(
            TableName=self._table,
            KeyConditionExpression="PK = :pk AND begins_with(SK, :share)",
            ExpressionAttributeValues={":pk": {"S": trip_people_pk(trip_id)}, ":share": {"S": "SHARE#"}},
            ConsistentRead=True,
        )["Items"]
        return sorted((self._link(i) for i in items), key=lambda link: link.createdAt)

    def revoke_link(self, trip_id: str, token: str) -> bool:
        return self._delete_both(
            {"PK": {"S": trip_people_pk(trip_id)}, "SK": {"S": f"SHARE#{token}"}},
            {"PK": {"S": share_pk(token)}, "SK": {"S": META}},
        )

    def _delete_both(self, first: dict[str, Any], second: dict[str, Any]) -> bool:
        """Both items go, or neither (the first must exist: a second revocation is a 404)."""
        try:
            self._db.transact_write_items(
                TransactItems=[
                    {
                        "Delete": {
                            "TableName": self._table,
                            "Key": first,
                            "ConditionExpression": "attribute_exists(PK)",
                        }
                    },
                    {"Delete": {"TableName": self._table, "Key": second}},
                ]
            )
        except ClientError as exc:
            if transaction_cancelled(exc):
                return False
            raise
        return True


def _now() -> int:
    import time

    return int(time.time())
