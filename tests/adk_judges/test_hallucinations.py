"""hallucinations_v1 against the real local judge server: segmenter, validator, the score formula.

The formula is reference/adk.md §4.7 (ADK 2.13 ``HallucinationsV1Evaluator``): per step, the
share of labelled sentences that are supported or not_applicable (other labels skipped);
per invocation, the mean of the scored steps; per case, the mean of the scored invocations.
Expected numbers below are worked out by hand in each test, and the two main ones were also
produced by ADK itself on the same scripted labels (``ADK_GOLDEN``, tests/reference/gen_adk_judges.py).
"""

import pytest

from agent_evaluators import HallucinationEvaluator, JudgeError
from agent_evaluators.testing import Reply

from .conftest import ADK_GOLDEN, block, sentences_of

#: the scripted validator's label for each sentence (anything absent: "supported")
LABELS = {
    "I looked up Oslo.": "supported",
    "It has 9 million people.": "unsupported",
    "Let me check the weather.": "not_applicable",
    "It is raining in Oslo.": "contradictory",
    "The temperature is 12 degrees.": "supported",
    "Bring an umbrella.": "guess",  # outside the label set: skipped, never 0
}


def halluc_judge(req):
    if "<agent_text>" in req.text:  # segmenter
        text = block(req, "agent_text")
        return {"sentences": [s.strip() + "." for s in text.split(".") if s.strip()]}
    rows = []
    for s in sentences_of(req):
        rows.append({"index": s["index"], "rationale": f"checked {s['sentence']}", "supporting_excerpt": "",
                     "contradicting_excerpt": "", "label": LABELS.get(s["sentence"], "supported")})
    return {"sentences": rows}


RESPONSE = [
    {"role": "assistant", "content": "I looked up Oslo. It has 9 million people. Let me check the weather."},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "w", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}]},
    {"role": "tool", "tool_call_id": "w", "content": '{"sky": "sunny", "temp_c": 12}'},
    {"role": "assistant", "content": "It is raining in Oslo. The temperature is 12 degrees. Bring an umbrella."},
]


def test_score_formula_over_intermediate_and_final_steps(judge_server):
    server = judge_server(halluc_judge)
    ev = HallucinationEvaluator(server.openai_config(), evaluate_intermediate_nl_responses=True)
    out = ev(response=RESPONSE, query="Tell me about Oslo and its weather", context="Oslo is the capital of Norway.",
             instructions="Be factual.")
    # step 1: supported, unsupported, not_applicable -> 2/3
    # step 2: contradictory, supported, "guess" (skipped) -> 1/2
    # invocation: (2/3 + 1/2) / 2 = 7/12
    assert out["hallucinations_v1"] == pytest.approx(7 / 12) == pytest.approx(ADK_GOLDEN["hallucinations_intermediate"])
    assert out["hallucinations_v1_result"] == "fail"
    steps = out["hallucinations_v1_details"]["steps"]
    assert [s["kind"] for s in steps] == ["intermediate", "final"]
    assert [s["score"] for s in steps] == [pytest.approx(2 / 3), 0.5]
    final = {r["sentence"]: r for r in steps[1]["sentences"]}
    assert final["Bring an umbrella."]["score"] is None and "not one of" in final["Bring an umbrella."]["note"]
    assert final["It is raining in Oslo."]["label"] == "contradictory"
    assert "3 of 5 labelled sentence(s) supported or not applicable" in out["hallucinations_v1_reason"]
    assert out["hallucinations_v1_usage"]["judge_calls"] == 4  # one segmenter + one validator call per step

    validator_reqs = [r for r in server.requests if "<sentences>" in r.text]
    by_first = {sentences_of(r)[0]["sentence"]: r for r in validator_reqs}
    first, last = by_first["I looked up Oslo."], by_first["It is raining in Oslo."]
    assert block(first, "prior_steps") == []  # the first text had nothing before it
    assert "sunny" in str(block(last, "prior_steps"))  # the final text is checked against the tool result
    assert block(last, "context") == "Oslo is the capital of Norway."
    assert block(last, "agent_instructions") == "Be factual."
    assert block(last, "user_request")[0]["content"] == "Tell me about Oslo and its weather"
    assert all(r.body["temperature"] == 0.0 for r in server.requests)


def test_only_the_final_response_by_default(judge_server):
    server = judge_server(halluc_judge)
    out = HallucinationEvaluator(server.openai_config())(response=RESPONSE)
    assert out["hallucinations_v1"] == 0.5 == ADK_GOLDEN["hallucinations_final_only"]  # contradictory, supported, skipped
    assert len(out["hallucinations_v1_details"]["steps"]) == 1
    assert server.stats()["requests"] == 2


def test_plain_text_response(judge_server):
    server = judge_server(halluc_judge)
    out = HallucinationEvaluator(server.openai_config())(response="I looked up Oslo. It has 9 million people.")
    assert out["hallucinations_v1"] == 0.5 and out["hallucinations_v1_result"] == "fail"
    assert HallucinationEvaluator(server.openai_config(), threshold=0.5)(
        response="I looked up Oslo. It has 9 million people.")["hallucinations_v1_result"] == "pass"


def test_missing_and_duplicate_labels_leave_sentences_unscored(judge_server):
    def responder(req):
        if "<agent_text>" in req.text:
            return {"sentences": ["A.", "B.", "C."]}
        def row(i, label):
            return {"index": i, "rationale": "r", "supporting_excerpt": "", "contradicting_excerpt": "", "label": label}

        return {"sentences": [row(0, "unsupported"), row(1, "supported"), row(1, "unsupported"), row(7, "supported")]}

    server = judge_server(responder)
    out = HallucinationEvaluator(server.openai_config())(response="A. B. C.")
    rows = out["hallucinations_v1_details"]["steps"][0]["sentences"]
    assert [r["score"] for r in rows] == [0.0, None, None]
    assert rows[1]["note"] == "more than one label from the validator" and rows[2]["note"] == "no label from the validator"
    assert out["hallucinations_v1"] == 0.0


def test_nothing_to_check_is_not_applicable(judge_server):
    server = judge_server(lambda req: {"sentences": []})
    ev = HallucinationEvaluator(server.openai_config())
    only_call = [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "w", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}]
    out = ev(response=only_call)
    assert out["hallucinations_v1_result"] == "not_applicable" and out["hallucinations_v1"] is None
    assert server.stats()["requests"] == 0
    out = ev(response="....")
    assert out["hallucinations_v1_result"] == "not_applicable" and "no sentence" in out["hallucinations_v1_reason"]


def test_no_usable_label_or_a_failed_call_is_a_judge_error(judge_server):
    def junk_labels(req):
        if "<agent_text>" in req.text:
            return {"sentences": ["A."]}
        return {"sentences": [{"index": 0, "rationale": "r", "supporting_excerpt": "", "contradicting_excerpt": "",
                               "label": "probably"}]}

    server = judge_server(junk_labels)
    with pytest.raises(JudgeError, match="no usable label"):
        HallucinationEvaluator(server.openai_config())(response="A.")

    def validator_down(req):
        if "<agent_text>" in req.text:
            return {"sentences": ["A."]}
        return Reply(status=500, content='{"error": {"message": "down"}}', headers={"retry-after-ms": "5"})

    server2 = judge_server(validator_down)
    with pytest.raises(JudgeError) as info:
        HallucinationEvaluator(server2.openai_config(), evaluate_intermediate_nl_responses=True)(response=RESPONSE)
    assert info.value.status_code == 500 and "HallucinationEvaluator" in str(info.value)
