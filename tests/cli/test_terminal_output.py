"""Issue 20.18: `agent-eval --version`; tables that fit an 80-column terminal; error lines that do not repeat
the row and evaluator their heading names and do not end in ``..``; evaluators with a readable repr."""

import subprocess
import sys
from pathlib import Path

import agent_evaluators
from agent_evaluators.testing import ChatRequest, JudgeServer, Reply

from .helpers import AGENTS, agent_eval, clean_env, write_jsonl

LONG = ("-e", "tool_trajectory=trajectory_of_the_travel_agent", "-e", "response_match=final_answer_matches_reference",
        "--map", "trajectory_of_the_travel_agent.ground_truth=expected_tool_calls")


def _table(out: str) -> list:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("evaluator "))
    end = next(i for i in range(start, len(lines)) if not lines[i].strip())
    return lines[start:end]


def test_version() -> None:
    r = agent_eval("--version")
    assert r.rc == 0 and r.out.strip() == f"agent-eval {agent_evaluators.__version__}", r


def test_table_fits_an_80_column_terminal(tmp_path: Path) -> None:
    r = agent_eval("run", "--data", AGENTS, *LONG, "-t", "trajectory_of_the_travel_agent.pass_rate >= 0.9",
                   "-o", tmp_path / "out", env=clean_env(COLUMNS="80"))
    assert r.rc == 1, r
    checks = r.out.split("Run thresholds:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert checks and all(len(line) <= 80 for line in checks), checks
    table = _table(r.out)
    assert len(table) == 4 and all(len(line) <= 80 for line in table), "\n".join(table)
    assert "0.750" in table[2] and "75.0%" in table[2], table  # the numbers are never cut
    failing = [line for line in r.out.splitlines() if line.startswith("  row ")]
    assert failing and all(len(line) <= 80 + 30 for line in failing), failing  # reasons cut to the width


def test_a_pipe_keeps_the_full_names(tmp_path: Path) -> None:
    env = {k: v for k, v in clean_env().items() if k != "COLUMNS"}
    r = agent_eval("run", "--data", AGENTS, *LONG, "-o", tmp_path / "out", env=env)
    table = _table(r.out)
    assert "trajectory_of_the_travel_agent  tool_trajectory_avg_score" in table[2] and "…" not in "".join(table), table


def test_error_line_says_the_problem_once(tmp_path: Path) -> None:
    def judge(req: ChatRequest) -> Reply:
        return Reply("The server had an error while processing your request. Sorry about that.", status=500)

    data = write_jsonl(tmp_path / "d.jsonl", [{"id": "only", "query": "q", "response": "r"}])
    with JudgeServer(judge) as server:
        r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-base-url", server.url + "/v1",
                       "--judge-model", "m", "--judge-max-attempts", "1", "-o", tmp_path / "out", env=clean_env())
    assert r.rc == 2, r
    lines = r.out.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.startswith("  row 0") and "intent" in line)
    message = lines[heading + 1].strip()
    assert "HTTP 500" in message, r
    assert "row 0" not in message and "IntentResolutionEvaluator" not in message and "'intent'" not in message, message
    assert ".." not in message.replace("...", ""), message


def test_evaluators_show_class_and_key_options_never_secrets() -> None:
    code = (
        "from agent_evaluators import IntentResolutionEvaluator, ToolTrajectoryEvaluator\n"
        "print(repr(ToolTrajectoryEvaluator(match_type='in_order')))\n"
        "print(repr(IntentResolutionEvaluator(model_config={'model': 'gpt-4o-mini', 'api_key': 'sk-SECRET',"
        " 'base_url': 'https://u:pw@judge.example/v1?key=SECRET2'}, threshold=4)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean_env(), timeout=60)
    lines = out.stdout.splitlines()
    assert lines[0] == "ToolTrajectoryEvaluator(threshold=1.0, match_type='in_order')", out
    assert lines[1].startswith("IntentResolutionEvaluator(threshold=4, model='gpt-4o-mini', endpoint='https://judge"), out
    assert "SECRET" not in out.stdout and "pw" not in out.stdout and "0x" not in out.stdout, out
