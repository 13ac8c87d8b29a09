"""``agent-eval adk AGENT_DIR EVALSET`` and ``agent_evaluators.adk.AgentEvaluator`` on the sample agent,
over real HTTP against the bundled fake judge."""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..adk.conftest import fixture_roots, root_id
from ..conftest import optional_import

optional_import("google.adk")

from agent_evaluators.adk import AgentEvaluator  # noqa: E402
from agent_evaluators.adk.efficiency import EFFICIENCY_METRICS  # noqa: E402
from agent_evaluators.adk.results import EvalSetResult, EvalStatus  # noqa: E402
from agent_evaluators.cli.eval_sets import main  # noqa: E402
from agent_evaluators.testing import ChatRequest, JudgeServer  # noqa: E402
from agent_evaluators.testing.synth import schema_reply  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "adk_agent"
EVALSET = SAMPLE / "weather.evalset.json"
JUDGE_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AGENT_EVAL_JUDGE_MODEL", "OPENAI_MODEL")


@pytest.fixture(scope="module")
def fake_judge():
    with JudgeServer() as server:
        yield server


@pytest.fixture(autouse=True)
def _no_judge_in_env(monkeypatch):
    for name in JUDGE_ENV:
        monkeypatch.delenv(name, raising=False)


def judge_flags(server: JudgeServer):
    return ["--judge-model", "fake-judge", "--judge-base-url", server.openai_config()["base_url"]]


def cli(*args: str, cwd: Path):
    env = {k: v for k, v in os.environ.items() if k not in JUDGE_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, "-m", "agent_evaluators.cli", "adk", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def result_file(folder: Path) -> EvalSetResult:
    (path,) = folder.glob("*.evalset_result.json")
    return EvalSetResult.parse(path.read_text())


def rows(folder: Path):
    (run_dir,) = folder.glob("run_*")
    return [json.loads(line) for line in (run_dir / "rows.jsonl").read_text().splitlines()]


def test_cli_runs_the_agent_and_writes_adk_results(fake_judge, tmp_path):
    proc = cli(str(SAMPLE), str(EVALSET), *judge_flags(fake_judge), "--output", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr  # wrong_expectation fails on purpose
    assert "Eval Run Summary\nweather:\n  Tests passed: 3\n  Tests failed: 1" in proc.stdout
    result = result_file(tmp_path / "out")
    assert result.eval_set_result_name.startswith("adk_agent_weather_")
    assert {c.eval_id: c.final_eval_status for c in result.eval_case_results} == {
        "weather_paris": EvalStatus.PASSED, "convert_then_weather": EvalStatus.PASSED,
        "wrong_expectation": EvalStatus.FAILED, "trip_planning_scenario": EvalStatus.PASSED}
    raw = json.loads(next((tmp_path / "out").glob("*.evalset_result.json")).read_text())
    assert {c["eval_id"]: c["final_eval_status"] for c in raw["eval_case_results"]}["wrong_expectation"] == 2
    scenario = next(c for c in result.eval_case_results if c.eval_id == "trip_planning_scenario")
    per_turn = next(m for m in scenario.overall_eval_metric_results
                    if m.metric_name == "per_turn_user_simulator_quality_v1")
    assert per_turn.eval_status == EvalStatus.PASSED and per_turn.score == 1.0


def test_num_runs_and_case_selection(fake_judge, tmp_path):
    out = tmp_path / "out"
    proc = cli(str(SAMPLE), f"{EVALSET}:weather_paris,trip_planning_scenario", *judge_flags(fake_judge),
               "--num_runs", "2", "--output", str(out), "--html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    result = result_file(out)
    assert [c.eval_id for c in result.eval_case_results] == ["weather_paris"] * 2 + ["trip_planning_scenario"] * 2
    assert all(c.final_eval_status == EvalStatus.PASSED for c in result.eval_case_results)
    simulated = [r["outputs.simulated_user"] for r in rows(out) if "outputs.simulated_user" in r]
    assert len(simulated) == 2 and all(turns[-1]["status"] == "stop_signal" for turns in simulated)
    (report,) = out.glob("run_*/report.html")
    assert "synthetic user turn after 1 agent replies" in report.read_text()  # the conversation, readable


def _never_stops(req: ChatRequest):
    """The fake judge, except that the simulated user never ends the conversation."""
    reply = schema_reply(req)
    if isinstance(reply, dict) and set(reply) == {"message"}:
        return {"message": "and what about tomorrow?"}
    return reply


@pytest.mark.parametrize("adk_root", fixture_roots(), ids=root_id)
def test_fixture_scenario_config_sets_the_simulator_model_and_turn_limit(tmp_path, monkeypatch, adk_root):
    scenario_config = adk_root / "conversation_scenario" / "test_config.json"
    simulator = json.loads(scenario_config.read_text())["user_simulator_config"]
    data = json.loads(EVALSET.read_text())
    data["eval_cases"] = [c for c in data["eval_cases"] if "conversation_scenario" in c]
    evalset = tmp_path / "scenario.evalset.json"
    evalset.write_text(json.dumps(data))
    monkeypatch.chdir(tmp_path)
    with JudgeServer(_never_stops) as server:
        code = main([str(SAMPLE), str(evalset), "--config", str(scenario_config), *judge_flags(server)])
        models = [r.model for r in server.requests]
    # hallucinations_v1 is the only criterion; whatever the fake judge makes of it, no case FAILED
    result = result_file(tmp_path / ".adk" / "eval_history")
    (case,) = result.eval_case_results
    assert code == (1 if case.final_eval_status == EvalStatus.FAILED else 0)
    # the one criterion, then the four informational efficiency metrics ADK appends to every agent run (issue 27)
    assert [m.metric_name for m in case.overall_eval_metric_results] == ["hallucinations_v1", *EFFICIENCY_METRICS]
    invocations = [i.actual_invocation for i in case.eval_metric_result_per_invocation]
    limit = simulator["max_allowed_invocations"]
    assert len(invocations) == limit  # max_allowed_invocations, the starting prompt included
    # the simulator asked for user_simulator_config.model; the judge kept its own model
    assert models.count(simulator["model"]) == limit - 1 and "fake-judge" in models
    assert set(models) == {simulator["model"], "fake-judge"}


NO_CALLS_JUDGE = ["--judge-model", "m", "--judge-base-url", "http://127.0.0.1:9/v1"]  # never reached


@pytest.mark.parametrize("args, message", [
    (["{sample}"], "agent-eval adk AGENT_DIR EVALSET"),  # a folder alone is read as eval sets
    (["{sample}", "{evalset}", "--actual", "x.jsonl"], "not both"),
    (["{sample}", "{sample}/missing.evalset.json", *NO_CALLS_JUDGE], "missing.evalset.json"),
    (["{sample}", "{evalset}:no_such_case", *NO_CALLS_JUDGE], "no_such_case"),
    (["{sample}", "{evalset}"], "judge"),  # judge criteria, and no judge anywhere
])
def test_configuration_errors_exit_2(args, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = main([a.format(sample=SAMPLE, evalset=EVALSET) for a in args])
    assert code == 2
    assert message in capsys.readouterr().err


def test_an_agent_that_does_not_import_is_a_configuration_error(tmp_path, fake_judge, capsys):
    agent = tmp_path / "broken_agent"
    agent.mkdir()
    (agent / "__init__.py").write_text("from . import agent\n")
    (agent / "agent.py").write_text("raise RuntimeError('no model key')\n")
    code = main([str(agent), str(EVALSET), *judge_flags(fake_judge), "--output", str(tmp_path / "out")])
    assert code == 2
    err = capsys.readouterr().err
    assert "could not be loaded" in err and "no model key" in err


def test_agent_evaluator_passes_on_a_folder_of_passing_cases(fake_judge, tmp_path, capsys):
    data = json.loads(EVALSET.read_text())
    data["eval_cases"] = [c for c in data["eval_cases"] if c["eval_id"] != "wrong_expectation"]
    (tmp_path / "weather.evalset.json").write_text(json.dumps(data))
    (tmp_path / "test_config.json").write_text((SAMPLE / "test_config.json").read_text())
    asyncio.run(AgentEvaluator.evaluate("samples.adk_agent", tmp_path, num_runs=2,
                                        judge_model_config=fake_judge.openai_config()))
    printed = capsys.readouterr().out
    assert "Tests passed: 6" in printed  # 3 cases x 2 runs, through the eval-set runner
    assert "trip_planning_scenario: per_turn_user_simulator_quality_v1: 1.0" in printed


def test_runs_into_one_output_folder_keep_their_own_rows(tmp_path):
    config = tmp_path / "test_config.json"
    config.write_text(json.dumps({"criteria": {"tool_trajectory_avg_score": 1.0}}))  # no judge needed
    args = [str(SAMPLE), f"{EVALSET}:weather_paris", "--config", str(config), "--output", str(tmp_path / "out")]
    assert main(args) == 0 and main(args) == 0  # usually within one second: the same timestamp
    run_dirs = sorted((tmp_path / "out").glob("run_*"))
    assert len(run_dirs) == 2
    assert [len((d / "rows.jsonl").read_text().splitlines()) for d in run_dirs] == [1, 1]
    assert len(list((tmp_path / "out").glob("*.evalset_result.json"))) == 2
