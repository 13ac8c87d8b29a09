"""``agent-eval compare RUN_A RUN_B``: did B get worse than A, or is that noise? (one verdict per metric).

Two red-team scan folders (each with ``red_team.json``) are compared attack by attack instead:
the ASR of each over the paired attacks, McNemar's exact test overall, per risk category and per
strategy (Holm), and whether B is more robust (:mod:`agent_evaluators.report.red_team_compare`).

Exit codes: 0 (compared; with ``--fail-on-regression``, no selected metric regressed), 1 (with
``--fail-on-regression``: a selected metric regressed), 2 (bad input: a folder with no run, a metric
neither run has, rows that cannot be paired, no metric in common: nothing compared). The numbers come from
:func:`agent_evaluators.report.compare_runs`, the engine the HTML report's compare view uses too.
"""

import argparse
import json
from typing import Any, List, Optional, TextIO

from ..errors import AgentEvalError
from .messages import print_error
from .table import fit_table


def _num(v: Optional[float], digits: int = 3, sign: bool = False) -> str:
    if v is None or v != v:
        return "-"
    return f"{v:+.{digits}f}" if sign else f"{v:.{digits}f}"


def _p(v: Optional[float]) -> str:
    if v is None or v != v:
        return "-"
    return "<0.001" if v < 0.001 else f"{v:.3f}"


def print_comparison(cmp: Any, out: TextIO) -> None:
    """The terminal view: one line per metric, then what was not paired and why a verdict is open."""
    from ..report.paired import by_effect

    rows: List[List[str]] = []
    for m in by_effect(cmp.metrics):
        ci = f"[{_num(m.ci_low, sign=True)}, {_num(m.ci_high, sign=True)}]" if m.ci_low is not None else "-"
        rows.append([m.metric, str(m.n_pairs), _num(m.mean_a), _num(m.mean_b), _num(m.diff, sign=True), ci,
                     _p(m.p_value), _p(m.p_adjusted), m.verdict.upper() if m.verdict == "regressed" else m.verdict])
    headers = ["metric", "pairs", "A", "B", "B-A", "95% interval", "p", "p (Holm)", "verdict"]
    for line in fit_table(headers, rows, right={1, 2, 3, 4, 6, 7}, cut_order=(0,)):
        print(line, file=out)
    print(f"\nA: {cmp.a}\nB: {cmp.b}\n{cmp.n_pairs} row(s) paired; {cmp.unpaired_a} only in A, "
          f"{cmp.unpaired_b} only in B (not compared)", file=out)
    for m in cmp.metrics:
        if m.verdict == "inconclusive":
            need = (f"; these {m.n_pairs} pairs detect a change of about {m.detectable_effect:.3g} (80% power)"
                    if m.detectable_effect else "")
            print(f"{m.metric}: inconclusive: the interval reaches past +-{m.min_effect:g} and the test is not "
                  f"significant at alpha {cmp.alpha:g}{need}; add rows or repetitions (agent-eval plan)", file=out)
    if cmp.flips:
        print(f"{len(cmp.flips)} cell(s) flipped verdict (agent-eval report B --compare A lists them)", file=out)


def _compare_scans(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Two red-team scans: attack by attack, McNemar's exact test; exit 1 with ``--fail-on-regression`` when B is
    significantly less robust."""
    from ..report.red_team_compare import compare_scans
    from .redteam_output import print_scan_comparison

    try:
        cmp = compare_scans(args.run_a, args.run_b, alpha=args.alpha)
    except AgentEvalError as exc:
        return print_error(err, exc)
    if args.json:
        for row in cmp.rows:
            print(json.dumps(row.as_json(), allow_nan=False), file=out)
    else:
        print_scan_comparison(cmp, out)
    return 1 if args.fail_on_regression and cmp.overall.verdict == "less_robust" else 0


def _print_corrected(run_a: str, run_b: str, out: TextIO) -> None:
    """Raw and corrected pass rates side by side, for the evaluators whose judge people's labels certified."""
    from pathlib import Path

    from ..report.compare_html import corrected_lines
    from ..runner.summary_file import read_summary

    lines = corrected_lines(read_summary(Path(run_a) / "summary.json") or {},
                            read_summary(Path(run_b) / "summary.json") or {})
    if lines:
        print("\nPass rates corrected for the judge's errors (judge certified by people's labels; 95% intervals):",
              file=out)
        for line in fit_table(["evaluator", "A raw", "A corrected", "B raw", "B corrected"], lines, cut_order=(0,)):
            print(line, file=out)


def compare_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..report import compare_runs
    from ..report.red_team_scores import has_scan

    scans = [has_scan(args.run_a), has_scan(args.run_b)]
    if all(scans):  # two scans: attack success, paired per attack
        return _compare_scans(args, out, err)
    if any(scans):
        scan, other = (args.run_a, args.run_b) if scans[0] else (args.run_b, args.run_a)
        return print_error(err, f"{scan} is a red-team scan and {other} is not (no red_team.json): compare two scans "
                                "(agent-eval redteam --output) or two runs")
    try:
        cmp = compare_runs(args.run_a, args.run_b, metrics=args.metric or None, alpha=args.alpha,
                           min_effect=args.min_effect, key=args.key)
    except AgentEvalError as exc:
        return print_error(err, exc)
    if not cmp.metrics:  # nothing compared is no verdict: a gate must not read it as "no regression"
        return print_error(err, f"nothing to compare: {cmp.a} and {cmp.b} have no evaluator metric in common "
                                "(compare runs of the same evaluators, or name one both have with --metric)")
    if args.json:
        for m in cmp.metrics:
            print(json.dumps(m.as_json(), allow_nan=False), file=out)
    else:
        print_comparison(cmp, out)
        _print_corrected(args.run_a, args.run_b, out)
    return 1 if args.fail_on_regression and cmp.regressed else 0


def add_compare_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    cmp = sub.add_parser(
        "compare", help="did run B get worse than run A? paired intervals, tests and a verdict per metric",
        description="Compare two runs over the same rows: per metric the paired difference B-A with its 95%% "
                    "interval, a paired test (McNemar for pass rates, Wilcoxon for scores) with Holm's "
                    "correction, and a verdict: improved, regressed, no_change or inconclusive. Two red-team scan "
                    "folders (agent-eval redteam --output) are compared attack by attack: ASR of each, McNemar's "
                    "exact test, and whether B is more robust.")
    cmp.add_argument("run_a", metavar="RUN_A", help="the baseline run folder")
    cmp.add_argument("run_b", metavar="RUN_B", help="the run to judge against it")
    cmp.add_argument("--metric", "-m", action="append", metavar="ALIAS.METRIC",
                     help="compare only this metric (repeatable; default: every evaluator's score and pass_rate)")
    cmp.add_argument("--alpha", type=float, default=0.05, help="test level after Holm's correction (default 0.05)")
    cmp.add_argument("--min-effect", type=float, default=None, metavar="X",
                     help="a change smaller than this is no change (default 0.05 on 0-1 scales, 0.25 on 1-5)")
    cmp.add_argument("--key", metavar="COLUMN", help="the data column that names rows (default: id/eval_id, else "
                                                     "the data line)")
    cmp.add_argument("--fail-on-regression", action="store_true",
                     help="exit 1 when a selected metric regressed (two scans: when B is significantly less robust)")
    cmp.add_argument("--json", action="store_true", help="one JSON object per metric on stdout")
    cmp.set_defaults(func=compare_command)
