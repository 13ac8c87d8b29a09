"""Model-config resolution: dict shapes, objects, clients, environment, and clear errors."""

from dataclasses import dataclass
from typing import Optional

import openai
import pytest

from agent_evaluators.errors import ConfigError
from agent_evaluators.judge import DEFAULT_AZURE_API_VERSION, get_judge_client
from agent_evaluators.judge.endpoint import NO_JUDGE_MESSAGE, resolve_config

ENV_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "AGENT_EVAL_JUDGE_MODEL", "AZURE_OPENAI_ENDPOINT",
            "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_DEPLOYMENT", "OPENAI_API_VERSION", "AZURE_OPENAI_API_VERSION")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)


def test_openai_dict_without_type_is_accepted():
    judge = get_judge_client({"model": "gpt-4o-mini", "api_key": "sk-abc"})
    assert judge.config.kind == "openai" and judge.model == "gpt-4o-mini"
    assert not judge.is_reasoning


def test_azure_dict_defaults_api_version():
    judge = get_judge_client({"azure_endpoint": "https://x.openai.azure.com/", "azure_deployment": "gpt-4o",
                              "api_key": "k"})
    assert judge.config.kind == "azure"
    assert judge.config.api_version == DEFAULT_AZURE_API_VERSION == "2024-10-21"
    assert judge.config.azure_endpoint == "https://x.openai.azure.com"
    assert judge.model == "gpt-4o"


def test_reasoning_detection_by_name_and_flag():
    assert get_judge_client({"model": "o3-mini", "api_key": "k"}).is_reasoning
    assert get_judge_client({"model": "gpt-5", "api_key": "k"}).is_reasoning
    assert not get_judge_client({"model": "gpt-4o", "api_key": "k"}).is_reasoning
    azure = {"azure_endpoint": "https://x", "azure_deployment": "my-judge", "api_key": "k"}
    assert not get_judge_client(azure).is_reasoning
    assert get_judge_client(azure, is_reasoning_model=True).is_reasoning


@pytest.mark.parametrize("cfg,missing", [
    ({"azure_deployment": "d", "api_key": "k", "type": "azure_openai"}, "azure_endpoint"),
    ({"azure_endpoint": "https://x", "api_key": "k"}, "azure_deployment"),
    ({"azure_endpoint": "https://x", "azure_deployment": "d"}, "api_key"),
    ({"api_key": "k"}, "model"),
    ({"model": "gpt-4o"}, "api_key"),
])
def test_missing_keys_are_named(cfg, missing):
    with pytest.raises(ConfigError, match=missing):
        get_judge_client(cfg)


def test_local_base_url_needs_no_key():
    judge = get_judge_client({"model": "qwen2.5", "base_url": "http://127.0.0.1:11434/v1"})
    assert judge.config.base_url == "http://127.0.0.1:11434/v1"


def test_no_judge_at_all_says_how_to_configure():
    with pytest.raises(ConfigError) as info:
        get_judge_client(None)
    assert str(info.value) == NO_JUDGE_MESSAGE
    assert "\n" not in str(info.value)


def test_environment_openai(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    monkeypatch.setenv("AGENT_EVAL_JUDGE_MODEL", "gpt-4.1-mini")
    judge = get_judge_client()
    assert judge.config.kind == "openai" and judge.model == "gpt-4.1-mini"


def test_environment_openai_without_model_is_an_error(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    with pytest.raises(ConfigError, match="AGENT_EVAL_JUDGE_MODEL"):
        get_judge_client()


def test_environment_azure(monkeypatch):
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://r.openai.azure.com")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "k")
    monkeypatch.setenv("AZURE_OPENAI_DEPLOYMENT", "dep")
    monkeypatch.setenv("OPENAI_API_VERSION", "2025-01-01-preview")
    judge = get_judge_client()
    assert (judge.config.kind, judge.model, judge.config.api_version) == ("azure", "dep", "2025-01-01-preview")


def test_promptflow_style_dataclass_is_read_by_attributes():
    @dataclass
    class AzureOpenAIModelConfiguration:
        azure_deployment: str
        azure_endpoint: str
        api_key: Optional[str] = None
        api_version: Optional[str] = None
        connection: Optional[str] = None

    judge = get_judge_client(AzureOpenAIModelConfiguration("dep", "https://r.openai.azure.com", api_key="k"))
    assert judge.config.kind == "azure" and judge.model == "dep"


def test_credential_object_is_accepted_instead_of_key():
    class Cred:
        def get_token(self, *scopes):
            raise AssertionError("not called at construction")

    judge = get_judge_client({"azure_endpoint": "https://x", "azure_deployment": "d", "credential": Cred()})
    assert judge.config.api_key is None
    with pytest.raises(ConfigError, match="get_token"):
        get_judge_client({"azure_endpoint": "https://x", "azure_deployment": "d", "credential": "nope"})


def test_ready_clients(monkeypatch):
    async_client = openai.AsyncOpenAI(api_key="k", base_url="http://127.0.0.1:9/v1")
    judge = get_judge_client({"client": async_client, "model": "m"})
    assert judge.config.kind == "client" and judge.model == "m"
    with pytest.raises(ConfigError, match="no model name"):
        get_judge_client(async_client)
    monkeypatch.setenv("AGENT_EVAL_JUDGE_MODEL", "m2")
    assert get_judge_client(async_client).model == "m2"
    sync = get_judge_client(openai.OpenAI(api_key="sk-sync", base_url="http://127.0.0.1:9/v1"))
    assert sync.config.kind == "openai" and sync.config.base_url == "http://127.0.0.1:9/v1"
    assert sync.config.api_key == "sk-sync"


def test_secrets_not_in_repr():
    judge = get_judge_client({"model": "m", "api_key": "sk-very-secret"})
    assert "sk-very-secret" not in repr(judge) and "sk-very-secret" not in repr(judge.config)


@pytest.mark.parametrize("kwargs", [{"timeout": 0}, {"max_attempts": 0}, {"timeout": "5"}])
def test_bad_client_options(kwargs):
    with pytest.raises(ConfigError):
        get_judge_client({"model": "m", "api_key": "k"}, **kwargs)


def test_unsupported_type():
    with pytest.raises(ConfigError, match="decision"):
        get_judge_client({"type": "decision", "model": "m", "api_key": "k"})


def test_model_config_dict_carries_timeout_and_attempts():
    from agent_evaluators.judge import get_judge_client

    client = get_judge_client({"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k",
                               "timeout": 2.5, "max_attempts": 2})
    assert client.timeout == 2.5 and client.max_attempts == 2
    with pytest.raises(ConfigError):
        get_judge_client({"model": "m", "base_url": "http://127.0.0.1:9/v1", "timeout": -1})


# issue 16: a misspelt model_config key is an error naming it and the closest valid key
@pytest.mark.parametrize("key, closest", [("temprature", None), ("modl", "model"), ("base_ulr", "base_url"),
                                          ("api_kye", "api_key")])
def test_unknown_model_config_key_names_the_closest_valid_one(key, closest):
    cfg = {"model": "gpt-4o-mini", "api_key": "sk-test-1234", key: "x"}
    with pytest.raises(ConfigError) as info:
        resolve_config(cfg)
    message = str(info.value)
    assert repr(key) in message
    if closest:
        assert f"did you mean {closest!r}" in message
    assert "sk-test-1234" not in message


def test_temperature_in_model_config_says_where_it_belongs():
    with pytest.raises(ConfigError, match="belong to the evaluator"):
        resolve_config({"model": "m", "api_key": "k" * 8, "temperature": 0.2})
