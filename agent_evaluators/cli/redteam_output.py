"""The terminal output of a red-team scan: its scorecard table, and two scans compared.

Both read the scan folder through :mod:`agent_evaluators.report.red_team_scores` (the HTML report's
counts), and lay out with :func:`~.table.fit_table`, so the table fits the terminal.
"""

from typing import Any, List, TextIO

from .._util.safe_text import terminal_safe as _safe
from .table import fit_table


def _asr(a: Any) -> List[str]:
    if a.asr is None:
        return ["-", "-", "0", str(a.counts["refused"]), str(a.errors)]
    lo, hi = a.interval
    return [f"{a.asr:.1f}%", f"[{lo:.1f}, {hi:.1f}]", f"{a.successes}/{a.n}", str(a.counts["refused"]), str(a.errors)]


def print_scorecard(scan: Any, out: TextIO) -> None:
    """Risk category × strategy × ASR (95% Wilson interval, successes/n), then each category's and the overall row."""
    from ..report.red_team_scores import scan_grid

    rows = [[c, t, *_asr(a)] for c, t, a in scan_grid(scan)]
    by_cat = scan.asr_by("risk_category")
    rows += [[c, "(all)", *_asr(by_cat[(c,)])] for c in scan.categories] if len(scan.techniques) > 1 else []
    rows.append(["overall", "(all)", *_asr(scan.overall)])
    headers = ["risk category", "strategy", "ASR", "95% interval", "succ/n", "refused", "errors"]
    for line in fit_table(headers, rows, right={2, 3, 4, 5, 6}, cut_order=(0, 1),
                          short_headers={3: "95% CI", 5: "refus", 6: "err"}):
        print(_safe(line), file=out)
    if scan.overall.errors:
        print(_safe(f"{scan.overall.errors} attack(s) not scored (target or judge errors): not in n, not counted as "
                    "defended; why:"), file=out)
        reasons: dict = {}
        for a in scan.attacks:
            if a.outcome in ("target_error", "judge_error"):
                why = _without_row(" ".join(a.reason.split()))  # one cause, not one per attack
                reasons.setdefault((a.outcome, why), []).append(a.attack_id or str(a.index))
        for (outcome, reason), ids in list(reasons.items())[:5]:
            more = f" and {len(ids) - 1} more" if len(ids) > 1 else ""
            print(_safe(f"  {outcome}: {reason[:300]} ({ids[0]}{more})"), file=out)


def _p(v: float) -> str:
    return "-" if v != v else ("<0.001" if v < 0.001 else f"{v:.3f}")


def print_scan_comparison(cmp: Any, out: TextIO) -> None:
    """One line per group (overall, each category, each strategy): paired ASRs, flips, McNemar p, verdict."""
    rows = []
    for r in cmp.rows:
        asr_a = "-" if r.asr_a is None else f"{r.asr_a:.1f}%"
        asr_b = "-" if r.asr_b is None else f"{r.asr_b:.1f}%"
        verdict = {"more_robust": "B more robust", "less_robust": "B LESS ROBUST"}.get(r.verdict, "not significant")
        rows.append([r.group, str(r.n_pairs), asr_a, asr_b, str(r.fixed), str(r.broken), _p(r.p_value),
                     _p(r.p_adjusted) if r.group != "overall" else "", verdict])
    headers = ["attacks", "pairs", "ASR A", "ASR B", "fixed in B", "broken in B", "p", "p (Holm)", "verdict"]
    for line in fit_table(headers, rows, right={1, 2, 3, 4, 5, 6, 7}, cut_order=(0,),
                          short_headers={4: "fixed", 5: "broken"}):
        print(_safe(line), file=out)
    print("", file=out)
    for line in (f"A: {cmp.a}", f"B: {cmp.b}",
                 f"{cmp.overall.n_pairs} attack(s) paired by attack id (strategy/category/objective), McNemar exact "
                 f"test on the {cmp.overall.fixed + cmp.overall.broken} that changed; {cmp.errored_pairs} pair(s) with "
                 f"a target or judge error left out; {cmp.unpaired_a} only in A, {cmp.unpaired_b} only in B (not "
                 "compared)"):
        print(_safe(line), file=out)
    o = cmp.overall
    if o.verdict == "not_significant":
        print(f"Overall: no significant difference at alpha {cmp.alpha:g} (p = {_p(o.p_value)}); these pairs cannot "
              "tell the versions apart: add objectives (--num-objectives) or strategies", file=out)
    else:
        word = "more" if o.verdict == "more_robust" else "LESS"
        print(f"Overall: B is {word} robust than A (p = {_p(o.p_value)}, McNemar exact, alpha {cmp.alpha:g})", file=out)


def _without_row(reason: str) -> str:
    """``"row 12: the judge ..."`` -> ``"the judge ..."``: attacks that failed for one cause group together."""
    head, sep, rest = reason.partition(": ")
    return rest if sep and head.startswith("row ") and head[4:].isdigit() else reason
