"""The sample ADK agent, run with ADK's own Runner and scored against the bundled fake judge."""

import asyncio
import json
from pathlib import Path

import pytest

from ..conftest import optional_import

optional_import("google.adk")

from agent_evaluators import JudgeError  # noqa: E402
from agent_evaluators.adk import arun_eval_sets, load_eval_set  # noqa: E402
from agent_evaluators.adk.agent_evaluator import AgentEvaluator  # noqa: E402
from agent_evaluators.adk.agent_runner import agent_producer, run_case  # noqa: E402
from agent_evaluators.adk.convert import final_response_text, function_calls  # noqa: E402
from agent_evaluators.adk.results import EvalStatus  # noqa: E402
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


def test_every_case_ends_passed_or_failed_with_the_fake_judge(fake_judge, tmp_path):
    judge = fake_judge.openai_config()
    producer = agent_producer(SAMPLE, simulator_model_config=judge)
    results = run(arun_eval_sets(EVALSET, producer=producer, model_config=judge, run_dir=tmp_path / "run"))
    by_case = {r.eval_id: r for r in results}
    assert {k: v.final_eval_status for k, v in by_case.items()} == {
        "weather_paris": EvalStatus.PASSED, "convert_then_weather": EvalStatus.PASSED,
        "wrong_expectation": EvalStatus.FAILED, "trip_planning_scenario": EvalStatus.PASSED}
    scenario = by_case["trip_planning_scenario"]
    metrics = {m.metric_name: m for m in scenario.overall_eval_metric_results}
    invocations = [i.actual_invocation for i in scenario.eval_metric_result_per_invocation]
    # the fake simulator wrote two turns after the starting prompt, then the stop signal
    assert len(invocations) == 3
    assert function_calls(invocations[0])[0].name == "get_weather"
    assert metrics["tool_trajectory_avg_score"].eval_status == EvalStatus.NOT_EVALUATED
    assert any("conversation_scenario case has none" in n for n in scenario.notes)
    assert metrics["response_evaluation_score"].eval_status == EvalStatus.NOT_EVALUATED
    assert metrics["per_turn_user_simulator_quality_v1"].eval_status == EvalStatus.PASSED
    assert metrics["safety_v1"].eval_status == EvalStatus.PASSED
    assert metrics["rubric_based_final_response_quality_v1"].eval_status == EvalStatus.PASSED
    assert "synthetic user turn after 1 agent replies" in [p.text for p in invocations[1].user_content.parts]
    # the simulated user's turns (text, source, stop, judge usage) are kept in the run's rows
    rows = [json.loads(line) for line in (tmp_path / "run" / "rows.jsonl").read_text().splitlines()]
    turns = next(r["outputs.simulated_user"] for r in rows if "outputs.simulated_user" in r)
    assert [(t["source"], t["status"]) for t in turns] == [
        ("starting_prompt", "message"), ("judge", "message"), ("judge", "message"), ("judge", "stop_signal")]
    assert turns[1]["usage"]["judge_calls"] == 1
    assert sum("outputs.simulated_user" in r for r in rows) == 1  # static cases have no simulated user
    wrong = {m.metric_name: m.eval_status for m in by_case["wrong_expectation"].overall_eval_metric_results}
    assert wrong["tool_trajectory_avg_score"] == EvalStatus.FAILED
    assert wrong["response_match_score"] == EvalStatus.FAILED
    static = {m.metric_name: m.eval_status for m in by_case["weather_paris"].overall_eval_metric_results}
    assert static["per_turn_user_simulator_quality_v1"] == EvalStatus.NOT_EVALUATED


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
