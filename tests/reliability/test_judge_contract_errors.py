"""Item 21.14: direct calls raise only ``InputError`` / ``JudgeError`` / ``ConfigError``, over real HTTP.

The old client let two raw exceptions out: a judge reply nested 100,000 deep gave a
``RecursionError``, and an input holding a lone surrogate (``"\\ud800"``, valid JSON and JSONL)
a ``UnicodeEncodeError`` when the request body was encoded.
"""

import json

import pytest

from agent_evaluators import IntentResolutionEvaluator
from agent_evaluators.errors import InputError, JudgeError
from agent_evaluators.testing import JudgeServer, Reply

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("where", ["verdict", "body"])
def test_a_reply_nested_100000_deep_is_a_judge_error(where):
    def judge(req):
        if where == "verdict":
            return '{"reason": "x", "score": ' + DEEP + "}"
        return Reply(body='{"choices": ' + DEEP + "}")

    with JudgeServer(judge) as server:
        evaluator = IntentResolutionEvaluator(model_config=dict(server.openai_config(), max_attempts=1))
        with pytest.raises(JudgeError) as info:
            evaluator(query="Cancel my 3pm meeting", response="Done.")
    assert "nested too deeply" in str(info.value)


def test_a_lone_surrogate_in_an_input_reaches_the_judge_as_its_json_escape(tmp_path):
    with JudgeServer() as server:
        evaluator = IntentResolutionEvaluator(model_config=server.openai_config())
        result = evaluator(query="Cancel my 3pm meeting \ud800", response="Done \udfff.")
        sent = server.requests[0].text
    assert result["intent_resolution"] == 4.0 and result["intent_resolution_result"] == "pass"
    assert "\ud800" in sent and "\udfff" in sent  # nothing lost: the judge read what the JSONL held


def test_a_lone_surrogate_through_a_users_openai_client_is_an_input_error():
    import openai

    with JudgeServer() as server:
        client = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="test-key")
        evaluator = IntentResolutionEvaluator(model_config={"client": client, "model": "judge-model"})
        with pytest.raises(InputError) as info:
            evaluator(query="Cancel my 3pm meeting \ud800", response="Done.")
    assert "lone surrogate" in str(info.value) and "'\\ud800'" in str(info.value)


def test_the_judge_cache_keys_and_stores_a_lone_surrogate(tmp_path):
    from agent_evaluators.judge import get_judge_client
    from agent_evaluators.judge.cache import cache_key

    key = cache_key(model="m", messages=[{"role": "user", "content": "\ud800"}], params={}, response_format=None,
                    sample_index=0)
    assert key != cache_key(model="m", messages=[{"role": "user", "content": "\udfff"}], params={},
                            response_format=None, sample_index=0)
    with JudgeServer(lambda req: json.dumps({"reason": "odd \ud800", "score": 3})) as server:
        import asyncio

        judge = get_judge_client(server.openai_config(), cache=tmp_path / "cache.sqlite")
        messages = [{"role": "user", "content": "grade \ud800"}]
        first = asyncio.run(judge.complete(messages))
        again = asyncio.run(judge.complete(messages))
        assert server.stats()["requests"] == 1
    assert again.cached and again.data == first.data == {"reason": "odd \ud800", "score": 3}


def test_evaluate_writes_a_lone_surrogate_to_its_azure_output_file(tmp_path):
    from agent_evaluators import evaluate

    data = tmp_path / "rows.jsonl"
    data.write_text('{"query": "hi \\ud800", "response": "hello"}\n', encoding="utf-8")
    with JudgeServer() as server:
        result = evaluate(data=str(data), evaluators={"ir": IntentResolutionEvaluator(model_config=server.openai_config())},
                          output_path=str(tmp_path / "out.json"))
    assert result["metrics"]["ir.n"] == 1
    doc = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert doc["rows"][0]["inputs.query"] == "hi \ud800"
