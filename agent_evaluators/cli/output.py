"""The terminal output of ``agent-eval run``: the metrics table, failing rows, run thresholds."""

from typing import Any, Dict, List, Mapping, Sequence, TextIO

from .._util.safe_text import terminal_safe as _safe
from ..judge.prices import format_usd
from .run_outcome import CellFailure, RunOutcome
from .table import fit_table, terminal_width

MAX_FAILING_SHOWN = 15


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _tokens(usage: Any, scored: Any = None) -> str:
    if not isinstance(usage, Mapping):
        return "-"
    p, c = usage.get("prompt_tokens"), usage.get("completion_tokens")
    calls = usage.get("judge_calls")
    if p is None and c is None and not calls:
        return "-"
    if (p is None or c is None) and not scored:  # every call failed: nothing was spent, nothing is unknown
        return "0 tokens (no successful calls)"
    total = "?" if p is None or c is None else f"{p + c:,}"
    cached = usage.get("cached_tokens")  # prompt tokens the provider served from its prompt cache, where it says
    return f"{total} ({calls or 0} calls{f', {cached:,} cached' if cached else ''})"


def _cost(usage: Any, scored: Any = None) -> str:
    """The judge cost cell: ``$0.0123``, ``unknown`` (no price, or a call without token counts), or ``-``
    (no judge, every call failed, or a run written before costs were kept)."""
    if not isinstance(usage, Mapping) or "cost_usd" not in usage or not usage.get("judge_calls"):
        return "-"
    if usage["cost_usd"] is None and not scored and usage.get("prompt_tokens") is None:
        return "-"  # every call failed: the tokens column says nothing was spent
    return format_usd(usage["cost_usd"])


def _shorten(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def print_table(outcome: RunOutcome, out: TextIO) -> None:
    rate_name = "binary_aggregate" if outcome.azure_compat else "pass_rate"  # 1.18's name in its meaning
    headers = ["evaluator", "metric", "mean", rate_name.replace("_", " "), "scored", "failed", "errors", "n/a",
               "judge cost", "judge tokens"]
    table: List[List[str]] = []
    not_run = any(outcome.not_run(a) for a in outcome.aliases)  # a column only when the budget cut the run short
    if not_run:
        headers.insert(8, "not run")
    for alias in outcome.aliases:
        key = outcome.result_keys.get(alias) or "-"
        if alias in outcome.skipped:
            table.append([alias, key, "skipped", "", "", "", "", "", "", ""] + ([""] if not_run else []))
            continue
        m = outcome.metrics
        rate = m.get(f"{alias}.{rate_name}")
        fails = sum(1 for f in outcome.failures if f.alias == alias and f.kind == "fail")
        errs = sum(1 for f in outcome.failures if f.alias == alias and f.kind == "error")
        table.append([
            alias, key, _fmt(m.get(f"{alias}.{key}")),
            "-" if rate is None else f"{100 * rate:.1f}%",
            _fmt(m.get(f"{alias}.n")), str(fails), str(errs),
            _fmt(m.get(f"{alias}.not_applicable_count")), *([str(outcome.not_run(alias))] if not_run else []),
            _cost(outcome.usage.get(alias), m.get(f"{alias}.n")), _tokens(outcome.usage.get(alias), m.get(f"{alias}.n")),
        ])
    shift = 1 if not_run else 0
    short = {3: "binary" if outcome.azure_compat else "pass", 4: "n", 5: "fail", 6: "err", 8 + shift: "cost",
             9 + shift: "tokens", **({8: "unrun"} if not_run else {})}
    lines = fit_table(headers, table, right=set(range(2, 9 + shift)), cut_order=(1, 0, 9 + shift), short_headers=short)
    for text in lines:
        print(_safe(text), file=out)
    print_intervals(outcome, out)


def _span(iv: Any, percent: bool = False) -> str:
    if not isinstance(iv, Mapping) or not isinstance(iv.get("low"), (int, float)):
        return "-"
    if percent:
        return f"[{100 * iv['low']:.1f}%, {100 * iv['high']:.1f}%]"
    return f"[{iv['low']:.3f}, {iv['high']:.3f}]"


def print_intervals(outcome: RunOutcome, out: TextIO) -> None:
    """Each mean's and pass rate's 95% interval under the table (summary.json's ``"intervals"``), so a
    reader sees how far the headline number could move on other rows like these."""
    ivs = outcome.intervals
    table: List[List[str]] = []
    for alias in outcome.aliases:
        key = outcome.result_keys.get(alias) or "-"
        for name, percent in ((f"{alias}.{key}", False), (f"{alias}.pass_rate", True)):
            iv = ivs.get(name)
            if isinstance(iv, Mapping):
                table.append([name, _span(iv, percent), str(iv.get("method"))])
    if not table:
        return
    print("", file=out)
    for text in fit_table(["metric", "95% interval", "method"], table, cut_order=(0,)):
        print(_safe(text), file=out)


def _grouped(errors: Sequence[CellFailure]) -> List[List[CellFailure]]:
    """Error cells with the same problem, in order of first appearance: a dead judge or a rejected
    key is one problem, not one per cell (an error cell's ``reason`` is its problem, without what names
    the cell: :func:`~.messages.cell_reason`)."""
    groups: Dict[str, List[CellFailure]] = {}
    for f in errors:
        groups.setdefault(f.reason, []).append(f)
    return list(groups.values())


def _rows(group: Sequence[CellFailure], shown: int = 8) -> str:
    lines = sorted({f.line for f in group})
    more = f", … ({len(lines)} rows)" if len(lines) > shown else ""
    return ", ".join(str(n) for n in lines[:shown]) + more


def print_failures(outcome: RunOutcome, out: TextIO) -> None:
    if not outcome.failures:
        return
    unreadable = [f for f in outcome.failures if f.kind == "row"]
    if unreadable:
        print(f"\nUnreadable input lines ({len(unreadable)}; no evaluator ran on them):", file=out)
        for f in unreadable[:MAX_FAILING_SHOWN]:
            print(f"  row {f.line:<4} {_safe(_shorten(f.reason, 300))}", file=out)
    errors = [f for f in outcome.failures if f.kind == "error"]
    fails = [f for f in outcome.failures if f.kind == "fail"]
    if errors:
        print(f"\nErrors ({len(errors)} cell(s)):", file=out)
        groups = _grouped(errors)
        for group in groups[:MAX_FAILING_SHOWN]:
            f = group[0]
            if len(group) == 1:
                reason = _safe(_shorten(f.reason, 600))
                print(f"  row {f.line:<4} {_safe(f.label):<16} {_safe(f.alias):<16}\n      {reason}", file=out)
                continue
            aliases = ", ".join(dict.fromkeys(_safe(g.alias) for g in group))
            reason = _safe(_shorten(f.reason, 600))
            print(f"  {len(group)} cells: {aliases}, rows {_rows(group)}\n      {reason}", file=out)
        hidden = sum(len(g) for g in groups[MAX_FAILING_SHOWN:])
        if hidden:
            print(f"  ... and {hidden} more (see summary.json)", file=out)
    if fails:
        print(f"\nFailing rows ({len(fails)} cell(s) that miss their threshold):", file=out)
        for f in fails[:MAX_FAILING_SHOWN]:
            cmp = f"{_fmt(f.score, 2)} {_missed(f.score, f.threshold)} {_fmt(f.threshold, 2)}" if f.score is not None else "fail"
            reason = _safe(_shorten(f.reason, max(20, min(80, terminal_width() - 59))))
            print(f"  row {f.line:<4} {_safe(f.label):<16} {_safe(f.alias):<16} {cmp:<13} {reason}", file=out)
        if len(fails) > MAX_FAILING_SHOWN:
            print(f"  ... and {len(fails) - MAX_FAILING_SHOWN} more (see rows.jsonl or --html)", file=out)


def print_checks(outcome: RunOutcome, out: TextIO) -> None:
    if not outcome.checks:
        return
    print("\nRun thresholds:", file=out)
    width = terminal_width()
    check_width = min(44, max(len(c["check"]) for c in outcome.checks))
    for c in outcome.checks:
        value = "" if c["value"] is None else f"(actual {_fmt(c['value'])})"
        note = "(judge skipped)" if c["status"] == "skipped" else c["note"]
        label = {"pass": "PASS", "fail": "FAIL", "skipped": "SKIP", "error": "ERROR",
                 "inconclusive": "INCONCLUSIVE", "incomplete": "INCOMPLETE"}[c["status"]]
        head = f"  {label:<5} {c['check']:<{check_width}} {value:<16}"
        if note and len(head) + len(note) > width:  # a narrow terminal: the note on a line of its own
            print(_safe(head.rstrip()), file=out)
            head = " " * 8
        print(_safe(f"{head}{note}".rstrip()), file=out)


def _missed(score: Any, threshold: Any) -> str:
    """How a failing score missed its threshold: ``<`` (too low), or ``>`` where a number above the
    threshold failed (a lower-is-better metric, such as a harm severity)."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (score, threshold))
    return ">" if numbers and score > threshold else "<"
