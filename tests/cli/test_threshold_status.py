"""A threshold says what it knows (issue 35 item 11): over an evaluator every cell of which errored it is
ERROR (it was FAIL with a "this run has: ..." hint, as if the metric were misspelt); over cells the judge
budget did not run it is INCOMPLETE (it was PASS, computed on the cells that ran); JUnit's failures and
errors agree with the exit code (2: errors, 1: failures)."""

import xml.etree.ElementTree as ET

from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import agent_eval, write_jsonl
from tests.runner.budget_helpers import priced_judge
from tests.runner.distributed.helpers import make_rows


def _run(tmp_path, server, *more):
    data = write_jsonl(tmp_path / "d.jsonl", make_rows(6))
    return agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-model", "m",
                      "--judge-base-url", server.url + "/v1", "--price", "m=1,5", "-o", tmp_path / "out",
                      "--junit", tmp_path / "junit.xml", "--no-show-progress", *more)


def _threshold_suite(path):
    return next(s for s in ET.parse(path).getroot() if s.get("name") == "agent-eval.thresholds")


def test_a_threshold_over_an_evaluator_whose_every_cell_errored_is_error(tmp_path):
    with JudgeServer(lambda req: "no verdict here") as server:
        r = _run(tmp_path, server, "-t", "intent.intent_resolution >= 3", "-t", "intent.pass_rate >= 0.5")
    assert r.rc == 2, r
    assert "ERROR intent.intent_resolution >= 3" in r.out and "6 of 6 cells errored and none was scored" in r.out, r
    assert "ERROR intent.pass_rate >= 0.5" in r.out and "FAIL " not in r.out and "this run has" not in r.out, r
    suite = _threshold_suite(tmp_path / "junit.xml")
    assert (suite.get("errors"), suite.get("failures")) == ("2", "0")


def test_a_threshold_over_cells_the_budget_did_not_run_is_incomplete(tmp_path):
    with JudgeServer(priced_judge) as server:
        r = _run(tmp_path, server, "--max-judge-calls", "2", "-t", "intent.intent_resolution >= 1.5")
    assert r.rc == 2, r
    assert "INCOMPLETE intent.intent_resolution >= 1.5" in r.out and "PASS " not in r.out, r
    assert "4 of 6 cells not run (budget)" in r.out, r
    suite = _threshold_suite(tmp_path / "junit.xml")
    assert (suite.get("errors"), suite.get("failures")) == ("1", "0")
