"""Simulation: does the corrected pass rate's interval cover the true pass rate? (issue 40)

    python bench/label_correction_coverage.py            # 1,000 runs at each of three judge qualities, ~10 s
    python bench/label_correction_coverage.py --reps 200 # a smoke run
    python bench/label_correction_coverage.py --check    # exit 1 when the corrected coverage is below 93%
    python bench/label_correction_coverage.py --json     # the figures as one JSON object

Each simulated run has ``--rows`` rows (default 500) whose true verdicts pass with probability
``--true-rate`` (default 0.7); a judge with a known TPR and TNR gives its verdict on every row;
people label ``--labels`` of those rows (default 100, drawn at random from the run, as a user
labels a sample). The raw interval is the Wilson interval of the judge's pass rate (what a run
reports today); the corrected one is :func:`agent_evaluators.stats.judge_error.corrected_interval`
(Rogan–Gladen with the delta method). Coverage is the share of runs whose interval holds the true
pass rate of the run's rows; nominal 95%. A run whose labels hold no pass or no fail (no TPR or
TNR to estimate) has no corrected interval and counts as not covered.
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent_evaluators.stats.intervals import wilson  # noqa: E402
from agent_evaluators.stats.judge_error import corrected_interval  # noqa: E402

#: (TPR, TNR) of the judges simulated: good, middling, poor
QUALITIES: Sequence[Tuple[float, float]] = ((0.95, 0.95), (0.85, 0.90), (0.75, 0.80))
TARGET = 0.93


def one_run(rng: random.Random, rows: int, labels: int, true_rate: float, tpr: float,
            tnr: float) -> Tuple[bool, bool, float, float]:
    """(raw covers, corrected covers, raw rate, corrected rate) of one simulated run."""
    truth = [rng.random() < true_rate for _ in range(rows)]
    judge = [(rng.random() < tpr) if t else (rng.random() >= tnr) for t in truth]
    true_share = true_rate  # the agent's pass rate the run estimates
    raw = wilson(sum(judge), rows)
    assert raw is not None
    raw_covers = raw.low <= true_share <= raw.high
    sample = rng.sample(range(rows), labels)
    positives = [i for i in sample if truth[i]]
    negatives = [i for i in sample if not truth[i]]
    corrected = corrected_interval(sum(judge), rows, sum(judge[i] for i in positives), len(positives),
                                   sum(not judge[i] for i in negatives), len(negatives))
    if corrected is None:
        return raw_covers, False, sum(judge) / rows, float("nan")
    covers = corrected.interval.low <= true_share <= corrected.interval.high
    return raw_covers, covers, corrected.raw, corrected.rate


def simulate(reps: int, rows: int, labels: int, true_rate: float, seed: int) -> List[Dict[str, Any]]:
    out = []
    for tpr, tnr in QUALITIES:
        rng = random.Random(f"{seed}-{tpr}-{tnr}")
        raw_hits = corrected_hits = 0
        for _ in range(reps):
            raw_covers, covers, _, _ = one_run(rng, rows, labels, true_rate, tpr, tnr)
            raw_hits += raw_covers
            corrected_hits += covers
        out.append({"tpr": tpr, "tnr": tnr, "judge_rate": true_rate * tpr + (1 - true_rate) * (1 - tnr),
                    "raw_coverage": raw_hits / reps, "corrected_coverage": corrected_hits / reps})
    return out


def main(argv: Any = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--reps", type=int, default=1000, help="simulated runs per judge quality (default 1000)")
    p.add_argument("--rows", type=int, default=500, help="rows per run (default 500)")
    p.add_argument("--labels", type=int, default=100, help="labelled rows per run (default 100)")
    p.add_argument("--true-rate", type=float, default=0.7, help="the true pass rate (default 0.7)")
    p.add_argument("--seed", type=int, default=40)
    p.add_argument("--check", action="store_true", help=f"exit 1 when a corrected coverage is below {TARGET:.0%}")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    start = time.perf_counter()
    table = simulate(args.reps, args.rows, args.labels, args.true_rate, args.seed)
    took = time.perf_counter() - start
    if args.json:
        print(json.dumps({"reps": args.reps, "rows": args.rows, "labels": args.labels, "true_rate": args.true_rate,
                          "seconds": round(took, 1), "table": table}, indent=2))
    else:
        print(f"{args.reps} runs each: {args.rows} rows, {args.labels} labelled, true pass rate {args.true_rate:g}; "
              "coverage of the true rate at nominal 95%")
        print(f"{'TPR':>5} {'TNR':>5} {'judge rate':>10} {'raw':>7} {'corrected':>10}")
        for r in table:
            print(f"{r['tpr']:>5.2f} {r['tnr']:>5.2f} {r['judge_rate']:>10.3f} {r['raw_coverage']:>7.1%} "
                  f"{r['corrected_coverage']:>10.1%}")
        print(f"({took:.1f} s)")
    if args.check and any(r["corrected_coverage"] < TARGET for r in table):
        print(f"corrected coverage below {TARGET:.0%}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
