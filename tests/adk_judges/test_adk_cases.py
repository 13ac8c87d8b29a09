"""The ADK judge metrics over whole ADK cases, through ``agent_evaluators.adk.evaluate_invocations``.

Aggregation rules are reference/adk.md §4 (ADK 2.13): per-invocation status PASSED iff
score >= threshold, None → NOT_EVALUATED; final_response_match_v2 / hallucinations_v1 /
safety_v1 case score = mean over evaluated invocations; rubric metrics = mean over all
(invocation, rubric) scores, flattened. Expected numbers are worked out in each test.
"""

import pytest

from agent_evaluators.adk import evaluate_invocations
from agent_evaluators.adk.judges import ADK_JUDGE_METRICS, FinalResponseMatchEvaluator
from agent_evaluators.testing import Reply

from .conftest import ADK_GOLDEN, block, rubrics_of
from .test_hallucinations import halluc_judge
from .test_rubrics import item


def inv(user, final=None, **extra):
    out = {"invocation_id": f"inv-{user[:8]}", "user_content": {"role": "user", "parts": [{"text": user}]}}
    if final is not None:
        out["final_response"] = {"role": "model", "parts": [{"text": final}]}
    out.update(extra)
    return out


def frm_judge(req):
    """valid iff the agent's response equals the reference ignoring case; BOOM fails persistently."""
    response = block(req, "agent_response")
    if "BOOM" in response:
        return Reply(status=500, content='{"error": {"message": "judge down"}}', headers={"retry-after-ms": "5"})
    ok = response.lower().strip(" .") == block(req, "reference_answer").lower().strip(" .")
    return {"reason": "same" if ok else "different", "verdict": "valid" if ok else "invalid"}


def test_registry_names_every_judge_metric():
    assert set(ADK_JUDGE_METRICS) == {
        "final_response_match_v2", "rubric_based_final_response_quality_v1", "rubric_based_tool_use_quality_v1",
        "hallucinations_v1", "safety_v1", "rubric_based_multi_turn_trajectory_quality_v1",
        "multi_turn_task_success_v1", "multi_turn_trajectory_quality_v1", "multi_turn_tool_use_quality_v1"}
    assert all(cls.result_key == name for name, cls in ADK_JUDGE_METRICS.items())
    assert FinalResponseMatchEvaluator.requires_expected


def test_final_response_match_mean_over_invocations(judge_server):
    server = judge_server(frm_judge)
    actual = [inv("q1", "Paris."), inv("q2", "Berlin"), inv("q3", "Rome")]
    expected = [inv("q1", "paris"), inv("q2", "Madrid"), inv("q3", "rome")]
    crit = {"threshold": 0.6, "judge_model_options": {"judge_model": "judge-large", "num_samples": 3}}
    result = evaluate_invocations("final_response_match_v2", actual, expected, crit, server.openai_config())
    assert result.per_invocation_scores == [1.0, 0.0, 1.0]
    assert result.score == pytest.approx(2 / 3) and result.status == "PASSED"
    assert result.per_invocation_statuses == ["PASSED", "FAILED", "PASSED"]
    assert server.stats()["requests"] == 9  # 3 samples per invocation
    assert {r.body["model"] for r in server.requests} == {"judge-large"}
    assert all(r.body["temperature"] == 1.0 for r in server.requests)
    assert {block(r, "user_query") for r in server.requests} == {"q1", "q2", "q3"}  # the expected invocation's query


def test_failed_judge_is_an_error_not_a_pass_on_the_other_invocations(judge_server):
    # issue 20.1: ADK would average the other invocation (1.0) and pass; a judge failure is an error
    server = judge_server(frm_judge)
    actual = [inv("q1", "Paris"), inv("q2", "BOOM")]
    expected = [inv("q1", "Paris"), inv("q2", "Madrid")]
    result = evaluate_invocations("final_response_match_v2", actual, expected,
                                  {"threshold": 0.8, "judge_model_options": {"num_samples": 2}}, server.openai_config())
    assert result.per_invocation_scores == [1.0, None]
    assert result.per_invocation_statuses == ["PASSED", "FAILED"]
    assert result.score is None and result.status == "FAILED"
    failed = result.details["per_invocation"][1]
    assert "500" in failed["error"] or "judge down" in failed["error"]
    assert result.judge_error and result.judge_error == failed["judge_error"]


def test_all_samples_unusable_is_a_judge_error(judge_server):
    server = judge_server(lambda req: {"reason": "?", "verdict": "perhaps"})
    result = evaluate_invocations("final_response_match_v2", [inv("q", "a")], [inv("q", "a")],
                                  {"threshold": 0.5, "judge_model_options": {"num_samples": 3}}, server.openai_config())
    assert result.score is None and result.status == "FAILED"
    assert "no sample gave" in result.details["per_invocation"][0]["error"]
    assert "no sample gave" in result.judge_error


def test_reference_rules(judge_server):
    server = judge_server(frm_judge)
    out = evaluate_invocations("final_response_match_v2", [inv("q", "a")], None, 0.8, server.openai_config())
    assert out.status == "NOT_EVALUATED" and server.stats()["requests"] == 0
    with pytest.raises(ValueError):
        evaluate_invocations("final_response_match_v2", [inv("q", "a")], [], 0.8, server.openai_config())


def test_rubric_case_score_is_flat_over_all_rubric_scores(judge_server):
    """inv 1: r1 yes, r2 yes, r3 no -> 2/3; inv 2: r1 no, r2 no, r3 omitted (unscored) -> 0.
    Flat mean = 2/5 = 0.4, as ADK computes it (ADK_GOLDEN); a mean of means would be 1/3."""

    def judge(req):
        good = "good" in block(req, "final_response")
        plan = {"r1": "yes", "r2": "yes", "r3": "no"} if good else {"r1": "no", "r2": "no"}
        return {"rubrics": [item(rid, v) for rid, v in plan.items()]}

    server = judge_server(judge)
    crit = {"threshold": 0.5, "judge_model_options": {"num_samples": 1},
            "rubrics": [{"rubric_id": r, "rubric_content": {"text_property": f"Rubric {r}."}} for r in ("r1", "r2", "r3")]}
    result = evaluate_invocations("rubric_based_final_response_quality_v1",
                                  [inv("q1", "a good answer"), inv("q2", "a bad answer")], None, crit,
                                  server.openai_config())
    golden = ADK_GOLDEN["rubric_flat"]
    assert result.score == pytest.approx(golden["score"]) == pytest.approx(0.4)
    assert result.per_invocation_scores == pytest.approx(golden["per_invocation"])
    assert {r["rubric_id"]: r["score"] for r in result.details["overall_rubric_scores"]} == golden["overall_rubric_scores"]
    assert result.status == "FAILED"


def test_invocation_rubrics_join_the_criterion_rubrics(judge_server):
    """inv 1 has the 2 criterion rubrics + 1 of its own: yes, yes, no -> 2/3.
    inv 2 has the 2 criterion rubrics: no, no -> 0. Flat mean = 2/5 = 0.4.

    ADK 2.13 itself gives 0.5 here (ADK_GOLDEN["rubric_invocation_rubrics_adk_shared_state"]): it
    parses every invocation's replies against the *last* invocation's rubric list, so inv 1's own
    rubric is dropped as unknown. We follow the rule reference/adk.md §4.4 states instead: each
    invocation is scored against the criterion's rubrics plus its own of this metric's type.
    """

    def judge(req):
        final = block(req, "final_response")
        yes = "good" in final
        return {"rubrics": [item(r["rubric_id"], "yes" if yes and r["rubric_id"] != "own" else "no", r["property"])
                            for r in rubrics_of(req)]}

    server = judge_server(judge)
    own = {"rubric_id": "own", "rubric_content": {"text_property": "Own rubric."}, "type": "FINAL_RESPONSE_QUALITY"}
    other_type = {"rubric_id": "tools", "rubric_content": {"text_property": "Tool rubric."}, "type": "TOOL_USE_QUALITY"}
    actual = [inv("q1", "a good answer", rubrics=[own, other_type]), inv("q2", "a bad answer")]
    crit = {"threshold": 0.5, "judge_model_options": {"num_samples": 1},
            "rubrics": [{"rubric_id": "r1", "rubric_content": {"text_property": "One."}},
                        {"rubric_id": "r2", "rubric_content": {"text_property": "Two."}}]}
    result = evaluate_invocations("rubric_based_final_response_quality_v1", actual, None, crit, server.openai_config())
    assert result.per_invocation_scores == [pytest.approx(2 / 3), 0.0]
    assert result.score == pytest.approx(0.4) and result.status == "FAILED"
    overall = {r["rubric_id"]: r["score"] for r in result.details["overall_rubric_scores"]}
    assert overall == {"r1": 0.5, "r2": 0.5, "own": 0.0}
    sent = sorted([r["rubric_id"] for r in rubrics_of(req)] for req in server.requests)
    assert sent == [["r1", "r2"], ["r1", "r2", "own"]]  # the TOOL_USE_QUALITY rubric is filtered out


def test_rubric_case_without_any_rubric_or_with_duplicates_is_not_evaluated(judge_server):
    server = judge_server(lambda req: {"rubrics": []})
    out = evaluate_invocations("rubric_based_tool_use_quality_v1", [inv("q", "a")], None,
                               {"threshold": 0.5}, server.openai_config())
    assert out.status == "NOT_EVALUATED" and "rubrics are required" in out.details["reason"]
    dup = {"rubric_id": "r1", "rubric_content": {"text_property": "x"}, "type": "TOOL_USE_QUALITY"}
    out = evaluate_invocations("rubric_based_tool_use_quality_v1", [inv("q", "a", rubrics=[dup])], None,
                               {"threshold": 0.5, "rubrics": [dup]}, server.openai_config())
    assert out.status == "NOT_EVALUATED" and "used twice" in out.details["reason"]
    assert server.stats()["requests"] == 0


def test_tool_use_rubrics_read_adk_tool_calls_and_responses(judge_server):
    def judge(req):
        steps = block(req, "tool_steps")
        ok = [s["name"] for s in steps] == ["get_weather"] and steps[0]["result"] == {"sky": "rain"}
        return {"rubrics": [item(r["rubric_id"], "yes" if ok else "no", r["property"]) for r in rubrics_of(req)]}

    server = judge_server(judge)
    events = {"invocation_events": [
        {"author": "agent", "content": {"role": "model", "parts": [
            {"function_call": {"id": "c1", "name": "get_weather", "args": {"city": "Oslo"}}}]}},
        {"author": "agent", "content": {"role": "user", "parts": [
            {"function_response": {"id": "c1", "name": "get_weather", "response": {"sky": "rain"}}}]}},
    ]}
    actual = [inv("Weather in Oslo?", "Rain.", intermediate_data=events)]
    crit = {"threshold": 1.0, "judge_model_options": {"num_samples": 2},
            "rubrics": [{"rubric_id": "w", "rubric_content": {"text_property": "Calls get_weather once."}}]}
    out = evaluate_invocations("rubric_based_tool_use_quality_v1", actual, None, crit, server.openai_config())
    assert out.score == 1.0 and out.status == "PASSED"


def test_hallucinations_mean_over_invocations(judge_server):
    """inv 1: 'It is raining in Oslo. The temperature is 12 degrees.' -> contradictory, supported = 0.5;
    inv 2: 'I looked up Oslo.' -> supported = 1.0; inv 3 has no final text -> NOT_EVALUATED.
    Case = (0.5 + 1.0) / 2 = 0.75."""
    server = judge_server(halluc_judge)
    events = {"invocation_events": [
        {"author": "weather_agent", "content": {"role": "model", "parts": [
            {"function_call": {"id": "c1", "name": "get_weather", "args": {"city": "Oslo"}}}]}},
        {"author": "weather_agent", "content": {"role": "user", "parts": [
            {"function_response": {"id": "c1", "name": "get_weather", "response": {"sky": "sunny"}}}]}},
    ]}
    app = {"agent_details": {"weather_agent": {"name": "weather_agent", "instructions": "Use the tools."}}}
    actual = [
        inv("Weather?", "It is raining in Oslo. The temperature is 12 degrees.", intermediate_data=events,
            app_details=app),
        inv("What did you do?", "I looked up Oslo."),
        inv("Anything else?"),
    ]
    out = evaluate_invocations("hallucinations_v1", actual, None, {"threshold": 0.8}, server.openai_config())
    assert out.per_invocation_scores == [0.5, 1.0, None]
    assert out.score == pytest.approx(0.75) and out.status == "FAILED"
    validator = next(r for r in server.requests if "<sentences>" in r.text and "raining" in r.text)
    assert "sunny" in str(block(validator, "prior_steps"))
    assert block(validator, "agent_instructions") == "weather_agent:\nUse the tools."


def test_safety_mean_over_invocations(judge_server):
    from .test_safety import safety_judge

    server = judge_server(safety_judge)
    actual = [inv("q1", "Pasta recipe."), inv("q2", "How to hurt someone."), inv("q3", "Nice weather.")]
    out = evaluate_invocations("safety_v1", actual, None, 0.8, server.openai_config())
    assert out.per_invocation_scores == [1.0, 0.0, 1.0]
    assert out.score == pytest.approx(2 / 3) and out.status == "FAILED"
    assert out.details["per_invocation"][1]["details"]["unsafe_categories"] == ["violence"]
