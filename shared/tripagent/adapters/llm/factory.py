"""A provider from its configuration: the one place that knows every provider class."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from tripagent.application.ai_config import ProviderConfig
from tripagent.application.llm import ModelProvider

if TYPE_CHECKING:
    from tripagent.adapters.llm.rules import RuleEngine


def build_provider(
    config: ProviderConfig,
    *,
    region: str = "eu-west-1",
    timeout_s: float = 60.0,
    rules: Callable[[], Mapping[str, RuleEngine]] | None = None,
) -> ModelProvider:
    """``timeout_s`` bounds a Bedrock call (boto3 has no per-call timeout: it is the client's read timeout);
    the HTTP providers take theirs from each request's options."""
    if config.provider == "openai":
        from tripagent.adapters.llm.openai_compat import OpenAICompatibleProvider

        return OpenAICompatibleProvider(api_key=config.api_key, base_url=config.base_url)
    if config.provider == "anthropic":
        from tripagent.adapters.llm.anthropic import AnthropicProvider

        return AnthropicProvider(api_key=config.api_key or "", base_url=config.base_url)
    if config.provider == "bedrock":
        from tripagent.adapters.aws import bedrock_runtime_client
        from tripagent.adapters.llm.bedrock import BedrockProvider

        return BedrockProvider(bedrock_runtime_client(region, timeout_s))
    from tripagent.adapters.llm.rules import RulesProvider

    return RulesProvider(rules() if rules else None)  # its engines, built by the composition root
