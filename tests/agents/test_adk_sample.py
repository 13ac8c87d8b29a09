"""The sample ADK agent, run with ADK's own Runner and scored against the bundled fake judge."""

import asyncio
from pathlib import Path

import pytest

from ..conftest import optional_import

optional_import("google.adk")

from agent_evaluators import JudgeError  # noqa: E402
from agent_evaluators.adk import find_config_for, load_eval_config, load_eval_set  # noqa: E402
from agent_evaluators.adk.convert import final_response_text, function_calls  # noqa: E402
from agent_evaluators.agents.adk_runner import load_agent, run_case  # noqa: E402
from agent_evaluators.agents.agent_evaluator import AgentEvaluator  # noqa: E402
from agent_evaluators.agents.case_scoring import score_case  # noqa: E402
from agent_evaluators.testing import Faults, JudgeServer  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "adk_agent"
EVALSET = SAMPLE / "weather.evalset.json"


@pytest.fixture(scope="module")
def fake_judge():
    with JudgeServer() as server:  # the bundled fake judge: synthetic replies derived from each request
        yield server


def run(coro):
    return asyncio.run(coro)


def test_static_case_records_real_tool_calls_and_session_state():
    case = next(c for c in load_eval_set(EVALSET).eval_cases if c.eval_id == "convert_then_weather")
    (invocations,) = run(run_case(SAMPLE, case, num_runs=1))
    assert [final_response_text(i) for i in invocations] == ["That is 90.0 EUR.", "It is cloudy and 15 degrees in London."]
    calls = [[(c.name, c.args) for c in function_calls(i)] for i in invocations]
    assert calls == [[("convert_currency", {"amount": 100.0, "from_currency": "USD", "to_currency": "EUR"})],
                     [("get_weather", {"city": "London"})]]
    details = invocations[0].app_details.agent_details["weather_agent"]
    assert "weather" in details.instructions and details.tool_declarations


def test_every_case_ends_passed_or_failed_with_the_fake_judge(fake_judge):
    config = load_eval_config(find_config_for(EVALSET))
    judge = fake_judge.openai_config()
    root = load_agent(SAMPLE)
    statuses, runs_by_case = {}, {}
    for case in load_eval_set(EVALSET).eval_cases:
        runs = run(run_case(root, case, simulator_model_config=judge,
                            user_simulator_config=config.user_simulator_config, num_runs=1))
        scored = run(score_case(case, runs[0], config.criteria, judge))
        statuses[case.eval_id], runs_by_case[case.eval_id] = scored, runs[0]
    assert {k: v.status for k, v in statuses.items()} == {
        "weather_paris": "PASSED", "convert_then_weather": "PASSED", "wrong_expectation": "FAILED",
        "trip_planning_scenario": "PASSED"}
    scenario = statuses["trip_planning_scenario"]
    by_name = {m.name: m for m in scenario.metrics}
    # the fake simulator wrote two turns after the starting prompt, then the stop signal
    assert len(scenario.invocations) == 3
    assert function_calls(scenario.invocations[0])[0].name == "get_weather"
    assert by_name["tool_trajectory_avg_score"].status == "NOT_EVALUATED"
    assert "conversation_scenario case has none" in by_name["tool_trajectory_avg_score"].reason
    assert by_name["response_evaluation_score"].status == "NOT_EVALUATED"
    assert by_name["per_turn_user_simulator_quality_v1"].status == "PASSED"
    assert by_name["safety_v1"].status == "PASSED"
    assert by_name["rubric_based_final_response_quality_v1"].status == "PASSED"
    turns = runs_by_case["trip_planning_scenario"].simulator_records
    assert [(t["source"], t["status"]) for t in turns] == [
        ("starting_prompt", "message"), ("judge", "message"), ("judge", "message"), ("judge", "stop_signal")]
    assert turns[1]["usage"]["judge_calls"] == 1
    assert "synthetic user turn after 1 agent replies" in [
        p.text for p in scenario.invocations[1].user_content.parts]
    wrong = {m.name: m.status for m in statuses["wrong_expectation"].metrics}
    assert wrong["tool_trajectory_avg_score"] == "FAILED" and wrong["response_match_score"] == "FAILED"
    assert {m.name: m.status for m in statuses["weather_paris"].metrics}["per_turn_user_simulator_quality_v1"] \
        == "NOT_EVALUATED"


def test_agent_evaluator_names_failed_cases_and_metrics(fake_judge, tmp_path):
    judge = fake_judge.openai_config()
    with pytest.raises(AssertionError) as info:
        run(AgentEvaluator.evaluate(str(SAMPLE), EVALSET, num_runs=2, judge_model_config=judge,
                                    print_detailed_results=False))
    message = str(info.value)
    assert "wrong_expectation: tool_trajectory_avg_score" in message
    assert "wrong_expectation: response_match_score" in message
    assert "weather_paris" not in message and "trip_planning_scenario" not in message


def test_a_failing_simulator_turn_fails_the_run_naming_the_turn():
    case = next(c for c in load_eval_set(EVALSET).eval_cases if c.conversation_scenario is not None)
    with JudgeServer(faults=Faults(rate_500=1.0)) as server:
        with pytest.raises(JudgeError, match="user simulator, turn 2"):
            run(run_case(SAMPLE, case, simulator_model_config={**server.openai_config(), "max_attempts": 1}))
        assert server.stats()["requests"] == 1  # the starting prompt needed no judge; turn 2 failed once


def test_turn_limit_from_user_simulator_config(fake_judge):
    case = next(c for c in load_eval_set(EVALSET).eval_cases if c.conversation_scenario is not None)
    (invocations,) = run(run_case(SAMPLE, case, simulator_model_config=fake_judge.openai_config(),
                                  user_simulator_config={"max_allowed_invocations": 2}))
    assert len(invocations) == 2 and invocations.simulator_records[-1]["status"] == "turn_limit"
