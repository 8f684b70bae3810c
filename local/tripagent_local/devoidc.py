"""The local stack's OpenID provider: authorization code with PKCE, on the development signing key.

The web app signs in through it with the same OpenID Connect code it uses against Cognito in AWS:
discovery, an authorize page where you type a user name (no password: anyone is anyone locally), a
token endpoint that checks the PKCE verifier, and the JWKS the gateway already serves. The tokens are the
ones ``make token`` mints (``iss`` = ``devauth.ISSUER``, ``aud`` = the client id), so the gateway's JWT
check is the same for both.

As Cognito does, the code exchange also gives a refresh token, valid for 30 days and not rotated (every
tab of a browser renews with the same one), so that the app renews its session silently.
``DEV_TOKEN_TTL_S`` shortens the tokens' life (the browser suite signs in with tokens that expire in
seconds, to see the renewal at work).
"""

from __future__ import annotations

import base64
import hashlib
import html
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from tripagent_local import devauth

CLIENT_ID = devauth.AUDIENCE
CODE_TTL_S = 60
REFRESH_TTL_S = 30 * 24 * 3600  # Cognito's default for a refresh token
USER_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,189}\.[a-z]{2,}$")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")  # as urlsplit().hostname gives them


@dataclass(frozen=True)
class PendingCode:
    user: str
    client_id: str
    redirect_uri: str
    challenge: str
    nonce: str | None
    expires: float
    email: str = ""


@dataclass(frozen=True)
class Refresh:
    user: str
    client_id: str
    expires: float
    email: str = ""


def token_ttl_s() -> int:
    return int(os.environ.get("DEV_TOKEN_TTL_S") or devauth.TOKEN_TTL_S)


class DevOpenIdProvider:
    """One per gateway. Codes live in memory for a minute and are single use."""

    def __init__(self, base_url: str, state_dir: Path) -> None:
        self.base_url = base_url
        self.state_dir = state_dir
        self._codes: dict[str, PendingCode] = {}
        self._refresh: dict[str, Refresh] = {}
        self._lock = threading.Lock()

    def routes(self) -> dict[tuple[str, str], object]:
        return {
            ("GET", "/.well-known/openid-configuration"): self.discovery,
            ("GET", "/oauth2/authorize"): self.authorize_page,
            ("POST", "/oauth2/authorize"): self.authorize,
            ("POST", "/oauth2/token"): self.token,
            ("GET", "/oauth2/logout"): self.logout,
        }

    def metadata(self) -> dict[str, object]:
        base = self.base_url
        return {
            # The tokens' issuer, which the authorizer checks; the endpoints are this gateway's.
            "issuer": devauth.ISSUER,
            "authorization_endpoint": f"{base}/oauth2/authorize",
            "token_endpoint": f"{base}/oauth2/token",
            "jwks_uri": f"{base}/.well-known/jwks.json",
            "end_session_endpoint": f"{base}/oauth2/logout",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": ["openid", "profile"],
        }

    async def discovery(self, _: Request) -> Response:
        return JSONResponse(self.metadata(), headers={"access-control-allow-origin": "*"})

    # ------------------------------------------------------------------ authorize
    def _refusal(self, params: dict[str, str]) -> str | None:
        """Why this authorization request cannot go on (shown on the page, never sent to a redirect
        URI that was not checked), or None."""
        if params.get("client_id") != CLIENT_ID:
            return f"Unknown client_id (this provider knows {CLIENT_ID!r})."
        redirect = urlsplit(params.get("redirect_uri", ""))
        if redirect.scheme not in ("http", "https") or redirect.hostname not in LOOPBACK_HOSTS:
            return "redirect_uri must be a loopback http(s) URL."
        if params.get("response_type") != "code":
            return "Only response_type=code is supported."
        if params.get("code_challenge_method") != "S256" or not params.get("code_challenge"):
            return "PKCE with code_challenge_method=S256 is required."
        return None

    async def authorize_page(self, request: Request) -> Response:
        params = dict(request.query_params)
        refusal = self._refusal(params)
        if refusal:
            return HTMLResponse(_page("Cannot sign in", f"<p role='alert'>{html.escape(refusal)}</p>"), 400)
        return HTMLResponse(_sign_in_form(params, error=None))

    async def authorize(self, request: Request) -> Response:
        params = dict(parse_qsl((await request.body()).decode("utf-8", "replace")))
        refusal = self._refusal(params)
        if refusal:
            return HTMLResponse(_page("Cannot sign in", f"<p role='alert'>{html.escape(refusal)}</p>"), 400)
        user = params.get("username", "").strip().lower()
        if not USER_NAME.match(user):
            error = "A user name is 1 to 64 lowercase letters, digits, dots, dashes or underscores."
            return HTMLResponse(_sign_in_form(params, error=error), 400)
        # The address the ID token vouches for (invitations by e-mail find it); anyone's own by default.
        email = params.get("email", "").strip().lower() or f"{user}@example.com"
        if not EMAIL.match(email):
            return HTMLResponse(_sign_in_form(params, error="That is not an e-mail address."), 400)
        code = secrets.token_urlsafe(24)
        with self._lock:
            now = time.monotonic()
            self._codes = {k: v for k, v in self._codes.items() if v.expires > now}
            self._codes[code] = PendingCode(
                user, params["client_id"], params["redirect_uri"], params["code_challenge"],
                params.get("nonce"), now + CODE_TTL_S, email,
            )  # fmt: skip
        answer = {"code": code} | ({"state": params["state"]} if params.get("state") else {})
        separator = "&" if "?" in params["redirect_uri"] else "?"
        return RedirectResponse(f"{params['redirect_uri']}{separator}{urlencode(answer)}", status_code=302)

    # ------------------------------------------------------------------ token
    async def token(self, request: Request) -> Response:
        form = dict(parse_qsl((await request.body()).decode("utf-8", "replace")))
        if form.get("grant_type") == "refresh_token":
            return self._refreshed(form)
        if form.get("grant_type") != "authorization_code":
            return _token_error(
                "unsupported_grant_type", "Only authorization_code and refresh_token are supported."
            )
        with self._lock:
            pending = self._codes.pop(form.get("code", ""), None)  # single use, even when refused
        if pending is None or pending.expires < time.monotonic():
            return _token_error("invalid_grant", "The code is unknown, used or expired.")
        if form.get("client_id") != pending.client_id or form.get("redirect_uri") != pending.redirect_uri:
            return _token_error("invalid_grant", "client_id or redirect_uri differ from the authorization.")
        verifier = form.get("code_verifier", "")
        digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        if not secrets.compare_digest(digest, pending.challenge):
            return _token_error("invalid_grant", "The code_verifier does not match the code_challenge.")
        extra = {"nonce": pending.nonce} if pending.nonce else {}
        return self._tokens(pending.user, pending.client_id, extra, email=pending.email)

    def _refreshed(self, form: dict[str, str]) -> Response:
        with self._lock:
            known = self._refresh.get(form.get("refresh_token", ""))
        if known is None or known.expires < time.monotonic() or form.get("client_id") != known.client_id:
            return _token_error("invalid_grant", "The refresh token is unknown or expired.")
        # Cognito keeps the same refresh token
        return self._tokens(known.user, known.client_id, {}, email=known.email, refresh=False)

    def _tokens(
        self, user: str, client_id: str, extra: dict[str, str], *, email: str, refresh: bool = True
    ) -> Response:
        ttl = token_ttl_s()
        identity = {"name": user, "email": email, "email_verified": True} if email else {"name": user}
        answer = {
            "access_token": devauth.mint_token(user, ttl_s=ttl, state_dir=self.state_dir),
            "id_token": devauth.mint_token(user, ttl_s=ttl, state_dir=self.state_dir, **identity, **extra),
            "token_type": "Bearer",
            "expires_in": ttl,
            "scope": "openid profile",
        }
        if refresh:
            token = secrets.token_urlsafe(32)
            with self._lock:
                now = time.monotonic()
                self._refresh = {k: v for k, v in self._refresh.items() if v.expires > now}
                self._refresh[token] = Refresh(user, client_id, now + REFRESH_TTL_S, email)
            answer["refresh_token"] = token
        return JSONResponse(answer, headers={"cache-control": "no-store", "access-control-allow-origin": "*"})

    async def logout(self, request: Request) -> Response:
        target = request.query_params.get("post_logout_redirect_uri", "")
        parts = urlsplit(target)
        # Only an absolute http(s) URL on a loopback host: "///evil.example" or "https:evil.example" have
        # no hostname either, and a browser would follow them off this machine.
        if parts.scheme not in ("http", "https") or parts.hostname not in LOOPBACK_HOSTS:
            target = "/"
        return RedirectResponse(target, status_code=302)


def _token_error(code: str, description: str) -> Response:
    return JSONResponse(
        {"error": code, "error_description": description},
        status_code=400,
        headers={"cache-control": "no-store", "access-control-allow-origin": "*"},
    )


_STYLE = """
body { font: 16px system-ui, sans-serif; max-width: 26rem; margin: 4rem auto; padding: 0 1rem;
  color: #1d2430 }
label { display: block; margin: 1rem 0 .3rem; font-weight: 600 }
input[type=text] { width: 100%; padding: .6rem; font: inherit; border: 1px solid #8a94a6; border-radius: 6px;
  box-sizing: border-box }
button { margin-top: 1rem; padding: .6rem 1.2rem; font: inherit; background: #1f5fbf; color: #fff; border: 0;
  border-radius: 6px }
[role=alert] { color: #a11a1a }
small { color: #4b5565 }
"""


def _page(title: str, body: str) -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Tripagent (development sign-in)</title>
<link rel="icon" href="data:,">
<style>{_STYLE}</style></head>
<body><main><h1>{html.escape(title)}</h1>{body}</main></body></html>"""


def _sign_in_form(params: dict[str, str], *, error: str | None) -> str:
    hidden = "".join(
        f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
        for k, v in params.items()
        if k not in ("username", "email")
    )
    alert = f'<p role="alert" id="error">{html.escape(error)}</p>' if error else ""
    described = ' aria-describedby="error"' if error else ""
    return _page(
        "Sign in",
        f"""<p><small>Development provider of the local stack: type any user name (for example
alice or bob) to sign in as that user.</small></p>{alert}
<form method="post" action="/oauth2/authorize">{hidden}
<label for="username">User name</label>
<input type="text" id="username" name="username" autocomplete="username" required autofocus
 pattern="[a-z0-9][a-z0-9._\\-]{{0,63}}"{described} value="{html.escape(params.get("username", ""))}">
<label for="email">E-mail address <small>(optional: <i>name</i>@example.com when empty)</small></label>
<input type="email" id="email" name="email" autocomplete="email"
 value="{html.escape(params.get("email", ""))}">
<button type="submit">Sign in</button></form>""",
    )
