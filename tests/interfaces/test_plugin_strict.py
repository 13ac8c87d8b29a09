"""The pytest plugin as users run it (a separate pytest process): a missing judge is never a silent pass,
node ids can be pasted back, and the assertion helpers work without pytest installed."""

import subprocess
import sys

from tests.cli.helpers import AGENTS, SAMPLES, clean_env
from tests.conftest import REPO_ROOT

CONFIG = """\
data: {data}
evaluators:
  match:
    type: response_match
    threshold: 0.0
  intent:
    type: intent_resolution
thresholds:
  - match.pass_rate >= 0.5
  - intent.intent_resolution >= 3
"""

CASES = """\
import pytest
from agent_evaluators.pytest_plugin import eval_cases

@pytest.mark.parametrize("case", eval_cases({config!r}))
def test_row(case):
    case.check()
"""


def _pytest(path, *args, **env_extra):
    env = clean_env(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    env.pop("CI", None)
    env.pop("AGENT_EVAL_STRICT", None)
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "agent_evaluators.pytest_plugin", "-p", "no:cacheprovider",
         "-rs", "--no-header", *args],
        capture_output=True, text=True, env=env, timeout=180, cwd=path,
    )


def _write(tmp_path):
    (tmp_path / "agents.eval.yaml").write_text(CONFIG.format(data=AGENTS))
    (tmp_path / "test_cases.py").write_text(CASES.format(config=str(tmp_path / "agents.eval.yaml")))


def test_without_a_judge_judge_checks_are_skipped_with_the_reason(tmp_path):
    _write(tmp_path)
    proc = _pytest(tmp_path, "-q", ".")
    assert proc.returncode == 0, proc.stdout
    assert "25 skipped" in proc.stdout and "passed" not in proc.stdout, proc.stdout  # 12 rows x 2 styles + thresholds
    assert "intent not run: no judge configured" in proc.stdout
    assert "run thresholds intent.intent_resolution >= 3" in proc.stdout


def test_under_ci_a_missing_judge_fails(tmp_path):
    _write(tmp_path)
    proc = _pytest(tmp_path, "-q", ".", CI="true")
    assert proc.returncode == 1, proc.stdout
    assert "25 failed" in proc.stdout, proc.stdout
    assert "failing because CI or AGENT_EVAL_STRICT is set" in proc.stdout
    relaxed = _pytest(tmp_path, "-q", ".", CI="true", AGENT_EVAL_STRICT="0")
    assert relaxed.returncode == 0, relaxed.stdout


def test_strict_flag_without_ci(tmp_path):
    _write(tmp_path)
    proc = _pytest(tmp_path, "-q", "--agent-eval-strict", "agents.eval.yaml")
    assert proc.returncode == 1 and "13 failed" in proc.stdout, proc.stdout


def test_verbose_node_ids_can_be_pasted_back(tmp_path):
    sub = tmp_path / "samples"
    sub.mkdir()
    (sub / "agents.eval.yaml").write_text("data: {}\nevaluators: [response_match]\n".format(AGENTS))
    listing = _pytest(tmp_path, "-v", "samples")
    line = next(x for x in listing.stdout.splitlines() if "row3" in x)
    node_id = line.split()[0]
    assert node_id == "samples/agents.eval.yaml::row3-travel-004", line
    again = _pytest(tmp_path, "-q", node_id)
    assert "1 failed" in again.stdout or "1 passed" in again.stdout, again.stdout
    assert "no match" not in again.stdout + again.stderr


def test_batch_sample_runs_without_pytest_installed(tmp_path):
    """samples/batch_evaluate.py after a plain `pip install .` (no dev extras): pytest is absent."""
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "pytest.py").write_text("raise ImportError('pytest is not installed (blocked by the test)')\n")
    env = clean_env(PYTHONPATH=f"{blocker}:{REPO_ROOT}")
    proc = subprocess.run([sys.executable, str(SAMPLES / "batch_evaluate.py"), str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "out" / "report.html").is_file()
    proc = subprocess.run([sys.executable, "-c", "from agent_evaluators.pytest_plugin import assert_passes"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_custom_evaluator_class_in_an_eval_yaml(tmp_path):
    (tmp_path / "my_evals.py").write_text(
        "class Short:\n"
        "    def __init__(self, *, max_chars=10):\n"
        "        self.max_chars = max_chars\n"
        "    def __call__(self, *, response):\n"
        "        ok = len(str(response)) <= self.max_chars\n"
        "        return {'short': 1.0 if ok else 0.0, 'short_result': 'pass' if ok else 'fail'}\n")
    (tmp_path / "rows.jsonl").write_text('{"id": "a", "response": "ok"}\n{"id": "b", "response": "far too long"}\n')
    (tmp_path / "mine.eval.yaml").write_text(
        "data: rows.jsonl\nevaluators:\n  short:\n    type: my_evals:Short\n    options: {max_chars: 5}\n")
    proc = _pytest(tmp_path, "-v", "mine.eval.yaml")
    assert "mine.eval.yaml::row0-a PASSED" in proc.stdout, proc.stdout
    assert "mine.eval.yaml::row1-b FAILED" in proc.stdout, proc.stdout
