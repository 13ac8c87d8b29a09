"""Issue 21, round three, item 6: memory stays flat when an evaluator leaves reference cycles.

The relaxed young-generation threshold (:mod:`agent_evaluators._util.gc_pause`) counts container
allocations, not bytes: before, an evaluator leaving a 1 MB cycle per row took 2,500 rows to
about 2.5 GB of peak RSS (0.26 GB with ``AGENT_EVAL_GC=default``). Now the engine collects the
young generation every ``ROWS_PER_COLLECTION`` rows; the peak stays under 600 MB.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.figures import record

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_1mb_cycle_per_row_peaks_under_600mb_at_2500_rows(kind: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("AGENT_EVAL_GC", None)
    proc = subprocess.run([sys.executable, "-m", "tests.runner.cycle_child", "2500", kind], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    record(f"gc_cycles[{kind}]", {"rows": report["rows"], "cycle_mb_per_row": 1, "peak_rss_mb": report["peak_mb"]})
    assert report["rows"] == 2500
    assert report["peak_mb"] < 600, report


def test_rows_that_overlap_keep_their_cycles_from_piling_up() -> None:
    """Rows in flight hold live cycles at each collection, so the memory freed need not leave the process
    (its resident size stays up): growth is still measured from before a collection that found cycles.
    Before: 600 MB at 2,500 rows, the baseline rising to each high-water mark; now about 270 MB."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("AGENT_EVAL_GC", None)
    proc = subprocess.run([sys.executable, "-m", "tests.runner.cycle_child", "2500", "overlap"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    record("gc_cycles[overlap]", {"rows": report["rows"], "cycle_mb_per_row": 1, "peak_rss_mb": report["peak_mb"]})
    assert report["rows"] == 2500
    assert report["peak_mb"] < 400, report


def test_a_run_whose_memory_stays_flat_gets_no_extra_collection(tmp_path: Path) -> None:
    """The judge path's CPU: collecting every few hundred rows regardless cost 20-35 µs a judge call."""
    import gc

    from agent_evaluators import evaluate
    from agent_evaluators._util.gc_pause import RUN_THRESHOLD

    def flat(response: str) -> dict:
        return {"length": len(response)}

    starts: list = []

    def count(phase: str, info: dict) -> None:
        if phase == "start" and gc.get_threshold()[0] == RUN_THRESHOLD:  # during the run, not its setup
            starts.append(info["generation"])

    gc.collect()
    gc.callbacks.append(count)
    try:
        evaluate(data=[{"response": f"r{i}"} for i in range(3000)], evaluators={"f": flat},
                 output_path=tmp_path / "out", show_progress=False)
    finally:
        gc.callbacks.remove(count)
    assert len(starts) <= 1, starts
