"""The pytest plugin judges what was selected and says what works under pytest (issue 35 item 14): one
selected row is one row judged (it was every row: 12 requests for one node id), and a skipped judge check's
advice names environment variables or the run config's judge section, never an ``agent-eval`` flag pytest
would reject."""

import subprocess
import sys

from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import SAMPLES, clean_env


def _pytest(tmp_path, *args, **env):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "agents.jsonl").write_bytes((SAMPLES / "data" / "agents.jsonl").read_bytes())
    (tmp_path / "agents.eval.yaml").write_bytes((SAMPLES / "agents.eval.yaml").read_bytes())
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "agent_evaluators.pytest_plugin", "--agent-eval-collect",
                           "-q", "-rA", "--no-header", "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, env=clean_env(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", **env),
                          cwd=tmp_path, timeout=300)


def test_one_selected_row_is_one_row_judged(tmp_path):
    with JudgeServer() as server:
        proc = _pytest(tmp_path, "agents.eval.yaml::row3-travel-004", OPENAI_BASE_URL=f"{server.url}/v1",
                       AGENT_EVAL_JUDGE_MODEL="fake", OPENAI_API_KEY="test-key")
        requests = server.stats()["requests"]
    assert "1 failed" in proc.stdout and "FAILED agents.eval.yaml::row3-travel-004" in proc.stdout, proc.stdout
    assert requests == 1, (requests, proc.stdout)


def test_the_thresholds_test_still_sees_every_row(tmp_path):
    with JudgeServer() as server:
        proc = _pytest(tmp_path, "agents.eval.yaml::thresholds", "agents.eval.yaml::row0-travel-001",
                       OPENAI_BASE_URL=f"{server.url}/v1", AGENT_EVAL_JUDGE_MODEL="fake", OPENAI_API_KEY="test-key")
        requests = server.stats()["requests"]
    assert "2 passed" in proc.stdout, proc.stdout
    assert requests == 12


def test_the_skip_advice_works_under_pytest(tmp_path):
    # AGENT_EVAL_STRICT=0: under CI (CI=true) a missing judge fails instead of skipping; the advice is the same
    proc = _pytest(tmp_path, "agents.eval.yaml::row0-travel-001", "-k", "row0", AGENT_EVAL_STRICT="0")
    assert "1 skipped" in proc.stdout, proc.stdout
    assert "AGENT_EVAL_JUDGE_MODEL" in proc.stdout and "judge: section" in proc.stdout, proc.stdout
    assert "--judge-" not in proc.stdout, proc.stdout
