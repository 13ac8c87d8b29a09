"""``agent-eval adk AGENT_DIR EVALSET --record-tools DIR`` then ``--replay-tools DIR`` on the sample agent.

Each run is a child process (the command, started from a small script that first wraps the
sample agent's tools so every execution appends a line to a file: the count of executions
the test reads), with ADK's own Runner and the bundled fake judge over real HTTP.
"""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from ..conftest import optional_import

optional_import("google.adk")

from agent_evaluators import ConfigError  # noqa: E402
from agent_evaluators.adk import AgentEvaluator  # noqa: E402
from agent_evaluators.adk.results import EvalSetResult  # noqa: E402
from agent_evaluators.agents import ToolRecorder  # noqa: E402
from agent_evaluators.agents.recordings import recording_path  # noqa: E402
from agent_evaluators.testing import JudgeServer  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "adk_agent"
EVALSET = SAMPLE / "weather.evalset.json"
JUDGE_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AGENT_EVAL_JUDGE_MODEL", "OPENAI_MODEL")

#: runs ``agent-eval adk`` (its ``main``) after wrapping the sample agent's tools in counters
COUNTING_SCRIPT = '''
import functools, sys
from pathlib import Path

sample_dir, counts = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, str(sample_dir.parent))
import adk_agent.agent as sample  # the package agent-eval adk loads for this folder


def counted(fn):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        with counts.open("a") as f:
            f.write(fn.__name__ + "\\n")
        return fn(*args, **kwargs)
    return run


sample.root_agent.tools[:] = [counted(t) for t in sample.root_agent.tools]
from agent_evaluators.cli.eval_sets import main
sys.exit(main([str(sample_dir)] + sys.argv[3:]))
'''


@pytest.fixture(scope="module")
def fake_judge():
    with JudgeServer() as server:
        yield server


def adk(tmp_path: Path, judge: JudgeServer, *args: str) -> Tuple[subprocess.CompletedProcess, List[str]]:
    """Run the command in a child process; (the process, the tools executed, in order)."""
    script = tmp_path / "counting_adk.py"
    script.write_text(COUNTING_SCRIPT)
    counts = tmp_path / f"executions-{len(list(tmp_path.glob('executions-*')))}.txt"
    counts.touch()
    env = {k: v for k, v in os.environ.items() if k not in JUDGE_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    judge_flags = ["--judge-model", "fake-judge", "--judge-base-url", judge.openai_config()["base_url"]]
    proc = subprocess.run([sys.executable, str(script), str(SAMPLE), str(counts), *args, *judge_flags],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    return proc, counts.read_text().split()


#: wall-clock metrics (ADK's informational efficiency metrics) differ between any two runs
WALL_CLOCK_METRICS = {"invocation_duration_v1"}


def outcomes(folder: Path) -> Dict[str, tuple]:
    """Per case: its status and every metric's (name, status, score), overall and per invocation
    (a wall-clock metric's score left out)."""
    (path,) = folder.glob("*.evalset_result.json")
    result = EvalSetResult.parse(path.read_text())
    out = {}
    for case in result.eval_case_results:
        def score(m):
            return None if m.metric_name in WALL_CLOCK_METRICS else m.score

        overall = sorted((m.metric_name, m.eval_status, score(m)) for m in case.overall_eval_metric_results)
        per_turn = [sorted((m.metric_name, score(m)) for m in inv.eval_metric_results)
                    for inv in case.eval_metric_result_per_invocation]
        out[case.eval_id] = (case.final_eval_status, overall, per_turn)
    return out


@pytest.fixture(scope="module")
def recorded(fake_judge, tmp_path_factory):
    """One recording run of the whole sample eval set: (folder, recordings, process, executions)."""
    tmp = tmp_path_factory.mktemp("record")
    proc, executed = adk(tmp, fake_judge, str(EVALSET), "--record-tools", str(tmp / "rec"), "--output", str(tmp / "out"))
    return tmp, tmp / "rec", proc, executed


def copy_recordings(src: Path, dst: Path) -> Path:
    for f in src.rglob("*.json"):
        target = dst / f.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f.read_text())
    return dst


def test_replay_gives_the_same_statuses_and_scores_with_no_tool_executed(recorded, fake_judge, tmp_path):
    folder, rec, proc, executed = recorded
    assert proc.returncode in (0, 1), proc.stderr
    assert executed, "the recording run executed the tools"
    case_ids = [c["eval_id"] for c in json.loads(EVALSET.read_text())["eval_cases"]]
    files = {doc["case_id"]: doc for doc in (json.loads(f.read_text()) for f in rec.rglob("*.json"))}
    assert all(recording_path(rec, case, "weather").is_file() for case in files)
    assert sorted(files) == sorted(case_ids)  # a file per case, under its eval set
    recorded_calls = sum(len(doc["calls"]) for doc in files.values())
    assert recorded_calls == len(executed)  # every execution was recorded
    paris = files["weather_paris"]
    assert (paris["format"], paris["eval_set_id"], paris["case_id"]) == (
        "agent-evaluators/tool-recording", "weather", "weather_paris")
    (call,) = paris["calls"]
    assert (call["index"], call["turn"], call["tool"], call["args"]) == (0, 0, "get_weather", {"city": "Paris"})
    assert call["result"] == {"status": "ok", "city": "Paris", "condition": "sunny", "temperature_c": 22}
    assert call["state_delta"] == {"last_city": "Paris"}  # set again on replay: the case's end state holds
    turns = [c["turn"] for c in files["convert_then_weather"]["calls"]]
    assert turns == [0, 1]  # the user turn each call came in

    replay, replayed = adk(tmp_path, fake_judge, str(EVALSET), "--replay-tools", str(rec), "--output",
                           str(tmp_path / "out"))
    assert replay.returncode == proc.returncode, replay.stderr
    assert replayed == []  # zero tool executions during replay
    assert outcomes(tmp_path / "out") == outcomes(folder / "out")


def test_a_call_with_other_arguments_is_an_error_naming_the_case_and_the_call(recorded, fake_judge, tmp_path):
    rec = copy_recordings(recorded[1], tmp_path / "rec")
    path = recording_path(rec, "convert_then_weather", "weather")
    doc = json.loads(path.read_text())
    doc["calls"][1]["args"] = {"city": "Berlin"}  # the user edits the recording
    path.write_text(json.dumps(doc))
    proc, executed = adk(tmp_path, fake_judge, f"{EVALSET}:convert_then_weather,weather_paris",
                         "--replay-tools", str(rec), "--output", str(tmp_path / "out"))
    assert proc.returncode == 2, proc.stderr
    assert executed == []  # never a live call
    (line,) = [ln for ln in proc.stderr.splitlines() if ln.startswith("agent-eval adk: error:")]
    assert "'convert_then_weather'" in line and 'get_weather({"city": "London"})' in line
    assert "Re-record" in line and "turn 2" in line
    assert "Traceback" not in proc.stderr  # said once, not in ADK's three logged tracebacks
    statuses = {k: v[0].name for k, v in outcomes(tmp_path / "out").items()}
    assert statuses == {"convert_then_weather": "FAILED", "weather_paris": "PASSED"}


def test_a_tool_not_in_the_recording_and_a_case_without_one_are_errors(recorded, fake_judge, tmp_path):
    rec = copy_recordings(recorded[1], tmp_path / "rec")
    paris = recording_path(rec, "weather_paris", "weather")
    doc = json.loads(paris.read_text())
    doc["calls"][0]["tool"] = "get_forecast"
    paris.write_text(json.dumps(doc))
    (recording_path(rec, "convert_then_weather", "weather")).unlink()
    proc, executed = adk(tmp_path, fake_judge, f"{EVALSET}:convert_then_weather,weather_paris",
                         "--replay-tools", str(rec), "--output", str(tmp_path / "out"))
    assert proc.returncode == 2 and executed == []
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("agent-eval adk: error:")]
    assert len(errors) == 2
    missing = next(e for e in errors if "'convert_then_weather'" in e)
    assert "has no tool recording" in missing and "record it first (--record-tools DIR)" in missing
    other = next(e for e in errors if "'weather_paris'" in e)
    assert 'get_weather({"city": "Paris"})' in other and "no call of 'get_weather'" in other


def test_ignore_args_from_the_command_line_or_the_recording(recorded, fake_judge, tmp_path):
    rec = copy_recordings(recorded[1], tmp_path / "rec")
    path = recording_path(rec, "convert_then_weather", "weather")
    doc = json.loads(path.read_text())
    doc["calls"][0]["args"]["amount"] = 250.0
    doc["calls"][1]["args"]["city"] = "Somewhere"
    path.write_text(json.dumps(doc))
    selected = f"{EVALSET}:convert_then_weather"
    proc, executed = adk(tmp_path, fake_judge, selected, "--replay-tools", str(rec), "--output", str(tmp_path / "a"),
                         "--replay-match", '{"get_weather": {"ignore_args": true}}')
    assert proc.returncode == 2 and "convert_currency(" in proc.stderr  # only get_weather was relaxed
    doc["match"] = {"convert_currency": {"ignore_args": ["amount"]}}  # the recording's own rule
    path.write_text(json.dumps(doc))
    proc, executed = adk(tmp_path, fake_judge, selected, "--replay-tools", str(rec), "--output", str(tmp_path / "b"),
                         "--replay-match", '{"get_weather": {"ignore_args": true}}')
    assert proc.returncode == 0, proc.stderr
    assert executed == []
    # the recorded results were served: the answers are the recording's, not a live tool's
    (status, _, _), = outcomes(tmp_path / "b").values()
    assert status.name == "PASSED"


@pytest.mark.parametrize("args, message", [
    (["--record-tools", "rec", "--num_runs", "2"], "--num_runs 1"),
    (["--replay-tools", "nowhere"], "no such folder of tool recordings"),
    (["--replay-match", '{"x": {"ignore_args": true}}'], "--replay-tools"),
    (["--record-tools", "rec", "--replay-tools", "rec"], "not allowed with"),
])
def test_tool_flag_misuse_exits_2(args, message, fake_judge, tmp_path):
    proc, executed = adk(tmp_path, fake_judge, str(EVALSET), *args)
    assert proc.returncode == 2 and message in proc.stderr and executed == []


def test_recording_needs_the_agent(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in JUDGE_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run([sys.executable, "-m", "agent_evaluators.cli", "adk", str(EVALSET), "--actual", "x.jsonl",
                           "--record-tools", "rec"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 2 and "needs the agent to run" in proc.stderr


def test_agent_evaluator_replays_from_a_recording(fake_judge, tmp_path, capsys):
    data = json.loads(EVALSET.read_text())
    data["eval_cases"] = [c for c in data["eval_cases"] if c["eval_id"] in ("weather_paris", "convert_then_weather")]
    (tmp_path / "weather.evalset.json").write_text(json.dumps(data))
    (tmp_path / "test_config.json").write_text(json.dumps({"criteria": {"tool_trajectory_avg_score": 1.0}}))
    judge = fake_judge.openai_config()
    evaluate = AgentEvaluator.evaluate
    asyncio.run(evaluate(str(SAMPLE), tmp_path, num_runs=1, judge_model_config=judge,
                         tool_recorder=ToolRecorder(tmp_path / "rec", "record")))
    assert sorted(f.name for f in recording_path(tmp_path / "rec", "x", "weather").parent.iterdir()) == sorted(
        recording_path(tmp_path / "rec", case, "weather").name for case in ("convert_then_weather", "weather_paris"))
    asyncio.run(evaluate(str(SAMPLE), tmp_path, num_runs=2, judge_model_config=judge,
                         tool_recorder=ToolRecorder(tmp_path / "rec", "replay")))
    assert "Tests passed: 4" in capsys.readouterr().out
    (tmp_path / "empty").mkdir()
    with pytest.raises(AssertionError, match="weather_paris.*has no tool recording"):
        asyncio.run(evaluate(str(SAMPLE), tmp_path, num_runs=1, judge_model_config=judge,
                             tool_recorder=ToolRecorder(tmp_path / "empty", "replay")))
    with pytest.raises(ConfigError, match="num_runs=1"):
        asyncio.run(evaluate(str(SAMPLE), tmp_path, num_runs=2, judge_model_config=judge,
                             tool_recorder=ToolRecorder(tmp_path / "rec", "record")))


@pytest.mark.parametrize("edit", ["not json {", "[1, 2]", "other case", "state_delta"])
def test_an_edited_recording_is_an_error_naming_the_file_with_exit_2(recorded, fake_judge, tmp_path, edit):
    rec = copy_recordings(recorded[1], tmp_path / "rec")
    path = recording_path(rec, "weather_paris", "weather")
    if edit in ("other case", "state_delta"):
        doc = json.loads(path.read_text())
        if edit == "other case":  # another case's recording whose calls would match: never served
            doc["case_id"] = "weather_Paris"
        else:
            doc["calls"][0]["state_delta"] = ["last_city", "Paris"]
        path.write_text(json.dumps(doc))
    else:
        path.write_text(edit)
    proc, executed = adk(tmp_path, fake_judge, f"{EVALSET}:weather_paris", "--replay-tools", str(rec),
                         "--output", str(tmp_path / "out"))
    assert proc.returncode == 2 and executed == [], proc.stderr
    assert str(path) in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
