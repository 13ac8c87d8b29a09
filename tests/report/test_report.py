"""write_report(): self-contained, escaped, and what it shows (no browser; see test_report_browser.py)."""

import json
import re
from html.parser import HTMLParser

from agent_evaluators.report import load_run, write_report
from agent_evaluators.report.html import histogram_svg

from .helpers import PAYLOAD, make_run, rows


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []
        self.rows = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "details" and "row" in (attrs.get("class") or "").split():
            self.rows.append(attrs)


def parse(page: str) -> _Collector:
    c = _Collector()
    c.feed(page)
    return c


def test_report_is_self_contained_and_escapes_user_content(tmp_path):
    page = write_report(make_run(tmp_path / "run")).read_text()
    parsed = parse(page)
    # exactly our one inline script; the payload's script and img never became elements
    assert [t for t, _ in parsed.tags if t == "script"] == ["script"]
    assert not any(t == "img" for t, _ in parsed.tags)
    assert not any(any(k.startswith("on") for k in a) for _, a in parsed.tags)
    assert "&lt;script&gt;document.body.setAttribute" in page
    # no network: nothing is loaded from anywhere
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "default-src 'none'" in page


def test_report_lists_rows_with_their_statuses(tmp_path):
    page = write_report(make_run(tmp_path / "run")).read_text()
    by_line = {int(a["data-line"]): a for a in parse(page).rows}
    assert len(by_line) == len(rows())
    assert json.loads(by_line[1]["data-fail"]) == ["contains"]
    assert json.loads(by_line[3]["data-notapplicable"]) == ["contains"]
    assert json.loads(by_line[5]["data-error"]) == ["contains", "likert"]
    assert json.loads(by_line[0]["data-pass"]) == ["contains", "likert"]
    # drill-down holds the reason and the inputs
    assert "missing: Paris" in page and "Madrid" in page
    # the error list names the row and the missing column
    errors = page.split('id="errors"')[1].split("</section>")[0]
    assert "response" in errors and ">5<" in errors


def test_histograms_count_scored_cells(tmp_path):
    run = load_run(make_run(tmp_path / "run"))
    scores = [r["outputs.likert.likert"] for r in run.rows if r.get("outputs.likert.likert") is not None]
    svg = histogram_svg(scores, 3.0, "likert")
    counts = [int(x) for x in re.findall(r'class="cnt">(\d+)<', svg)]
    assert sum(counts) == len(scores) == 5
    assert len(re.findall("<rect", svg)) == 5  # one bar per point of the 1–5 scale
    assert 'class="thr"' in svg


def test_compare_shows_deltas_and_flipped_rows(tmp_path):
    before = make_run(tmp_path / "before")
    fixed = rows()
    fixed[1]["response"] = "Paris, of course, is the capital city."  # likert stays a pass
    after = make_run(tmp_path / "after", fixed)
    page = write_report(after, compare_to=before).read_text()
    section = page.split('id="compare"')[1].split("</section>")[0]
    assert "Rows that flipped (1)" in section
    flipped = section.split("Rows that flipped")[1]
    assert ">r1<" in flipped and "fail" in flipped and "pass" in flipped
    # contains is scored on r0, r1, r2, r4 (r3 not applicable, r5 an error): pass rate 2/4 -> 3/4
    assert re.search(r"contains\.pass_rate</code></td><td>0\.5</td><td>0\.75</td>"
                     r"<td class=\"better\" title=\"higher is better\">\+0\.25<", section)


def test_report_of_a_folder_without_results_names_the_problem(tmp_path):
    from agent_evaluators.errors import ConfigError

    try:
        write_report(tmp_path)
    except ConfigError as exc:
        assert "summary.json" in str(exc)
    else:
        raise AssertionError("expected ConfigError")


def test_payload_is_really_hostile():
    # guard: the escaping tests above mean something only if the payload would execute unescaped
    assert "<script>" in PAYLOAD and "onerror=" in PAYLOAD
