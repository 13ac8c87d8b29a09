"""`agent-eval ... | head`: a reader that stops early ends the command quietly.

The pipe's reader is closed before the command writes anything, as ``head -1`` closes it after its
first line: every write then fails with EPIPE, which used to surface as a BrokenPipeError
traceback (or, from ``traces``, as "could not be read ([Errno 32] Broken pipe)", exit 2).
"""

import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

from .helpers import AGENTS, clean_env

TRACES = REPO_ROOT / "tests" / "traces" / "fixtures"


@pytest.mark.parametrize("argv", [
    ["traces", "--json", str(TRACES)],
    ["traces", str(TRACES)],
    ["list"],
    ["run", "--data", str(AGENTS), "-e", "tool_trajectory", "--dry-run"],
], ids=["traces-json", "traces", "list", "run"])
def test_output_piped_into_a_reader_that_stops_early_ends_quietly(argv, tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "agent_evaluators.cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path, env=clean_env(PYTHONPATH=str(REPO_ROOT)), text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # `| head` that has read what it wanted
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141, err  # as a program stopped by SIGPIPE: `yes | head` reports 141
    assert not any(word in err for word in ("Traceback", "BrokenPipe", "Broken pipe")), err
