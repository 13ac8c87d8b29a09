"""The progress display (issue 20, items 8 and 14), as a unit with a fake clock.

Not on a terminal it prints the terminal line's text as plain lines, every interval and once
at the end (before: nothing at all). Rows kept by ``resume`` count as done but not in the
rate (before: 900 kept rows and 10 evaluated in 10 s made "91 rows/s, ETA 1s").
"""

import io
from typing import List

import pytest

from agent_evaluators.runner.progress import PLAIN_INTERVAL_S, Progress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _lines(stream: io.StringIO) -> List[str]:
    return stream.getvalue().splitlines()


def test_off_a_terminal_plain_lines_every_interval_and_at_the_end() -> None:
    clock, stream = Clock(), io.StringIO()
    p = Progress(None, total=50, stream=stream, clock=clock)
    for _ in range(20):  # 20 rows over 19 s: lines at 10 s only, not one per row
        p.update(1)
        clock.now += 1
    assert _lines(stream) == ["evaluate: 11/50 rows  1.1 rows/s  ETA 35s  0 errors"]
    clock.now += 10
    p.update(1, errors=2)
    p.close()
    assert _lines(stream)[1:] == ["evaluate: 21/50 rows  0.7 rows/s  ETA 41s  2 errors",
                                  "evaluate: 21/50 rows  0.7 rows/s  ETA 41s  2 errors"]
    assert "\r" not in stream.getvalue() and "\x1b" not in stream.getvalue()


def test_the_interval_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_EVAL_PROGRESS_INTERVAL", "0.5")
    clock, stream = Clock(), io.StringIO()
    p = Progress(None, stream=stream, clock=clock)
    for _ in range(4):
        clock.now += 0.5
        p.update(1)
    assert len(_lines(stream)) == 4
    monkeypatch.setenv("AGENT_EVAL_PROGRESS_INTERVAL", "nonsense")
    assert Progress(None, stream=io.StringIO(), clock=clock)._every == PLAIN_INTERVAL_S


def test_kept_rows_are_done_but_not_in_the_rate() -> None:
    clock, stream = Clock(), io.StringIO()
    p = Progress(None, total=1000, stream=stream, clock=clock)
    p.keep(900)
    clock.now += 10
    p.update(10)  # 10 rows evaluated in 10 s: 1 row/s, 90 rows left
    assert _lines(stream) == ["evaluate: 910/1000 rows (900 kept)  1.0 rows/s  ETA 1m30s  0 errors"]


def test_shown_and_hidden_as_asked() -> None:
    shown, hidden = io.StringIO(), io.StringIO()
    Progress(True, total=2, stream=shown).update(2)
    p = Progress(False, total=2, stream=hidden)
    p.update(2)
    p.close()
    assert shown.getvalue().startswith("\revaluate: 2/2 rows") and hidden.getvalue() == ""


def test_lines_keep_coming_while_no_row_finishes(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("AGENT_EVAL_PROGRESS_INTERVAL", "0.05")
    stream = io.StringIO()
    p = Progress(None, total=10, stream=stream)
    p.update(1)
    deadline = time.monotonic() + 5
    while len(_lines(stream)) < 2 and time.monotonic() < deadline:  # a row that takes long: still a beat
        time.sleep(0.01)
    assert len(_lines(stream)) >= 2 and _lines(stream)[0].startswith("evaluate: 1/10 rows")
    p.close()
    closed = stream.getvalue()
    time.sleep(0.15)
    assert stream.getvalue() == closed  # the beat ends with close()


def test_a_run_that_did_no_row_leaves_no_plain_line() -> None:
    stream = io.StringIO()
    Progress(None, total=12, stream=stream).close()  # e.g. a column-mapping error before the first row
    assert stream.getvalue() == ""
