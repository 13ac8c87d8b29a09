"""The HTML report's compare view: metric deltas, the paired verdicts with their interval bars, flipped rows.

The numbers come from :mod:`.paired`, the engine ``agent-eval compare`` prints; this module only
renders them (every piece of user content escaped, as in :mod:`.html`).
"""

from typing import Any, Dict, List, Optional

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
    return {"deltas": deltas, "flips": flips, "previous": str(previous.path), "paired": paired, "unpaired_why": why,
            "corrected": _corrected_section(previous.summary, current.summary)}


def corrected_rates(a: Dict[str, Any], b: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Per evaluator that either run (``summary.json`` contents, A then B) corrected for its judge's errors (a judge
    certified by people's labels): the raw and the corrected pass rate of each run, side by side, with intervals."""
    out = []
    aliases = sorted({k[:-len(".corrected_pass_rate")] for s in (a, b) for k in (s.get("metrics") or {})
                      if k.endswith(".corrected_pass_rate")})
    for alias in aliases:
        row: Dict[str, Any] = {"alias": alias}
        for side, s in (("a", a), ("b", b)):
            metrics, intervals = s.get("metrics") or {}, s.get("intervals") or {}
            for name in ("pass_rate", "corrected_pass_rate"):
                row[f"{side}_{name}"] = metrics.get(f"{alias}.{name}")
                row[f"{side}_{name}_interval"] = intervals.get(f"{alias}.{name}")
        out.append(row)
    return out


def _rate_text(value: Any, interval: Any) -> str:
    if not isinstance(value, (int, float)):
        return "–"
    ok = isinstance(interval, dict) and isinstance(interval.get("low"), (int, float))
    return f"{value:.3f}" + (f" [{interval['low']:.3f}, {interval['high']:.3f}]" if ok else "")


def corrected_lines(a: Dict[str, Any], b: Dict[str, Any]) -> List[List[str]]:
    """:func:`corrected_rates` as table rows: evaluator, A raw, A corrected, B raw, B corrected."""
    return [[r["alias"]] + [_rate_text(r[f"{side}_{name}"], r[f"{side}_{name}_interval"])
                            for side in ("a", "b") for name in ("pass_rate", "corrected_pass_rate")]
            for r in corrected_rates(a, b)]


def _corrected_section(previous: Dict[str, Any], current: Dict[str, Any]) -> str:
    lines = corrected_lines(previous, current)
    if not lines:
        return ""
    body = "".join("<tr>" + "".join(f"<td>{esc(cell)}</td>" for cell in line) + "</tr>" for line in lines)
    return ("<h3>Pass rates corrected for the judge's errors (judge certified by people's labels)</h3><table><thead>"
            "<tr><th>evaluator</th><th>A raw</th><th>A corrected</th><th>B raw</th><th>B corrected</th></tr></thead>"
            f"<tbody>{body}</tbody></table>")


#: the interval bars' width in pixels; every bar and the axis above them share one scale, -span..+span
_BAR_W = 160


def _x(v: float, span: float) -> float:
    return round(_BAR_W / 2 + max(-1.0, min(1.0, v / span)) * (_BAR_W / 2 - 4), 1)


def _interval_axis(span: float) -> str:
    """The scale the interval bars are drawn on, in the column's header: -span, 0 and +span marked."""
    ticks = "".join(
        f'<line x1="{_x(v, span)}" x2="{_x(v, span)}" y1="12" y2="16" stroke="#666"/>'
        f'<text x="{_x(v, span)}" y="10" font-size="9" text-anchor="middle">{esc(label)}</text>'
        for v, label in ((-span, "-" + _num(span)), (0.0, "0"), (span, "+" + _num(span))))
    return (f'<svg class="ci-axis" width="{_BAR_W}" height="18" role="img" aria-label="B-A from -{_num(span)} to '
            f'+{_num(span)}"><line x1="{_x(-span, span)}" x2="{_x(span, span)}" y1="16" y2="16" stroke="#666"/>'
            f"{ticks}</svg>")


def _interval_bar(low: Optional[float], high: Optional[float], span: float, bound: float) -> str:
    """An inline SVG: the interval of B-A on the axis's scale, a zero line across it, the +-min_effect band shaded."""
    if low is None or high is None or span <= 0:
        return ""
    h = 14
    zero = _x(0.0, span)
    return (
        f'<svg class="ci" width="{_BAR_W}" height="{h}" role="img" aria-label="interval {_num(low)} to {_num(high)}">'
        f'<rect x="{_x(-bound, span)}" y="0" width="{round(_x(bound, span) - _x(-bound, span), 1)}" height="{h}" '
        'fill="#eef0f3"/>'
        f'<line class="zero" x1="{zero}" x2="{zero}" y1="0" y2="{h}" stroke="#c0392b" stroke-dasharray="2,2"/>'
        f'<line x1="{_x(low, span)}" x2="{_x(high, span)}" y1="{h / 2}" y2="{h / 2}" stroke="#333" '
        'stroke-width="3"/></svg>'
    )


def _verdict_section(cmp: Dict[str, Any]) -> str:
    paired = cmp.get("paired")
    if paired is None:
        why = cmp.get("unpaired_why")
        return f'<p class="muted">No paired verdicts: {esc(why)}</p>' if why else ""
    from .paired import by_effect

    span = max([abs(v) for m in paired.metrics for v in (m.ci_low, m.ci_high, m.min_effect) if v is not None] or [1.0])
    rows = []
    for m in by_effect(paired.metrics):
        ci = f"[{_num(m.ci_low)}, {_num(m.ci_high)}]" if m.ci_low is not None else "–"
        rows.append(
            f'<tr class="verdict-row"><td><code>{esc(m.metric)}</code></td><td>{m.n_pairs}</td>'
            f"<td>{esc(_num(m.mean_a))}</td><td>{esc(_num(m.mean_b))}</td><td>{esc(_num(m.diff))}</td>"
            # the bar first, so that it lines up under the header's axis; the numbers under it
            f"<td>{_interval_bar(m.ci_low, m.ci_high, span, m.min_effect)}<br>{esc(ci)}</td>"
            f"<td>{esc(_num(m.p_adjusted))}</td><td>{esc(m.test)}</td>"
            f'<td><span class="badge verdict-{esc(m.verdict)}">{esc(m.verdict)}</span></td></tr>'
        )
    return (
        f"<h3>Paired verdicts (B = this run, A = the earlier one; {paired.n_pairs} rows paired, "
        f"{paired.unpaired_a} only in A, {paired.unpaired_b} only in B)</h3>"
        '<table class="verdicts"><thead><tr><th>metric</th><th>pairs</th><th>A</th><th>B</th><th>B−A</th>'
        f"<th>95% interval<br>{_interval_axis(span)}</th><th>p (Holm)</th><th>test</th><th>verdict</th></tr></thead>"
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
        f"{cmp.get('corrected') or ''}{_verdict_section(cmp)}{flip_table}</section>"
    )
