"""Issue 16: one set of judge flags, one spelling, on every subcommand that calls a judge."""

import re
import subprocess
import sys


def _flags(*argv: str) -> set:
    out = subprocess.run([sys.executable, "-m", "agent_evaluators.cli", *argv, "--help"], capture_output=True,
                         text=True, timeout=60).stdout
    return set(re.findall(r"--(?:judge-[a-z-]+|max-concurrency)", out))


def test_run_and_adk_offer_the_same_judge_flags():
    run, adk = _flags("run"), _flags("adk")
    assert {"--judge-model", "--judge-base-url", "--judge-api-key-env", "--judge-timeout", "--max-concurrency"} <= run
    assert run == adk


def test_adk_keeps_its_own_spelling_of_max_concurrency():
    proc = subprocess.run([sys.executable, "-m", "agent_evaluators.cli", "adk", "nope.evalset.json",
                           "--max_concurrency", "0"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "unrecognized arguments" not in proc.stderr
