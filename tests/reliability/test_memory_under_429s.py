"""Memory stays flat in the number of rows while the judge throttles (issue 21, "Done when": memory flat at
20,000 rows × 2 judges with 20% 429s).

Two runs in fresh subprocesses (``memory_child``), 2,000 and 20,000 rows × IntentResolution and
ResponseCompleteness with ``output_path``, against one local judge that answers 20% of requests with a
429 (``retry-after-ms: 5``); each child reads all its rows back through ``result.rows``. The peak RSS
(``VmHWM``) of the 10× larger run may be at most 1.2× the smaller one's, and under 150 MB.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent_evaluators.testing import Faults, JudgeServer

from .figures import record
from .support import judge_rows, rule_judge

REPO = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, url: str, n: int) -> dict:
    data = tmp_path / f"rows{n}.jsonl"
    with open(data, "w", encoding="utf-8") as f:
        for row in judge_rows(n):
            f.write(json.dumps(row) + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "tests.reliability.memory_child", str(data), str(tmp_path / f"out{n}"), url],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.heavy
def test_memory_flat_at_20000_rows_with_429s(tmp_path):
    faults = Faults(rate_429=0.2, retry_after_ms=5, seed=21)
    with JudgeServer(rule_judge, faults=faults, keep_requests=False) as server:
        small = _run(tmp_path, server.url, 2_000)
        large = _run(tmp_path, server.url, 20_000)
        stats = server.stats()
    ratio = large["peak_mb"] / small["peak_mb"]
    record("memory_flat_under_429s", {"peak_mb_2000": round(small["peak_mb"], 1),
                                      "peak_mb_20000": round(large["peak_mb"], 1), "ratio": round(ratio, 3),
                                      "requests": stats["requests"], "faults": stats.get("faults"),
                                      "errors_20000": large["errors"]})
    assert stats["faults"].get("429", 0) > 0.15 * stats["requests"]  # the judge really throttled
    assert large["rows"] == 20_000 and small["rows"] == 2_000
    assert large["scored"] + large["errors"] == 40_000 and large["errors"] <= 40  # 5 attempts: ~0.2^5 of cells
    assert ratio <= 1.2, (small, large)
    assert large["peak_mb"] < 150, large
