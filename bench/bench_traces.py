"""Benchmark: reading OTLP/JSON traces into rows, time against the number of model calls, memory against file size.

    PYTHONPATH=. python bench/bench_traces.py              # runs of 1,000 and 4,000 model calls; 20 and 80 MB files
    PYTHONPATH=. python bench/bench_traces.py --calls 2000
    PYTHONPATH=. python bench/bench_traces.py --check      # exit 1 when reading is not linear or memory follows the file
    PYTHONPATH=. python bench/bench_traces.py --record docs/evidence/records   # also write the figures for the docs

Time: one run of N model calls (``tests/traces/long_traces.py``: an agent loop, a tool call per
model call, inputs recorded as only the new messages or as a sliding window under a system prompt
that changes every call), read with :func:`agent_evaluators.traces.read_runs`, best of 3. The
baseline, measured in the same run on the same file, is ``json.loads`` of every line: what any
reader must pay. Printed: seconds, the ratio to that baseline, and the ratio of 4N calls to N
(linear: ~4; it was ~16, and 65 s for 4,000 calls, when the transcript rebuild was quadratic).

Memory: files of 1,000 and 4,000 small runs (about 20 and 80 MB), each read in a child process
that keeps no row (``tests/traces/trace_memory_child.py``); printed: peak RSS, the peak of a child
that only imports the reader (the baseline), and the growth against the file's growth (it was
~3.3x: the whole file held, decoded, until the end).
"""

import argparse
import functools
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "bench")]

from common import Recorder, add_record_argument  # noqa: E402

from agent_evaluators.traces import read_runs  # noqa: E402
from tests.traces.long_traces import agent_loop, many_traces  # noqa: E402

#: the --check limits: time of 4N calls over N, memory growth over file growth
MAX_TIME_RATIO = 8.0
MAX_MEMORY_SHARE = 0.25


def best(fn, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    seconds = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        seconds = min(seconds, time.perf_counter() - start)
    return seconds


def parse_only(path: Path) -> None:
    with open(path, "rb") as f:
        for line in f:
            json.loads(line)


def timing(folder: Path, calls: int, rec: Recorder) -> Dict[str, float]:
    rec.table("time", "reading one run of N model calls (best of 3)",
              ["trace shape", "model calls", "seconds", "× json.loads of its lines", "time of 4N / N (linear: ~4)"])
    ratios = {}
    for shape in ("new", "window"):
        seconds, floors = {}, {}
        for n in (calls, 4 * calls):
            path = agent_loop(folder / f"{shape}-{n}.jsonl", n, shape)
            (run,), _ = read_runs(path)
            assert run.problem is None and run.llm_calls == n, run.problem
            seconds[n] = best(functools.partial(read_runs, path))
            floor = best(functools.partial(parse_only, path))
            print(f"{shape:>6} {n:>6} model calls: {seconds[n]:7.3f} s to read "
                  f"({seconds[n] / floor:5.1f}x json.loads of its lines, {floor:.3f} s)")
            floors[n] = seconds[n] / floor
        ratios[shape] = seconds[4 * calls] / seconds[calls]
        for n in (calls, 4 * calls):
            rec.row("time", shape, n, f"{seconds[n]:.3f}", f"{floors[n]:.1f}", f"{ratios[shape]:.2f}" if n != calls else "")
        print(f"{shape:>6} time of {4 * calls} calls / {calls} calls: {ratios[shape]:.2f} (linear: ~4)")
    return ratios


def child(args: list) -> float:
    out = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout)["peak_mb"])


def memory(folder: Path, rec: Recorder) -> float:
    baseline = child(["-c", "import json, agent_evaluators.traces, agent_evaluators.runner.readers; "
                            "from tests.peak_memory import peak_mb; print(json.dumps({'peak_mb': peak_mb()}))"])
    peaks, sizes = {}, {}
    for runs in (1000, 4000):
        path = many_traces(folder / f"runs-{runs}.jsonl", runs, calls=4, pad=2000)
        sizes[runs] = path.stat().st_size / 1e6
        peaks[runs] = child(["-m", "tests.traces.trace_memory_child", str(path)])
        print(f"{runs:>5} runs, {sizes[runs]:6.1f} MB file: peak {peaks[runs]:6.1f} MB "
              f"({peaks[runs] - baseline:5.1f} MB over the {baseline:.1f} MB of a child that only imports the reader)")
    share = (peaks[4000] - peaks[1000]) / (sizes[4000] - sizes[1000])
    print(f"memory growth / file growth: {share:.3f} (it was ~3.3 when the whole file was held)")
    rec.table("memory", "reading a file of many small runs in a child process that keeps no row (peak RSS)",
              ["runs", "file MB", "peak MB", "MB over a child that only imports the reader"])
    for runs in (1000, 4000):
        rec.row("memory", runs, f"{sizes[runs]:.1f}", f"{peaks[runs]:.1f}", f"{peaks[runs] - baseline:.1f}")
    rec.note(f"Memory growth over file growth: {share:.3f} (limit {MAX_MEMORY_SHARE}).")
    return share


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=1000, help="model calls of the smaller run (the larger: 4x)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a limit is missed")
    add_record_argument(parser)
    args = parser.parse_args()
    rec = Recorder("bench_traces", args.record)
    with tempfile.TemporaryDirectory() as tmp:
        ratios = timing(Path(tmp), args.calls, rec)
        share = memory(Path(tmp), rec)
    rec.write()
    failed = [f"{shape}: {r:.2f} > {MAX_TIME_RATIO}" for shape, r in ratios.items() if r > MAX_TIME_RATIO]
    if share > MAX_MEMORY_SHARE:
        failed.append(f"memory share {share:.3f} > {MAX_MEMORY_SHARE}")
    if args.check and failed:
        print("FAILED: " + "; ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
