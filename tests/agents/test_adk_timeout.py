"""Issue 21.5: ``agent-eval adk --timeout``, a per-case deadline for agent runs; and 21.16: a
crashing or non-JSON tool leaves its reason in the result file, and ``max_allowed_invocations: -1``
is accepted, a never-stopping simulator still ending at ``NO_LIMIT_CAP`` invocations.

A tiny ADK agent (``tool_agent``) whose tools block their thread, never return, raise, or return
something that is not JSON, run by the CLI in a subprocess: the stuck cases become error cases,
the others pass, every row is written, and the command finishes long before the blocking tool would.
"""

import json
import time

from ..conftest import optional_import

optional_import("google.adk")

from agent_evaluators.adk.loading import load_eval_set  # noqa: E402
from agent_evaluators.adk.results import EvalStatus  # noqa: E402
from agent_evaluators.testing import ChatRequest, JudgeServer  # noqa: E402
from agent_evaluators.testing.synth import schema_reply  # noqa: E402

from .test_adk_cli import EVALSET, SAMPLE, cli, judge_flags, result_file, rows  # noqa: E402
from .tool_agent import write_agent, write_eval_set  # noqa: E402

CASES = [("ok", "hi"), ("block", "block"), ("hang", "hang"), ("crash", "crash"), ("object", "object"), ("ok2", "hi")]


def test_stuck_tools_time_out_as_error_cases_and_the_run_finishes(tmp_path):
    agent = write_agent(tmp_path, block_s=60)
    evalset = write_eval_set(tmp_path, CASES)
    out = tmp_path / "out"
    started = time.monotonic()
    proc = cli(str(agent), str(evalset), "--timeout", "2", "--output", str(out), cwd=tmp_path)
    elapsed = time.monotonic() - started
    # a sync tool sleeping 60 s on the event loop would have stalled every case (and the exit) for 60 s
    assert elapsed < 30, (elapsed, proc.stderr[-2000:])
    assert proc.returncode == 2, proc.stdout + proc.stderr[-2000:]
    assert "Tests passed: 2\n  Tests failed: 4\n  Tests with errors: 4" in proc.stdout
    cases = {c.eval_id: c for c in result_file(out).eval_case_results}
    assert {k: c.final_eval_status for k, c in cases.items()} == {
        "ok": EvalStatus.PASSED, "ok2": EvalStatus.PASSED, "block": EvalStatus.FAILED, "hang": EvalStatus.FAILED,
        "crash": EvalStatus.FAILED, "object": EvalStatus.FAILED}
    for stuck in ("block", "hang"):
        (error,) = cases[stuck].errors
        assert f"eval case {stuck!r} did not finish within its deadline of 2 s" in error and "--timeout" in error
        assert f"agent-eval adk: error: tools/{stuck}: the agent could not be run" in proc.stderr
    # 21.16: the reason a tool broke the run is in the result file
    assert "RuntimeError: the crash tool fell over" in cases["crash"].errors[0]
    assert "the crash tool fell over" in cases["crash"].notes[0]
    assert "serialize" in cases["object"].errors[0]
    (run_dir,) = out.glob("run_*")
    assert len((run_dir / "rows.jsonl").read_text().splitlines()) == len(CASES)  # every row written
    assert json.loads((run_dir / "summary.json").read_text())["status"] == "complete"


def test_timeout_flag_is_checked(tmp_path):
    agent = write_agent(tmp_path)
    evalset = write_eval_set(tmp_path, [("ok", "hi")])
    proc = cli(str(agent), str(evalset), "--timeout", "-1", "--output", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 2 and "--timeout must be a number of seconds" in proc.stderr


def _never_stops(req: ChatRequest):
    """The fake judge, except that the simulated user never ends the conversation."""
    reply = schema_reply(req)
    if isinstance(reply, dict) and set(reply) == {"message"}:
        return {"message": "and what about tomorrow?"}
    return reply


def test_no_invocation_limit_is_accepted_and_a_never_stopping_simulator_is_still_bounded(tmp_path):
    # issue 21.16: max_allowed_invocations -1 ("no limit", ADK's simulated user) was refused by the config
    (config := tmp_path / "test_config.json").write_text(json.dumps({
        "criteria": {"tool_trajectory_avg_score": 1.0},  # no judge criterion: only the simulator asks
        "user_simulator_config": {"max_allowed_invocations": -1}}))
    scenario = next(c.eval_id for c in load_eval_set(EVALSET).eval_cases if c.conversation_scenario is not None)
    out = tmp_path / "out"
    with JudgeServer(_never_stops) as server:
        proc = cli(str(SAMPLE), f"{EVALSET}:{scenario}", "--config", str(config), *judge_flags(server),
                   "--output", str(out), cwd=tmp_path)
        requests = server.stats()["requests"]
    assert proc.returncode == 0, proc.stdout + proc.stderr[-2000:]  # a scenario case: trajectory not evaluated
    (row,) = rows(out)
    turns = row["outputs.simulated_user"]
    assert len(row["outputs.invocations"]) == 100 and requests == 99  # NO_LIMIT_CAP, the starting prompt free
    assert (turns[-1]["status"], turns[-1]["source"]) == ("turn_limit", "no_limit_cap")
