"""Helpers for driving ``agent-eval`` in a subprocess, as a user's shell or CI does."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from tests.conftest import REPO_ROOT

SAMPLES = REPO_ROOT / "samples"
AGENTS = SAMPLES / "data" / "agents.jsonl"

JUDGE_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "AGENT_EVAL_JUDGE_MODEL", "AZURE_OPENAI_ENDPOINT",
             "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_DEPLOYMENT", "OPENAI_API_VERSION", "AZURE_OPENAI_API_VERSION")


def clean_env(**extra: str) -> Dict[str, str]:
    """The environment without any judge configuration (so 'no judge' is really no judge)."""
    env = {k: v for k, v in os.environ.items() if k not in JUDGE_ENV}
    env.update(extra)
    return env


class Result:
    def __init__(self, proc: subprocess.CompletedProcess) -> None:
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self) -> str:
        return f"rc={self.rc}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


def agent_eval(*args: Any, env: Optional[Dict[str, str]] = None, cwd: Optional[Path] = None) -> Result:
    proc = subprocess.run(
        [sys.executable, "-m", "agent_evaluators.cli", *map(str, args)],
        capture_output=True, text=True, env=env if env is not None else clean_env(), cwd=cwd or REPO_ROOT, timeout=120,
    )
    return Result(proc)


def sample_rows() -> List[Dict[str, Any]]:
    return [json.loads(line) for line in AGENTS.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_jsonl(path: Path, rows: List[Dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path
