"""Bearer-token verification with the checks API Gateway's JWT authorizer makes.

Used by the local gateway in front of every protected route and, on paths with no authorizer in front
(a Lambda Function URL), by the function itself: signature against the issuer's keys, ``iss``, ``aud``
(or, for a token without one, ``client_id``, as API Gateway accepts Cognito's access tokens),
``exp`` (and ``nbf``), a ``sub``; ``alg: none`` and symmetric algorithms are refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jwt

from tripagent.errors import Unauthorized

# Asymmetric algorithms only: with HS256 a public key could be misused as a shared secret.
ALGORITHMS = ("RS256", "RS384", "RS512", "ES256", "ES384")

KeyResolver = Callable[[str | None], Any]


class TokenVerifier:
    def __init__(
        self, *, issuer: str, audiences: Sequence[str], key_for_kid: KeyResolver, leeway_s: int = 0
    ) -> None:
        self._issuer = issuer
        self._audiences = list(audiences)
        self._key_for_kid = key_for_kid
        self._leeway_s = leeway_s

    @classmethod
    def from_jwks_url(cls, *, issuer: str, audiences: Sequence[str], jwks_url: str) -> TokenVerifier:
        client = jwt.PyJWKClient(jwks_url, cache_keys=True, lifespan=3600, timeout=5)

        def key_for_kid(kid: str | None) -> Any:
            if kid is None:
                raise Unauthorized("The token names no key.")
            return client.get_signing_key(kid).key

        return cls(issuer=issuer, audiences=audiences, key_for_kid=key_for_kid)

    def verify_header(self, authorization: str | None) -> dict[str, Any]:
        """Verify an ``Authorization`` header value and return the token's claims."""
        if not authorization:
            raise Unauthorized("A bearer token is required.")
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("The Authorization header must be 'Bearer <token>'.")
        return self.verify(token.strip())

    def verify(self, token: str) -> dict[str, Any]:
        try:
            header = jwt.get_unverified_header(token)
            if header.get("alg") not in ALGORITHMS:
                raise Unauthorized("The token's algorithm is not accepted.")
            key = self._key_for_kid(header.get("kid"))
            # As API Gateway: ``aud`` when the token has one, else ``client_id`` (Cognito's access tokens).
            has_aud = "aud" in jwt.decode(token, options={"verify_signature": False})
            claims: dict[str, Any] = jwt.decode(
                token,
                key=key,
                algorithms=list(ALGORITHMS),
                audience=self._audiences if has_aud else None,
                issuer=self._issuer,
                leeway=self._leeway_s,
                options={"require": ["exp", "iss", "sub"], "verify_aud": has_aud},
            )
        except Unauthorized:
            raise
        except (jwt.PyJWTError, ValueError, KeyError) as exc:
            raise Unauthorized(f"The token is not valid ({type(exc).__name__}).") from exc
        if not has_aud and claims.get("client_id") not in self._audiences:
            raise Unauthorized("The token is not valid (no accepted aud or client_id).")
        return claims
