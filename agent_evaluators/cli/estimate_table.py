"""``agent-eval run --dry-run``'s output: the estimate per evaluator, as a table, and the run's total.

A dry run calls no judge and checks no thresholds; it exits 0 (a bad estimate is not a failed run).
"""

from typing import Any, Mapping, TextIO

from .._util.safe_text import terminal_safe as _safe
from ..judge.prices import format_usd
from .table import fit_table


def _count(value: Any) -> str:
    return "?" if value is None else f"{value:,}"


def print_estimate(estimate: Mapping[str, Any], out: TextIO) -> None:
    """The estimate's table (one line per evaluator, then the total) and how tokens were counted."""
    rows = []
    for alias, entry in estimate.items():
        if alias == "total" or not isinstance(entry, Mapping):
            continue
        if entry.get("note"):
            rows.append([alias, "-", "-", "-", "-", "-"])
            continue
        rows.append([alias, entry.get("model") or "-", _count(entry.get("judge_calls")),
                     _count(entry.get("prompt_tokens")), _count(entry.get("completion_tokens")),
                     format_usd(entry.get("cost_usd")) if entry.get("judge_calls") else "-"])
    total = estimate.get("total") or {}
    rows.append(["total", "", _count(total.get("judge_calls")), _count(total.get("prompt_tokens")),
                 _count(total.get("completion_tokens")), format_usd(total.get("cost_usd"))])
    headers = ["evaluator", "judge model", "judge calls", "prompt tokens", "completion tokens", "cost"]
    for line in fit_table(headers, rows, right={2, 3, 4, 5}, short_headers={2: "calls", 3: "prompt", 4: "completion"},
                          cut_order=(1, 0)):
        print(_safe(line), file=out)
    for alias, entry in estimate.items():
        if isinstance(entry, Mapping) and (entry.get("note") or entry.get("about")):
            print(_safe(f"{alias}: {entry.get('note') or entry['about']}"), file=out)
    if total.get("token_method"):
        print("\n" + _safe(f"Tokens counted with: {total['token_method']}"), file=out)
    print("Completion tokens: the size of a schema-valid verdict with a one-line reason (a real judge's "
          "reasons are often longer).", file=out)
