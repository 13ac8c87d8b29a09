"""``agent-eval report --compare``: a change is coloured by whether it is better or worse, not by its sign."""

from tests.cli.helpers import agent_eval

from .dom import parse
from .helpers import make_run, rows


def _deltas(page: str):
    table = parse(page).find("section", id="compare").find("table")
    out = {}
    for tr in table.find("tbody").find_all("tr"):
        cells = tr.find_all("td")
        out[cells[0].text] = (cells[3].text, cells[3].classes)
    return out


def test_compare_colours_a_fall_in_errors_as_better_and_a_fall_in_pass_rate_as_worse(tmp_path):
    before = make_run(tmp_path / "before")  # r5 has no response: an error cell for both evaluators
    fixed = rows()
    fixed[5]["response"] = "Oslo is in Norway"  # contains passes now; likert scores it 1, a fail
    after = make_run(tmp_path / "after", fixed)
    r = agent_eval("report", after, "--compare", before)
    assert r.rc == 0, r
    deltas = _deltas((after / "report.html").read_text(encoding="utf-8"))
    assert deltas["contains.error_count"] == ("-1", ["better"])  # was red: a fall, by sign
    assert deltas["likert.error_count"] == ("-1", ["better"])
    assert deltas["contains.pass_rate"] == ("+0.1", ["better"])  # 2/4 -> 3/5
    assert deltas["likert.pass_rate"] == ("-0.1", ["worse"])  # 3/5 -> 3/6
    assert deltas["contains.n"] == ("+1", ["neutral"])  # more scored cells is no verdict


def _changed_run(tmp_path):
    before = make_run(tmp_path / "before")
    changed = rows()
    changed[4]["response"] = "Rome, of course, and the rest of this answer is long"  # contains 0 -> 1, likert 1 -> 5
    changed[0]["response"] = "Paris"  # likert 3 -> 1
    return before, make_run(tmp_path / "after", changed)


def _sizes(before, after):
    """Each compared metric's change in units of its min_effect (how the views rank them)."""
    from agent_evaluators.report.load import load_run
    from agent_evaluators.report.paired import compare_loaded

    return {m.metric: abs(m.diff or 0) / m.min_effect for m in compare_loaded(load_run(before), load_run(after)).metrics}


def test_the_interval_bars_have_an_axis_and_a_zero_line_and_the_largest_change_comes_first(tmp_path):
    before, after = _changed_run(tmp_path)
    r = agent_eval("report", after, "--compare", before)
    assert r.rc == 0, r
    table = parse((after / "report.html").read_text(encoding="utf-8")).find("table", cls="verdicts")
    axis = table.find("thead").find("svg", cls="ci-axis")
    labels = [t.text for t in axis.find_all("text")]
    assert len(labels) == 3 and labels[1] == "0" and labels[0] == "-" + labels[2][1:], labels
    body = table.find("tbody")
    bars = body.find_all("svg", cls="ci")
    assert bars and all(bar.find("line", cls="zero") for bar in bars)
    order = [tr.find_all("td")[0].text for tr in body.find_all("tr")]
    size = _sizes(before, after)
    assert sorted(order) == sorted(size)
    assert [size[m] for m in order] == sorted(size.values(), reverse=True), (order, size)
    assert len(set(size.values())) > 1, size  # the check above would pass on any order otherwise


def test_the_terminal_compare_lists_the_largest_change_first(tmp_path):
    before, after = _changed_run(tmp_path)
    table = agent_eval("compare", before, after)
    assert table.rc in (0, 1), table
    size = _sizes(before, after)
    shown = [line.split()[0] for line in table.out.splitlines() if line.split() and line.split()[0] in size]
    assert sorted(shown) == sorted(size) and [size[m] for m in shown] == sorted(size.values(), reverse=True), shown
