"""Crash and resume: SIGKILL a run at random points (several seeds), then resume it.

The evaluating process is a real subprocess, either ``crash_child`` running ``evaluate()``
(the Python API) or the ``agent-eval run`` CLI, with three judge evaluators against a judge
server owned by this test, so the server and its request log outlive every kill. Each seed kills the first run and then a resumed run at
random moments (after a random number of finished rows plus a random few milliseconds,
so some kills land between and some during writes), then resumes to the end.

What must hold:

* after every kill, ``rows.jsonl`` holds only whole JSON lines, except at most a torn
  last line, which the reader and ``resume`` skip;
* each resume sends exactly one judge request per cell that was missing or an error on
  disk when it started, and none for a cell already scored (identified from the row tag
  and verdict schema of every request the server received);
* the finished run has every row exactly once, in input order, every cell scored with
  the row's own score, and a complete ``summary.json``.

During the killed phases the judge truncates 10% of replies (``finish_reason: length``,
never retried), so error cells exist on disk and must be re-judged.
"""

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from agent_evaluators import evaluate
from agent_evaluators.report.load import load_run
from agent_evaluators.runner.store import scan_rows
from agent_evaluators.testing import Faults, JudgeServer

from .crash_child import evaluators_for
from .figures import record
from .support import JUDGE_EVALUATORS, expected_score, judge_rows, judged_cell, rule_judge, settled_stats

REPO = Path(__file__).resolve().parents[2]
ALIASES = list(JUDGE_EVALUATORS)


def write_data(path: Path, n: int) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for row in judge_rows(n):
            f.write(json.dumps(row) + "\n")
    return path


def disk_state(rows_file: Path) -> Tuple[Dict[int, Dict[str, str]], int]:
    """Latest ``cell_status`` per line, and how many torn lines there are; fails on a line the
    reader would choke on anywhere but at the very end."""
    if not rows_file.exists():
        return {}, 0
    raw = rows_file.read_bytes()
    pieces = raw.split(b"\n")
    status: Dict[int, Dict[str, str]] = {}
    torn = 0
    for k, piece in enumerate(pieces):
        if not piece:
            continue
        try:
            rec = json.loads(piece)
        except ValueError:
            # only a crash's torn final write, or a torn line an earlier resume closed off, may be unreadable
            torn += 1
            continue
        assert isinstance(rec["line_number"], int) and isinstance(rec["cell_status"], dict), rec
        status[rec["line_number"]] = rec["cell_status"]
    if pieces[-1]:
        assert torn >= 1, "the last line has no newline yet parsed: a record was cut exactly at its end"
    # the project's own index agrees on which lines it can use
    offsets, statuses, bad = scan_rows(rows_file)
    assert statuses == status and bad == torn
    return status, torn


def not_ok(status: Dict[int, Dict[str, str]], n: int) -> Counter:
    return Counter((i, a) for i in range(n) for a in ALIASES if status.get(i, {}).get(a) != "ok")


def count_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


CLI_EVALUATORS = {"intent": "intent_resolution", "adherence": "task_adherence", "completeness": "response_completeness"}


def command(mode: str, data: Path, out: Path, server: JudgeServer, resume: bool) -> List[str]:
    if mode == "api":
        return [sys.executable, "-m", "tests.reliability.crash_child", str(data), str(out), server.url + "/v1", "4",
                "1" if resume else "0"]
    cmd = [sys.executable, "-m", "agent_evaluators.cli", "run", "--data", str(data), "--output", str(out),
           "--judge-model", "judge-model", "--judge-base-url", server.url + "/v1",
           "--judge-api-key-env", "RELIABILITY_JUDGE_KEY", "--concurrency", "4"]
    for alias, name in CLI_EVALUATORS.items():
        cmd += ["--evaluator", f"{name}={alias}"]
    return cmd + (["--resume"] if resume else [])


def child_env() -> Dict[str, str]:
    return {**os.environ, "RELIABILITY_JUDGE_KEY": "test-key"}


def killed_phase(rng: random.Random, data: Path, out: Path, server: JudgeServer, *, resume: bool,
                 n_rows: int, mode: str = "api") -> Optional[int]:
    """Start the child, SIGKILL it after a random number of new rows; returns its exit code
    (``-9`` when killed, ``0`` when it finished first)."""
    rows_file = out / "rows.jsonl"
    before = count_lines(rows_file)
    status, _ = disk_state(rows_file)
    missing_rows = len({i for i, _ in not_ok(status, n_rows)})
    target = before + rng.randint(0, max(1, missing_rows // 2))
    proc = subprocess.Popen(command(mode, data, out, server, resume), cwd=REPO, env=child_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while proc.poll() is None and count_lines(rows_file) < target and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(rng.uniform(0, 0.03))
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=30)
    # the API child exits 0 when it finishes first; the CLI exits 2 when cells errored, 1 when some failed
    assert proc.returncode in (0, 1, 2, -signal.SIGKILL), err.decode(errors="replace")[-3000:]
    return proc.returncode


def crash_loop(tmp_path: Path, seed: int, n_rows: int, kills: int, mode: str = "api") -> Dict[str, object]:
    rng = random.Random(seed)
    data = write_data(tmp_path / "data.jsonl", n_rows)
    out = tmp_path / "run"
    phases: List[Dict[str, object]] = []
    with JudgeServer(rule_judge, faults=Faults(rate_length=0.10, seed=seed), delay_s=0.01) as server:
        for k in range(kills):
            status, _ = disk_state(out / "rows.jsonl")
            todo = not_ok(status, n_rows) if k else None
            server.reset()
            code = killed_phase(rng, data, out, server, resume=k > 0, n_rows=n_rows, mode=mode)
            settled_stats(server)
            judged = Counter(judged_cell(r) for r in server.requests)
            assert None not in judged, "a judge request did not belong to any row"
            assert max(judged.values(), default=0) <= 1, "a cell was judged twice in one run"
            if todo is not None:
                assert set(judged) <= set(todo), f"resume re-judged scored cells: {set(judged) - set(todo)}"
            after, torn = disk_state(out / "rows.jsonl")
            phases.append({"exit": code, "judged": sum(judged.values()), "rows_on_disk": len(after), "torn": torn})

        # the final resume, in this process, with a healthy judge
        status, torn_before = disk_state(out / "rows.jsonl")
        todo = not_ok(status, n_rows)
        server.faults = Faults()
        server.reset()
        if mode == "api":
            result_rows = list(evaluate(data=str(data), evaluators=evaluators_for(server.url + "/v1"), output_path=out,
                                        resume=True, max_concurrency=4).rows)
        else:
            done = subprocess.run(command(mode, data, out, server, True), cwd=REPO, env=child_env(),
                                  capture_output=True, timeout=120)
            # no errored cell; some scored cells fail the default threshold (scores 1-2 < 3) -> exit 1
            assert done.returncode == 1, done.stderr.decode(errors="replace")[-3000:]
            result_rows = load_run(out).rows
        settled_stats(server)
        judged = Counter(judged_cell(r) for r in server.requests)

    assert judged == todo, (
        f"resume must judge exactly the missing or errored cells once: extra {set(judged) - set(todo)}, "
        f"missing {set(todo) - set(judged)}")
    lines = [row["line_number"] for row in result_rows]
    assert lines == list(range(n_rows)), "every row exactly once, in input order"
    for row in result_rows:
        i = row["line_number"]
        for alias, (_, key) in JUDGE_EVALUATORS.items():
            assert row["cell_status"][alias] == "ok", (i, alias, row.get(f"outputs.{alias}.{key}_error"))
            assert row[f"outputs.{alias}.{key}"] == expected_score(i)
    final, _ = disk_state(out / "rows.jsonl")
    assert sorted(final) == list(range(n_rows)) and not not_ok(final, n_rows)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "complete" and summary["rows"] == n_rows and summary["error_count"] == 0
    for alias in ALIASES:
        assert summary["metrics"][f"{alias}.n"] == n_rows
    figures = {"mode": mode, "seed": seed, "rows": n_rows, "phases": phases, "final_resume_judged": sum(judged.values()),
               "final_resume_todo": sum(todo.values()), "torn_lines_seen": torn_before}
    record(f"crash_resume_{mode}", figures)
    return figures


def test_crash_and_resume_api_one_seed(tmp_path):
    figures = crash_loop(tmp_path, seed=1, n_rows=40, kills=2)
    assert figures["phases"][0]["exit"] == -signal.SIGKILL, "the first run must have been killed part-way"


@pytest.mark.heavy
@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
def test_crash_and_resume_api_seeds(tmp_path, seed):
    crash_loop(tmp_path, seed=seed, n_rows=150, kills=4)


def test_crash_and_resume_cli_one_seed(tmp_path):
    figures = crash_loop(tmp_path, seed=7, n_rows=30, kills=2, mode="cli")
    assert figures["phases"][0]["exit"] == -signal.SIGKILL, "the first run must have been killed part-way"


@pytest.mark.heavy
@pytest.mark.parametrize("seed", [8, 9, 10])
def test_crash_and_resume_cli_seeds(tmp_path, seed):
    crash_loop(tmp_path, seed=seed, n_rows=120, kills=4, mode="cli")


def test_torn_last_line_is_skipped_and_rejudged(tmp_path):
    """A power cut can leave half a record: resume closes it off, skips it and judges that row again."""
    n = 12
    data = write_data(tmp_path / "data.jsonl", n)
    out = tmp_path / "run"
    with JudgeServer(rule_judge) as server:
        evaluate(data=str(data), evaluators=evaluators_for(server.url + "/v1"), output_path=out)
        rows_file = out / "rows.jsonl"
        lines = rows_file.read_bytes().splitlines(keepends=True)
        victim = json.loads(lines[-1])["line_number"]
        rows_file.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
        status, torn = disk_state(rows_file)
        assert torn == 1 and victim not in status
        server.reset()
        result = evaluate(data=str(data), evaluators=evaluators_for(server.url + "/v1"), output_path=out, resume=True)
        judged = Counter(judged_cell(r) for r in server.requests)
    assert judged == Counter((victim, a) for a in ALIASES)
    assert [r["line_number"] for r in result.rows] == list(range(n))
    final, torn = disk_state(out / "rows.jsonl")
    assert torn == 1 and sorted(final) == list(range(n))  # the torn bytes stay, on a line of their own
