"""Environment models, read once per cold start.

Each function declares the settings it needs as a subclass of :class:`Settings`; field aliases are the
environment variable names. ``load()`` validates the environment and names every missing or invalid
variable in one :class:`ConfigurationError`, so a misconfigured function fails at cold start, not on
the first request that happens to need the value.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator

from tripagent.errors import ConfigurationError


class Settings(BaseModel):
    # (a schema is built when a function first reads its settings: of the many classes, each uses one or two)
    model_config = ConfigDict(frozen=True, populate_by_name=False, extra="ignore", defer_build=True)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Self:
        env = os.environ if environ is None else environ
        # Empty strings count as unset: SAM and CloudFormation turn absent optional parameters into "".
        values = {k: v for k, v in env.items() if v != ""}
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            problems = []
            for err in exc.errors():
                name = ".".join(str(part) for part in err["loc"])
                problems.append(f"{name}: {err['msg']}")
            raise ConfigurationError(f"{cls.__name__}: invalid environment: " + "; ".join(problems)) from exc


class AwsSettings(Settings):
    """Where the AWS services are. Endpoint overrides are set only by the local stack."""

    region: str = Field("eu-west-1", alias="AWS_REGION")
    dynamodb_endpoint_url: str | None = Field(None, alias="DYNAMODB_ENDPOINT_URL")
    events_endpoint_url: str | None = Field(None, alias="EVENTS_ENDPOINT_URL")


class TableSettings(AwsSettings):
    table_name: str = Field(alias="TABLE_NAME", min_length=3)


# Fields several functions read, declared once and mixed in where they are needed.
class RoutingSettings(Settings):
    """Valhalla; optional unless a subclass makes ``valhalla_url`` required."""

    valhalla_url: str | None = Field(None, alias="VALHALLA_URL")
    valhalla_timeout_s: float = Field(5.0, alias="VALHALLA_TIMEOUT_S", gt=0)


class SessionRetentionSettings(Settings):
    session_retention_days: int = Field(30, alias="SESSION_RETENTION_DAYS", ge=1, le=3650)


class ChatRateSettings(Settings):
    """The per-user rate limit on chats with a model: the brief chat's, which the agent shares."""

    rate_limit: int = Field(20, alias="AI_CHAT_RATE_LIMIT", ge=1)
    rate_window_s: int = Field(60, alias="AI_CHAT_RATE_WINDOW_S", ge=1)


class BusSettings(AwsSettings):
    event_bus_name: str = Field(alias="EVENT_BUS_NAME", min_length=1)


class HealthSettings(TableSettings, BusSettings, RoutingSettings):
    valhalla_url: str = Field(alias="VALHALLA_URL", min_length=1)
    # Two points the routing data must connect (the region build's smoke trip); none: Valhalla's status only
    health_route: str | None = Field(None, alias="HEALTH_ROUTE")


class AiSettings(AwsSettings):
    """The deployment's model provider (``AI_*``) and the limits every model call gets."""

    ai_provider: Literal["bedrock", "openai", "anthropic", "rules"] | None = Field(None, alias="AI_PROVIDER")
    ai_model: str | None = Field(None, alias="AI_MODEL")
    ai_base_url: str | None = Field(None, alias="AI_BASE_URL")
    ai_api_key: SecretStr | None = Field(None, alias="AI_API_KEY")
    ai_timeout_s: float = Field(25.0, alias="AI_TIMEOUT_S", gt=0, le=900)
    ai_max_output_tokens: int = Field(1024, alias="AI_MAX_OUTPUT_TOKENS", ge=16, le=64000)
    # The local stack allows http://127.0.0.1 for a developer's Ollama; deployments do not.
    ai_allow_private_base_urls: bool = Field(False, alias="AI_ALLOW_PRIVATE_BASE_URLS")

    @model_validator(mode="after")
    def _complete(self) -> AiSettings:
        if self.ai_provider not in (None, "rules") and not self.ai_model:
            raise ValueError(f"AI_MODEL is required with AI_PROVIDER={self.ai_provider}")
        if self.ai_provider == "anthropic" and not self.ai_api_key:
            raise ValueError("AI_API_KEY is required with AI_PROVIDER=anthropic")
        if self.ai_provider == "openai" and not (self.ai_api_key or self.ai_base_url):
            raise ValueError("AI_PROVIDER=openai needs AI_API_KEY, or AI_BASE_URL for a keyless local server")
        return self


class UserProviderSettings(TableSettings):
    kms_key_id: str = Field(alias="KMS_KEY_ID", min_length=1)
    kms_endpoint_url: str | None = Field(None, alias="KMS_ENDPOINT_URL")
    ai_allow_private_base_urls: bool = Field(False, alias="AI_ALLOW_PRIVATE_BASE_URLS")


@cache
def ai_settings() -> AiSettings:
    return AiSettings.from_env()


@cache
def user_provider_settings() -> UserProviderSettings:
    return UserProviderSettings.from_env()


class RegionSettings(AwsSettings):
    """Which region's places index the functions read: a file (the local stack's ``PLACES_PATH``), or the
    current version of a region bundle in S3, named by the SSM parameter the builder moves; else the
    index packaged with the functions."""

    places_path: str | None = Field(None, alias="PLACES_PATH")
    region_parameter: str | None = Field(None, alias="REGION_PARAMETER")
    regions_bucket: str | None = Field(None, alias="REGIONS_BUCKET")
    regions_cache_dir: str = Field("/tmp", alias="REGIONS_CACHE_DIR")  # noqa: S108 - Lambda's only writable disk


@cache
def region_settings() -> RegionSettings:
    return RegionSettings.from_env()


class PlacesSettings(AwsSettings, RoutingSettings):
    places_provider: Literal["gazetteer", "nominatim", "photon", "amazon-location"] = Field(
        "gazetteer", alias="PLACES_PROVIDER"
    )
    places_base_url: str | None = Field(None, alias="PLACES_BASE_URL")
    max_snap_m: float = Field(2000.0, alias="COVERAGE_MAX_SNAP_M", gt=0)

    @model_validator(mode="after")
    def _base_url(self) -> PlacesSettings:
        if self.places_provider in ("nominatim", "photon") and not self.places_base_url:
            raise ValueError(f"PLACES_BASE_URL is required with PLACES_PROVIDER={self.places_provider}")
        return self


@cache
def places_settings() -> PlacesSettings:
    return PlacesSettings.from_env()


class BriefChatSettings(UserProviderSettings, AiSettings, ChatRateSettings):
    """The brief chat: a model provider (the user's or the deployment's), its limits, the state secret."""

    brief_state_secret: SecretStr = Field(alias="BRIEF_STATE_SECRET", min_length=32)
    max_messages: int = Field(24, alias="AI_CHAT_MAX_MESSAGES", ge=2, le=200)
    max_message_chars: int = Field(4000, alias="AI_CHAT_MAX_MESSAGE_CHARS", ge=100, le=100_000)
    max_body_bytes: int = Field(200_000, alias="AI_CHAT_MAX_BODY_BYTES", ge=1000)


@cache
def brief_chat_settings() -> BriefChatSettings:
    return BriefChatSettings.from_env()


class GenerateSettings(UserProviderSettings, AiSettings, RoutingSettings):
    """Generation: the model, places and the router, the trips table."""

    valhalla_url: str = Field(alias="VALHALLA_URL", min_length=1)


@cache
def generate_settings() -> GenerateSettings:
    return GenerateSettings.from_env()


class SessionSettings(TableSettings, SessionRetentionSettings):
    pass


class JwtSettings(Settings):
    """Where no authorizer stands in front (a Function URL, a WebSocket API), functions check tokens."""

    jwt_issuer: str | None = Field(None, alias="JWT_ISSUER")
    jwt_audience: str | None = Field(None, alias="JWT_AUDIENCE")  # comma-separated
    jwt_jwks_url: str | None = Field(None, alias="JWT_JWKS_URL")


@cache
def jwt_settings() -> JwtSettings:
    return JwtSettings.from_env()


class AgentSettings(
    UserProviderSettings, AiSettings, JwtSettings, SessionRetentionSettings, ChatRateSettings, RoutingSettings
):
    weather_base_url: str | None = Field("https://api.open-meteo.com", alias="WEATHER_BASE_URL")
    ai_max_tool_steps: int = Field(4, alias="AI_MAX_TOOL_STEPS", ge=1, le=20)
    # The token budget is per trip and day.
    daily_token_budget: int = Field(200_000, alias="AI_TRIP_DAILY_TOKEN_BUDGET", ge=1)
    # A turn ends itself before the streamed function's timeout (120 s in the template; a Function URL
    # stream is capped at 15 minutes), so that its end is written, not cut.
    turn_limit_s: float = Field(110.0, alias="AGENT_TURN_LIMIT_S", gt=0, le=890)
    # A writer silent this long is gone: readers end its turn as lost.
    stream_stale_s: float = Field(30.0, alias="AGENT_STREAM_STALE_S", gt=0, le=300)


@cache
def agent_settings() -> AgentSettings:
    return AgentSettings.from_env()


@cache
def session_settings() -> SessionSettings:
    return SessionSettings.from_env()


@cache
def health_settings() -> HealthSettings:
    return HealthSettings.from_env()


@cache
def table_settings() -> TableSettings:
    return TableSettings.from_env()


@cache
def bus_settings() -> BusSettings:
    return BusSettings.from_env()


class ReviewSettings(TableSettings, AiSettings, SessionRetentionSettings, RoutingSettings):
    """The reviewer: its queue, the deployment's model (``rules`` when none), the notification threshold."""

    review_queue_url: str = Field(alias="REVIEW_QUEUE_URL", min_length=1)
    sqs_endpoint_url: str | None = Field(None, alias="SQS_ENDPOINT_URL")
    ai_proactive_threshold: float = Field(0.7, alias="AI_PROACTIVE_THRESHOLD", ge=0.0, le=1.0)
    weather_base_url: str | None = Field(None, alias="WEATHER_BASE_URL")


@cache
def review_settings() -> ReviewSettings:
    return ReviewSettings.from_env()


class RealtimeSettings(TableSettings, JwtSettings):
    """The WebSocket API's functions: the table, the token checks, the stage's Management API."""

    websocket_management_url: str = Field(alias="WEBSOCKET_MANAGEMENT_URL", min_length=1)


@cache
def realtime_settings() -> RealtimeSettings:
    return RealtimeSettings.from_env()
