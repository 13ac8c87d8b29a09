"""The HTML report's compare view: metric deltas, the paired verdicts with their interval bars, flipped rows.

The numbers come from :mod:`.paired`, the engine ``agent-eval compare`` prints; this module only
renders them (every piece of user content escaped, as in :mod:`.html`).
"""

from typing import Any, Dict, Optional

from .direction import change_class, metric_direction
from .load import RunData, row_key
from .text import esc
from .text import num_text as _num

_BADGE = {"pass": "pass", "fail": "fail", "error": "error", "not_applicable": "n/a", "none": "-", "skipped": "skipped"}


def compare_view(current: RunData, previous: RunData) -> Dict[str, Any]:
    """Metric deltas, the paired verdicts of :mod:`.paired` (the engine ``agent-eval compare`` prints) and
    the cells whose verdict changed between two runs."""
    from ..errors import AgentEvalError
    from .paired import compare_loaded, flipped_rows

    cm, pm = current.metrics, previous.metrics
    deltas = []
    for name in sorted(set(cm) | set(pm)):
        a, b = pm.get(name), cm.get(name)
        if name.endswith((".n", "_count")) and a == b:
            continue
        if isinstance(a, (int, float)) or isinstance(b, (int, float)):
            d = b - a if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None
            deltas.append({"metric": name, "previous": a, "current": b, "delta": d})
    try:
        paired = compare_loaded(previous, current)
    except AgentEvalError as exc:  # rows that cannot be paired: the deltas still stand
        paired, why = None, str(exc)
    else:
        why = ""
    prev_rows = {row_key(r): r for r in previous.rows}
    cur_rows = {row_key(r): r for r in current.rows}
    aliases = [a for a in current.aliases if a in previous.aliases]
    flips = flipped_rows(prev_rows, cur_rows, [k for k in cur_rows if k in prev_rows], aliases)
    return {"deltas": deltas, "flips": flips, "previous": str(previous.path), "paired": paired, "unpaired_why": why}


def _interval_bar(low: Optional[float], high: Optional[float], span: float, bound: float) -> str:
    """An inline SVG: the interval of B-A around 0, the +-min_effect band shaded."""
    if low is None or high is None or span <= 0:
        return ""
    w, h = 160, 14

    def x(v: float) -> float:
        return round(w / 2 + max(-1.0, min(1.0, v / span)) * (w / 2 - 4), 1)

    return (
        f'<svg class="ci" width="{w}" height="{h}" role="img" aria-label="interval {_num(low)} to {_num(high)}">'
        f'<rect x="{x(-bound)}" y="0" width="{round(x(bound) - x(-bound), 1)}" height="{h}" fill="#eef0f3"/>'
        f'<line x1="{w / 2}" x2="{w / 2}" y1="0" y2="{h}" stroke="#999"/>'
        f'<line x1="{x(low)}" x2="{x(high)}" y1="{h / 2}" y2="{h / 2}" stroke="#333" stroke-width="3"/></svg>'
    )


def _verdict_section(cmp: Dict[str, Any]) -> str:
    paired = cmp.get("paired")
    if paired is None:
        why = cmp.get("unpaired_why")
        return f'<p class="muted">No paired verdicts: {esc(why)}</p>' if why else ""
    span = max([abs(v) for m in paired.metrics for v in (m.ci_low, m.ci_high, m.min_effect) if v is not None] or [1.0])
    rows = []
    for m in paired.metrics:
        ci = f"[{_num(m.ci_low)}, {_num(m.ci_high)}]" if m.ci_low is not None else "–"
        rows.append(
            f'<tr class="verdict-row"><td><code>{esc(m.metric)}</code></td><td>{m.n_pairs}</td>'
            f"<td>{esc(_num(m.mean_a))}</td><td>{esc(_num(m.mean_b))}</td><td>{esc(_num(m.diff))}</td>"
            f"<td>{esc(ci)} {_interval_bar(m.ci_low, m.ci_high, span, m.min_effect)}</td>"
            f"<td>{esc(_num(m.p_adjusted))}</td><td>{esc(m.test)}</td>"
            f'<td><span class="badge verdict-{esc(m.verdict)}">{esc(m.verdict)}</span></td></tr>'
        )
    return (
        f"<h3>Paired verdicts (B = this run, A = the earlier one; {paired.n_pairs} rows paired, "
        f"{paired.unpaired_a} only in A, {paired.unpaired_b} only in B)</h3>"
        '<table class="verdicts"><thead><tr><th>metric</th><th>pairs</th><th>A</th><th>B</th><th>B−A</th>'
        "<th>95% interval</th><th>p (Holm)</th><th>test</th><th>verdict</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def compare_section(cmp: Optional[Dict[str, Any]]) -> str:
    if cmp is None:
        return ""
    rows = []
    for d in cmp["deltas"]:
        delta = d["delta"]
        cls = change_class(d["metric"], delta)
        direction = metric_direction(d["metric"])
        hint = f"{direction} is better" if direction else "neither direction is better"
        sign = "" if delta is None else ("+" if delta > 0 else "")
        shown_delta = esc(sign + _num(delta)) if delta is not None else "–"
        rows.append(
            f"<tr><td><code>{esc(d['metric'])}</code></td><td>{esc(_num(d['previous']))}</td>"
            f'<td>{esc(_num(d["current"]))}</td><td class="{cls}" title="{esc(hint)}">{shown_delta}</td></tr>'
        )
    flips = "".join(
        f'<tr class="flip"><td>{esc(f["row"])}</td><td>{esc(f["alias"])}</td>'
        f'<td><span class="badge {esc(f["before"])}">{esc(_BADGE.get(f["before"], f["before"]))}</span> → '
        f'<span class="badge {esc(f["after"])}">{esc(_BADGE.get(f["after"], f["after"]))}</span></td></tr>'
        for f in cmp["flips"]
    )
    flip_table = (
        (
            f"<h3>Rows that flipped ({len(cmp['flips'])})</h3><table><thead><tr><th>row</th><th>evaluator</th>"
            f"<th>previous → current</th></tr></thead><tbody>{flips}</tbody></table>"
        )
        if cmp["flips"]
        else '<p class="muted">No row changed its verdict.</p>'
    )
    return (
        f'<section id="compare"><h2>Compared with {esc(cmp["previous"])}</h2><table><thead><tr><th>metric</th>'
        f"<th>previous</th><th>current</th><th>delta</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f"{_verdict_section(cmp)}{flip_table}</section>"
    )
