"""Tests that send Ctrl-C to a child pass when the suite itself runs in the background.

``nohup pytest &`` starts pytest with SIGINT ignored; a child started with plain ``Popen``
inherits that, so the test's SIGINT was lost and the test timed out. Such children start through
:func:`tests.ctrl_c.popen_for_ctrl_c`, which restores SIGINT's default in the child.
"""

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ctrl_c import popen_for_ctrl_c

TESTS = Path(__file__).resolve().parent
SLEEPER = [sys.executable, "-c", "import time; print('ready', flush=True); time.sleep(60)"]


@pytest.fixture
def sigint_ignored_like_nohup():
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _interrupt(proc: "subprocess.Popen[str]") -> "tuple[int | None, str]":
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None, ""
    return proc.returncode, proc.stderr.read() if proc.stderr else ""


def test_a_child_started_for_ctrl_c_gets_it_under_a_suite_that_ignores_sigint(sigint_ignored_like_nohup):
    code, err = _interrupt(popen_for_ctrl_c(SLEEPER, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    assert code not in (None, 0) and "KeyboardInterrupt" in err


def test_a_plain_child_would_not_which_is_why_the_helper_exists(sigint_ignored_like_nohup):
    code, _ = _interrupt(subprocess.Popen(SLEEPER, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    assert code is None  # SIGINT stayed ignored in the child


def test_every_test_that_sends_sigint_starts_its_child_through_the_helper():
    offenders = []
    for path in TESTS.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name in ("ctrl_c.py", Path(__file__).name) or not re.search(r"send_signal\(signal\.SIGINT\)", text):
            continue
        if re.search(r"subprocess\.Popen\(", text) or not re.search(r"popen_for_ctrl_c|start_slow_run", text):
            offenders.append(str(path.relative_to(TESTS)))
    assert not offenders, offenders
