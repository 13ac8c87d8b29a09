"""Issue 20, item 18 (Ray parts): what ``agent-eval run --engine ray`` prints, piped as in CI.

Before: Ray's "Token authentication is enabled" warning leaked into stderr, and the progress
had no total or ETA (the row count was only looked up for the local engine). Now stderr holds
the progress lines, with the file's total, and not that warning.
"""

import os
import re

import pytest

from tests.cli.helpers import agent_eval, clean_env, write_jsonl
from tests.conftest import REPO_ROOT

pytestmark = [pytest.mark.heavy, pytest.mark.ray]


def test_engine_ray_prints_progress_with_a_total_and_no_ray_warning(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"response": f"r{i}"} for i in range(60)])
    env = clean_env(AGENT_EVAL_PROGRESS_INTERVAL="0.5", AGENT_EVAL_TEST_ROW_S="0.02", RAY_USAGE_STATS_ENABLED="0",
                    PYTHONPATH=str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("RAY_AUTH_MODE", None)
    run = agent_eval("run", "--data", data, "-e", "tests.interfaces.slow_eval:SlowSync=slow", "-o", tmp_path / "out",
                     "--engine", "ray", env=env, cwd=tmp_path)
    assert run.rc == 0, run
    progress = [line for line in run.err.splitlines() if line.startswith("evaluate: ")]
    assert progress and all(re.match(r"evaluate: \d+/60 rows", line) for line in progress), run
    assert progress[-1].startswith("evaluate: 60/60 rows") and progress[-1].endswith("done  0 errors"), run
    assert "Token authentication" not in run.err and "RAY_AUTH_MODE" not in run.err, run
