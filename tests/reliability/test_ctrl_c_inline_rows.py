"""Issue 21, round three, item 7: Ctrl-C during a run of a sync (inline) evaluator.

Before: the feed loop let the event loop run only every 256 lines, so a cancelled run went on
for up to 256 more rows (at 0.3 s a row past the 30 s unwind limit: ``summary.json`` stayed
``running``), and a second Ctrl-C while the run unwound ended in a raw traceback. Now the
run stops within about one row, and a second Ctrl-C is noted, not raised.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.ctrl_c import popen_for_ctrl_c

from .figures import record
from .run_support import REPO, lines_of, write_rows


def _start(tmp_path: Path, n: int, row_s: float) -> "tuple[subprocess.Popen[str], Path]":
    data = write_rows(tmp_path / "rows.jsonl", n)
    out = tmp_path / "run"
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               AGENT_EVAL_TEST_ROW_S=str(row_s))
    proc = popen_for_ctrl_c(
        [sys.executable, "-m", "agent_evaluators.cli", "run", "--data", str(data),
         "-e", "tests.interfaces.slow_eval:SlowSync=slow", "-o", str(out)],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rows = out / "rows.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (rows.exists() and rows.read_text().count("\n") >= 2):
        if proc.poll() is not None:
            raise AssertionError(proc.communicate())
        time.sleep(0.02)
    return proc, out


def test_ctrl_c_stops_an_inline_run_within_about_a_row(tmp_path):
    proc, out = _start(tmp_path, 400, 0.05)  # before: the cancellation was seen at line 255, ~12 s later
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    record("ctrl_c_inline", {"rows": 400, "row_s": 0.05, "stopped_after_s": round(took, 2),
                             "rows_on_disk": len(lines_of(out / "rows.jsonl")), "exit": proc.returncode})
    assert proc.returncode == 130, (stdout, stderr)
    assert took < 5, f"took {took:.1f} s to stop"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "interrupted"
    assert summary["rows"] == len(lines_of(out / "rows.jsonl")) < 200


def test_a_second_ctrl_c_while_unwinding_is_no_traceback(tmp_path):
    proc, out = _start(tmp_path, 200, 0.3)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.05)  # the run is still inside its current 0.3 s row
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr, stderr
    assert "Resume with" in stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "interrupted"
    assert summary["rows"] == len(lines_of(out / "rows.jsonl"))
