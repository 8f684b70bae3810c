"""Your own model provider over HTTP: the key is stored sealed (local KMS), never returned, never logged."""

from __future__ import annotations

import httpx
import pytest
from botocore.exceptions import ClientError
from tripagent_local.engines import dynamodb_client

from tests.e2e.conftest import DevServer

SECRET = "sk-ant-e2e-NEVER-SHOWN-0123456789"


def test_put_then_get_shows_has_key_and_the_key_is_nowhere(dev_server: DevServer) -> None:
    headers = dev_server.auth("kim")
    put = httpx.put(
        f"{dev_server.url}/me/ai-provider",
        headers=headers,
        json={"provider": "anthropic", "model": "claude-sonnet-4", "apiKey": SECRET},
    )
    assert put.status_code == 204, put.text
    got = httpx.get(f"{dev_server.url}/me/ai-provider", headers=headers)
    assert got.json() == {
        "provider": "anthropic",
        "model": "claude-sonnet-4",
        "baseUrl": None,
        "hasKey": True,
    }
    others = httpx.get(f"{dev_server.url}/me/ai-provider", headers=dev_server.auth("lee"))
    assert others.status_code == 404

    item = dynamodb_client(dev_server.ports["DYNAMODB_PORT"]).get_item(
        TableName="tripagent-local-TripagentTable", Key={"PK": {"S": "USER#kim"}, "SK": {"S": "AI_PROVIDER"}}
    )["Item"]
    stored = repr(item).encode() + b"".join(v["B"] for v in item.values() if "B" in v)
    assert SECRET.encode() not in stored
    assert {"keyCiphertext", "keyEncryptedDataKey", "keyNonce"} <= set(item)

    assert SECRET not in put.text + got.text
    assert SECRET not in dev_server.log.read_text()

    assert httpx.delete(f"{dev_server.url}/me/ai-provider", headers=headers).status_code == 204
    assert httpx.get(f"{dev_server.url}/me/ai-provider", headers=headers).status_code == 404


def test_a_sealed_key_opens_only_for_its_owner(dev_server: DevServer) -> None:
    """Copying a user's sealed key onto another user does not make it theirs: the KMS context binds it."""
    import os

    from tripagent.adapters.aws import dynamodb_client as app_dynamodb
    from tripagent.adapters.aws import kms_client
    from tripagent.adapters.dynamodb.ai_providers import DynamoUserProviderStore
    from tripagent.adapters.kms import EnvelopeCipher

    os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
    httpx.put(
        f"{dev_server.url}/me/ai-provider",
        headers=dev_server.auth("mia"),
        json={"provider": "openai", "model": "gpt-x", "apiKey": SECRET},
    )
    db = dynamodb_client(dev_server.ports["DYNAMODB_PORT"])
    item = db.get_item(
        TableName="tripagent-local-TripagentTable", Key={"PK": {"S": "USER#mia"}, "SK": {"S": "AI_PROVIDER"}}
    )["Item"]
    db.put_item(TableName="tripagent-local-TripagentTable", Item={**item, "PK": {"S": "USER#thief"}})
    store = DynamoUserProviderStore(
        app_dynamodb("eu-west-1", f"http://127.0.0.1:{dev_server.ports['DYNAMODB_PORT']}"),
        "tripagent-local-TripagentTable",
        EnvelopeCipher(kms_client("eu-west-1", dev_server.url), "local-ProviderKeysKey"),
    )
    own = store.get_with_key("mia")
    assert own is not None
    assert own.api_key == SECRET
    with pytest.raises(ClientError, match="InvalidCiphertext"):  # KMS refuses the other user's context
        store.get_with_key("thief")
