"""The single-file HTML report: no network, inline CSS, JS and SVG.

Everything is rendered here, in Python, with every piece of user content
escaped (``html.escape``), so the page is safe to open whatever the agent said
and readable with JavaScript off. The small inline script only filters rows
(status, evaluator, text) and keeps the filter in the URL hash, e.g.
``report.html#status=failing&evaluator=trajectory``, so a filtered view can be linked.
"""

import json
import math
from datetime import datetime
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..config.calibration_records import describe_calibration
from ..judge.prices import format_usd
from ..runner.option_table import RUN_OPTIONS
from ..runner.panel_votes import describe_agreement
from ..stats.noise import split_variance
from .compare_html import compare_section, compare_view
from .estimate_html import estimate_section
from .load import RunData, cell_status, row_label
from .red_team_html import red_team_compare_section, red_team_section
from .red_team_scores import has_scan, load_scan
from .sample_size import agent_run_pass_at_k, noise_rows
from .text import MAX_VALUE_CHARS, clip, esc, shown_json, to_json
from .text import num_text as _num
from .transcript import transcript_html

STATUSES = ("pass", "fail", "error", "not_applicable")
_BADGE = {"pass": "pass", "fail": "fail", "error": "error", "not_applicable": "n/a", "none": "-", "skipped": "skipped",
          "not_run": "not run"}


def _bins(scores: Sequence[float], scale: Optional[Tuple[float, float]] = None
          ) -> Tuple[List[Tuple[str, int]], float, float]:
    """(label, count) bars: one per integer on small integer scales, else 10 equal bins.

    ``scale``: the evaluator's (low, high), when known; without it the axis is read off the
    scores (a 0/1 metric whose scores are all 1 would otherwise be drawn on a 1–5 axis).
    """
    if scale is not None:
        lo, hi = scale
        lo, hi = min(lo, min(scores)), max(hi, max(scores))  # an out-of-scale score stays visible
        if float(lo).is_integer() and float(hi).is_integer() and hi - lo <= 10 and all(
                float(s).is_integer() for s in scores):
            counts = {i: 0 for i in range(int(lo), int(hi) + 1)}
            for s in scores:
                counts[int(s)] += 1
            return [(str(k), v) for k, v in counts.items()], lo - 0.5, hi + 0.5
        width = (hi - lo) / 10 or 1.0
        bars = [0] * 10
        for s in scores:
            bars[min(int((s - lo) / width), 9)] += 1
        return [(f"{lo + i * width:.2g}", c) for i, c in enumerate(bars)], lo, hi
    lo, hi = min(scores), max(scores)
    if all(float(s).is_integer() for s in scores) and hi - lo <= 10:
        lo_i = int(min(lo, 1 if lo >= 1 else 0))
        hi_i = int(max(hi, 5 if lo >= 1 and hi <= 5 else hi, 1))
        counts = {i: 0 for i in range(lo_i, hi_i + 1)}
        for s in scores:
            counts[int(s)] += 1
        return [(str(k), v) for k, v in counts.items()], lo_i - 0.5, hi_i + 0.5
    lo, hi = min(lo, 0.0), max(hi, 1.0)
    width = (hi - lo) / 10 or 1.0
    bars = [0] * 10
    for s in scores:
        bars[min(int((s - lo) / width), 9)] += 1
    return [(f"{lo + i * width:.2g}", c) for i, c in enumerate(bars)], lo, hi


def histogram_svg(scores: Sequence[float], threshold: Optional[float], title: str,
                  scale: Optional[Tuple[float, float]] = None) -> str:
    if not scores:
        return '<p class="muted">No scored rows.</p>'
    bars, lo, hi = _bins(scores, scale)
    w, h, pad_b, pad_t = 320, 130, 22, 14
    bw = w / len(bars)
    peak = max(c for _, c in bars) or 1
    parts = [f'<svg class="hist" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{esc(title)}">']
    for i, (label, count) in enumerate(bars):
        bh = (h - pad_b - pad_t) * count / peak
        x = i * bw
        parts.append(
            f'<rect x="{x + 2:.1f}" y="{h - pad_b - bh:.1f}" width="{bw - 4:.1f}" height="{bh:.1f}"><title>'
            f"{esc(label)}: {count}</title></rect>"
        )
        if count:
            parts.append(f'<text x="{x + bw / 2:.1f}" y="{h - pad_b - bh - 3:.1f}" class="cnt">{count}</text>')
        parts.append(f'<text x="{x + bw / 2:.1f}" y="{h - 6}" class="lbl">{esc(label)}</text>')
    if isinstance(threshold, (int, float)) and lo <= threshold <= hi:
        tx = (threshold - lo) / (hi - lo) * w
        parts.append(
            f'<line x1="{tx:.1f}" x2="{tx:.1f}" y1="{pad_t - 4}" y2="{h - pad_b}" class="thr">'
            f"<title>threshold {esc(_num(threshold))}</title></line>"
        )
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------------------- sections
def _option_text(value: Any) -> Any:
    """A run option from ``summary.json`` as one line (``tags`` as ``k=v, ...``); ``None`` when empty
    or a switch that is off (``azure_compat``: the line says when a run had 1.18's meaning)."""
    if value is False:
        return None
    if value is True:
        return "yes"
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or None
    return value


def _summary_section(run: RunData) -> str:
    s = run.summary
    cfg = s.get("config") or {}
    code = run.checks.get("exit_code")
    verdicts = {0: ("pass", "PASS"), 1: ("fail", "FAIL: a threshold failed"), 2: ("error", "ERROR: evaluator errors"),
                3: ("fail", "INCONCLUSIVE: a judge panel agrees too little, or a judge is not certified")}
    verdict = verdicts.get(code) if isinstance(code, int) else None
    if run.checks.get("budget_stopped") and not s.get("error_count"):
        verdict = ("error", "INCOMPLETE: stopped by the judge budget")
    items = [
        ("Data", cfg.get("data")),
        ("Rows", s.get("rows", len(run.rows))),
        ("Error cells", s.get("error_count", 0)),
        ("Started", s.get("started_at")),
        ("Duration", f"{s.get('duration_s')} s" if s.get("duration_s") is not None else None),
        ("Status", run.incomplete or s.get("status")),
        *[(o.report_label, _option_text(cfg.get(o.name))) for o in RUN_OPTIONS if o.report_label and o.in_summary],
        ("Versions", ", ".join(f"{k} {v}" for k, v in (s.get("versions") or {}).items() if isinstance(v, str))),
        *[(f"Judge of {alias}", describe_calibration(status)) for alias, status in (s.get("calibration") or {}).items()
          if isinstance(status, dict)],
        *[(f"Panel agreement {metric}", describe_agreement(record)) for metric, record in (s.get("agreement") or {}).items()
          if isinstance(record, dict)],
    ]
    dl = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in items if v not in (None, ""))
    head = f'<p class="verdict {verdict[0]}">{esc(verdict[1])}</p>' if verdict else ""
    if run.incomplete:
        head += f'<p class="verdict error">{esc(run.incomplete)}</p>'
    return f'<section id="summary"><h2>Run</h2>{head}<dl class="kv">{dl}</dl></section>'


def _checks_section(run: RunData) -> str:
    checks = run.checks.get("thresholds") or []
    skipped = run.skipped
    if not checks and not skipped:
        return ""
    rows = "".join(
        f'<tr><td><span class="badge {esc(c.get("status"))}">{esc(_BADGE.get(c.get("status"), c.get("status")))}</span></td>'
        f"<td><code>{esc(c.get('check'))}</code></td><td>{esc(_num(c.get('value')))}</td><td>{esc(c.get('note'))}</td></tr>"
        for c in checks
    )
    table = (
        (
            f"<table><thead><tr><th>status</th><th>threshold</th><th>actual</th><th>note</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )
        if checks
        else ""
    )
    note = ""
    if skipped:
        note = (
            f'<p class="skipnote">Skipped (no judge configured): {esc(", ".join(skipped))}. '
            f"To run them, {esc(run.checks.get('judge_howto') or 'configure a judge model')}.</p>"
        )
    return f'<section id="thresholds"><h2>Run thresholds</h2>{table}{note}</section>'


def _tokens(usage: Any) -> str:
    if not isinstance(usage, Mapping):
        return "–"
    parts = []
    for k in ("prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_tokens", "judge_calls", "attempts"):
        if k in usage:
            parts.append(f"{k.replace('_', ' ')}: {'unknown' if usage[k] is None else usage[k]}")
    if "cost_usd" in usage:  # runs written before prices have none
        parts.append(f"cost: {format_usd(usage['cost_usd'])}")
    return "; ".join(parts) or "–"


def _interval_text(iv: Any, percent: bool = False) -> Optional[str]:
    """``[low, high] (method)`` from summary.json's ``"intervals"``; None for runs written before them."""
    if not isinstance(iv, Mapping) or not isinstance(iv.get("low"), (int, float)):
        return None
    if percent:
        return f"[{100 * iv['low']:.1f}%, {100 * iv['high']:.1f}%] ({iv.get('method')})"
    return f"[{_num(iv['low'])}, {_num(iv['high'])}] ({iv.get('method')})"


def _noise_text(run: RunData, alias: str, key: Optional[str]) -> str:
    """The noise budget of the score where the run shows it: judge noise (repeated verdicts on one output),
    agent noise (ADK reruns of a case), as variances; nothing for a run without repetitions."""
    if not key:
        return ""
    split = split_variance(noise_rows(run, f"{alias}.{key}"))
    parts = [(name, v) for name, v in (("judge", split.judge), ("agent", split.agent)) if v is not None]
    if not parts:
        return ""
    text = ", ".join(f"{name} {_num(v)}" for name, v in parts) + f"; between rows {_num(split.rows)}"
    return f"<dt>noise (variance)</dt><dd>{esc(text)}</dd>"


def _certification_items(run: RunData, alias: str) -> List[Tuple[str, Any]]:
    """The corrected pass rate beside the raw one (a judge certified by people's labels), and the certification."""
    record = (run.summary.get("certification") or {}).get(alias)
    if not isinstance(record, dict):
        return []
    from ..calibration import describe_certification

    rate = run.metrics.get(f"{alias}.corrected_pass_rate")
    interval = _interval_text((run.summary.get("intervals") or {}).get(f"{alias}.corrected_pass_rate"), percent=True)
    corrected = f"{100 * rate:.1f}% {interval or ''}".strip() if isinstance(rate, (int, float)) else None
    return [("corrected pass rate", corrected),
            ("judge certification", describe_certification(alias, record).split(": ", 1)[1])]


def _evaluators_section(run: RunData) -> str:
    m = run.metrics
    ivs = run.summary.get("intervals") or {}
    cards = []
    usage = run.summary.get("usage") or {}
    for alias in run.aliases:
        key = run.result_key(alias)
        if alias in run.skipped:
            cards.append(
                f'<div class="card" data-alias="{esc(alias)}"><h3>{esc(alias)}</h3>'
                f'<p><span class="badge skipped">skipped</span> {esc(run.skipped[alias])}</p></div>'
            )
            continue
        desc = ((run.summary.get("config") or {}).get("evaluators") or {}).get(alias) or {}
        scores, thresholds = [], []
        non_finite = 0
        for row in run.rows:
            v = row.get(f"outputs.{alias}.{key}") if key else None
            if isinstance(v, (int, float)) and not isinstance(v, bool) and cell_status(row, alias) in ("pass", "fail"):
                if not math.isfinite(v):  # NaN / inf: shown per row, kept out of the histogram and the mean
                    non_finite += 1
                    continue
                scores.append(float(v))
                t = row.get(f"outputs.{alias}.{key}_threshold")
                if isinstance(t, (int, float)):
                    thresholds.append(float(t))
        threshold = thresholds[0] if thresholds and len(set(thresholds)) == 1 else None
        rate = m.get(f"{alias}.pass_rate")
        mean = m.get(f"{alias}.{key}") if key else None
        shown_mean = _num(mean) if key else None
        if isinstance(mean, float) and not math.isfinite(mean) and scores:
            shown_mean = f"{_num(mean)} (finite scores only: {_num(sum(scores) / len(scores))})"
        stats = [
            ("class", (desc.get("config") or {}).get("scored_by") or desc.get("class")),
            ("key", key),
            ("mean", shown_mean),
            ("mean 95% interval", _interval_text(ivs.get(f"{alias}.{key}"))),
            ("pass rate", f"{100 * rate:.1f}%" if isinstance(rate, (int, float)) else None),
            ("pass rate 95% interval", _interval_text(ivs.get(f"{alias}.pass_rate"), percent=True)),
            *_certification_items(run, alias),
            ("threshold", _num(threshold) if threshold is not None else None),
            ("scored", m.get(f"{alias}.n")),
            ("errors", m.get(f"{alias}.error_count")),
            ("not applicable", m.get(f"{alias}.not_applicable_count")),
            ("not run (judge budget)", m.get(f"{alias}.not_run_count") or None),
            ("NaN/inf scores", f"{non_finite} (not in the histogram)" if non_finite else None),
            ("judge usage", _tokens(usage.get(alias)) if usage.get(alias) else None),
        ]
        dl = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in stats if v not in (None, ""))
        other = sorted(
            k
            for k in m
            if k.startswith(alias + ".")
            and k
            not in {f"{alias}.{key}", f"{alias}.pass_rate", f"{alias}.n", f"{alias}.error_count", f"{alias}.not_applicable_count",
                    f"{alias}.not_run_count", f"{alias}.corrected_pass_rate"}
        )
        extra = "".join(f"<dt>{esc(k[len(alias) + 1 :])}</dt><dd>{esc(_num(m[k]))}</dd>" for k in other)
        extra += _noise_text(run, alias, key)
        extra += "".join(f"<dt>pass@{k} / pass^{k} over agent runs</dt><dd>{esc(_num(at))} / {esc(_num(hat))}</dd>"
                         for k, (at, hat) in agent_run_pass_at_k(run, alias).items())
        cards.append(
            f'<div class="card" data-alias="{esc(alias)}"><h3>{esc(alias)}</h3><dl class="kv">{dl}{extra}</dl>'
            f"{histogram_svg(scores, threshold, f'{alias} score distribution', run.score_scale(alias))}</div>"
        )
    return f'<section id="evaluators"><h2>Evaluators</h2><div class="cards">{"".join(cards)}</div></section>'


def _errors_section(run: RunData) -> str:
    errors = run.summary.get("errors") or []
    if not errors:
        return '<section id="errors"><h2>Errors</h2><p class="muted">No errors.</p></section>'
    items = "".join(
        f'<tr><td>{esc(e.get("line_number"))}</td><td>{esc(e.get("alias"))}</td><td class="msg">{esc(e.get("message"))}</td></tr>'
        for e in errors[:1000]
    )
    more = f'<p class="muted">{len(errors) - 1000} more in summary.json.</p>' if len(errors) > 1000 else ""
    trunc = (
        '<p class="muted">summary.json kept only the first errors; rows.jsonl has all.</p>'
        if run.summary.get("errors_truncated")
        else ""
    )
    return (
        f'<section id="errors"><h2>Errors ({len(errors)})</h2><table><thead><tr><th>row</th><th>evaluator</th>'
        f"<th>message</th></tr></thead><tbody>{items}</tbody></table>{more}{trunc}</section>"
    )


def _row_home(row: Mapping[str, Any]) -> str:
    """Where a truncation note in a row's drill-down sends the reader for the whole value."""
    return f'rows.jsonl (the record with "line_number": {row.get("line_number")})'


def _values_block(title: str, values: Mapping[str, Any], where: str) -> str:
    """A row's inputs or target outputs: each conversation as a transcript, the other columns as JSON."""
    if not values:
        return ""
    chats, rest = [], {}
    for name, value in values.items():
        chat = transcript_html(name, value, where)
        if chat is None:
            rest[name] = value
        else:
            chats.append(f"<h4>{esc(title)}.{esc(name)}</h4>{chat}")
    plain = f'<h4>{esc(title)}</h4><pre data-of="{esc(title)}">{esc(shown_json(rest, where))}</pre>' if rest else ""
    return "".join(chats) + plain


def _cell_block(row: Mapping[str, Any], alias: str, key: Optional[str], status: str) -> str:
    prefix = f"outputs.{alias}."
    fields = {k[len(prefix) :]: v for k, v in row.items() if k.startswith(prefix)}
    parts = [f'<h4>{esc(alias)} <span class="badge {esc(status)}">{esc(_BADGE.get(status, status))}</span></h4><dl class="kv">']
    if key:
        for label, k in (
            ("score", key),
            ("threshold", f"{key}_threshold"),
            ("reason", f"{key}_reason"),
            ("error", f"{key}_error"),
        ):
            if fields.get(k) not in (None, ""):
                value = clip(fields[k], _row_home(row)) if label in ("reason", "error") else _num(fields[k])
                parts.append(f"<dt>{esc(label)}</dt><dd>{esc(value)}</dd>")
    parts.append("</dl>")
    rest = {
        k: v
        for k, v in fields.items()
        if not key or k not in (key, f"{key}_threshold", f"{key}_reason", f"{key}_error", f"{key}_result")
    }
    if rest:
        parts.append(f"<details><summary>details</summary><pre>{esc(shown_json(rest, _row_home(row)))}</pre></details>")
    return "".join(parts)


def _rows_section(run: RunData, max_rows: int, rows_href: str = "rows.jsonl") -> str:
    aliases = [a for a in run.aliases if a not in run.skipped]
    keys = {a: run.result_key(a) for a in aliases}
    rows = run.rows
    shown = rows
    if len(rows) > max_rows:
        bad = [r for r in rows if any(cell_status(r, a) in ("fail", "error") for a in aliases)]
        keep = {id(r) for r in bad[:max_rows]}
        for r in rows:
            if len(keep) >= max_rows:
                break
            keep.add(id(r))
        shown = [r for r in rows if id(r) in keep]
    out = []
    for row in shown:
        by_status: Dict[str, List[str]] = {s: [] for s in STATUSES}
        badges = []
        for alias in aliases:
            st = cell_status(row, alias)
            if st in by_status:
                by_status[st].append(alias)
            score = row.get(f"outputs.{alias}.{keys[alias]}") if keys[alias] else None
            shown_score = f" {_num(score, 2)}" if isinstance(score, (int, float)) and not isinstance(score, bool) else ""
            badges.append(f'<span class="badge {esc(st)}" title="{esc(alias)}">{esc(alias)}{esc(shown_score)}</span>')
        inputs = {k[7:]: v for k, v in row.items() if k.startswith("inputs.")}
        target = {
            k[8:]: v
            for k, v in row.items()
            if k.startswith("outputs.") and not any(k.startswith(f"outputs.{a}.") for a in run.aliases)
        }
        attrs = "".join(f' data-{s.replace("_", "")}="{esc(json.dumps(by_status[s]))}"' for s in STATUSES)
        home = _row_home(row)
        search = esc(to_json(clip(inputs, home, 4000), indent=None)[:4000].lower())
        label = row_label(row)
        problems = "".join(f'<p class="rowerr">{esc(k)}: {esc(clip(row[k], home))}</p>'
                           for k in ("row_error", "target_error") if row.get(k))
        cells = "".join(_cell_block(row, a, keys[a], cell_status(row, a)) for a in aliases)
        drill = f"{problems}{cells}{_values_block('inputs', inputs, home)}{_values_block('target outputs', target, home)}"
        if "… [truncated: " in drill:  # the page shows at most MAX_VALUE_CHARS of a value: say where the rest is
            drill = (f'<p class="clipped">Values over {MAX_VALUE_CHARS:,} characters are cut here; the whole row is '
                     f'in <a href="{esc(rows_href)}">rows.jsonl</a>, the record with "line_number": '
                     f'{esc(row.get("line_number"))}.</p>{drill}')
        out.append(
            f'<details class="row" data-line="{esc(row.get("line_number"))}"{attrs} data-search="{search}">'
            f'<summary><span class="line">#{esc(row.get("line_number"))}</span> <span class="rid">{esc(label)}</span> '
            f'{"".join(badges)}</summary><div class="drill">{drill}</div></details>'
        )
    options = "".join(f'<option value="{esc(a)}">{esc(a)}</option>' for a in aliases)
    note = (
        (
            f'<p class="muted">Showing {len(shown)} of {len(rows)} rows (failing and erroring rows first); '
            f"rows.jsonl has them all.</p>"
        )
        if len(shown) < len(rows)
        else ""
    )
    controls = (
        '<div class="controls"><label>Status <select id="f-status">'
        '<option value="all">all</option><option value="failing">failing</option><option value="erroring">erroring</option>'
        '<option value="passing">passing</option><option value="na">not applicable</option></select></label> '
        f'<label>Evaluator <select id="f-evaluator"><option value="all">all</option>{options}</select></label> '
        '<label>Search <input id="f-q" type="search" placeholder="text in inputs"></label> '
        f'<span class="muted"><span id="shown-count">{len(shown)}</span> of {len(shown)} shown</span></div>'
    )
    return f'<section id="rows"><h2>Rows</h2>{controls}{note}<div id="row-list">{"".join(out)}</div></section>'


CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}header p{margin:2px 0 0;opacity:.8}
main{padding:8px 24px 40px;max-width:1200px}section{background:#fff;border:1px solid #dde1e7;border-radius:8px;
padding:12px 16px;margin:14px 0}
h2{font-size:17px;margin:4px 0 10px}h3{font-size:15px;margin:4px 0}h4{margin:10px 0 4px;font-size:13px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eceef2;
vertical-align:top}
th{font-weight:600;background:#f1f3f6}.msg{font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0}dl.kv dt{color:#5a6372}
dl.kv dd{margin:0;white-space:pre-wrap;word-break:break-word}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:12px}.card{border:1px solid #e3e6eb;
border-radius:6px;padding:8px 10px}
.badge{display:inline-block;border-radius:10px;padding:0 8px;margin:1px 3px 1px 0;font-size:12px;background:#e8eaee;color:#333}
.badge.pass{background:#dff3e4;color:#145c2c}.badge.fail{background:#fde2e1;color:#8a1c13}
.badge.error{background:#7a1010;color:#fff}
.badge.verdict-regressed{background:#fde2e1;color:#8a1c13}.badge.verdict-improved{background:#dff3e4;color:#145c2c}
.badge.verdict-no_change{background:#eef0f3;color:#444}.badge.verdict-inconclusive{background:#fff4d6;color:#6b4e00}
.badge.not_applicable,.badge.skipped{background:#eef0f3;color:#666}
.verdict{font-weight:700;font-size:16px;margin:0 0 6px}.verdict.pass{color:#145c2c}.verdict.fail{color:#8a1c13}
.verdict.error{color:#7a1010}
.muted{color:#6b7380}.skipnote{background:#fff8e1;border:1px solid #f0e0a0;padding:6px 10px;border-radius:6px}
.hist rect{fill:#5b7bd5}.hist .cnt{font-size:10px;text-anchor:middle;fill:#333}.hist .lbl{font-size:10px;
text-anchor:middle;fill:#666}
.hist .thr{stroke:#c0392b;stroke-width:2;stroke-dasharray:4 3}
.controls{display:flex;gap:14px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
details.row{border-bottom:1px solid #eceef2;padding:4px 2px}details.row>summary{cursor:pointer}details.row[hidden]{display:none}
.line{color:#6b7380;font-family:ui-monospace,monospace}.rid{font-weight:600;margin-right:8px}
.drill{padding:4px 14px 10px}pre{background:#f6f7f9;border:1px solid #e3e6eb;padding:8px;overflow:auto;max-height:420px;
font-size:12px;white-space:pre-wrap;word-break:break-word}
.chat{display:flex;flex-direction:column;gap:4px;margin:4px 0}.msg{border:1px solid #e3e6eb;border-radius:8px;
padding:4px 10px;max-width:85%;background:#fff}.msg .who{display:block;font-size:11px;color:#6b7380}
.msg .said{white-space:pre-wrap;word-break:break-word}.msg.user{align-self:flex-end;background:#eef3ff}
.msg.assistant{background:#f3f8f1}.msg.tool{background:#fafafa;font-size:12px}.msg.system,.msg.developer{background:#fff8e1}
.msg.stop{align-self:center;background:#eef0f3;font-size:12px}.call{font-family:ui-monospace,monospace;font-size:12px}
.clipped{background:#fff8e1;border:1px solid #f0e0a0;padding:4px 8px;border-radius:6px}
details.attack{border-bottom:1px solid #eceef2;padding:4px 2px}details.attack>summary{cursor:pointer}
td.num{text-align:right}
.rowerr{color:#8a1c13}.better{color:#145c2c}.worse{color:#8a1c13}.neutral{color:#5a6372}
"""

# Filtering: rows carry JSON lists of aliases per status (data-pass/-fail/-error/-notapplicable).
JS = """
(function(){
  var statusSel=document.getElementById('f-status'),evalSel=document.getElementById('f-evaluator'),
  q=document.getElementById('f-q');
  if(!statusSel){return;}
  var rows=Array.prototype.slice.call(document.querySelectorAll('details.row'));
  function list(el,name){try{return JSON.parse(el.getAttribute('data-'+name)||'[]');}catch(e){return [];}}
  function has(el,name,ev){var l=list(el,name);return ev==='all'?l.length>0:l.indexOf(ev)>=0;}
  function matches(el,st,ev,text){
    if(text&&(el.getAttribute('data-search')||'').indexOf(text)<0){return false;}
    if(st==='failing'){return has(el,'fail',ev);}
    if(st==='erroring'){return has(el,'error',ev);}
    if(st==='na'){return has(el,'notapplicable',ev);}
    if(st==='passing'){return ev==='all'?(list(el,'fail').length===0&&list(el,'error').length===0&&list(el,
    'pass').length>0):has(el,'pass',ev);}
    return ev==='all'||['pass','fail','error','notapplicable'].some(function(n){return has(el,n,ev);});
  }
  function setSelect(sel,v){for(var i=0;i<sel.options.length;i++){if(sel.options[i].value===v){sel.value=v;return;}}
  sel.value='all';}
  function apply(){
    var st=statusSel.value,ev=evalSel.value,text=(q.value||'').toLowerCase(),n=0;
    rows.forEach(function(el){var ok=matches(el,st,ev,text);el.hidden=!ok;if(ok){n++;}});
    document.getElementById('shown-count').textContent=String(n);
    document.body.setAttribute('data-filter',st+'|'+ev);
  }
  function fromHash(){
    var p=new URLSearchParams(location.hash.replace(/^#/,''));
    setSelect(statusSel,p.get('status')||'all');setSelect(evalSel,p.get('evaluator')||'all');q.value=p.get('q')||'';apply();
  }
  function toHash(){
    var p=new URLSearchParams();
    if(statusSel.value!=='all'){p.set('status',statusSel.value);}
    if(evalSel.value!=='all'){p.set('evaluator',evalSel.value);}
    if(q.value){p.set('q',q.value);}
    var h=p.toString();history.replaceState(null,'',h?'#'+h:location.pathname+location.search);apply();
  }
  statusSel.addEventListener('change',toHash);evalSel.addEventListener('change',toHash);q.addEventListener('input',toHash);
  window.addEventListener('hashchange',fromHash);
  fromHash();
})();
"""


def render_report(run: RunData, compare: Optional[RunData] = None, *, max_rows: int = 2000,
                  rows_href: str = "rows.jsonl") -> str:
    """The whole page as one string. ``rows_href``: the run's ``rows.jsonl`` as seen from the page,
    linked where a long value is cut."""
    cmp = compare_view(run, compare) if compare is not None else None
    name = (run.summary.get("config") or {}).get("evaluation_name") or run.path.name
    when = run.summary.get("finished_at") or run.summary.get("started_at") or datetime.now().isoformat()
    body = "".join(
        [
            _summary_section(run),
            _checks_section(run),
            red_team_section(load_scan(run.path) if has_scan(run.path) else None),
            red_team_compare_section(_scan_comparison(run, compare)),
            _evaluators_section(run),
            compare_section(cmp),
            _errors_section(run),
            _usage_section(run),
            estimate_section(run),
            _rows_section(run, max_rows, rows_href),
        ]
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>agent-eval report: {esc(name)}</title><style>{CSS}</style></head>"
        f"<body><header><h1>agent-eval report: {esc(name)}</h1><p>{esc(when)} · {esc(run.path)}</p></header>"
        f"<main>{body}</main><script>{JS}</script></body></html>\n"
    )


def _scan_comparison(run: RunData, previous: Optional[RunData]) -> Any:
    """Two red-team scans (this run and ``--compare``'s) compared attack by attack, else ``None``."""
    if previous is None or not (has_scan(run.path) and has_scan(previous.path)):
        return None
    from .red_team_compare import compare_scans

    return compare_scans(previous.path, run.path)


def _usage_section(run: RunData) -> str:
    usage = {**(run.summary.get("usage") or {}), **run.target_usage}
    rows = "".join(f"<tr><td>{esc(a)}</td><td>{esc(_tokens(u))}</td></tr>" for a, u in usage.items() if u)
    if not rows:
        return '<section id="usage"><h2>Judge usage</h2><p class="muted">No judge calls in this run.</p></section>'
    return (
        f'<section id="usage"><h2>Judge usage</h2><table><thead><tr><th>evaluator</th><th>usage</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></section>"
    )
