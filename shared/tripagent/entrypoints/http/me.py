"""``/me``: the authenticated caller, and their own model provider (``/me/ai-provider``)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from tripagent.application.ai_config import ProviderName
from tripagent.entrypoints.http.api import current_caller

router = Router()


class MeResponse(BaseModel):
    userId: str = Field(description="The caller: the `sub` claim of the verified token.")


class PutProviderRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    provider: ProviderName
    model: str = Field(min_length=1, max_length=200)
    baseUrl: str | None = Field(default=None, max_length=500)
    apiKey: SecretStr | None = Field(
        default=None, max_length=1000, description="Stored encrypted; never returned."
    )


class ProviderResponse(BaseModel):
    provider: ProviderName
    model: str
    baseUrl: str | None
    hasKey: bool


@router.get("/me", summary="The authenticated caller", tags=["me"])
def get_me() -> MeResponse:
    return MeResponse(userId=current_caller(router).user_id)


@router.put(
    "/me/ai-provider",
    summary="Use your own model provider and key",
    tags=["me"],
    responses={204: {"description": "Saved"}},
)
def put_provider(body: PutProviderRequest) -> Response[None]:
    from tripagent.application.ai_config import ProviderConfig, set_own_provider
    from tripagent.bootstrap import user_provider_store
    from tripagent.settings import user_provider_settings

    config = ProviderConfig(
        provider=body.provider,
        model=body.model,
        base_url=body.baseUrl,
        api_key=body.apiKey.get_secret_value() if body.apiKey else None,
        source="user",
    )
    set_own_provider(
        user_provider_store(),
        current_caller(router).user_id,
        config,
        allow_private=user_provider_settings().ai_allow_private_base_urls,
    )
    return Response(status_code=204)


@router.get("/me/ai-provider", summary="Your own model provider (never the key)", tags=["me"])
def get_provider() -> ProviderResponse:
    from tripagent.application.ai_config import get_own_provider
    from tripagent.bootstrap import user_provider_store

    stored = get_own_provider(user_provider_store(), current_caller(router).user_id)
    return ProviderResponse(
        provider=stored.provider, model=stored.model, baseUrl=stored.base_url, hasKey=stored.has_key
    )


@router.delete(
    "/me/ai-provider",
    summary="Go back to the deployment's provider",
    tags=["me"],
    responses={204: {"description": "Removed (or there was none)"}},
)
def delete_provider() -> Response[None]:
    from tripagent.bootstrap import user_provider_store

    user_provider_store().delete(current_caller(router).user_id)
    return Response(status_code=204)
