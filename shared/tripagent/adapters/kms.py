"""Envelope encryption with KMS: a fresh data key per secret (``GenerateDataKey``), the secret sealed
with AES-256-GCM under it, and only the KMS-encrypted data key stored beside the ciphertext. The
encryption context binds a ciphertext to its owner: a blob copied onto another user does not decrypt."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

if TYPE_CHECKING:
    from mypy_boto3_kms import KMSClient


@dataclass(frozen=True, slots=True)
class SealedSecret:
    ciphertext: bytes
    encrypted_key: bytes
    nonce: bytes


class EnvelopeCipher:
    def __init__(self, client: KMSClient, key_id: str) -> None:
        self._kms = client
        self._key_id = key_id

    def seal(self, plaintext: str, context: dict[str, str]) -> SealedSecret:
        key = self._kms.generate_data_key(KeyId=self._key_id, KeySpec="AES_256", EncryptionContext=context)
        nonce = os.urandom(12)
        aad = _aad(context)
        ciphertext = AESGCM(key["Plaintext"]).encrypt(nonce, plaintext.encode(), aad)
        return SealedSecret(ciphertext=ciphertext, encrypted_key=key["CiphertextBlob"], nonce=nonce)

    def open(self, sealed: SealedSecret, context: dict[str, str]) -> str:
        key = self._kms.decrypt(
            CiphertextBlob=sealed.encrypted_key, EncryptionContext=context, KeyId=self._key_id
        )
        return AESGCM(key["Plaintext"]).decrypt(sealed.nonce, sealed.ciphertext, _aad(context)).decode()


def _aad(context: dict[str, str]) -> bytes:
    return "&".join(f"{k}={v}" for k, v in sorted(context.items())).encode()
