"""Issue 14.10 at the command line: Ctrl-C during ``agent-eval run``.

Before: a raw KeyboardInterrupt traceback, summary.json left "running". Now the finished rows
are saved, the summary says "interrupted", stderr says how many rows are done and prints the
exact command that continues the run, and the exit code is 130; that command then finishes it.
"""

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.ctrl_c import popen_for_ctrl_c

REPO = Path(__file__).resolve().parents[2]


def test_ctrl_c_prints_the_resume_command_and_exits_130(tmp_path):
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps({"response": "x" * i}) + "\n" for i in range(40)))
    out = tmp_path / "run"
    argv = ["run", "--data", str(data), "-e", "tests.interfaces.slow_eval:Slow=slow", "-o", str(out),
            "--max-concurrency", "1"]
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "agent_evaluators.cli", *argv]
    proc = popen_for_ctrl_c(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rows = out / "rows.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (rows.exists() and rows.read_text().count("\n") >= 3):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr
    assert json.loads((out / "summary.json").read_text())["status"] == "interrupted"
    assert "row(s) done" in stderr and "of 40" in stderr
    assert stderr.count("interrupted") == 1, stderr  # one Ctrl-C, one message (not the library's warning too)
    resume_line = stderr.strip().splitlines()[-1].strip()
    assert resume_line.startswith("agent-eval run") and resume_line.endswith("--resume")
    resumed = subprocess.run([sys.executable, "-m", "agent_evaluators.cli", *shlex.split(resume_line)[1:]],
                             cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert "kept from the earlier run" in resumed.stdout
    assert json.loads((out / "summary.json").read_text())["status"] == "complete"
