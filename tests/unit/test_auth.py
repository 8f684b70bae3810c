"""Token verification: the checks API Gateway's JWT authorizer makes, made by our own code."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from tripagent.auth import TokenVerifier
from tripagent.errors import Unauthorized

ISSUER, AUDIENCE = "https://issuer.test/", "tripagent"
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
OTHER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def verifier() -> TokenVerifier:
    def key_for_kid(kid: str | None) -> Any:
        if kid != "k1":
            raise Unauthorized("unknown key")
        return KEY.public_key()

    return TokenVerifier(issuer=ISSUER, audiences=[AUDIENCE], key_for_kid=key_for_kid)


def token(key: Any = KEY, kid: str = "k1", alg: str = "RS256", **overrides: Any) -> str:
    now = int(time.time())
    claims = {"sub": "alice", "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 60, **overrides}
    claims = {k: v for k, v in claims.items() if v is not None}
    return jwt.encode(claims, key, algorithm=alg, headers={"kid": kid})


def b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def test_a_valid_token_yields_its_claims() -> None:
    assert verifier().verify_header(f"Bearer {token()}")["sub"] == "alice"


@pytest.mark.parametrize(
    ("label", "make"),
    [
        ("wrong issuer", lambda: token(iss="https://evil.test/")),
        ("wrong audience", lambda: token(aud="someone-else")),
        ("expired", lambda: token(exp=int(time.time()) - 5)),
        ("not yet valid", lambda: token(nbf=int(time.time()) + 600)),
        ("no expiry", lambda: token(exp=None)),
        ("no subject", lambda: token(sub=None)),
        ("signed by another key", lambda: token(key=OTHER_KEY)),
        ("unknown key id", lambda: token(kid="k2")),
        (
            "tampered payload",
            lambda: ".".join(
                [
                    token().split(".")[0],
                    b64({"sub": "mallory", "iss": ISSUER, "aud": AUDIENCE, "exp": 9999999999}),
                    token().split(".")[2],
                ]
            ),
        ),
        (
            "alg none",
            lambda: (
                b64({"alg": "none", "kid": "k1"})
                + "."
                + b64({"sub": "alice", "iss": ISSUER, "aud": AUDIENCE, "exp": 9999999999})
                + "."
            ),
        ),
        ("garbage", lambda: "not-a-token"),
        ("no audience at all", lambda: token(aud=None)),
        ("no aud, another client_id", lambda: token(aud=None, client_id="someone-else")),
        ("wrong aud, right client_id", lambda: token(aud="someone-else", client_id=AUDIENCE)),
    ],
)
def test_invalid_tokens_are_refused(label: str, make: Any) -> None:
    with pytest.raises(Unauthorized):
        verifier().verify(make())


def test_a_token_without_aud_is_checked_on_its_client_id_as_api_gateway_does() -> None:
    """Cognito's access tokens carry ``client_id`` and no ``aud``; the authorizer accepts them so."""
    assert verifier().verify(token(aud=None, client_id=AUDIENCE))["sub"] == "alice"


def test_hs256_signed_with_the_public_key_is_refused() -> None:
    # The classic algorithm-confusion attack: the public key used as an HMAC secret.
    from cryptography.hazmat.primitives import serialization

    public_pem = KEY.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    header = b64({"alg": "HS256", "kid": "k1", "typ": "JWT"})
    payload = b64({"sub": "mallory", "iss": ISSUER, "aud": AUDIENCE, "exp": 9999999999})
    import hashlib
    import hmac

    sig = hmac.new(public_pem, f"{header}.{payload}".encode(), hashlib.sha256).digest()
    forged = f"{header}.{payload}." + base64.urlsafe_b64encode(sig).rstrip(b"=").decode()
    with pytest.raises(Unauthorized):
        verifier().verify(forged)


@pytest.mark.parametrize("header", [None, "", "Basic abc", "Bearer", "Bearer   "])
def test_a_missing_or_malformed_authorization_header_is_refused(header: str | None) -> None:
    with pytest.raises(Unauthorized):
        verifier().verify_header(header)
