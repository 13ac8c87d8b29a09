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
