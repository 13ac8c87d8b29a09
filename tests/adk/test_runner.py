"""The ADK runner: verdicts, printout, result file and exit codes, as ``adk eval``."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent_evaluators.adk.actual import load_actual_invocations
from agent_evaluators.adk.eval_config import parse_eval_config
from agent_evaluators.adk.evalsets.cases import final_eval_status
from agent_evaluators.adk.evalsets.criteria import JUDGES_MODULE, METRICS, MetricSpec
from agent_evaluators.adk.evalsets.runner import run_eval_sets
from agent_evaluators.adk.results import EvalSetResult, EvalStatus
from agent_evaluators.cli.eval_sets import main
from agent_evaluators.errors import ConfigError, InputError
from agent_evaluators.evaluators.base import Evaluator, Outcome

DEPENDENT = "home_automation_agent/test_files/dependent_tool_calls.test.json"
LIVE = "live_non_blocking_tool_agent/live_non_blocking_tool_agent.evalset.json"


class Dependent:
    """The two-turn eval set of a fixture tree (the second call reads back what the first one set), as its file has it."""

    def __init__(self, root: Path) -> None:
        self.path = root / DEPENDENT
        data = json.loads(self.path.read_text())
        self.set_id = data["eval_set_id"]
        (case,) = data["eval_cases"]
        self.eval_id = case["eval_id"]
        self.conversation = case["conversation"]

    def expected(self):
        return copy.deepcopy(self.conversation)

    def user_text(self, n):
        return self.conversation[n]["user_content"]["parts"][0]["text"]

    def write_actual(self, tmp_path, invocations, name="actual.jsonl"):
        path = tmp_path / name
        path.write_text(json.dumps({"eval_id": self.eval_id, "invocations": invocations}) + "\n")
        return path

    def wrong_second_call(self):
        bad = self.expected()
        bad[1]["intermediate_data"]["tool_uses"][0]["args"] = {"device_id": "device_3"}
        return bad


@pytest.fixture
def dep(adk_root):
    return Dependent(adk_root)


def _case_ids(path):
    """(scenario case id, scripted case id) of the live eval set."""
    scenario, scripted = json.loads(path.read_text())["eval_cases"]
    return scenario["eval_id"], scripted["eval_id"]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    # without --output the CLI writes to ./.adk/eval_history: keep that out of the checkout
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    "statuses, final",
    [
        ([], EvalStatus.NOT_EVALUATED),
        ([EvalStatus.NOT_EVALUATED, EvalStatus.INFORMATIONAL], EvalStatus.NOT_EVALUATED),
        ([EvalStatus.NOT_EVALUATED, EvalStatus.PASSED], EvalStatus.PASSED),
        ([EvalStatus.PASSED, EvalStatus.FAILED, EvalStatus.PASSED], EvalStatus.FAILED),
    ],
)
def test_final_status_follows_adk(statuses, final):
    assert final_eval_status(statuses) == final


def test_passing_eval_set_prints_summary_and_exits_0(tmp_path, capsys, dep):
    actual = dep.write_actual(tmp_path, dep.expected())
    code = main([str(dep.path), "--actual", str(actual), "--output", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0
    assert "Using evaluation criteria: EvalConfig(criteria={'tool_trajectory_avg_score': {'threshold': 1.0}})" in out
    assert "*" * 69 + f"\nEval Run Summary\n{dep.set_id}:\n  Tests passed: 1\n  Tests failed: 0" in out
    (written,) = (tmp_path / "out").glob("*.evalset_result.json")
    # ADK's <app>_<eval_set_id>_<timestamp>; the app is the eval-set file's folder here
    assert written.name.startswith(f"{dep.path.parent.name}_{dep.set_id}_")
    result = EvalSetResult.parse(written.read_text())
    case = result.eval_case_results[0]
    assert case.final_eval_status == EvalStatus.PASSED and case.eval_id == dep.eval_id
    assert json.loads(written.read_text())["eval_case_results"][0]["final_eval_status"] == 1  # ADK's int status


def test_failing_eval_set_prints_adk_details_and_exits_1(tmp_path, capsys, dep):
    actual = dep.write_actual(tmp_path, dep.wrong_second_call())
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps({"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.5}}))
    code = main([str(dep.path), "--actual", str(actual), "--config", str(config), "--print_detailed_results"])
    out = capsys.readouterr().out
    assert code == 1
    assert "Tests passed: 0\n  Tests failed: 1" in out
    assert "*" * 68 + f"\nEval Set Id: {dep.set_id}\nEval Id: {dep.eval_id}\nOverall Eval Status: FAILED\n" in out
    assert "Metric: tool_trajectory_avg_score, Status: FAILED, Score: 0.5, Threshold: 1.0" in out
    assert "Metric: response_match_score, Status: PASSED, Score: 1.0, Threshold: 0.5" in out
    assert f"\nInvocation 2 of 2\n  prompt:                     {dep.user_text(1)}\n" in out
    second_tool = dep.conversation[1]["intermediate_data"]["tool_uses"][0]["name"]
    assert (f"  actual_tool_calls:          {second_tool}(\n"
            "                                device_id='device_3')\n"
            "  tool_trajectory_avg_score:  FAILED (0.0)\n"
            "  response_match_score:       PASSED (1.0)\n") in out


def test_result_file_round_trips_as_actual_invocations(tmp_path, dep):
    actual = dep.write_actual(tmp_path, dep.wrong_second_call())
    run_eval_sets(dep.path, actual=actual, output_dir=tmp_path / "out")
    (written,) = (tmp_path / "out").glob("*.evalset_result.json")
    loaded = load_actual_invocations(written)
    assert loaded[dep.eval_id][1]["intermediate_data"]["tool_uses"][0]["args"] == {"device_id": "device_3"}
    assert loaded[(dep.set_id, dep.eval_id)] is loaded[dep.eval_id]
    (again,) = run_eval_sets(dep.path, actual=written)
    assert again.overall_eval_metric_results[0].score == 0.5
    double = tmp_path / "legacy.json"
    double.write_text(json.dumps(written.read_text()))  # ADK's legacy double-encoded result file
    assert load_actual_invocations(double)[dep.eval_id] == loaded[dep.eval_id]


def test_config_beside_each_file_is_used_and_defaults_otherwise(tmp_path, adk_root, dep):
    root = adk_root
    trip_id = str(root / "trip_planner_agent/trip_inquiry.test.json")
    turns = json.loads((root / "trip_planner_agent/trip_inquiry.test.json").read_text())
    invocations = [{"user_content": {"parts": [{"text": t["query"]}]},
                    "final_response": {"parts": [{"text": t["reference"]}]}} for t in turns]
    (result,) = run_eval_sets(trip_id, actual={trip_id: invocations})
    assert [(m.metric_name, m.threshold) for m in result.overall_eval_metric_results] == [("response_match_score", 0.5)]
    assert result.final_eval_status == EvalStatus.PASSED
    alone = tmp_path / "alone.evalset.json"
    alone.write_text(dep.path.read_text())
    (result,) = run_eval_sets(alone, actual=dep.write_actual(tmp_path, dep.expected()))
    assert {m.metric_name: m.threshold for m in result.overall_eval_metric_results} == {
        "tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}


def test_scenario_case_without_a_recorded_conversation_is_not_evaluated_and_not_a_failure(tmp_path, capsys, adk_root):
    path = adk_root / LIVE
    scenario_id, scripted_id = _case_ids(path)
    actual = tmp_path / "a.jsonl"
    actual.write_text(json.dumps({"eval_id": scripted_id, "invocations": [
        {"user_content": {"parts": [{"text": "Please start the background job."}]},
         "final_response": {"parts": [{"text": "Started."}]}},
        {"user_content": {"parts": [{"text": "While that runs, a question."}]},
         "final_response": {"parts": [{"text": "Ask away."}]}}]}) + "\n")
    code = main([str(path), "--actual", str(actual), "--print_detailed_results"])
    out = capsys.readouterr().out
    # the scripted case fails (below); the scenario case is not evaluated, which is no failure
    assert code == 1 and "Tests passed: 0\n  Tests failed: 1\n  Tests not evaluated: 1" in out
    assert f"Eval Id: {scenario_id}\nOverall Eval Status: NOT_EVALUATED\nNote: conversation_scenario" in out
    scripted = out.split(f"Eval Id: {scripted_id}")[1]
    # no tool calls expected or made: trajectory passes; the expected turns have no text, and ADK's
    # ROUGE scores empty references 0.0, so response_match_score fails the case
    assert "Overall Eval Status: FAILED" in scripted
    assert "Metric: tool_trajectory_avg_score, Status: PASSED, Score: 1.0" in scripted
    assert "Metric: response_match_score, Status: FAILED, Score: 0.0, Threshold: 0.8" in scripted
    assert "  expected_response:          (none)\n" in scripted
    # no --output: the result file goes to ./.adk/eval_history, and the CLI says where
    (written,) = (tmp_path / ".adk" / "eval_history").glob("*.evalset_result.json")
    assert f"Eval set result written to {Path('.adk') / 'eval_history' / written.name}" in out
    statuses = [c["final_eval_status"] for c in json.loads(written.read_text())["eval_case_results"]]
    assert sorted(statuses) == [2, 3]  # ADK's stored ints: FAILED, NOT_EVALUATED


def test_missing_actual_for_a_case_fails_it_without_metrics(tmp_path, dep):
    actual = tmp_path / "a.jsonl"
    actual.write_text(json.dumps({"eval_id": "someone else", "invocations": []}) + "\n")
    (result,) = run_eval_sets(dep.path, actual=actual)
    assert result.final_eval_status == EvalStatus.FAILED and result.overall_eval_metric_results == []
    assert "no entry for eval case" in result.notes[0]


def test_target_callable_produces_the_invocations(dep):
    seen = []
    first, second = dep.expected()

    def agent(query, history, session_input):
        seen.append((query, len(history), session_input))
        if query == dep.user_text(0):  # the first turn exactly as expected
            return {"final_response": first["final_response"],
                    "intermediate_data": {"tool_uses": first["intermediate_data"]["tool_uses"]}}
        return second["final_response"]["parts"][0]["text"]  # no tool call: trajectory fails on this invocation

    (result,) = run_eval_sets(dep.path, target=agent,
                              config={"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}})
    assert [s[:2] for s in seen] == [(dep.user_text(0), 0), (dep.user_text(1), 1)]
    scores = {m.metric_name: (m.score, m.eval_status) for m in result.overall_eval_metric_results}
    assert scores == {"tool_trajectory_avg_score": (0.5, EvalStatus.FAILED),
                      "response_match_score": (1.0, EvalStatus.PASSED)}
    assert result.final_eval_status == EvalStatus.FAILED
    assert result.eval_metric_result_per_invocation[1].actual_invocation.invocation_id == second["invocation_id"]


def test_async_target_and_target_errors(dep):
    async def agent(query):
        return "x"

    (ok,) = run_eval_sets(dep.path, target=agent, config={"criteria": {"response_match_score": 0.0}})
    assert ok.final_eval_status == EvalStatus.PASSED

    def broken(query):
        raise RuntimeError("agent crashed")

    (bad,) = run_eval_sets(dep.path, target=broken)
    assert bad.final_eval_status == EvalStatus.FAILED and "agent crashed" in bad.notes[0]
    with pytest.raises(ConfigError, match="takes none of the arguments"):
        run_eval_sets(dep.path, target=lambda prompt: "x")


class _Crashes(Evaluator):
    result_key = "crashes_v1"

    def _evaluate(self, *, response: str) -> Outcome:
        raise RuntimeError("metric blew up")


def test_metric_that_raises_is_not_evaluated_with_a_note_and_does_not_fail_the_case(tmp_path, monkeypatch, dep):
    monkeypatch.setitem(METRICS, "crashes_v1", MetricSpec(
        "crashes_v1", f"{__name__}:_Crashes", inputs=lambda a, e, c: {"response": "x"}, default_threshold=0.5))
    actual = dep.write_actual(tmp_path, dep.expected())
    (result,) = run_eval_sets(dep.path, actual=actual, config={"criteria": {"crashes_v1": 0.5, "tool_trajectory_avg_score": 1.0}})
    statuses = {m.metric_name: m.eval_status for m in result.overall_eval_metric_results}
    assert statuses == {"crashes_v1": EvalStatus.NOT_EVALUATED, "tool_trajectory_avg_score": EvalStatus.PASSED}
    assert result.final_eval_status == EvalStatus.PASSED  # ADK skips NOT_EVALUATED metrics
    assert result.notes == ["crashes_v1: not evaluated: RuntimeError: metric blew up"]
    assert [i.eval_metric_results[0].eval_status for i in result.eval_metric_result_per_invocation] == [
        EvalStatus.NOT_EVALUATED] * 2


def test_case_selector_runs_only_named_cases(tmp_path, adk_root):
    path = adk_root / LIVE
    scenario_id, _ = _case_ids(path)
    (result,) = run_eval_sets(f"{path}:{scenario_id}", actual={})
    assert result.eval_id == scenario_id and result.final_eval_status == EvalStatus.NOT_EVALUATED
    with pytest.raises(InputError, match="no eval case with id 'nope'"):
        run_eval_sets(f"{path}:nope", actual={})


@pytest.mark.parametrize(
    "argv, needle",
    [
        ([], None),  # argparse usage error
        (["{set}"], "no agent invocations to evaluate"),
        (["{set}", "--actual", "{missing}"], "actual invocations file not found"),
        (["{set}", "--actual", "{actual}", "--config", "{missing}"], "criteria config not found"),
        (["{set}", "--actual", "{actual}", "--config", "{future_cfg}"], "not available yet"),
        (["{set}", "--actual", "{actual}", "--config", "{judge_cfg}"], "No judge model configured"),
        (["{set}", "--actual", "{actual}", "--config", "{bad_cfg}"], "unknown ADK metric 'rouge_1'"),
    ],
)
def test_bad_usage_or_config_exits_2(tmp_path, capsys, monkeypatch, argv, needle, dep):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AGENT_EVAL_JUDGE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setitem(METRICS, "future_v1", MetricSpec("future_v1", f"{JUDGES_MODULE}:NoSuchEvaluator", uses_judge=True))
    future_cfg = tmp_path / "future.json"
    future_cfg.write_text(json.dumps({"criteria": {"future_v1": 0.5}}))
    judge_cfg = tmp_path / "judge.json"
    judge_cfg.write_text(json.dumps({"criteria": {"safety_v1": 0.5}}))
    bad_cfg = tmp_path / "bad.json"
    bad_cfg.write_text(json.dumps({"criteria": {"rouge_1": 0.5}}))
    values = {"set": dep.path, "missing": tmp_path / "nope.json",
              "actual": dep.write_actual(tmp_path, dep.expected()), "judge_cfg": judge_cfg, "bad_cfg": bad_cfg,
              "future_cfg": future_cfg}
    code = main([a.format(**values) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    if needle:
        assert needle in err


def test_module_entry_point_runs(tmp_path, dep):
    actual = dep.write_actual(tmp_path, dep.wrong_second_call())
    proc = subprocess.run([sys.executable, "-m", "agent_evaluators.adk", str(dep.path),
                           "--actual", str(actual)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "Tests failed: 1" in proc.stdout


def test_config_as_object_or_dict_is_accepted(tmp_path, dep):
    actual = dep.write_actual(tmp_path, dep.expected())
    cfg = parse_eval_config({"criteria": {"response_match_score": 0.99}})
    (r1,) = run_eval_sets(dep.path, actual=actual, config=cfg)
    (r2,) = run_eval_sets([Path(dep.path)], actual=actual,
                          config={"criteria": {"response_match_score": 0.99}})
    assert r1.overall_eval_metric_results[0].threshold == r2.overall_eval_metric_results[0].threshold == 0.99


def test_eval_sets_with_different_criteria_run_together(tmp_path, adk_root, dep):
    # one engine run holds every case; each case is scored by its own eval set's criteria only
    root = adk_root
    trip = root / "trip_planner_agent/trip_inquiry.test.json"
    turns = json.loads(trip.read_text())
    invocations = [{"user_content": {"parts": [{"text": t["query"]}]},
                    "final_response": {"parts": [{"text": t["reference"]}]}} for t in turns]
    alone = tmp_path / "alone.evalset.json"
    alone.write_text(dep.path.read_text())
    results = run_eval_sets([trip, alone], actual={str(trip): invocations, dep.eval_id: dep.expected()},
                            output_dir=tmp_path / "out")
    assert [[m.metric_name for m in r.overall_eval_metric_results] for r in results] == [
        ["response_match_score"], ["tool_trajectory_avg_score", "response_match_score"]]
    assert [r.final_eval_status for r in results] == [EvalStatus.PASSED, EvalStatus.PASSED]
    assert len(list((tmp_path / "out").glob("*.evalset_result.json"))) == 2
