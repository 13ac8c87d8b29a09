"""The judge client over real HTTP (official openai client -> local JudgeServer)."""

import asyncio
import time

import pytest

from agent_evaluators.errors import JudgeError
from agent_evaluators.judge import get_judge_client
from agent_evaluators.judge.pool import client_for_loop
from agent_evaluators.judge.usage import empty_usage
from agent_evaluators.testing import ChatRequest, Faults, JudgeServer, Reply, schema_reply

from .conftest import MESSAGES, Verdict, scripted

PARAMS = {"temperature": 0.0, "max_tokens": 800, "top_p": 1.0, "seed": 11, "presence_penalty": 0.0}


def run(coro):
    return asyncio.run(coro)


def grade(req: ChatRequest):
    """A rule judge: the score depends on what reached it."""
    return {"score": 4 if "Answer: 4" in req.text else 1, "reason": f"saw {len(req.messages)} messages"}


def test_good_reply_is_parsed_validated_and_accounted():
    with JudgeServer(grade) as server:
        judge = get_judge_client(server.openai_config(model="judge-model"))
        reply = run(judge.complete(MESSAGES, output_model=Verdict, params=PARAMS, template_hash="abc123"))
        (req,) = server.requests
    assert isinstance(reply.data, Verdict)
    assert reply.data.score == 4 and reply.data.reason == "saw 2 messages"
    assert reply.finish_reason == "stop" and not reply.cached
    # the request carries the template's parameters and a strict schema built from the model
    assert req.model == "judge-model"
    assert req.messages == MESSAGES
    assert req.params == PARAMS
    assert req.response_format["json_schema"]["strict"] is True
    schema = req.json_schema
    assert schema["required"] == ["score", "reason"] and schema["additionalProperties"] is False
    usage = reply.usage
    assert usage["prompt_tokens"] == len(req.text) // 4
    assert usage["completion_tokens"] == len(reply.text) // 4
    assert usage["reasoning_tokens"] is None and usage["cached_tokens"] is None  # not reported by the server
    assert (usage["judge_calls"], usage["attempts"], usage["model"]) == (1, 1, "judge-model")
    assert usage["response_format"] == "json_schema" and usage["template_hash"] == "abc123"
    assert 0 < usage["latency_s"] < 30
    assert list(usage) == list(empty_usage())  # the documented record, keys in order, nothing else


def test_usage_details_are_read_when_reported():
    usage = {"prompt_tokens": 100, "completion_tokens": 30, "total_tokens": 130,
             "prompt_tokens_details": {"cached_tokens": 64}, "completion_tokens_details": {"reasoning_tokens": 20}}
    with JudgeServer(lambda req: Reply(content=grade(req), usage=usage)) as server:
        reply = run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
    assert {k: reply.usage[k] for k in ("prompt_tokens", "completion_tokens", "cached_tokens", "reasoning_tokens")} \
        == {"prompt_tokens": 100, "completion_tokens": 30, "cached_tokens": 64, "reasoning_tokens": 20}


def test_reasoning_model_gets_max_completion_tokens_and_no_sampling_params():
    with JudgeServer(grade) as server:
        judge = get_judge_client(server.openai_config(model="o3-mini"))
        run(judge.complete(MESSAGES, output_model=Verdict, params=PARAMS))
        azure = get_judge_client(server.azure_config(deployment="my-reasoner"), is_reasoning_model=True)
        run(azure.complete(MESSAGES, output_model=Verdict, params={"temperature": 0, "max_tokens": 10000}))
        openai_req, azure_req = server.requests
    assert openai_req.params == {"max_completion_tokens": 4096, "seed": 11}
    assert azure_req.params == {"max_completion_tokens": 10000}


def test_azure_route_with_azure_shaped_config():
    with JudgeServer(grade) as server:
        cfg = server.azure_config(deployment="gpt4o-judge")
        del cfg["api_version"]  # default applies
        reply = run(get_judge_client(cfg).complete(MESSAGES, output_model=Verdict))
        (req,) = server.requests
    assert reply.data.score == 4
    assert req.path == "/openai/deployments/gpt4o-judge/chat/completions"
    assert req.query == {"api-version": "2024-10-21"}
    assert req.headers["api-key"] == "test-key"
    assert reply.usage["model"] == "gpt4o-judge"


@pytest.mark.parametrize("headers,min_wait", [({"retry-after": "1"}, 1.0), ({"retry-after-ms": "400"}, 0.4)])
def test_429_honours_server_wait_then_succeeds(headers, min_wait):
    responder = scripted(Reply(content="rate limited", status=429, headers=headers), then=grade)
    with JudgeServer(responder) as server:
        start = time.perf_counter()
        reply = run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        elapsed = time.perf_counter() - start
        assert server.stats()["requests"] == 2
    assert reply.data.score == 4
    assert reply.usage["attempts"] == 2
    assert min_wait <= elapsed < min_wait + 2.0


def test_persistent_500_fails_after_exactly_max_attempts():
    with JudgeServer(lambda req: Reply(content="boom", status=500)) as server:
        judge = get_judge_client(server.openai_config(), max_attempts=3)
        start = time.perf_counter()
        with pytest.raises(JudgeError) as info:
            run(judge.complete(MESSAGES, output_model=Verdict))
        elapsed = time.perf_counter() - start
        assert server.stats()["requests"] == 3
    err = info.value
    assert err.status_code == 500 and err.attempts == 3
    assert "3 attempts" in str(err) and "max_concurrency" in str(err) and "boom" in str(err)
    assert elapsed < 0.5 + 1.0 + 1.5  # full-jitter backoff: at most 0.5 s then 1.0 s


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_client_errors_are_not_retried(status):
    with JudgeServer(lambda req: Reply(content="bad request", status=status)) as server:
        with pytest.raises(JudgeError) as info:
            run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 1
    assert info.value.status_code == status and info.value.attempts == 1


def test_timeout_is_retried():
    responder = scripted(lambda req: Reply(content=grade(req), delay_s=2.0), then=grade)
    with JudgeServer(responder) as server:
        judge = get_judge_client(server.openai_config(), timeout=0.4)
        reply = run(judge.complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 2
    assert reply.data.score == 4 and reply.usage["attempts"] == 2


def test_connection_reset_is_retried():
    responder = scripted(Reply(reset=True), then=grade)
    with JudgeServer(responder) as server:
        reply = run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 2
    assert reply.data.score == 4 and reply.usage["attempts"] == 2


def test_malformed_reply_gets_one_repair_request():
    responder = scripted("I'd say four out of five.", then=grade)
    with JudgeServer(responder) as server:
        reply = run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        first, repair = server.requests
    assert reply.data.score == 4
    assert reply.usage["attempts"] == 2
    assert reply.usage["prompt_tokens"] == len(first.text) // 4 + len(repair.text) // 4
    assert repair.messages[:2] == MESSAGES
    assert repair.messages[2] == {"role": "assistant", "content": "I'd say four out of five."}
    assert repair.messages[3]["role"] == "user"
    assert "no JSON object" in repair.messages[3]["content"] and "score, reason" in repair.messages[3]["content"]


def test_malformed_twice_raises_with_raw_text():
    with JudgeServer(lambda req: f"still prose #{len(req.messages)}") as server:
        with pytest.raises(JudgeError) as info:
            run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 2
    assert info.value.raw_text == "still prose #4"
    assert info.value.attempts == 2 and info.value.usage["attempts"] == 2


@pytest.mark.parametrize("bad", [
    '{"score": 5, "reason": "a"}\n{"score": 1, "reason": "b"}',
    '{"score": 5, "reason": "a", "score": 1}',
    '{"score": 9, "reason": "out of range"}',
])
def test_ambiguous_or_invalid_verdicts_fail_closed(bad):
    with JudgeServer(lambda req: bad) as server:
        with pytest.raises(JudgeError) as info:
            run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        repair = server.requests[-1]
    assert info.value.raw_text == bad
    assert len(server.requests) == 2
    assert repair.messages[-2]["content"] == bad


def test_finish_reason_length_is_an_error_without_repair():
    with JudgeServer(lambda req: Reply(content='{"score": 4, "reason": "trunc', finish_reason="length")) as server:
        with pytest.raises(JudgeError, match="finish_reason 'length'") as info:
            run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        assert server.stats()["requests"] == 1
    assert info.value.raw_text == '{"score": 4, "reason": "trunc'


def test_json_schema_rejected_falls_back_to_json_object_and_is_remembered():
    with JudgeServer(grade, faults=Faults(reject_json_schema=True)) as server:
        judge = get_judge_client(server.openai_config())
        first = run(judge.complete(MESSAGES, output_model=Verdict))
        # another client for the same endpoint shares what was learnt
        second = run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        kinds = [r.response_format_type for r in server.requests]
    assert kinds == ["json_schema", "json_object", "json_object"]
    assert first.data.score == second.data.score == 4
    assert first.usage["response_format"] == second.usage["response_format"] == "json_object"
    assert first.usage["attempts"] == 2 and second.usage["attempts"] == 1


def test_fallback_down_to_plain_text_with_tolerant_parsing():
    def responder(req):
        if req.response_format is not None:
            return Reply(content={"error": {"message": "response_format is not supported", "param": None}},
                         status=400)
        return "Sure!\n```json\n" + '{"score": 4, "reason": "fenced"}' + "\n```"

    with JudgeServer(responder) as server:
        reply = run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
        kinds = [r.response_format_type for r in server.requests]
    assert kinds == ["json_schema", "json_object", "text"]
    assert reply.data.reason == "fenced" and reply.usage["response_format"] == "text"


def test_no_output_model_sends_no_response_format_and_returns_parsed_dict():
    with JudgeServer(scripted('{"label": "safe"}', "not json")) as server:
        judge = get_judge_client(server.openai_config())
        first = run(judge.complete(MESSAGES))
        second = run(judge.complete(MESSAGES))
        assert all(r.response_format is None for r in server.requests)
    assert first.data == {"label": "safe"} and first.usage["response_format"] == "text"
    assert second.data is None and second.text == "not json"


def test_api_key_never_appears_in_errors():
    secret = "sk-supersecret-123456"

    def responder(req):
        return Reply(content=f"Incorrect API key provided: {req.headers['authorization'].split()[-1]}", status=401)

    with JudgeServer(responder) as server:
        cfg = dict(server.openai_config(), api_key=secret)
        with pytest.raises(JudgeError) as info:
            run(get_judge_client(cfg).complete(MESSAGES, output_model=Verdict))
    assert secret not in str(info.value) and secret not in repr(info.value.usage)
    assert "api_key" in str(info.value)


def test_clients_share_one_pool_per_loop():
    with JudgeServer(grade) as server:
        a = get_judge_client(server.openai_config())
        b = get_judge_client(server.openai_config())

        async def pools():
            await asyncio.gather(a.complete(MESSAGES, output_model=Verdict), b.complete(MESSAGES, output_model=Verdict))
            loop = asyncio.get_running_loop()
            return client_for_loop(a.config, loop), client_for_loop(b.config, loop)

        first = run(pools())
        second = run(pools())
    assert first[0] is first[1]
    assert second[0] is second[1] and second[0] is not first[0]  # a new loop gets its own pool


def test_schema_reply_helper_works_with_client():
    with JudgeServer(lambda req: schema_reply(req, score=2)) as server:
        reply = run(get_judge_client(server.openai_config()).complete(MESSAGES, output_model=Verdict))
    assert reply.data.score == 2


def test_ready_async_client_is_used_without_its_own_retries():
    import openai

    with JudgeServer(lambda req: Reply(content="down", status=503)) as server:
        async def go():
            own = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="test-key", max_retries=4)
            judge = get_judge_client({"client": own, "model": "judge-model"}, max_attempts=2)
            await judge.complete(MESSAGES, output_model=Verdict)

        with pytest.raises(JudgeError) as info:
            run(go())
        assert server.stats()["requests"] == 2  # one retry layer only: ours
    assert info.value.attempts == 2


def test_sync_openai_client_is_rebuilt_as_async(monkeypatch):
    import openai

    monkeypatch.setenv("AGENT_EVAL_JUDGE_MODEL", "from-env")
    with JudgeServer(grade) as server:
        judge = get_judge_client(openai.OpenAI(base_url=server.url + "/v1", api_key="sync-key"))
        reply = run(judge.complete(MESSAGES, output_model=Verdict))
        (req,) = server.requests
    assert reply.data.score == 4
    assert req.model == "from-env" and req.headers["authorization"] == "Bearer sync-key"


def test_azure_credential_supplies_bearer_token():
    class Token:
        token = "entra-token-xyz"

    class Credential:
        scopes = []

        def get_token(self, *scopes):
            self.scopes.extend(scopes)
            return Token()

    cred = Credential()
    with JudgeServer(grade) as server:
        cfg = {"azure_endpoint": server.url, "azure_deployment": "dep", "credential": cred}
        reply = run(get_judge_client(cfg).complete(MESSAGES, output_model=Verdict))
        (req,) = server.requests
    assert reply.data.score == 4
    assert req.headers["authorization"] == "Bearer entra-token-xyz"
    assert cred.scopes == ["https://cognitiveservices.azure.com/.default"]
