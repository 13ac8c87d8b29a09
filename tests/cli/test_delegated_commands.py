"""`agent-eval judge serve` and `agent-eval calibrate` reach their own parsers."""

import subprocess
import sys


def _agent_eval(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agent_evaluators.cli", *args], capture_output=True, text=True, timeout=60)


def test_judge_serve_and_calibrate_are_dispatched():
    serve = _agent_eval("judge", "serve", "--help")
    assert serve.returncode == 0 and "--model FILE.gguf" in serve.stdout
    calibrate = _agent_eval("calibrate", "--help")
    assert calibrate.returncode == 0 and "--judge-base-url" in calibrate.stdout
    missing = _agent_eval("judge", "serve", "--model", "/nonexistent/model.gguf")
    assert missing.returncode != 0 and "model.gguf" in (missing.stdout + missing.stderr)
