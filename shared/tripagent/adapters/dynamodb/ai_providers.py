"""Users' own model providers: one item per user, the API key sealed by envelope encryption."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tripagent.adapters.dynamodb.keys import AI_PROVIDER, user_pk
from tripagent.adapters.kms import EnvelopeCipher, SealedSecret
from tripagent.application.ai_config import ProviderConfig, StoredProvider

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


class DynamoUserProviderStore:
    def __init__(self, client: DynamoDBClient, table_name: str, cipher: EnvelopeCipher) -> None:
        self._db = client
        self._table = table_name
        self._cipher = cipher

    def _key(self, user_id: str) -> Any:
        return {"PK": {"S": user_pk(user_id)}, "SK": {"S": AI_PROVIDER}}

    def _item(self, user_id: str) -> dict[str, Any] | None:
        return self._db.get_item(TableName=self._table, Key=self._key(user_id), ConsistentRead=True).get(
            "Item"
        )

    def get(self, user_id: str) -> StoredProvider | None:
        item = self._item(user_id)
        if item is None:
            return None
        return StoredProvider(
            provider=item["provider"]["S"],
            model=item["model"]["S"],
            base_url=item["baseUrl"]["S"] if "baseUrl" in item else None,
            has_key="keyCiphertext" in item,
        )

    def get_with_key(self, user_id: str) -> ProviderConfig | None:
        item = self._item(user_id)
        if item is None:
            return None
        api_key = None
        if "keyCiphertext" in item:
            sealed = SealedSecret(
                item["keyCiphertext"]["B"], item["keyEncryptedDataKey"]["B"], item["keyNonce"]["B"]
            )
            api_key = self._cipher.open(sealed, {"userId": user_id, "purpose": "ai-provider"})
        return ProviderConfig(
            provider=item["provider"]["S"],
            model=item["model"]["S"],
            base_url=item["baseUrl"]["S"] if "baseUrl" in item else None,
            api_key=api_key,
            source="user",
        )

    def put(self, user_id: str, config: ProviderConfig) -> None:
        item: dict[str, Any] = {
            **self._key(user_id),
            "type": {"S": "ai-provider"},
            "provider": {"S": config.provider},
            "model": {"S": config.model},
        }
        if config.base_url:
            item["baseUrl"] = {"S": config.base_url}
        if config.api_key:
            sealed = self._cipher.seal(config.api_key, {"userId": user_id, "purpose": "ai-provider"})
            item |= {
                "keyCiphertext": {"B": sealed.ciphertext},
                "keyEncryptedDataKey": {"B": sealed.encrypted_key},
                "keyNonce": {"B": sealed.nonce},
            }
        self._db.put_item(TableName=self._table, Item=item)

    def delete(self, user_id: str) -> bool:
        response = self._db.delete_item(TableName=self._table, Key=self._key(user_id), ReturnValues="ALL_OLD")
        return "Attributes" in response
