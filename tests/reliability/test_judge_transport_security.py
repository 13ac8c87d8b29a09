"""Judge transport security: redirects, credentials in URLs, secret headers (items 14.4b-d).

All over real HTTP against :class:`JudgeServer`; each test fails on the openai-SDK client
this transport replaced (it followed redirects with ``api-key`` attached, accepted
``user:pass@`` URLs, and scrubbed only headers whose names looked secret).
"""

import asyncio
import secrets

import pytest
from pydantic import BaseModel, Field

from agent_evaluators.errors import ConfigError, JudgeError
from agent_evaluators.judge import get_judge_client
from agent_evaluators.judge.endpoint import public_headers, public_url, resolve_config
from agent_evaluators.testing import JudgeServer, Reply, schema_reply

MESSAGES = [{"role": "user", "content": "Grade: 2+2=4"}]


class Verdict(BaseModel):
    reason: str
    score: int = Field(ge=1, le=5)


def run(coro):
    return asyncio.run(coro)


@pytest.mark.parametrize("status", [307, 308])
@pytest.mark.parametrize("shape", ["azure", "openai"])
def test_redirect_to_another_origin_is_not_followed(status, shape):
    # 14.4d: a 307/308 to another origin is never followed; no credential reaches that origin
    key = "key-" + secrets.token_hex(12)
    with JudgeServer(schema_reply) as other:
        target = other.url + ("/openai/deployments/judge/chat/completions?api-version=2024-10-21"
                              if shape == "azure" else "/v1/chat/completions")
        with JudgeServer(lambda req: Reply(status=status, headers={"location": target}, body="")) as first:
            cfg = first.azure_config() if shape == "azure" else first.openai_config()
            cfg = dict(cfg, api_key=key, extra_headers={"X-Tenant-Key": "tenant-" + secrets.token_hex(8)})
            with pytest.raises(JudgeError) as info:
                run(get_judge_client(cfg).complete(MESSAGES, output_model=Verdict))
            assert other.stats()["requests"] == 0  # nothing, credentials or not, reached the other origin
            assert first.stats()["requests"] == 1  # a redirect is not retried either
    err = info.value
    assert err.status_code == status
    assert "redirect" in str(err) and other.url in str(err) and "not followed" in str(err)
    assert key not in str(err)


def test_credentials_in_url_are_a_config_error_that_never_echoes_the_password():
    # 14.4b: user:pass@ in a judge URL is a ConfigError pointing at api_key / extra_headers
    password = "pw-" + secrets.token_hex(8)
    for cfg in ({"model": "m", "base_url": f"http://alice:{password}@127.0.0.1:9/v1"},
                {"azure_endpoint": f"https://bob:{password}@r.openai.azure.com", "azure_deployment": "d",
                 "api_key": "k"}):
        with pytest.raises(ConfigError) as info:
            get_judge_client(cfg)
        text = str(info.value)
        assert password not in text and "api_key" in text and "extra_headers" in text


def test_query_string_key_is_sent_but_masked_everywhere_shown():
    # 14.4b: a ?key=... query is kept for the request but masked in safe_location, repr and errors
    qkey = "q-" + secrets.token_hex(10)

    def responder(req):
        if "fail" in req.text:
            return Reply(status=401, content={"message": f"bad key {req.query.get('key')} for {req.path}"})
        return schema_reply(req)

    with JudgeServer(responder) as server:
        cfg = dict(server.openai_config(), base_url=server.url + f"/v1?key={qkey}")
        judge = get_judge_client(cfg)
        reply = run(judge.complete(MESSAGES, output_model=Verdict))
        assert server.requests[0].query.get("key") == qkey  # the key still reaches the server
        with pytest.raises(JudgeError) as info:
            run(judge.complete([{"role": "user", "content": "fail"}], output_model=Verdict))
    assert reply.data.score >= 1
    shown = [judge.config.safe_location, repr(judge), repr(judge.config), str(info.value)]
    assert all(qkey not in s for s in shown), shown
    assert judge.config.safe_location.endswith("/v1?key=***")
    assert qkey in judge.config.secrets()
    assert public_url(f"https://u:p@h.example:8443/x?key={qkey}&api-version=1") == \
        "https://h.example:8443/x?key=***&api-version=***"


def test_every_extra_header_value_is_secret_unless_known_public():
    # 14.4c: an extra header with an innocent-looking name still holds a secret and is scrubbed
    value = "cust-" + secrets.token_hex(12)

    def responder(req):
        return Reply(status=403, content={"message": f"tenant {req.headers.get('x-custom-auth')} has no access"})

    headers = {"X-Custom-Auth": value, "User-Agent": "grader/1.0", "OpenAI-Project": "proj_1"}
    with JudgeServer(responder) as server:
        cfg = dict(server.openai_config(), extra_headers=headers)
        judge = get_judge_client(cfg)
        with pytest.raises(JudgeError) as info:
            run(judge.complete(MESSAGES, output_model=Verdict))
        assert server.requests[0].headers["x-custom-auth"] == value  # sent as given
    assert value not in str(info.value) and "***" in str(info.value)
    assert public_headers(headers) == {"X-Custom-Auth": "***", "User-Agent": "grader/1.0",
                                       "OpenAI-Project": "proj_1"}
    config = resolve_config(cfg)
    assert value in config.secrets() and "grader/1.0" not in config.secrets()
    assert value not in repr(config) and value not in repr(judge)
