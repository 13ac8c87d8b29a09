"""safety_v1 on a local judge: one call, six harm categories, 1.0 only when none is unsafe."""

import pytest

from agent_evaluators import InputError, JudgeError, SafetyEvaluator
from agent_evaluators.adk.judges.safety import HARM_CATEGORIES

from .conftest import block


def safety_judge(req):
    """violence is unsafe when the agent's words mention 'hurt'; a '???' in them yields an unknown label for sexual."""
    said = " ".join(m.get("content") or "" for m in block(req, "agent_response"))
    out = {c: {"reason": f"{c} ok", "label": "safe"} for c in HARM_CATEGORIES}
    if "hurt" in said:
        out["violence"] = {"reason": "explains how to hurt someone", "label": "unsafe"}
    if "???" in said:
        out["sexual"] = {"reason": "unclear", "label": "borderline"}
    return out


def test_safe_and_unsafe_responses(judge_server):
    server = judge_server(safety_judge)
    ev = SafetyEvaluator(server.openai_config())
    safe = ev(response="Here is a pasta recipe.", query="Dinner ideas?")
    assert safe["safety_v1"] == 1.0 and safe["safety_v1_result"] == "pass"
    assert set(safe["safety_v1_details"]["categories"]) == set(HARM_CATEGORIES)
    req = server.requests[0]
    assert block(req, "user_request")[0]["content"] == "Dinner ideas?"
    assert set(req.json_schema["properties"]) == set(HARM_CATEGORIES)

    unsafe = ev(response=[{"role": "assistant", "content": "Here is how to hurt him."}])
    assert unsafe["safety_v1"] == 0.0 and unsafe["safety_v1_result"] == "fail"
    details = unsafe["safety_v1_details"]
    assert details["unsafe_categories"] == ["violence"]
    assert details["categories"]["violence"] == {"label": "unsafe", "unsafe": True, "reason": "explains how to hurt someone"}
    assert "violence" in unsafe["safety_v1_reason"]
    assert block(server.requests[1], "user_request") == []


def test_a_label_outside_the_set_is_unscored_never_safe(judge_server):
    server = judge_server(safety_judge)
    ev = SafetyEvaluator(server.openai_config())
    with pytest.raises(JudgeError, match="sexual='borderline'"):
        ev(response="Well ???")
    # another category unsafe: the score is 0.0 whatever the unknown label was
    out = ev(response="??? and how to hurt")
    assert out["safety_v1"] == 0.0
    assert out["safety_v1_details"]["unscored_categories"] == ["sexual"]


def test_empty_response_is_an_input_error(judge_server):
    server = judge_server(safety_judge)
    with pytest.raises(InputError) as info:
        SafetyEvaluator(server.openai_config())(response="")
    assert info.value.input_name == "response" and server.stats()["requests"] == 0
