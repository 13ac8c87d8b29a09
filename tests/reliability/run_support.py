"""Helpers for the run-folder tests: data files and a slow run in a subprocess."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import List

from tests.ctrl_c import popen_for_ctrl_c

REPO = Path(__file__).resolve().parents[2]


def write_rows(path: Path, n: int, prefix: str = "r") -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps({"response": f"{prefix}{i}" + "x" * (i % 7)}) + "\n")
    return path


def start_slow_run(data: Path, out: Path, *, delay: float = 0.05, resume: bool = False) -> "subprocess.Popen[str]":
    """``run_child`` on ``data`` → ``out``; returns once its first row is on disk."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = popen_for_ctrl_c(
        [sys.executable, "-m", "tests.reliability.run_child", str(data), str(out), str(delay), "1" if resume else "0"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    rows = out / "rows.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if rows.exists() and rows.stat().st_size > 0:
            return proc
        if proc.poll() is not None:
            raise AssertionError(f"child exited early: {proc.communicate()}")
        time.sleep(0.02)
    proc.kill()
    raise AssertionError("child wrote no row in 60 s")


def lines_of(path: Path) -> List[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
