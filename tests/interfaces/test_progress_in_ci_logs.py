"""Issue 20, items 8 and 14, at the command line, with stdout and stderr piped as in CI.

Before: a run not on a terminal printed no progress until it ended, even with ``-v``; and
after ``--resume`` the rate (and so the ETA) counted the kept rows. Now stderr, where the
terminal line goes, gets the same text as a plain line every interval (10 s;
``AGENT_EVAL_PROGRESS_INTERVAL`` shortens it here) and once at the end, and a resumed run's
rate is that of the rows it evaluates.
"""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Tuple

from tests.cli.helpers import clean_env, write_jsonl
from tests.conftest import REPO_ROOT
from tests.ctrl_c import popen_for_ctrl_c

LINE = re.compile(r"^evaluate: (\d+)/(\d+) rows(?: \((\d+) kept\))?  ([\d,.]+) rows/s(?:  ETA \S+|  done)?  \d+ errors$")


def _argv(data: Path, out: Path) -> List[str]:
    return [sys.executable, "-m", "agent_evaluators.cli", "run", "--data", str(data),
            "-e", "tests.interfaces.slow_eval:SlowSync=slow", "-o", str(out)]


def _env() -> dict:
    return clean_env(AGENT_EVAL_PROGRESS_INTERVAL="0.1", AGENT_EVAL_TEST_ROW_S="0.02",
                     PYTHONPATH=str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _progress(stderr: str) -> List[Tuple[int, int, int, float]]:
    found = [LINE.match(line) for line in stderr.splitlines()]
    return [(int(m[1]), int(m[2]), int(m[3] or 0), float(m[4].replace(",", ""))) for m in found if m]


def test_piped_run_prints_plain_progress_lines_and_a_last_one(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"response": f"r{i}"} for i in range(30)])
    proc = subprocess.run(_argv(data, tmp_path / "run"), capture_output=True, text=True, env=_env(),
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = _progress(proc.stderr)
    assert len(lines) >= 3, proc.stderr  # 30 rows x 0.02 s: a line every 0.1 s, and the last one
    assert [total for _, total, _, _ in lines] == [30] * len(lines)
    assert lines[-1][0] == 30 and proc.stderr.rstrip().endswith("done  0 errors")
    assert "\r" not in proc.stderr and "evaluate:" not in proc.stdout


def test_resumed_run_rate_leaves_the_kept_rows_out(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"response": f"r{i}"} for i in range(80)])
    out = tmp_path / "run"
    first = popen_for_ctrl_c(_argv(data, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_env(), cwd=tmp_path)
    rows = out / "rows.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (rows.exists() and rows.read_text().count("\n") >= 50):
        time.sleep(0.02)
    first.send_signal(signal.SIGINT)
    assert first.wait(60) == 130
    resumed = subprocess.run(_argv(data, out) + ["--resume"], capture_output=True, text=True, env=_env(),
                             cwd=tmp_path, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    lines = _progress(resumed.stderr)
    assert lines and lines[-1][0] == 80, resumed.stderr
    # at most 50 rows/s evaluated (0.02 s a row); counting the kept rows made it well over 100
    assert all(rate <= 52 for _, _, _, rate in lines), resumed.stderr
    assert lines[-1][2] >= 50, resumed.stderr  # and the line says how many were kept


def test_a_run_that_cannot_start_prints_its_error_first(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"response": "a"}])
    proc = subprocess.run(_argv(data, tmp_path / "run") + ["--map", "slow.response=missing"], capture_output=True,
                          text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("agent-eval: error: ") and "evaluate:" not in proc.stderr, proc.stderr


def test_a_malformed_line_is_one_error_in_the_progress_line_however_many_evaluators(tmp_path):
    data = tmp_path / "d.jsonl"
    data.write_text('{"response": "a", "ground_truth": "a"}\nnot json\n{"response": "b", "ground_truth": "b"}\n')
    argv = [sys.executable, "-m", "agent_evaluators.cli", "run", "--data", str(data), "-o", str(tmp_path / "run")]
    for evaluators in (["f1_score"], ["f1_score", "bleu_score", "gleu_score"]):
        flags = [arg for name in evaluators for arg in ("-e", name)]
        proc = subprocess.run(argv + flags + ["--force"], capture_output=True, text=True, env=_env(), cwd=tmp_path,
                              timeout=120)
        assert proc.returncode == 2, proc.stderr  # the unreadable line is an error of the run
        assert proc.stderr.rstrip().endswith("done  1 errors"), (evaluators, proc.stderr)
