"""Issue 20 "A verdict you can trust", item 5: ``--rerun-failed`` after a transport change.

The natural move after a flaky judge run is ``--rerun-failed --judge-max-attempts 8``. Before
the fix it was refused ("evaluator changed ... model_config.max_attempts"), since the judge's
timeout and attempts were part of the resume fingerprint, and the refusal said "run without
--resume" to a user who had passed --rerun-failed. Settings that cannot change what a score
means are now outside the fingerprint, and a refusal names the flag that was given.
Driven as a user does: ``agent-eval run`` against the fake judge ``python -m agent_evaluators.testing``.
"""

import json
import subprocess
import sys
from typing import Iterator

import pytest

from .helpers import AGENTS, agent_eval


@pytest.fixture
def flaky_judge() -> Iterator[str]:
    """The packaged fake judge, answering half of all requests with HTTP 500 (seeded)."""
    proc = subprocess.Popen([sys.executable, "-m", "agent_evaluators.testing", "--port", "0", "--rate-500", "0.5",
                             "--seed", "3"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1] + "/v1"
    finally:
        proc.kill()
        proc.wait(30)


def test_rerun_failed_accepts_changed_attempts_timeout_and_concurrency(tmp_path, flaky_judge):
    out = tmp_path / "run"
    judge = ["--judge-base-url", flaky_judge, "--judge-model", "m"]
    first = agent_eval("run", "--data", AGENTS, "-e", "intent_resolution=intent", *judge, "--judge-max-attempts", "1",
                       "-o", out)
    assert first.rc == 2 and "failed after 1 attempts" in first.out, first
    errors = json.loads((out / "summary.json").read_text())["error_count"]
    assert 0 < errors < 12

    again = agent_eval("run", "--data", AGENTS, "-e", "intent_resolution=intent", *judge, "--judge-max-attempts", "8",
                       "--judge-timeout", "20", "--max-concurrency", "3", "-o", out, "--rerun-failed")
    assert "refused" not in again.err, again
    assert f"({12 - errors} kept from the earlier run, {errors} evaluated now)" in again.out, again
    assert json.loads((out / "summary.json").read_text())["error_count"] < errors

    changed = agent_eval("run", "--data", AGENTS, "-e", "intent_resolution=intent", *judge,
                         "--option", "intent.threshold=2", "-o", out, "--rerun-failed")
    assert changed.rc == 2, changed
    assert "--rerun-failed refused" in changed.err and "run without --rerun-failed" in changed.err, changed
    assert "--resume" not in changed.err, changed
