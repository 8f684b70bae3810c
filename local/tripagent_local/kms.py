"""A local KMS for envelope encryption: ``GenerateDataKey`` and ``Decrypt`` for real boto3 clients
(``KMS_ENDPOINT_URL``), under a master key kept in ``.local/kms-master.key``. The encryption context is
authenticated, as in KMS: a data key asked for under one context does not decrypt under another."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from tripagent_local.awsjson import AwsApiError
from tripagent_local.lambdas import ACCOUNT, REGION


class KmsError(AwsApiError):
    pass


class LocalKms:
    def __init__(self, master_key_path: Path, key_ids: set[str]) -> None:
        self._key_ids = key_ids
        if master_key_path.exists():
            self._master = master_key_path.read_bytes()
        else:
            self._master = AESGCM.generate_key(bit_length=256)
            master_key_path.parent.mkdir(parents=True, exist_ok=True)
            master_key_path.write_bytes(self._master)
            master_key_path.chmod(0o600)

    def arn(self, key_id: str) -> str:
        return f"arn:aws:kms:{REGION}:{ACCOUNT}:key/{key_id}"

    def _key_id(self, requested: str) -> str:
        key_id = requested.rsplit("/", 1)[-1]
        if key_id not in self._key_ids:
            raise KmsError("NotFoundException", f"Key '{requested}' does not exist")
        return key_id

    def handle(self, target: str, body: dict[str, Any]) -> dict[str, Any]:
        action = target.removeprefix("TrentService.")
        context = body.get("EncryptionContext") or {}
        if action == "GenerateDataKey":
            key_id = self._key_id(body.get("KeyId", ""))
            if body.get("KeySpec", "AES_256") != "AES_256" and body.get("NumberOfBytes") != 32:
                raise KmsError("ValidationException", "the local KMS makes AES_256 data keys")
            data_key = os.urandom(32)
            nonce = os.urandom(12)
            sealed = AESGCM(self._master).encrypt(nonce, data_key, _aad(key_id, context))
            blob = json.dumps({"k": key_id, "n": _b64(nonce), "c": _b64(sealed)}).encode()
            return {"KeyId": self.arn(key_id), "Plaintext": _b64(data_key), "CiphertextBlob": _b64(blob)}
        if action == "Decrypt":
            try:
                blob = json.loads(base64.b64decode(body["CiphertextBlob"]))
                key_id = blob["k"]
                if body.get("KeyId") and self._key_id(body["KeyId"]) != key_id:
                    raise KmsError("IncorrectKeyException", "the ciphertext was made under another key")
                data_key = AESGCM(self._master).decrypt(
                    base64.b64decode(blob["n"]), base64.b64decode(blob["c"]), _aad(key_id, context)
                )
            except (InvalidTag, KeyError, ValueError) as exc:
                raise KmsError("InvalidCiphertextException", "") from exc
            return {
                "KeyId": self.arn(key_id),
                "Plaintext": _b64(data_key),
                "EncryptionAlgorithm": "SYMMETRIC_DEFAULT",
            }
        raise KmsError("UnsupportedOperationException", f"the local KMS does not implement {action}")


def _aad(key_id: str, context: dict[str, str]) -> bytes:
    return json.dumps({"keyId": key_id, "context": context}, sort_keys=True).encode()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()
