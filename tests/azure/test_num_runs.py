"""``num_runs > 1`` with the azure layer's evaluators, against the local judge over HTTP.

A multi-run cell stays a 1.18 row (the same keys as one run's): the score columns are the mean of
the runs, ``_passed``/``_result`` apply azure's pass rule to that mean, ``_properties`` holds the
runs (``runs``, ``scores``, ``std``, ``min``, ``max``) and the token counts of all of them; the
engine's ``<alias>.<k>_std`` and ``pass_rate_run_<i>`` read those runs; a resume asks nothing
again; ``agent_evaluators.azure.evaluate`` gives 1.18's metric names over the combined cells.
"""

import json
import math
import re
from collections import defaultdict

from agent_evaluators import evaluate
from agent_evaluators.azure import IntentResolutionEvaluator, OutputQualityEvaluator, TaskAdherenceEvaluator
from agent_evaluators.azure import evaluate as azure_evaluate
from agent_evaluators.testing import schema_reply

from ..cli.helpers import write_jsonl

#: per row marker, the verdict of each run (as many as num_runs), handed out in request order
SCRIPT = {
    "ir_a": [5, 2, 4], "ir_b": [1, 1, 5],
    "ta_a": [1, 0, 1], "ta_b": [1, 1, 1],
}
ROWS = [{"query": "Weather in Paris? [row:a]", "response": "18 C."},
        {"query": "Weather in Rome? [row:b]", "response": "Sunny."}]
KEYS_OF_ONE_RUN = {"intent_resolution", "intent_resolution_score", "intent_resolution_passed",
                   "intent_resolution_result", "intent_resolution_reason", "intent_resolution_status",
                   "intent_resolution_threshold", "intent_resolution_properties"}


def scripted_judge():
    asked = defaultdict(int)

    def judge(req):
        row = re.findall(r"\[row:(\w)\]", req.text)[-1]
        metric = "ta" if "material failure" in req.text.lower() or "MaterialFailure" in req.text else "ir"
        if req.json_schema and req.json_schema.get("name", "").startswith("MaterialFailure"):
            metric = "ta"
        marker = f"{metric}_{row}"
        score = SCRIPT[marker][asked[marker] % 3]
        asked[marker] += 1
        return schema_reply(req, score=score)

    return judge


def _cells(result, alias):
    prefix = f"outputs.{alias}."
    return [{k[len(prefix):]: v for k, v in row.items() if k.startswith(prefix)} for row in result.rows]


def test_a_multi_run_cell_is_a_1_18_row_holding_the_mean(judge_server, tmp_path):
    server = judge_server(scripted_judge())
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    config = server.openai_config()
    result = evaluate(data=str(data), evaluators={"ir": IntentResolutionEvaluator(config)}, num_runs=3,
                      output_path=str(tmp_path / "run"), max_concurrency=1)
    a, b = _cells(result, "ir")
    for cell, scores in ((a, [5, 2, 4]), (b, [1, 1, 5])):
        assert set(cell) == KEYS_OF_ONE_RUN  # no _details/_usage: still 1.18's keys
        mean = sum(scores) / 3
        assert cell["intent_resolution"] == cell["intent_resolution_score"] == mean
        assert cell["intent_resolution_passed"] is (mean >= 3)
        assert cell["intent_resolution_result"] == ("pass" if mean >= 3 else "fail")
        assert cell["intent_resolution_status"] == "completed" and cell["intent_resolution_threshold"] == 3
        props = cell["intent_resolution_properties"]
        assert sorted(props["scores"]) == sorted(float(s) for s in scores) and len(props["runs"]) == 3
        assert math.isclose(props["std"], math.sqrt(sum((s - mean) ** 2 for s in scores) / 3))
        assert (props["min"], props["max"]) == (min(scores), max(scores))
        run_tokens = [r["intent_resolution_properties"]["prompt_tokens"] for r in props["runs"]]
        assert props["prompt_tokens"] == sum(run_tokens)  # every run's tokens, not the first run's
        assert {r["intent_resolution"] for r in props["runs"]} == {float(s) for s in scores}
    # the engine's per-run metrics read the runs the cells keep
    metrics = result.metrics
    per_run = [[cell["intent_resolution_properties"]["runs"][i]["intent_resolution_result"] == "pass"
                for cell in (a, b)] for i in range(3)]
    for i, passes in enumerate(per_run, 1):
        assert metrics[f"ir.pass_rate_run_{i}"] == sum(passes) / 2
    run_means = [sum(cell["intent_resolution_properties"]["runs"][i]["intent_resolution"] for cell in (a, b)) / 2
                 for i in range(3)]
    mu = sum(run_means) / 3
    assert math.isclose(metrics["ir.intent_resolution_std"], math.sqrt(sum((m - mu) ** 2 for m in run_means) / 3))
    assert metrics["ir.pass_rate"] == 0.5 and metrics["ir.intent_resolution"] == (11 / 3 + 7 / 3) / 2
    assert server.stats()["requests"] == 6
    assert result.usage["ir"]["prompt_tokens"] == sum(
        c["intent_resolution_properties"]["prompt_tokens"] for c in (a, b))
    # a resume asks nothing again and reports the same numbers
    again = evaluate(data=str(data), evaluators={"ir": IntentResolutionEvaluator(config)}, num_runs=3,
                     output_path=str(tmp_path / "run"), resume=True)
    assert server.stats()["requests"] == 6 and again.metrics == metrics


def test_azure_pass_rule_applies_to_the_mean(judge_server, tmp_path):
    """TaskAdherence reports threshold 3 and passes only at 1: the mean of 1, 0, 1 fails, of 1, 1, 1 passes."""
    server = judge_server(scripted_judge())
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    result = evaluate(data=str(data), evaluators={"ta": TaskAdherenceEvaluator(server.openai_config())}, num_runs=3,
                      max_concurrency=1)
    a, b = _cells(result, "ta")
    assert math.isclose(a["task_adherence"], 2 / 3) and a["task_adherence_passed"] is False
    assert a["task_adherence_result"] == "fail" and a["task_adherence_threshold"] == 3
    assert b["task_adherence"] == 1.0 and b["task_adherence_passed"] is True and b["task_adherence_result"] == "pass"


def test_azure_evaluate_with_num_runs_gives_1_18_metrics(judge_server, tmp_path):
    server = judge_server(scripted_judge())
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    out = azure_evaluate(data=str(data), evaluators={"ir": IntentResolutionEvaluator(server.openai_config())},
                         num_runs=3)
    json.dumps(out)
    metrics = out["metrics"]
    assert set(metrics) == {"ir.intent_resolution", "ir.intent_resolution_score", "ir.intent_resolution_passed",
                            "ir.binary_aggregate"}
    assert metrics["ir.intent_resolution"] == metrics["ir.intent_resolution_score"] == (11 / 3 + 7 / 3) / 2
    assert metrics["ir.binary_aggregate"] == metrics["ir.intent_resolution_passed"] == 0.5
    assert {row["outputs.ir.intent_resolution"] for row in out["rows"]} == {11 / 3, 7 / 3}


def test_a_composite_combines_every_member(judge_server, tmp_path):
    server = judge_server(lambda req: schema_reply(req, score=1 if "score" in json.dumps(req.json_schema or {})
                                                   else None))
    data = write_jsonl(tmp_path / "data.jsonl", ROWS[:1])
    result = evaluate(data=str(data), evaluators={"oq": OutputQualityEvaluator(server.openai_config())}, num_runs=2)
    [cell] = _cells(result, "oq")
    for key in ("intent_resolution", "task_adherence", "task_completion", "output_quality"):
        assert f"{key}_details" not in cell and f"{key}_usage" not in cell
        assert len(cell[f"{key}_properties"]["scores"]) == 2, key
    assert len(cell["output_quality_properties"]["runs"]) == 2
    assert "runs" not in cell["task_adherence_properties"]
