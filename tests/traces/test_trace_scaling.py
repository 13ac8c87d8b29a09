"""Reading a trace is linear in what it holds, and its memory follows the largest run, not the file.

Regression (issue "Reliability, round four", item 15): rebuilding the transcript of a run of 4,000
model calls took 65 s (every call compared the whole transcript so far, every tool result scanned
it), and reading held about six times the file in memory. The unit test counts operations (every
Python and C function call while a file is read) at two sizes, so it cannot flake on a loaded
machine; the ``heavy`` tests time 1,000 against 4,000 calls and measure peak memory in a child
process. ``bench/bench_traces.py`` prints the same figures against a baseline of the same run.
"""

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from agent_evaluators.traces import read_runs
from tests.conftest import REPO_ROOT

from .long_traces import agent_loop, many_traces


def _calls_while(read: Callable[[], object]) -> int:
    """How many functions (Python and C) run while ``read()`` runs: an operation count."""
    count = 0

    def profile(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        read()
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("shape", ["new", "window"])
def test_reading_a_long_run_is_linear_in_its_model_calls(shape, tmp_path):
    small = agent_loop(tmp_path / "small.jsonl", 100, shape)
    large = agent_loop(tmp_path / "large.jsonl", 400, shape)
    (run,), _ = read_runs(large)
    assert run.problem is None and run.llm_calls == 400
    assert len([m for m in run.messages if m["role"] == "tool"]) == 400
    if shape == "window":  # the system prompt changes at every call: it is there once, the latest
        assert [m["role"] for m in run.messages].count("system") == 1
    ratio = _calls_while(lambda: read_runs(large)) / _calls_while(lambda: read_runs(small))
    assert ratio < 5.0, f"4x the model calls cost {ratio:.1f}x the operations (linear: ~4, quadratic: ~16)"


def _best_seconds(path: Path, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        read_runs(path)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.heavy
@pytest.mark.parametrize("shape", ["new", "window"])
def test_4000_model_calls_take_about_4_times_1000(shape, tmp_path):
    """The issue's figure was 65 s for 4,000 calls; linear reading makes 4x the calls ~4x the time."""
    seconds = {n: _best_seconds(agent_loop(tmp_path / f"{n}.jsonl", n, shape)) for n in (1000, 4000)}
    assert seconds[4000] / seconds[1000] < 8, seconds
    assert seconds[4000] < 20, seconds  # 65 s before; well under a second on a laptop now


def _peak_mb(path: Path) -> float:
    out = subprocess.run([sys.executable, "-m", "tests.traces.trace_memory_child", str(path)], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=600, check=True)
    return float(json.loads(out.stdout)["peak_mb"])


@pytest.mark.heavy
def test_memory_follows_the_largest_run_not_the_file(tmp_path):
    """4x the runs (20 MB -> 80 MB of trace file): memory grows by a small fraction of the file."""
    small = many_traces(tmp_path / "small.jsonl", 1000, calls=4, pad=2000)
    large = many_traces(tmp_path / "large.jsonl", 4000, calls=4, pad=2000)
    grown_mb = (large.stat().st_size - small.stat().st_size) / 1e6
    small_mb, large_mb = _peak_mb(small), _peak_mb(large)
    assert large_mb - small_mb < 0.25 * grown_mb, (small_mb, large_mb, grown_mb)  # before: ~3.3x the growth
    assert large_mb < large.stat().st_size / 1e6, (large_mb, large.stat().st_size)  # before: ~3.6x the file
