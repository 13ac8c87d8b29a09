"""A judge panel through ``evaluate()``: every judge's verdict per row, the panel's agreement in
``summary.json`` (checked against the krippendorff / statsmodels reference table), ``min_agreement``,
repetitions, and the resume fingerprint naming every judge."""

import json
import re
from pathlib import Path

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.errors import AgentEvalError
from agent_evaluators.pytest_plugin.assertions import assert_passes
from agent_evaluators.testing import JudgeServer, schema_reply

TABLE = json.loads((Path(__file__).resolve().parents[1] / "stats" / "agreement_table.json").read_text())
#: a reference case with three judges and no missing verdict: pass/fail as 0/1
CASE = next(c for c in TABLE["cases"] if c["name"].startswith("binary_") and len(c["units"][0]) == 3
            and len(c["units"]) >= 8)


def _scripted(judge: int, units):
    """A judge whose score for row ``ROW-i`` is its verdict in the reference case (0 -> 1, 1 -> 5)."""
    def respond(req):
        row = int(re.search(r"ROW-(\d+)", req.text).group(1))
        return schema_reply(req, score=1 + 4 * units[row][judge])
    return respond


def _rows(n):
    return [{"query": f"Please handle request ROW-{i}", "response": f"Done with ROW-{i}."} for i in range(n)]


def _panel(servers, names=("a", "b", "c")):
    return IntentResolutionEvaluator(model_config=[{**s.openai_config(), "name": n} for s, n in zip(servers, names)])


def test_the_summary_records_the_panels_agreement_as_the_reference_computes_it(tmp_path):
    units = CASE["units"]
    servers = [JudgeServer(_scripted(j, units)) for j in range(3)]
    try:
        for s in servers:
            s.start()
        result = evaluate(data=_rows(len(units)), evaluators={"intent": _panel(servers)}, output_path=tmp_path / "out")
    finally:
        for s in servers:
            s.stop()
    record = json.loads((tmp_path / "out" / "summary.json").read_text())["agreement"]["intent.intent_resolution"]
    assert record["judges"] == ["a", "b", "c"] and record["cells"] == len(units) and record["level"] == "interval"
    # alpha at the interval level does not change under the 0/1 -> 1/5 rescaling; pass/fail is the 0/1 verdict
    assert record["alpha"] == pytest.approx(CASE["alpha"]["interval"], rel=1e-9)
    assert record["fleiss_kappa"] == pytest.approx(CASE["fleiss_kappa"], rel=1e-9)
    assert record["disagreements"] == sum(1 for u in units if len(set(u)) > 1)
    assert record["inconclusive"] is False and record["min_agreement"] is None
    first = result.rows[0]["outputs.intent.intent_resolution_details"]["panel"]
    assert [j["score"] for j in first["judges"]] == [1 + 4 * v for v in units[0]]


def test_min_agreement_marks_a_disagreeing_panel_inconclusive(tmp_path):
    # judge a scores every row 5, judge b follows the row number: they agree on nothing systematic
    with JudgeServer(lambda req: schema_reply(req, score=5)) as a, \
            JudgeServer(lambda req: schema_reply(req, score=1 + int(re.search(r"ROW-(\d+)", req.text).group(1)) % 5)) as b:
        result = evaluate(data=_rows(10), evaluators={"intent": _panel([a, b])}, output_path=tmp_path / "out",
                          min_agreement=0.667)
    record = result.summary["agreement"]["intent.intent_resolution"]
    assert record["alpha"] < 0.667 and record["inconclusive"] is True and record["min_agreement"] == 0.667
    assert result.summary["config"]["min_agreement"] == 0.667
    with pytest.raises(AssertionError, match=r"intent\.pass_rate >= 0: INCONCLUSIVE \(actual .*\), the 2 judges agree "
                                             r"too little to tell: Krippendorff's alpha"):
        assert_passes(result, {"intent.pass_rate": 0.0})
    assert_passes(result, "intent.error_count == 0")  # a count of errors is not the judges' verdict


def test_min_agreement_is_checked_like_every_run_option():
    with pytest.raises(AgentEvalError, match="min_agreement must be an agreement coefficient between -1 and 1"):
        evaluate(data=_rows(1), evaluators={"x": lambda query, response: 1.0}, min_agreement=2)


def test_with_repetitions_each_run_of_a_row_is_a_unit(tmp_path):
    with JudgeServer(lambda req: schema_reply(req, score=4)) as a, JudgeServer(lambda req: schema_reply(req, score=4)) as b:
        result = evaluate(data=_rows(3), evaluators={"intent": _panel([a, b])}, num_runs=2)
    record = result.summary["agreement"]["intent.intent_resolution"]
    assert record["cells"] == 6
    assert record["alpha"] is None  # every verdict the same value: agreement is perfect, alpha undefined
    assert record["inconclusive"] is False


def test_a_resume_refuses_a_panel_with_another_judge(tmp_path):
    rows = _rows(2)
    with JudgeServer(lambda req: schema_reply(req, score=4)) as a, JudgeServer(lambda req: schema_reply(req, score=4)) as b:
        evaluate(data=rows, evaluators={"intent": _panel([a, b])}, output_path=tmp_path / "out")
        changed = IntentResolutionEvaluator(model_config=[{**a.openai_config(), "name": "a"},
                                                          {**b.openai_config("other-model"), "name": "b"}])
        with pytest.raises(AgentEvalError, match="intent"):
            evaluate(data=rows, evaluators={"intent": changed}, output_path=tmp_path / "out", resume=True)
        again = evaluate(data=rows, evaluators={"intent": _panel([a, b])}, output_path=tmp_path / "out", resume=True)
    assert again.summary["rows_reused"] == 2
