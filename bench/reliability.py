"""The reliability suite's measured figures: run the tests that measure, collect what each recorded.

    PYTHONPATH=. python bench/reliability.py                                  # the default-suite sizes
    PYTHONPATH=. python bench/reliability.py --heavy                          # the heavy sizes too (minutes)
    PYTHONPATH=. python bench/reliability.py --record docs/evidence/records   # also write them for the docs

The reliability tests that measure something (``MEASURING``: faults at scale, crash and resume, budget
caps across kills, one huge row, memory under throttling, a judge restarted mid-run, Ctrl-C during inline
rows, reference cycles per row) append their figures as JSON lines to the
file named by ``AGENT_EVAL_RELIABILITY_FIGURES`` (``tests/reliability/figures.py``). This script runs
them with pytest, then prints (and records) one row per measurement: the test, whether the test
file that measured it, and its figures. Exit 1 when a test failed: a figure of a failing test is no evidence.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from common import Recorder, add_record_argument  # noqa: E402

#: the test files that call tests.reliability.figures.record; each figure's row names its file
MEASURING = ("tests/reliability/test_judge_faults_scale.py", "tests/reliability/test_crash_resume.py",
             "tests/reliability/test_budget_kills.py", "tests/reliability/test_large_row.py",
             "tests/reliability/test_memory_under_429s.py", "tests/reliability/test_judge_outage.py",
             "tests/reliability/test_ctrl_c_inline_rows.py", "tests/runner/test_gc_cyclic_garbage.py",
             "tests/runner/test_batch_faults.py::test_a_huge_gzip_output_file_is_read_in_bounded_memory")
#: measuring files (or single tests) whose every measurement is heavy: absent from a default-size record, by design
HEAVY_ONLY = ("tests/reliability/test_memory_under_429s.py",
              "tests/runner/test_batch_faults.py::test_a_huge_gzip_output_file_is_read_in_bounded_memory")


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.4g}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--heavy", action="store_true", help="also the heavy sizes (the .ci/run heavy step's)")
    add_record_argument(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures_file = Path(tmp) / "figures.jsonl"
        marker = [] if args.heavy else ["-m", "not heavy"]
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *marker, *MEASURING],
                              cwd=REPO, env={**os.environ, "AGENT_EVAL_RELIABILITY_FIGURES": str(figures_file)})
        lines: List[Dict[str, Any]] = ([json.loads(line) for line in figures_file.read_text().splitlines()]
                                       if figures_file.exists() else [])
    files = [line.get("file") for line in lines]
    rec = Recorder("reliability", args.record)
    rec.table("reliability", "what the measuring reliability tests recorded" +
              (", heavy sizes included" if args.heavy else " at the default-suite sizes"),
              ["measurement", "test file", "figures"])
    for line in lines:
        name, where = line.pop("test"), line.pop("file", "?")
        rec.row("reliability", name, f"`{where}`", "; ".join(f"{k} {_value(v)}" for k, v in sorted(line.items())))
        print(f"{name} ({where}): {line}", flush=True)
    silent = [f for f in MEASURING if f.split("::")[0] not in set(files)
              and (args.heavy or f not in HEAVY_ONLY)]
    if silent:
        rec.note("these measuring files recorded nothing: " + ", ".join(silent))
    if not args.heavy:
        rec.note("heavy-only measurements (" + ", ".join(HEAVY_ONLY) + ") need --heavy.")
    if proc.returncode != 0:
        rec.note(f"pytest exited {proc.returncode}: at least one of these tests failed.")
    rec.write()
    return 0 if proc.returncode == 0 and lines and not silent else 1


if __name__ == "__main__":
    raise SystemExit(main())
