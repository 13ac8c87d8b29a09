"""The pytest plugin in a separate pytest process: ``*.eval.yaml`` files become tests."""

import subprocess
import sys
from importlib.metadata import entry_points

from tests.cli.helpers import AGENTS, clean_env

CONFIG = """\
data: {data}
evaluators:
  trajectory:
    type: tool_trajectory
    options: {{match_type: in_order}}
    column_mapping:
      ground_truth: ${{data.expected_tool_calls}}
  intent:
    type: intent_resolution
thresholds:
  - trajectory.pass_rate >= {rate}
"""


def run_pytest(path, *args, **extra_env):
    env = clean_env(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", **extra_env)
    if "CI" not in extra_env:
        env.pop("CI", None)  # CI makes a missing judge a failure (tests/interfaces/test_plugin_strict.py)
    env.pop("AGENT_EVAL_STRICT", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "agent_evaluators.pytest_plugin", "-q", "-rA", "--no-header",
         "-p", "no:cacheprovider", str(path), *args],
        capture_output=True, text=True, env=env, timeout=180, cwd=path,
    )


def test_eval_yaml_rows_become_tests_with_per_row_messages(tmp_path):
    (tmp_path / "agents.eval.yaml").write_text(CONFIG.format(data=AGENTS, rate=0.7))
    proc = run_pytest(tmp_path)
    out = proc.stdout
    assert proc.returncode == 1, out  # the three bad runs fail
    # the good rows pass their trajectory check but intent (a judge) could not run: skipped, saying why
    assert "3 failed, 1 passed, 9 skipped" in out, out
    assert "FAILED agents.eval.yaml::row3-travel-004" in out
    assert "trajectory: tool_trajectory_avg_score = 0 below threshold 1" in out
    assert "PASSED agents.eval.yaml::thresholds" in out


def test_failed_run_threshold_is_its_own_failing_test(tmp_path):
    (tmp_path / "strict.eval.yaml").write_text(CONFIG.format(data=AGENTS, rate=0.9))
    proc = run_pytest(tmp_path, "-k", "thresholds")
    assert proc.returncode == 1, proc.stdout
    assert "trajectory.pass_rate >= 0.9: actual 0.75" in proc.stdout


def test_plugin_is_registered_as_a_pytest11_entry_point():
    names = {e.value for e in entry_points(group="pytest11")}
    assert "agent_evaluators.pytest_plugin" in names, "reinstall the project so its entry points are registered"
