"""pass@k / pass^k over ADK ``--num_runs`` agent runs: each run is a row of its case; the report shows the
estimators per evaluator, from the rows ``agent-eval adk`` wrote (the sample ADK agent, the bundled judge)."""

import json
from collections import defaultdict

from agent_evaluators.stats.passk import mean_over_rows
from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import SAMPLES, agent_eval
from tests.conftest import optional_import
from tests.report.dom import parse


def test_adk_num_runs_give_pass_at_k_in_the_report(tmp_path):
    optional_import("google.adk")
    with JudgeServer() as server:
        r = agent_eval("adk", SAMPLES / "adk_agent", f"{SAMPLES / 'adk_agent' / 'weather.evalset.json'}:weather_paris",
                       "--num_runs", "2", "--judge-model", "fake", "--judge-base-url", server.url + "/v1",
                       "--output", tmp_path / "adk")
    assert r.rc in (0, 1), r
    (run_dir,) = (tmp_path / "adk").glob("run_*")
    rows = [json.loads(line) for line in (run_dir / "rows.jsonl").read_text().splitlines() if line.strip()]
    assert sorted({row["inputs.run"] for row in rows}) == [1, 2]
    assert agent_eval("report", run_dir).rc == 0
    page = parse((run_dir / "report.html").read_text(encoding="utf-8"))
    checked = 0
    for card in page.find_all("div", cls="card"):
        alias = card.attrs["data-alias"]
        cases = defaultdict(lambda: [0, 0])
        for row in rows:
            result = [v for k, v in row.items() if k.startswith(f"outputs.{alias}.") and k.endswith("_result")]
            if result and result[0] in ("pass", "fail"):
                case = cases[(row["inputs.eval_id"], row.get("inputs.invocation_id"))]
                case[0] += 1
                case[1] += result[0] == "pass"
        shown = dict(zip([dt.text for dt in card.find_all("dt")], [dd.text for dd in card.find_all("dd")]))
        at2, hat2 = mean_over_rows([tuple(c) for c in cases.values()], 2)
        if at2 is None:  # no verdicts for this criterion: nothing to estimate, nothing shown
            assert "pass@2 / pass^2 over agent runs" not in shown
            continue
        a, h = (float(x) for x in shown["pass@2 / pass^2 over agent runs"].split(" / "))
        assert (a, h) == (round(at2, 3), round(hat2, 3))
        checked += 1
    assert checked
