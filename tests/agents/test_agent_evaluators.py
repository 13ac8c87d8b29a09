"""per_turn_user_simulator_quality_v1 and response_evaluation_score over a real local judge server."""

import pytest

from agent_evaluators import InputError, JudgeError
from agent_evaluators.adk import aevaluate_invocations
from agent_evaluators.adk.judges.response_evaluation import ResponseEvaluationEvaluator
from agent_evaluators.adk.judges.user_simulator_quality import PerTurnUserSimulatorQualityEvaluator
from agent_evaluators.testing import Faults, schema_reply

from ..adk_judges.conftest import Script
from .conftest import aio, block

CONVERSATION = [
    {"role": "user", "content": "Book a table"},
    {"role": "assistant", "content": "For how many?"},
    {"role": "user", "content": "Two people"},
    {"role": "assistant", "content": "Booked for two."},
]
PLAN = "Book a table; say two people when asked."


def verdict(valid):
    return {"criteria": [{"name": "CONVERSATION_PLAN_FOLLOWED", "reasoning": "r", "passes": valid}], "is_valid": valid}


def test_per_turn_scores_the_first_turn_without_a_judge_and_judges_the_rest(judge_server):
    server = judge_server(lambda req: verdict(True))
    ev = PerTurnUserSimulatorQualityEvaluator(server.openai_config(), num_samples=1)
    out = ev(messages=CONVERSATION, starting_prompt="Book a table", conversation_plan=PLAN)
    assert out["per_turn_user_simulator_quality_v1"] == 1.0
    turns = out["per_turn_user_simulator_quality_v1_details"]["turns"]
    assert [t["score"] for t in turns] == [1.0, 1.0]
    # turn 2 and the stop-signal check: two judge calls, each with the plan and the history before it
    first, stop = server.requests
    assert block(first, "conversation_plan") == PLAN
    assert block(first, "conversation_history") == [{"role": "user", "content": "Book a table"},  # numbered turns
                                                   {"role": "assistant", "content": "For how many?"}]
    assert block(first, "generated_user_response") == "Two people"
    assert block(stop, "generated_user_response") == "</finished>"
    assert len(block(stop, "conversation_history")) == 4


def test_wrong_starting_prompt_and_a_premature_stop(judge_server):
    # the stop-signal check fails: that failure replaces the last turn's pass (ADK)
    server = judge_server(lambda req: verdict(block(req, "generated_user_response") != "</finished>"))
    ev = PerTurnUserSimulatorQualityEvaluator(server.openai_config(), num_samples=1)
    out = ev(messages=CONVERSATION, starting_prompt="Something else", conversation_plan=PLAN)
    turns = out["per_turn_user_simulator_quality_v1_details"]["turns"]
    assert [t["status"] for t in turns] == ["FAILED", "FAILED"] and turns[1]["replaces_turn"] == 2
    assert out["per_turn_user_simulator_quality_v1"] == 0.0
    assert out["per_turn_user_simulator_quality_v1_result"] == "fail"


def test_majority_vote_over_samples(judge_server):
    labels = Script([True, False, True])
    server = judge_server(lambda req: verdict(labels.next()))
    ev = PerTurnUserSimulatorQualityEvaluator(server.openai_config(), num_samples=3)
    out = ev(messages=CONVERSATION[:2], starting_prompt="Book a table", conversation_plan=PLAN)
    # only the stop-signal check is judged here: two of three samples say valid
    assert out["per_turn_user_simulator_quality_v1"] == 1.0 and server.stats()["requests"] == 3


def test_a_judge_failure_is_an_error_never_a_score(judge_server):
    server = judge_server(schema_reply, faults=Faults(rate_500=1.0))
    ev = PerTurnUserSimulatorQualityEvaluator({**server.openai_config(), "max_attempts": 1}, num_samples=1)
    with pytest.raises(JudgeError):
        ev(messages=CONVERSATION, starting_prompt="Book a table", conversation_plan=PLAN)
    with pytest.raises(InputError, match="no user turn"):
        ev(messages=[{"role": "assistant", "content": "hi"}], starting_prompt="a", conversation_plan="b")


@aio
async def test_adk_surface_needs_a_scenario(judge_server):
    server = judge_server(lambda req: verdict(True))
    invocations = [{"user_content": {"parts": [{"text": "Book a table"}]},
                    "final_response": {"parts": [{"text": "Done."}]}}]
    crit = {"threshold": 0.5, "judge_model_options": {"num_samples": 1}}
    static = await PerTurnUserSimulatorQualityEvaluator.evaluate_scenario_case(invocations, None, crit,
                                                                                server.openai_config())
    assert static.status == "NOT_EVALUATED" and "conversation_scenario" in static.details["reason"]
    scenario = {"starting_prompt": "Book a table", "conversation_plan": PLAN}
    result = await PerTurnUserSimulatorQualityEvaluator.evaluate_scenario_case(invocations, scenario, crit,
                                                                                server.openai_config())
    assert (result.score, result.status) == (1.0, "PASSED")


def test_response_evaluation_is_a_1_to_5_coherence_score(judge_server):
    server = judge_server(lambda req: {"reason": "clear", "score": 5 if "Paris" in block(req, "agent_response") else 2})
    ev = ResponseEvaluationEvaluator(server.openai_config())
    good = ev(query="Capital of France?", response="The capital of France is Paris.")
    assert good["response_evaluation_score"] == 5.0 and good["response_evaluation_score_result"] == "pass"
    assert block(server.requests[0], "user_request") == "Capital of France?"
    bad = ev(query=[{"role": "user", "content": "Capital?"}], response=[{"role": "assistant", "content": "Bananas"}])
    assert bad["response_evaluation_score"] == 2.0 and bad["response_evaluation_score_result"] == "fail"
    assert bad["response_evaluation_score_threshold"] == 3.0


@aio
async def test_response_evaluation_adk_case_needs_expected_invocations(judge_server):
    server = judge_server(lambda req: {"reason": "ok", "score": 4})
    inv = {"user_content": {"parts": [{"text": "hi"}]}, "final_response": {"parts": [{"text": "Hello!"}]}}
    result = await ResponseEvaluationEvaluator.evaluate_adk_case([inv], [inv], {"threshold": 4.0},
                                                                server.openai_config())
    assert (result.score, result.status) == (4.0, "PASSED")
    unscored = await ResponseEvaluationEvaluator.evaluate_adk_case([inv], None, {"threshold": 4.0},
                                                                   server.openai_config())
    assert unscored.status == "NOT_EVALUATED"
    # also reachable through ADK's entry shape: a built-in criterion now
    via_entry = await aevaluate_invocations("response_evaluation_score", [inv], [inv], 4.0, server.openai_config())
    assert via_entry.status == "PASSED"
