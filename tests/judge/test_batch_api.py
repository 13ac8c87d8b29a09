"""Where the batch API lives for each endpoint shape (the routes themselves run in tests/runner/test_batch_mode.py)."""

from agent_evaluators.judge.batch_api import batch_urls
from agent_evaluators.judge.endpoint import EndpointConfig, resolve_config


def test_openai_routes_keep_the_base_url_and_its_query():
    urls = batch_urls(resolve_config({"model": "gpt-4o-mini", "api_key": "k", "base_url": "https://gw.example/v1?team=x"}))
    assert urls.url("/files") == "https://gw.example/v1/files?team=x"
    assert urls.url("/batches/b1") == "https://gw.example/v1/batches/b1?team=x" and urls.line_url == "/v1/chat/completions"
    default = batch_urls(resolve_config({"model": "gpt-4o-mini", "api_key": "k"}))
    assert default.url("/batches") == "https://api.openai.com/v1/batches"


def test_azure_routes_from_an_endpoint_or_a_deployment_url():
    cfg = resolve_config({"azure_endpoint": "https://r.openai.azure.com/", "azure_deployment": "gpt-4o-batch",
                          "api_key": "k", "api_version": "2025-03-01-preview"})
    urls = batch_urls(cfg)
    assert urls.url("/files") == "https://r.openai.azure.com/openai/files?api-version=2025-03-01-preview"
    assert urls.line_url == "/chat/completions"
    # the shape an AzureOpenAI client object's settings give: a base URL naming the deployment
    from_base = batch_urls(EndpointConfig(kind="azure", model="d", api_version="2024-10-21",
                                          base_url="https://r.openai.azure.com/openai/deployments/d"))
    assert from_base.url("/batches") == "https://r.openai.azure.com/openai/batches?api-version=2024-10-21"
