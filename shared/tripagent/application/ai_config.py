"""Which model provider a caller gets: their own (``/me/ai-provider``), else the environment's, else
``ai_not_configured`` — decided before anything else happens."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Literal, Protocol
from urllib.parse import urlsplit

from tripagent.errors import AiNotConfigured, ValidationFailed

ProviderName = Literal["bedrock", "openai", "anthropic", "rules"]


@dataclass(frozen=True)
class ProviderConfig:
    provider: ProviderName
    model: str
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)  # never in a repr, so never in a log line
    source: Literal["user", "environment"] = "environment"


@dataclass(frozen=True)
class StoredProvider:
    """A user's provider as stored: the key stays encrypted until a call needs it."""

    provider: ProviderName
    model: str
    base_url: str | None
    has_key: bool


class UserProviderStore(Protocol):
    def get(self, user_id: str) -> StoredProvider | None: ...

    def get_with_key(self, user_id: str) -> ProviderConfig | None: ...

    def put(self, user_id: str, config: ProviderConfig) -> None: ...

    def delete(self, user_id: str) -> bool: ...


def resolve(user_id: str, users: UserProviderStore, environment: ProviderConfig | None) -> ProviderConfig:
    own = users.get_with_key(user_id)
    if own is not None:
        return own
    if environment is not None:
        return environment
    raise AiNotConfigured(
        "No model provider is configured: set AI_PROVIDER for the deployment, "
        "or your own with PUT /me/ai-provider."
    )


def check_base_url(url: str, *, allow_private: bool) -> str:
    """A user's base URL makes our function call it: https only, and never a private or local address
    (instance metadata, the VPC) unless the deployment allows it (the local stack does)."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ValidationFailed("baseUrl must be an http(s) URL.", details=[{"loc": ["body", "baseUrl"]}])
    if allow_private:
        return url.rstrip("/")
    if parts.scheme != "https":
        raise ValidationFailed("baseUrl must use https.", details=[{"loc": ["body", "baseUrl"]}])
    host = parts.hostname.lower()
    private = host in ("localhost",) or host.endswith((".localhost", ".internal", ".local"))
    try:
        address = ipaddress.ip_address(host)
        private = private or not address.is_global
    except ValueError:
        pass
    if private:
        raise ValidationFailed("baseUrl must be a public address.", details=[{"loc": ["body", "baseUrl"]}])
    return url.rstrip("/")


def set_own_provider(
    users: UserProviderStore, user_id: str, config: ProviderConfig, *, allow_private: bool
) -> None:
    if config.provider == "anthropic" and not config.api_key:
        raise ValidationFailed("apiKey is required for anthropic.", details=[{"loc": ["body", "apiKey"]}])
    if config.provider == "openai" and not (config.api_key or config.base_url):
        raise ValidationFailed(
            "apiKey is required for openai (or a baseUrl for a keyless server).",
            details=[{"loc": ["body", "apiKey"]}],
        )
    base_url = check_base_url(config.base_url, allow_private=allow_private) if config.base_url else None
    users.put(user_id, ProviderConfig(config.provider, config.model, base_url, config.api_key, source="user"))


def get_own_provider(users: UserProviderStore, user_id: str) -> StoredProvider:
    from tripagent.errors import NotFound

    stored = users.get(user_id)
    if stored is None:
        raise NotFound("You have no model provider of your own.")
    return stored
