"""Simulation: does ``agent-eval compare`` tell a regression from judge noise? (issue 26)

    python bench/bench_compare.py              # 1,000 A/A comparisons + detection vs effect, ~1-2 min
    python bench/bench_compare.py --quick      # 200 A/A, fewer per effect (a smoke run)
    python bench/bench_compare.py --check      # exit 1 when a target is missed
    python bench/bench_compare.py --json       # the figures as one JSON object
    python bench/bench_compare.py --record docs/evidence/records   # also write the figures for the docs

The judge is :class:`agent_evaluators.testing.noisy.NoisyJudge` (each verdict
``round(true + N(0, sd))`` on a 1-5 scale); rows have true values uniform on 2..4. A simulated run
is a run folder's content (rows with their cells, a summary naming the evaluator and its scale) made
in memory and compared with :func:`agent_evaluators.report.compare_runs`' engine, so thousands of
comparisons take a minute; ``tests/stats/test_compare_cli.py`` drives the same judge through two
real ``agent-eval run`` commands and ``agent-eval compare``.

Targets (``--check``), on the score metric:
* A/A (same truth, fresh noise): ``regressed`` <= alpha/2 + 1 point, any change verdict <= alpha + 1 point;
* true drop: the detection rate rises with the effect, and is within 10 points of the power
  ``agent-eval plan`` predicts from a pilot run with 3 repetitions per row (its measured judge noise).
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Sequence

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from common import Recorder, add_record_argument  # noqa: E402

from agent_evaluators.report.load import RunData  # noqa: E402
from agent_evaluators.report.paired import compare_loaded  # noqa: E402
from agent_evaluators.report.sample_size import plan_metric  # noqa: E402
from agent_evaluators.testing.noisy import NoisyJudge  # noqa: E402

ALIAS, KEY, THRESHOLD = "j", "score", 3
METRIC = f"{ALIAS}.{KEY}"
PILOT_ROWS = 200  # the run plan measures the judge noise on: 200 rows x 3 repetitions
SUMMARY = {"config": {"evaluators": {ALIAS: {"result_key": KEY, "scale": [1, 5]}}}}


def _cell(score: float) -> Dict[str, Any]:
    return {f"outputs.{ALIAS}.{KEY}": score, f"outputs.{ALIAS}.{KEY}_result": "pass" if score >= THRESHOLD else "fail"}


def simulated_run(truth: Sequence[float], judge: NoisyJudge, rng: random.Random, shift: float = 0.0,
                  repetitions: int = 1) -> RunData:
    """What a run folder of ``len(truth)`` rows would hold (``num_runs=repetitions``), in memory."""
    rows = []
    for i, t in enumerate(truth):
        scores = [judge.draw(t, shift, rng) for _ in range(repetitions)]
        row: Dict[str, Any] = {"line_number": i, "inputs.id": f"r{i}", "cell_status": {ALIAS: "ok"}}
        row.update(_cell(sum(scores) / len(scores)))
        if repetitions > 1:
            row[f"outputs.{ALIAS}.{KEY}_details"] = {"runs": [{KEY: s, f"{KEY}_result": "pass" if s >= THRESHOLD
                                                              else "fail"} for s in scores]}
        rows.append(row)
    return RunData(path=Path(f"sim-{shift}"), summary=SUMMARY, rows=rows)


def aa(n_sims: int, rows: int, judge: NoisyJudge, seed: int, alpha: float) -> Dict[str, Any]:
    rng = random.Random(seed)
    counts = {"regressed": 0, "improved": 0, "no_change": 0, "inconclusive": 0}
    both_any = 0
    for _ in range(n_sims):
        truth = [rng.uniform(2, 4) for _ in range(rows)]
        a, b = simulated_run(truth, judge, rng), simulated_run(truth, judge, rng)
        cmp = compare_loaded(a, b, metrics=[METRIC, f"{ALIAS}.pass_rate"], alpha=alpha)
        counts[cmp.metrics[0].verdict] += 1
        both_any += any(m.verdict in ("regressed", "improved") for m in cmp.metrics)
    return {"sims": n_sims, "rows": rows, **{f"{k}_rate": v / n_sims for k, v in counts.items()},
            "any_change_rate": (counts["regressed"] + counts["improved"]) / n_sims,
            "any_change_rate_both_metrics": both_any / n_sims}


def detection(effects: Sequence[float], per_effect: int, rows: int, judge: NoisyJudge, seed: int,
              alpha: float) -> List[Dict[str, Any]]:
    rng = random.Random(seed)
    pilot = simulated_run([rng.uniform(2, 4) for _ in range(PILOT_ROWS)], judge, rng, repetitions=3)
    out = []
    for effect in effects:
        plan = plan_metric(pilot, METRIC, effect=effect, alpha=alpha)
        hits = 0
        for _ in range(per_effect):
            truth = [rng.uniform(2, 4) for _ in range(rows)]
            a, b = simulated_run(truth, judge, rng), simulated_run(truth, judge, rng, shift=-effect)
            hits += compare_loaded(a, b, metrics=[METRIC], alpha=alpha).metrics[0].verdict == "regressed"
        out.append({"effect": effect, "detection_rate": hits / per_effect,
                    "plan_predicted": plan.predicted_power(rows), "plan_rows_needed_80": plan.needed[1]})
    return out


def check(figures: Dict[str, Any], alpha: float) -> List[str]:
    missed = []
    a = figures["aa"]
    if a["regressed_rate"] > alpha / 2 + 0.01:
        missed.append(f"A/A regressed rate {a['regressed_rate']:.3f} > {alpha / 2 + 0.01:.3f}")
    if a["any_change_rate"] > alpha + 0.01:
        missed.append(f"A/A change rate {a['any_change_rate']:.3f} > {alpha + 0.01:.3f}")
    rates = [d["detection_rate"] for d in figures["detection"]]
    if rates != sorted(rates):
        missed.append(f"detection does not rise with the effect: {rates}")
    for d in figures["detection"]:
        if abs(d["detection_rate"] - d["plan_predicted"]) > 0.10:
            missed.append(f"effect {d['effect']}: detected {d['detection_rate']:.3f}, plan predicted "
                          f"{d['plan_predicted']:.3f} (more than 10 points apart)")
    return missed


def run(quick: bool = False, seed: int = 26, alpha: float = 0.05, rows: int = 40, sd: float = 0.8) -> Dict[str, Any]:
    judge = NoisyJudge(sd=sd, seed=seed)
    started = time.perf_counter()
    figures = {
        "judge": {"sd": sd, "scale": [1, 5], "truth": "uniform 2..4"}, "alpha": alpha, "seed": seed,
        "aa": aa(200 if quick else 1000, rows, judge, seed, alpha),
        "detection": detection((0.1, 0.2, 0.3, 0.45, 0.6), 100 if quick else 300, rows, judge, seed + 1, alpha),
    }
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


def record(figures: Dict[str, Any], folder: str, argv: Sequence[str]) -> None:
    """The figures as the evidence page's record (``bench/common.py``)."""
    rec = Recorder("bench_compare", folder)
    a = figures["aa"]
    rec.table("aa", f"A/A: {a['sims']:,} comparisons of {a['rows']} rows, same truth, fresh judge noise "
              f"(sd {figures['judge']['sd']} on 1-5), alpha {figures['alpha']}",
              ["verdict", "rate", "target"])
    rec.row("aa", "regressed", f"{100 * a['regressed_rate']:.1f}%", f"≤ {100 * (figures['alpha'] / 2 + 0.01):.1f}%")
    rec.row("aa", "any change", f"{100 * a['any_change_rate']:.1f}%", f"≤ {100 * (figures['alpha'] + 0.01):.1f}%")
    rec.row("aa", "any change on score or pass rate", f"{100 * a['any_change_rate_both_metrics']:.1f}%", "")
    rec.table("detection", "a true drop: how often `compare` detects it, against what `agent-eval plan` predicts",
              ["effect", "detected", "plan predicts", "rows plan needs for 80% power"])
    for d in figures["detection"]:
        rec.row("detection", d["effect"], f"{100 * d['detection_rate']:.1f}%", f"{100 * d['plan_predicted']:.1f}%",
                d["plan_rows_needed_80"])
    rec.write([sys.argv[0], *argv])


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seed", type=int, default=26)
    add_record_argument(parser)
    args = parser.parse_args(list(argv) or None)
    figures = run(args.quick, args.seed)
    if args.record:
        record(figures, args.record, argv)
    if args.json:
        print(json.dumps(figures))
    else:
        a = figures["aa"]
        print(f"A/A: {a['sims']} comparisons of {a['rows']} rows, judge sd {figures['judge']['sd']} on 1-5")
        print(f"  regressed {100 * a['regressed_rate']:.1f}% (target <= {100 * (figures['alpha'] / 2 + 0.01):.1f}%), "
              f"any change {100 * a['any_change_rate']:.1f}% (target <= {100 * (figures['alpha'] + 0.01):.1f}%), "
              f"any change on score or pass rate {100 * a['any_change_rate_both_metrics']:.1f}%")
        print("true drop: effect  detected  plan predicts  rows plan needs for 80%")
        for d in figures["detection"]:
            print(f"          {d['effect']:>6}  {100 * d['detection_rate']:>7.1f}%  {100 * d['plan_predicted']:>12.1f}%  "
                  f"{d['plan_rows_needed_80']}")
        print(f"({figures['seconds']} s)")
    missed = check(figures, figures["alpha"]) if args.check else []
    for m in missed:
        print(f"MISSED: {m}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
