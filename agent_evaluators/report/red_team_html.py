"""The red-team section of the HTML report: the scorecard, then every attack with its conversation and verdict.

Shown when the run folder holds ``red_team.json`` (a scan's folder). The scorecard gives each ASR
with its Wilson 95% interval and the count behind it, per risk category × strategy, per category,
per strategy and per complexity; target and judge errors are counted in columns of their own, never
as defended attacks. Each attack is a fold: its outcome, why it counted (``attack_success_reason``),
its objective and the conversation drawn by :func:`~.transcript.transcript_html` (tool calls
included, which is where an agent leaks what its reply hides). Every value goes through
:func:`~.text.esc`, as in the rest of the page.
"""

from typing import Any, List, Optional, Sequence

from .red_team_scores import RED_TEAM_FILE, Asr, Attack, ScanData, ordered_complexities, scan_grid
from .text import esc, shown_json
from .transcript import transcript_html

#: the most attacks listed one by one (successes and errors first); all stay in red_team.json
MAX_ATTACKS_SHOWN = 1000

_OUTCOME_BADGE = {"success": "fail", "defended": "pass", "refused": "pass", "target_error": "error",
                  "judge_error": "error", "not_scored": "none"}
_OUTCOME_TEXT = {"success": "attack succeeded", "defended": "defended", "refused": "refused",
                 "target_error": "target error (not scored)", "judge_error": "judge error (not scored)",
                 "not_scored": "not scored (skip_evals)"}
_ORDER = {"success": 0, "target_error": 1, "judge_error": 2, "refused": 3, "defended": 4}


def _asr_cells(asr: Asr) -> str:
    if asr.asr is None:
        shown = '<td class="num">–</td><td class="num">–</td>'
    else:
        lo, hi = asr.interval or (0.0, 0.0)
        shown = f'<td class="num">{esc(f"{asr.asr:.1f}%")}</td><td class="num">{esc(f"[{lo:.1f}, {hi:.1f}]")}</td>'
    return (f'{shown}<td class="num">{asr.successes}/{asr.n}</td><td class="num">{asr.counts["refused"]}</td>'
            f'<td class="num">{asr.errors}</td>')


_HEAD = ("<th>ASR</th><th>95% interval</th><th>successes / n</th><th>refused</th>"
         "<th title=\"target or judge errors: not in n\">errors</th>")


def _table(title: str, names: Sequence[str], rows: Sequence[Sequence[str]], asrs: Sequence[Asr]) -> str:
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + _asr_cells(a) + "</tr>"
                   for row, a in zip(rows, asrs))
    return f"<h3>{esc(title)}</h3><table><thead><tr>{head}{_HEAD}</tr></thead><tbody>{body}</tbody></table>"


def scorecard_html(scan: ScanData) -> str:
    """The scorecard tables: category × strategy, then by category, strategy and complexity, then overall."""
    grid = scan_grid(scan)
    by_cat = scan.asr_by("risk_category")
    by_tech = scan.asr_by("technique")
    by_cx = scan.asr_by("complexity")
    cx = ordered_complexities([k[0] for k in by_cx])
    return "".join([
        _table("Overall", ["attacks"], [[str(len(scan.attacks))]], [scan.overall]),
        _table("Risk category × strategy", ["risk category", "strategy"], [[c, t] for c, t, _ in grid],
               [a for _, _, a in grid]),
        _table("By risk category", ["risk category"], [[c] for c in scan.categories],
               [by_cat[(c,)] for c in scan.categories]),
        _table("By strategy", ["strategy"], [[t] for t in scan.techniques], [by_tech[(t,)] for t in scan.techniques]),
        _table("By complexity", ["complexity"], [[c] for c in cx], [by_cx[(c,)] for c in cx]),
    ])


def _attack_html(a: Attack, where: str) -> str:
    badge = _OUTCOME_BADGE.get(a.outcome, "none")
    why = a.reason or ("no reason recorded" if a.outcome in ("success", "defended", "refused") else "")
    parts = [
        f'<details class="row attack" data-outcome="{esc(a.outcome)}" data-category="{esc(a.risk_category)}" '
        f'data-strategy="{esc(a.technique)}"><summary><span class="badge {esc(badge)}">'
        f'{esc(_OUTCOME_TEXT.get(a.outcome, a.outcome))}'
        f'</span> <span class="rid">{esc(a.attack_id or f"attack {a.index}")}</span> '
        f'<span class="muted">{esc(a.risk_category)} · {esc(a.technique)} · {esc(a.complexity)}</span></summary>'
        '<div class="drill"><dl class="kv">',
        f"<dt>outcome</dt><dd>{esc(a.outcome)}</dd>",
        f"<dt>{'why it counted' if a.outcome == 'success' else 'why'}</dt><dd>{esc(why)}</dd>" if why else "",
        f"<dt>objective</dt><dd>{esc(a.objective)}</dd>" if a.objective else "",
        "</dl>",
    ]
    chat = transcript_html("conversation", a.conversation, where)
    if chat is not None:
        parts.append(f"<h4>Conversation</h4>{chat}")
    elif a.conversation is not None:
        parts.append(f"<h4>Conversation</h4><pre>{esc(shown_json(a.conversation, where))}</pre>")
    parts.append("</div></details>")
    return "".join(parts)


def attacks_html(scan: ScanData, max_shown: int = MAX_ATTACKS_SHOWN) -> str:
    """Every attack as a fold, successes first, then errors, refusals and defended ones."""
    ordered = sorted(scan.attacks, key=lambda a: (_ORDER.get(a.outcome, 9), a.index))
    shown = ordered[:max_shown]
    more = (f'<p class="clipped">Showing {len(shown):,} of {len(ordered):,} attacks (successes and errors first); '
            f"all are in {esc(RED_TEAM_FILE)}.</p>") if len(ordered) > len(shown) else ""
    body = "".join(_attack_html(a, f"{RED_TEAM_FILE} attack_details[{a.index}]") for a in shown)
    return f"<h3>Attacks ({len(ordered):,})</h3>{more}{body}"


def red_team_section(scan: Optional[ScanData]) -> str:
    """The section, or ``""`` when the folder holds no scan."""
    if scan is None:
        return ""
    info = scan.scan_info
    facts: List[str] = []
    for label, key in (("Scan", "scan_name"), ("Target", "target"), ("Judge", "judge"), ("Language", "language")):
        value = info.get(key)
        if value not in (None, ""):
            shown = value if isinstance(value, str) else shown_json(value, RED_TEAM_FILE, indent=None)
            facts.append(f"<dt>{esc(label)}</dt><dd>{esc(shown)}</dd>")
    counts = {k: v for k, v in scan.overall.counts.items() if v or k != "not_scored"}  # skip_evals' only
    facts.append("<dt>Outcomes</dt><dd>" + esc(", ".join(f"{k}: {v}" for k, v in counts.items())) + "</dd>")
    return (
        '<section id="red-team"><h2>Red team</h2>'
        '<p class="muted">ASR = successful attacks / attacks scored (succeeded, defended or refused), with its Wilson '
        "95% interval; target and judge errors are counted apart, never as defended.</p>"
        f'<dl class="kv">{"".join(facts)}</dl>{scorecard_html(scan)}{attacks_html(scan)}</section>'
    )


_VERDICT_BADGE = {"more_robust": ("verdict-improved", "B more robust"), "less_robust": ("verdict-regressed", "B less robust"),
                  "not_significant": ("verdict-inconclusive", "not significant")}


def _pct(value: Optional[float]) -> str:
    return "–" if value is None else f"{value:.1f}%"


def _p(value: float) -> str:
    return "–" if value != value else ("<0.001" if value < 0.001 else f"{value:.3f}")


def red_team_compare_section(cmp: Any) -> str:
    """This scan (B) against an earlier one (A), attack by attack (:func:`~.red_team_compare.compare_scans`):
    the paired ASRs, McNemar's p and the verdict per group, then the attacks whose outcome flipped."""
    if cmp is None:
        return ""
    rows = []
    for r in cmp.rows:
        cls, text = _VERDICT_BADGE.get(r.verdict, ("", r.verdict))
        rows.append(f"<tr><td>{esc(r.group)}</td><td class=\"num\">{r.n_pairs}</td><td class=\"num\">{esc(_pct(r.asr_a))}"
                    f"</td><td class=\"num\">{esc(_pct(r.asr_b))}</td><td class=\"num\">{r.fixed}</td>"
                    f"<td class=\"num\">{r.broken}</td><td class=\"num\">{esc(_p(r.p_value))}</td>"
                    f"<td class=\"num\">{esc('' if r.group == 'overall' else _p(r.p_adjusted))}</td>"
                    f'<td><span class="badge {esc(cls)}">{esc(text)}</span></td></tr>')
    flips = "".join(
        f"<tr><td>{esc(a.attack_id or a.index)}</td><td>{esc(a.outcome)} → {esc(b.outcome)}</td>"
        f"<td>{esc(b.reason if b.success else a.reason)}</td></tr>" for a, b in cmp.flipped[:MAX_ATTACKS_SHOWN])
    flipped = (f"<h3>Attacks that flipped ({len(cmp.flipped)})</h3><table><thead><tr><th>attack</th><th>A → B</th>"
               f"<th>why it succeeded</th></tr></thead><tbody>{flips}</tbody></table>" if cmp.flipped
               else '<p class="muted">No attack changed its outcome.</p>')
    return (
        f'<section id="red-team-compare"><h2>Red team compared with {esc(cmp.a)}</h2>'
        f"<p class=\"muted\">B = this scan, A = the earlier one; {cmp.overall.n_pairs} attacks paired by attack id, "
        f"McNemar's exact test on those that changed (alpha {cmp.alpha:g}); {cmp.errored_pairs} pairs with an error "
        f"left out, {cmp.unpaired_a} only in A, {cmp.unpaired_b} only in B.</p>"
        "<table><thead><tr><th>attacks</th><th>pairs</th><th>ASR A</th><th>ASR B</th><th>fixed in B</th>"
        "<th>broken in B</th><th>p</th><th>p (Holm)</th><th>verdict</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>{flipped}</section>"
    )
