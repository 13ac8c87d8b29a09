"""The HTML report's "Estimate" section: a dry run's estimate, and a later run's comparison with it.

A dry run's folder (``summary.json`` ``status: "dry_run"``) has no rows: its report shows the estimate
per evaluator; a real run made after a dry run in the same folder also shows ``estimate_vs_actual``.
"""

from typing import Any, Mapping

from ..judge.prices import format_usd
from .load import RunData
from .text import esc


def _count(value: Any) -> str:
    return "unknown" if value is None else f"{value:,}"


def _estimate_rows(estimate: Mapping[str, Any]) -> str:
    out = []
    ordered = [(a, e) for a, e in estimate.items() if a != "total"] + [("total", estimate.get("total"))]
    for alias, e in ordered:
        if not isinstance(e, Mapping):
            continue
        note = e.get("note") or e.get("about") or ""
        cost = format_usd(e.get("cost_usd")) if e.get("judge_calls") or alias == "total" else "-"
        out.append(f"<tr><td>{esc(alias)}</td><td>{esc(e.get('model') or '')}</td><td>{_count(e.get('judge_calls'))}</td>"
                   f"<td>{_count(e.get('prompt_tokens'))}</td><td>{_count(e.get('completion_tokens'))}</td>"
                   f"<td>{esc(cost)}</td><td>{esc(note)}</td></tr>")
    return "".join(out)


def _compared_rows(compared: Mapping[str, Any]) -> str:
    out = []
    for alias, c in compared.items():
        cells = "".join(
            f"<td>{_count((c.get(k) or {}).get('estimated'))} → {_count((c.get(k) or {}).get('actual'))}"
            f" ({'-' if (c.get(k) or {}).get('ratio') is None else c[k]['ratio']})</td>"
            for k in ("judge_calls", "prompt_tokens", "completion_tokens"))
        out.append(f"<tr><td>{esc(alias)}</td>{cells}</tr>")
    return "".join(out)


def estimate_section(run: RunData) -> str:
    """The section, or ``""`` for a run with no estimate."""
    estimate = run.summary.get("estimate")
    if not isinstance(estimate, Mapping):
        return ""
    method = (estimate.get("total") or {}).get("token_method")
    dry = run.summary.get("status") == "dry_run"
    head = ("<p>A dry run: no judge was called and no rows were written.</p>" if dry else
            "<p>The dry run's estimate made before this run, and how the run compares (estimated → actual, ratio).</p>")
    html = (f'<section id="estimate"><h2>Estimate</h2>{head}<table><thead><tr><th>evaluator</th><th>judge model</th>'
            "<th>judge calls</th><th>prompt tokens</th><th>completion tokens</th><th>cost</th><th></th></tr></thead>"
            f"<tbody>{_estimate_rows(estimate)}</tbody></table>")
    if method:
        html += f'<p class="muted">Tokens counted with: {esc(method)}</p>'
    compared = run.summary.get("estimate_vs_actual")
    if isinstance(compared, Mapping) and compared:
        html += ("<h3>Estimate vs actual</h3><table><thead><tr><th>evaluator</th><th>judge calls</th>"
                 f"<th>prompt tokens</th><th>completion tokens</th></tr></thead><tbody>{_compared_rows(compared)}"
                 "</tbody></table>")
    return html + "</section>"
