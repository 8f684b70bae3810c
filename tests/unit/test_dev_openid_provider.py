"""The local OpenID provider: authorization code with PKCE, single-use codes, loopback redirects only."""

from __future__ import annotations

import base64
import hashlib
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

with warnings.catch_warnings():  # Starlette warns, on import, that httpx will give way to httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from tripagent_local import devauth
from tripagent_local.devoidc import CLIENT_ID, DevOpenIdProvider

REDIRECT = "http://127.0.0.1:3000/"
VERIFIER = "a-verifier-of-at-least-forty-three-characters-0123456789"
CHALLENGE = base64.urlsafe_b64encode(hashlib.sha256(VERIFIER.encode()).digest()).rstrip(b"=").decode()


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    provider = DevOpenIdProvider("http://127.0.0.1:3000", tmp_path)
    routes = [Route(path, handler, methods=[method]) for (method, path), handler in provider.routes().items()]
    return TestClient(Starlette(routes=routes), follow_redirects=False)


def authorize(client: TestClient, **overrides: str) -> Any:
    form = {
        "client_id": CLIENT_ID,
        "redirect_uri": REDIRECT,
        "response_type": "code",
        "code_challenge": CHALLENGE,
        "code_challenge_method": "S256",
        "state": "s1",
        "nonce": "n1",
        "username": "alice",
        **overrides,
    }
    return client.post("/oauth2/authorize", data=form)


def code_of(response: Any) -> str:
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.headers["location"]).query)
    assert query["state"] == ["s1"]
    return query["code"][0]


def exchange(client: TestClient, code: str, verifier: str = VERIFIER) -> Any:
    return client.post(
        "/oauth2/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": CLIENT_ID,
            "code_verifier": verifier,
        },
    )


def test_discovery_names_the_tokens_issuer_and_this_gateways_endpoints(client: TestClient) -> None:
    metadata = client.get("/.well-known/openid-configuration").json()
    assert metadata["issuer"] == devauth.ISSUER
    assert metadata["token_endpoint"] == "http://127.0.0.1:3000/oauth2/token"
    assert metadata["code_challenge_methods_supported"] == ["S256"]


def test_the_code_with_its_verifier_gives_tokens_the_gateway_accepts(
    client: TestClient, tmp_path: Path
) -> None:
    tokens = exchange(client, code_of(authorize(client))).json()
    claims = devauth.verifier(tmp_path).verify_header(f"Bearer {tokens['access_token']}")
    assert claims["sub"] == "alice"
    identity = jwt.decode(tokens["id_token"], options={"verify_signature": False})
    assert (identity["sub"], identity["nonce"], identity["aud"]) == ("alice", "n1", CLIENT_ID)


def test_a_wrong_verifier_or_a_second_use_of_the_code_is_refused(client: TestClient) -> None:
    code = code_of(authorize(client))
    wrong = exchange(client, code, verifier="x" * 50)
    assert wrong.status_code == 400
    assert wrong.json()["error"] == "invalid_grant"
    again = exchange(client, code)  # refused even with the right verifier: the code is spent
    assert again.status_code == 400
    good = code_of(authorize(client))
    assert exchange(client, good).status_code == 200
    assert exchange(client, good).status_code == 400


@pytest.mark.parametrize(
    "overrides",
    [
        {"redirect_uri": "https://evil.example/callback"},
        {"client_id": "someone-else"},
        {"code_challenge_method": "plain"},
        {"response_type": "token"},
    ],
)
def test_an_unsafe_authorization_request_is_refused_without_redirecting(
    client: TestClient, overrides: dict[str, str]
) -> None:
    response = authorize(client, **overrides)
    assert response.status_code == 400
    assert "location" not in response.headers


def test_a_malformed_user_name_is_asked_again(client: TestClient) -> None:
    response = authorize(client, username="Not A Name!")
    assert response.status_code == 400
    assert 'role="alert"' in response.text


@pytest.mark.parametrize(
    ("target", "location"),
    [
        ("http://127.0.0.1:3000/", "http://127.0.0.1:3000/"),
        ("///evil.example/", "/"),
        ("https:evil.example", "/"),
        ("https://evil.example/", "/"),
        ("javascript:alert(1)", "/"),
    ],
)
def test_sign_out_returns_only_to_this_machine(client: TestClient, target: str, location: str) -> None:
    response = client.get("/oauth2/logout", params={"post_logout_redirect_uri": target})
    assert response.status_code == 302
    assert response.headers["location"] == location


def refresh(client: TestClient, token: str, client_id: str = CLIENT_ID) -> Any:
    return client.post(
        "/oauth2/token", data={"grant_type": "refresh_token", "refresh_token": token, "client_id": client_id}
    )


def test_a_refresh_token_renews_the_session_from_any_tab_until_it_expires(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEV_TOKEN_TTL_S", "30")  # as the browser suite shortens them
    first = exchange(client, code_of(authorize(client))).json()
    assert first["expires_in"] == 30
    renewed = refresh(client, first["refresh_token"])
    assert renewed.status_code == 200
    tokens = renewed.json()
    claims = devauth.verifier(tmp_path).verify_header(f"Bearer {tokens['access_token']}")
    assert claims["sub"] == "alice"
    assert claims["exp"] - claims["iat"] == 30
    assert "refresh_token" not in tokens  # as Cognito: the same one goes on serving
    assert refresh(client, first["refresh_token"]).status_code == 200  # another tab, the same token
    assert refresh(client, first["refresh_token"], "someone-else").status_code == 400
    assert refresh(client, "made-up").status_code == 400
