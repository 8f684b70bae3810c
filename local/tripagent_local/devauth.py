"""The local stack's identity provider: one RSA key kept in ``.local/``, tokens for any user.

The gateway verifies tokens exactly as the HTTP API's JWT authorizer would (tripagent.auth).
"""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from tripagent.auth import TokenVerifier

from tripagent_local.paths import STATE_DIR

ISSUER = "https://auth.tripagent.local/"
AUDIENCE = "tripagent-local"
TOKEN_TTL_S = 12 * 3600


@cache
def signing_key(state_dir: Path = STATE_DIR) -> rsa.RSAPrivateKey:
    path = state_dir / "dev-signing-key.pem"
    if path.exists():
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        assert isinstance(key, rsa.RSAPrivateKey)
        return key
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    path.chmod(0o600)
    return key


def key_id(key: rsa.RSAPrivateKey) -> str:
    jwk = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    return str(jwk["n"][:16])


def jwks(state_dir: Path = STATE_DIR) -> dict[str, Any]:
    key = signing_key(state_dir)
    jwk = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": key_id(key), "use": "sig", "alg": "RS256"})
    return {"keys": [jwk]}


def mint_token(user_id: str, *, ttl_s: int = TOKEN_TTL_S, state_dir: Path = STATE_DIR, **claims: Any) -> str:
    key = signing_key(state_dir)
    now = int(time.time())
    payload = {"sub": user_id, "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + ttl_s, **claims}
    return jwt.encode(payload, key, algorithm="RS256", headers={"kid": key_id(key)})


def verifier(state_dir: Path = STATE_DIR) -> TokenVerifier:
    key = signing_key(state_dir)
    kid = key_id(key)

    def key_for_kid(requested: str | None) -> Any:
        if requested != kid:
            from tripagent.errors import Unauthorized

            raise Unauthorized("The token was not signed by the local key.")
        return key.public_key()

    return TokenVerifier(issuer=ISSUER, audiences=[AUDIENCE], key_for_kid=key_for_kid)
