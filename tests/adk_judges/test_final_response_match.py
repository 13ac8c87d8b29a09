"""final_response_match_v2 against the real local judge server: sampling, ADK's vote and tie rules, failures.

Expected votes follow reference/adk.md §4.3 (ADK 2.13 ``aggregate_per_invocation_samples``):
only valid/invalid samples count, more valid than invalid → 1.0, otherwise (ties included) → 0.0.
The label sequences in ``ADK_GOLDEN`` were scored by ADK itself (tests/reference/gen_adk_judges.py).
"""

import pytest

from agent_evaluators import ConfigError, FinalResponseMatchEvaluator, InputError, JudgeError
from agent_evaluators.adk.judges import majority_vote
from agent_evaluators.testing import Reply

from .conftest import ADK_GOLDEN, Script, block, text_of


def matcher(req):
    """valid when the response contains the reference's key number, else invalid."""
    response = text_of(req, "agent_response")
    truth = text_of(req, "reference_answer")
    key = next(w for w in truth.split() if w.strip(".").isdigit()).strip(".")
    ok = key in response
    return {"reason": f"key value {key} {'present' if ok else 'missing'}", "verdict": "valid" if ok else "invalid"}


def scripted(labels):
    s = Script(labels)
    return s, (lambda req: {"reason": "scripted", "verdict": s.next()})


def test_matching_answer_is_valid_and_inputs_reach_the_judge(judge_server):
    server = judge_server(matcher)
    ev = FinalResponseMatchEvaluator(server.openai_config(), num_samples=3)
    out = ev(query="What is 2+2?", response="The answer is 4.", ground_truth="It is 4.")
    assert out["final_response_match_v2"] == 1.0
    assert out["final_response_match_v2_result"] == "pass"
    assert out["final_response_match_v2_threshold"] == 0.8
    details = out["final_response_match_v2_details"]
    assert details["votes"] == {"valid": 3, "invalid": 0, "uncounted": 0}
    assert [s["sample"] for s in details["samples"]] == [0, 1, 2]
    assert all(s["reason"] == "key value 4 present" for s in details["samples"])
    assert out["final_response_match_v2_usage"]["judge_calls"] == 3
    req = server.requests[0]
    assert block(req, "user_query") == "What is 2+2?"
    assert req.json_schema["properties"]["verdict"]["enum"] == ["valid", "invalid"]

    bad = ev(query="What is 2+2?", response="The answer is 5.", ground_truth="It is 4.")
    assert bad["final_response_match_v2"] == 0.0 and bad["final_response_match_v2_result"] == "fail"


def test_samples_are_sent_at_a_temperature_above_zero(judge_server, tmp_path):
    server = judge_server(matcher)
    ev = FinalResponseMatchEvaluator(server.openai_config(), num_samples=4, temperature=0.7,
                                     cache=str(tmp_path / "judge.sqlite"))
    ev(query="q", response="It is 4.", ground_truth="4.")
    assert server.stats()["requests"] == 4
    assert [r.body["temperature"] for r in server.requests] == [0.7] * 4
    # The cache keeps the samples apart (sample index in the key) and replays all of them.
    ev(query="q", response="It is 4.", ground_truth="4.")
    assert server.stats()["requests"] == 4
    default = judge_server(matcher)
    FinalResponseMatchEvaluator(default.openai_config())(query="q", response="4", ground_truth="4")
    assert [r.body["temperature"] for r in default.requests] == [1.0] * 5  # num_samples=5, temperature=1.0


@pytest.mark.parametrize(
    "labels, expected",
    [(key.split(","), score) for key, score in ADK_GOLDEN["final_response_match_v2"].items()]  # ties -> invalid
    + [
        (["Valid", "TRUE", "false"], 1.0),  # ADK's synonyms, case-insensitive in our structured reply
        (["almost", "partially_valid", "valid"], 0.0),  # ADK's invalid synonyms
    ],
)
def test_majority_vote_and_ties(judge_server, labels, expected):
    _, responder = scripted(labels)
    server = judge_server(responder)
    out = FinalResponseMatchEvaluator(server.openai_config(), num_samples=len(labels))(
        query="q", response="r", ground_truth="g")
    assert out["final_response_match_v2"] == expected
    votes = out["final_response_match_v2_details"]["votes"]
    assert votes["uncounted"] == labels.count("maybe")
    assert server.stats()["requests"] == len(labels)


def test_tie_is_invalid_in_the_reason():
    assert majority_vote([1.0, 0.0, 1.0, 0.0]) == (0.0, 1)
    assert majority_vote([None, 1.0, None]) == (1.0, 1)
    assert majority_vote([None, None]) == (None, 0)


def test_labels_outside_the_set_are_uncounted_never_zero(judge_server):
    _, responder = scripted(["maybe", "valid", "unsure"])
    server = judge_server(responder)
    out = FinalResponseMatchEvaluator(server.openai_config(), num_samples=3)(query="q", response="r", ground_truth="g")
    assert out["final_response_match_v2"] == 1.0  # one counted valid sample, two uncounted
    assert sorted(s["score"] is None for s in out["final_response_match_v2_details"]["samples"]) == [False, True, True]

    _, none_usable = scripted(["maybe"])
    server2 = judge_server(none_usable)
    with pytest.raises(JudgeError, match="no sample gave a valid/invalid label"):
        FinalResponseMatchEvaluator(server2.openai_config(), num_samples=3)(query="q", response="r", ground_truth="g")


def test_unparseable_sample_gets_one_repair_then_fails_the_invocation(judge_server):
    server = judge_server(lambda req: "I'd say it is valid")
    with pytest.raises(JudgeError) as info:
        FinalResponseMatchEvaluator(server.openai_config(), num_samples=2)(query="q", response="r", ground_truth="g")
    assert "sample" in str(info.value) and "FinalResponseMatchEvaluator" in str(info.value)
    assert info.value.raw_text == "I'd say it is valid"
    assert server.stats()["requests"] == 4  # two samples, one repair each

    def repaired(req):
        return {"reason": "fixed", "verdict": "valid"} if len(req.messages) > 2 else "valid!"

    server2 = judge_server(repaired)
    out = FinalResponseMatchEvaluator(server2.openai_config(), num_samples=2)(query="q", response="r", ground_truth="g")
    assert out["final_response_match_v2"] == 1.0


def test_one_sample_failing_persistently_fails_the_invocation(judge_server):
    ok = Script([True, True, False])  # the first two arrivals succeed, the third sample and its retries get 500

    def responder(req):
        if ok.next():
            return {"reason": "fine", "verdict": "valid"}
        return Reply(status=500, content='{"error": {"message": "boom"}}', headers={"retry-after-ms": "5"})

    server = judge_server(responder)
    with pytest.raises(JudgeError) as info:
        FinalResponseMatchEvaluator(server.openai_config(), num_samples=3)(query="q", response="r", ground_truth="g")
    assert "of 3 failed" in str(info.value) and info.value.status_code == 500
    assert server.stats()["requests"] == 2 + 5  # two good samples, five attempts for the failing one


def test_bad_configuration_and_inputs(judge_server):
    server = judge_server(matcher)
    with pytest.raises(ConfigError, match="num_samples"):
        FinalResponseMatchEvaluator(server.openai_config(), num_samples=0)
    with pytest.raises(ConfigError, match="temperature"):
        FinalResponseMatchEvaluator(server.openai_config(), temperature=-1)
    ev = FinalResponseMatchEvaluator(server.openai_config())
    with pytest.raises(InputError) as info:
        ev(query="q", response="r")
    assert info.value.input_name == "ground_truth"
    with pytest.raises(InputError) as info:
        ev(query="q", response="   ", ground_truth="g")
    assert info.value.input_name == "response"
    assert server.stats()["requests"] == 0


def test_messages_are_read_for_query_and_final_text(judge_server):
    server = judge_server(matcher)
    out = FinalResponseMatchEvaluator(server.openai_config(), num_samples=1)(
        query=[{"role": "system", "content": "be brief"}, {"role": "user", "content": "2+2?"}],
        response=[
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "calc", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c", "content": "4"},
            {"role": "assistant", "content": "It is 4."},
        ],
        ground_truth="4.",
    )
    assert out["final_response_match_v2"] == 1.0
    req = server.requests[0]
    assert block(req, "user_query") == "2+2?"
    assert block(req, "agent_response") == "It is 4."
