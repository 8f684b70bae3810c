from __future__ import annotations

import pytest
from tripagent.errors import ConfigurationError
from tripagent.settings import HealthSettings, TableSettings


def test_settings_read_the_environment() -> None:
    settings = TableSettings.from_env({"TABLE_NAME": "trips", "AWS_REGION": "eu-central-1"})
    assert settings.table_name == "trips"
    assert settings.region == "eu-central-1"
    assert settings.dynamodb_endpoint_url is None


def test_a_missing_variable_is_named() -> None:
    with pytest.raises(ConfigurationError, match="TABLE_NAME"):
        TableSettings.from_env({})


def test_an_empty_variable_counts_as_missing() -> None:
    with pytest.raises(ConfigurationError, match="TABLE_NAME"):
        TableSettings.from_env({"TABLE_NAME": ""})


def test_an_invalid_value_is_named_with_the_reason() -> None:
    env = {
        "TABLE_NAME": "trips",
        "EVENT_BUS_NAME": "bus",
        "VALHALLA_URL": "http://v",
        "VALHALLA_TIMEOUT_S": "-1",
    }
    with pytest.raises(ConfigurationError, match=r"VALHALLA_TIMEOUT_S: Input should be greater than 0"):
        HealthSettings.from_env(env)


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(ConfigurationError) as info:
        HealthSettings.from_env({"VALHALLA_TIMEOUT_S": "x"})
    message = str(info.value)
    for name in ("TABLE_NAME", "EVENT_BUS_NAME", "VALHALLA_URL", "VALHALLA_TIMEOUT_S"):
        assert name in message
