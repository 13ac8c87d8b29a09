"""The pytest plugin as it is loaded in a user's environment (through the ``pytest11`` entry point, in a
separate pytest process): ``*.eval.yaml`` files are collected only when asked for (issue 21, item 3), and
a failing row's report is headed by the row's node id, not "test session" (issue 20, item 18)."""

import subprocess
import sys

from tests.cli.helpers import AGENTS, clean_env

# deterministic evaluators only: no judge is needed, rows 3, 7 and 11 (the "bad" runs) fail
CONFIG = """\
data: {data}
evaluators:
  trajectory:
    type: tool_trajectory
    options: {{match_type: in_order}}
    column_mapping:
      ground_truth: ${{data.expected_tool_calls}}
"""

PLAIN_TEST = "def test_plain():\n    assert True\n"


def _project(tmp_path, ini="[pytest]\n"):
    """A project folder: a pytest.ini (the rootdir), an ordinary test and a run config in samples/."""
    (tmp_path / "pytest.ini").write_text(ini)
    (tmp_path / "test_plain.py").write_text(PLAIN_TEST)
    (tmp_path / "samples").mkdir()
    (tmp_path / "samples" / "agents.eval.yaml").write_text(CONFIG.format(data=AGENTS))
    return tmp_path


def _pytest(cwd, *args):
    """pytest as a user runs it: plugins autoloaded (the entry point registers ours), no judge, no CI."""
    env = clean_env()
    for var in ("CI", "AGENT_EVAL_STRICT", "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTEST_ADDOPTS", "PYTEST_PLUGINS"):
        env.pop(var, None)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--no-header", *args],
                          capture_output=True, text=True, env=env, timeout=120, cwd=cwd)


def test_plain_pytest_collects_no_eval_yaml(tmp_path):
    proc = _pytest(_project(tmp_path), "-q", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout, proc.stdout
    assert "agents.eval.yaml" not in proc.stdout, proc.stdout


def test_the_flag_collects_every_row_and_the_thresholds(tmp_path):
    proc = _pytest(_project(tmp_path), "-q", "--agent-eval-collect", ".")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "3 failed, 10 passed" in proc.stdout, proc.stdout  # 12 rows + test_plain.py
    assert "FAILED samples/agents.eval.yaml::row3-travel-004" in proc.stdout, proc.stdout


def test_the_ini_option_collects_too(tmp_path):
    proc = _pytest(_project(tmp_path, "[pytest]\nagent_eval_collect = true\n"), "-q", ".")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "3 failed, 10 passed" in proc.stdout, proc.stdout


def test_a_file_named_without_the_opt_in_says_which_flag_to_add(tmp_path):
    proc = _pytest(_project(tmp_path), "-q", "samples/agents.eval.yaml::row3-travel-004")
    assert proc.returncode not in (0, 1), proc.stdout  # a collection error, not a pass or a test failure
    assert "add --agent-eval-collect" in proc.stdout, proc.stdout


def test_a_failing_row_is_headed_by_its_node_id(tmp_path):
    proc = _pytest(_project(tmp_path), "--agent-eval-collect", "samples/agents.eval.yaml::row3-travel-004")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    headers = [line for line in proc.stdout.splitlines() if line.startswith("____")]
    assert len(headers) == 1, proc.stdout
    assert headers[0].strip("_ ") == "samples/agents.eval.yaml::row3-travel-004", proc.stdout
    assert "trajectory: tool_trajectory_avg_score = 0 below threshold 1" in proc.stdout
    # -v still prints the node id as it can be pasted back (no "agents::eval::yaml")
    verbose = _pytest(tmp_path, "-v", "--agent-eval-collect", "samples/agents.eval.yaml::row3-travel-004")
    assert "samples/agents.eval.yaml::row3-travel-004 FAILED" in verbose.stdout, verbose.stdout
