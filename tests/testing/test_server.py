"""The local judge server over real HTTP: routes, derived replies, scripted replies,
fault injection, counters and concurrency."""

import asyncio
import json
import subprocess
import sys
import urllib.error
import urllib.request

import openai
import pytest

from agent_evaluators.testing import ChatRequest, Faults, JudgeServer, Reply, schema_reply


def post(url, body, headers=None):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, dict(resp.headers), json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


def get(url):
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())


SCHEMA_FORMAT = {
    "type": "json_schema",
    "json_schema": {"name": "v", "strict": True, "schema": {
        "type": "object", "additionalProperties": False, "required": ["score", "reason", "tags", "ok"],
        "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 5}, "reason": {"type": "string"},
                       "tags": {"type": "array", "items": {"type": "string"}}, "ok": {"type": "boolean"}}}},
}


def test_reply_is_derived_from_request_content():
    def responder(req: ChatRequest):
        return {"score": 5 if "refund" in req.last_user_text else 1, "echo": req.system_text}

    with JudgeServer(responder) as server:
        status, _, body = post(server.url + "/v1/chat/completions", {
            "model": "m", "messages": [{"role": "system", "content": "be strict"},
                                       {"role": "user", "content": "I want a refund"}]})
        assert status == 200
        content = json.loads(body["choices"][0]["message"]["content"])
        assert content == {"score": 5, "echo": "be strict"}
        assert body["choices"][0]["finish_reason"] == "stop"
        assert body["model"] == "m"
        # realistic default usage: derived from text lengths
        assert body["usage"]["prompt_tokens"] == len("be strict\nI want a refund") // 4
        assert body["usage"]["completion_tokens"] == len(body["choices"][0]["message"]["content"]) // 4
        req = server.requests[0]
        assert req.messages[1]["content"] == "I want a refund"
        assert req.path == "/v1/chat/completions"


def test_openai_client_over_both_routes_and_request_views():
    seen = []

    def responder(req):
        seen.append(req)
        return "plain text"

    async def go(server):
        oa = openai.AsyncOpenAI(**{k: v for k, v in server.openai_config().items() if k != "model"}, max_retries=0)
        r = await oa.chat.completions.create(model="judge-model", messages=[{"role": "user", "content": "hi"}],
                                             temperature=0.25, seed=7, response_format=SCHEMA_FORMAT)
        assert r.choices[0].message.content == "plain text"
        cfg = server.azure_config(deployment="dep1")
        az = openai.AsyncAzureOpenAI(azure_endpoint=cfg["azure_endpoint"], azure_deployment=cfg["azure_deployment"],
                                     api_key=cfg["api_key"], api_version=cfg["api_version"], max_retries=0)
        await az.chat.completions.create(model="dep1", messages=[{"role": "user", "content": "yo"}])

    with JudgeServer(responder) as server:
        asyncio.run(go(server))
        first, second = server.requests
    assert first.params == {"temperature": 0.25, "seed": 7}
    assert first.response_format_type == "json_schema"
    assert first.json_schema["required"] == ["score", "reason", "tags", "ok"]
    assert first.headers["authorization"] == "Bearer test-key"
    assert second.path == "/openai/deployments/dep1/chat/completions"
    assert second.deployment == "dep1"
    assert second.query["api-version"] == "2024-10-21"
    assert second.headers["api-key"] == "test-key"
    assert second.json_schema is None and second.response_format_type == "text"


def test_schema_reply_conforms_to_schema():
    req = ChatRequest(path="/v1/chat/completions", headers={}, body={"messages": [], "response_format": SCHEMA_FORMAT})
    out = schema_reply(req, score=9)
    assert out["score"] == 5  # clamped into the schema's range
    assert isinstance(out["reason"], str) and out["reason"]
    assert out["tags"] == [] and out["ok"] is True
    plain = ChatRequest(path="/v1/chat/completions", headers={}, body={"messages": []})
    assert schema_reply(plain, score=2)["score"] == 2


def test_schema_reply_resolves_refs_and_nested_scores():
    schema = {"type": "object", "properties": {
        "verdicts": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/V"}},
        "label": {"enum": ["pass", "fail"]}},
        "$defs": {"V": {"type": "object", "properties": {"tool_score": {"type": "integer"},
                                                         "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}}}
    req = ChatRequest(path="/", headers={}, body={"response_format": {"type": "json_schema",
                                                                      "json_schema": {"schema": schema}}})
    out = schema_reply(req, score=3)
    assert out["verdicts"] == [{"tool_score": 3, "note": "synthetic note"}] * 2
    assert out["label"] == "pass"
    assert "score" not in out  # no top-level score field in this schema


def test_scripted_error_reply_with_headers():
    def responder(req):
        return Reply(content="slow down", status=429, headers={"retry-after-ms": "120"})

    with JudgeServer(responder) as server:
        status, headers, body = post(server.url + "/chat/completions", {"model": "m", "messages": []})
    assert status == 429
    assert headers["retry-after-ms"] == "120"
    assert body["error"]["message"] == "slow down"


def test_scripted_length_and_usage_none():
    with JudgeServer(lambda req: Reply(content='{"score": 4', finish_reason="length", usage=None)) as server:
        _, _, body = post(server.url + "/v1/chat/completions", {"model": "m", "messages": []})
    assert body["choices"][0]["finish_reason"] == "length"
    assert "usage" not in body


def test_faults_are_seeded_counted_and_shaped():
    faults = Faults(rate_429=0.2, rate_500=0.2, rate_malformed=0.2, rate_length=0.2, retry_after_ms=70,
                    retry_after_s=2, seed=3)
    outcomes = []
    with JudgeServer(lambda req: {"score": 4, "reason": "a fairly long reason text"}, faults=faults) as server:
        for _ in range(60):
            outcomes.append(post(server.url + "/v1/chat/completions", {"model": "m", "messages": []}))
        stats = server.stats()
    assert stats["requests"] == 60 and stats["in_flight"] == 0
    counts = stats["faults"]
    assert sum(counts.values()) == sum(1 for s, _, b in outcomes if s != 200 or b["choices"][0]["finish_reason"]
                                       == "length" or not b["choices"][0]["message"]["content"].startswith("{"))
    assert counts["429"] == sum(1 for s, _, _ in outcomes if s == 429) > 0
    assert counts["500"] == sum(1 for s, _, _ in outcomes if s == 500) > 0
    throttled = next(h for s, h, _ in outcomes if s == 429)
    assert throttled["retry-after-ms"] == "70" and throttled["retry-after"] == "2"
    for s, _, b in outcomes:
        if s == 200 and b["choices"][0]["finish_reason"] == "length":
            text = b["choices"][0]["message"]["content"]
            with pytest.raises(ValueError):
                json.loads(text)
    # same seed, same sequence
    again = []
    with JudgeServer(lambda req: {"score": 4, "reason": "a fairly long reason text"}, faults=faults) as server:
        for _ in range(60):
            again.append(post(server.url + "/v1/chat/completions", {"model": "m", "messages": []})[0])
    assert again == [s for s, _, _ in outcomes]


def test_reject_json_schema_is_openai_style_400():
    with JudgeServer(faults=Faults(reject_json_schema=True)) as server:
        status, _, body = post(server.url + "/v1/chat/completions",
                               {"model": "m", "messages": [], "response_format": SCHEMA_FORMAT})
        assert status == 400
        assert body["error"]["param"] == "response_format"
        assert "response_format" in body["error"]["message"]
        status, _, _ = post(server.url + "/v1/chat/completions",
                            {"model": "m", "messages": [], "response_format": {"type": "json_object"}})
        assert status == 200
        assert server.stats()["faults"] == {"reject_json_schema": 1}


def test_reset_fault_drops_connection():
    with JudgeServer(faults=Faults(rate_reset=1.0)) as server:
        with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
            post(server.url + "/v1/chat/completions", {"model": "m", "messages": []})
        assert server.stats()["faults"]["reset"] == 1


def test_stats_route_reset_and_unknown_route():
    with JudgeServer() as server:
        post(server.url + "/v1/chat/completions", {"model": "m", "messages": []})
        assert get(server.url + "/stats")["requests"] == 1
        status, _, body = post(server.url + "/v1/embeddings", {})
        assert status == 404
        server.reset()
        assert server.stats() == {"requests": 0, "max_in_flight": 0, "in_flight": 0, "faults": {}}
        assert server.requests == []


def test_sustains_64_requests_in_flight():
    async def go(server):
        client = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="k", max_retries=0)
        await asyncio.gather(*[client.chat.completions.create(model="m", messages=[{"role": "user", "content": str(i)}])
                               for i in range(64)])

    with JudgeServer(delay_s=0.5) as server:
        asyncio.run(go(server))
        stats = server.stats()
    assert stats["requests"] == 64
    assert stats["max_in_flight"] == 64


def test_responder_exception_becomes_500():
    def responder(req):
        raise RuntimeError("boom")

    with JudgeServer(responder) as server:
        status, _, body = post(server.url + "/v1/chat/completions", {"model": "m", "messages": []})
    assert status == 500 and "boom" in body["error"]["message"]


def test_standalone_cli_serves_schema_replies():
    proc = subprocess.Popen([sys.executable, "-m", "agent_evaluators.testing", "--port", "0", "--delay-ms", "1",
                             "--score", "3"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:")
        url = line.split()[-1]
        _, _, body = post(url + "/v1/chat/completions", {"model": "m", "messages": [], "response_format": SCHEMA_FORMAT})
        content = json.loads(body["choices"][0]["message"]["content"])
        assert content["score"] == 3 and set(content) == {"score", "reason", "tags", "ok"}
        _, _, body = post(url + "/chat/completions", {"model": "m", "messages": []})
        assert json.loads(body["choices"][0]["message"]["content"])["score"] == 3
    finally:
        proc.terminate()
        proc.wait(10)
