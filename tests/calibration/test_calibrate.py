"""calibrate() and ``agent-eval calibrate`` against the scripted judge server with planned verdicts.

The scripted judge answers each intent_resolution case with a verdict planned in
tests/reference/calibration_kappa.json ("scripted_intent_resolution": 2 good cases
judged bad, 3 bad judged good, one case that gets unparseable replies); the
expected accuracy, kappa and confusion matrix there come from scikit-learn
(tests/reference/gen_calibration_kappa.py).
"""

import json
import re

import pytest

from agent_evaluators import IntentResolutionEvaluator
from agent_evaluators.calibration import calibrate, find_metric
from agent_evaluators.cli.calibrate import calibrate_main
from agent_evaluators.conversation.transcript import data_value
from agent_evaluators.errors import ConfigError
from agent_evaluators.testing import Faults, JudgeServer, schema_reply

from ..conftest import REPO_ROOT

PLAN = json.loads((REPO_ROOT / "tests" / "reference" / "calibration_kappa.json").read_text())["cases"][
    "scripted_intent_resolution"]
METRIC = find_metric("intent_resolution")
CASES = METRIC.cases()


def _probe(case):
    """The case's final answer as the prompt renders it (the transcript's last line of the response block)."""
    last = case.inputs["response"][-1]["content"]
    return f"  reply: {data_value(last)}\n</agent_response>"


def planned_judge():
    """A responder that recognises which case it is judging and answers the planned verdict."""
    plan = {_probe(c): p for c, p in zip(CASES, PLAN["predicted"])}
    assert len(plan) == len(CASES), "case probes must be unique"

    def respond(req):
        hits = [p for probe, p in plan.items() if probe in req.text]
        assert len(hits) == 1, "the request must hold exactly one case's response"
        if hits[0] is None:
            return "I think it is fine."  # no JSON: unusable, also after the repair request
        return schema_reply(req, score=5 if hits[0] == "good" else 1)

    return respond


def test_case_order_matches_the_plan():
    assert [c.label for c in CASES] == PLAN["truth"]


def test_report_matches_sklearn_on_planned_verdicts():
    with JudgeServer(planned_judge()) as server:
        report = calibrate("intent_resolution", server.openai_config(), max_concurrency=3)
        assert server.stats()["max_in_flight"] <= 3
    assert report.total == 24 and report.scored == 23
    assert report.confusion == PLAN["confusion"]
    assert report.accuracy == pytest.approx(PLAN["accuracy"])
    assert report.kappa == pytest.approx(PLAN["kappa"], abs=1e-12)
    assert report.coverage == pytest.approx(23 / 24)
    [error] = report.errors
    assert error.id == "restaurant/good" and "JudgeError" in error.message and "repair" in error.message
    assert report.response_formats == {"json_schema": 24}
    assert report.model == "judge-model" and report.evaluator == "intent_resolution"
    text = report.summary()
    assert "23/24 cases scored" in text and "1 judge error(s), e.g. restaurant/good" in text
    assert f"{PLAN['kappa']:.3f}" in text


def test_reports_the_response_format_the_endpoint_accepted():
    verdict = {"user_intent": "know the order status", "reason": "resolved", "score": 5}
    with JudgeServer(lambda req: verdict, faults=Faults(reject_json_schema=True)) as server:
        report = calibrate("intent_resolution", server.openai_config(), cases=[
            {"id": "a", "label": "good", "inputs": CASES[0].inputs},
            {"id": "b", "label": "bad", "inputs": CASES[1].inputs},
        ], max_concurrency=1)
    assert report.response_formats == {"json_object": 2}
    assert report.confusion == {"good": {"good": 1, "bad": 0}, "bad": {"good": 1, "bad": 0}}
    assert report.accuracy == 0.5 and report.kappa == 0.0
    assert [r.response_format_type for r in server.requests] == ["json_schema", "json_object", "json_object"]


def test_an_evaluator_instance_is_used_as_configured():
    with JudgeServer(lambda req: schema_reply(req, score=3)) as server:
        ev = IntentResolutionEvaluator(model_config=server.openai_config(), threshold=4)
        report = calibrate(ev, cases=[{"id": "x", "label": "good", "inputs": CASES[0].inputs}])
    # score 3 is below this instance's threshold 4: judged bad
    assert report.cases[0].predicted == "bad" and report.cases[0].score == 3.0


def test_not_applicable_cases_are_left_out():
    tool_call_only = [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}]
    with JudgeServer() as server:
        report = calibrate("intent_resolution", server.openai_config(), cases=[
            {"id": "na", "label": "good", "inputs": {"query": "weather?", "response": tool_call_only}}])
    assert report.scored == 0 and len(report.not_applicable) == 1
    assert report.accuracy is None and report.kappa is None


def test_bad_judge_config_fails_fast(monkeypatch):
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ConfigError, match="api_key"):
        calibrate("task_adherence", {"model": "gpt-4o-mini"})
    with pytest.raises(ConfigError, match="max_concurrency"):
        calibrate("task_adherence", {"model": "m", "base_url": "http://127.0.0.1:9/v1"}, max_concurrency=0)


def test_cli_prints_table_writes_json_and_gates_on_kappa(tmp_path, capsys, monkeypatch):
    out = tmp_path / "report.json"
    monkeypatch.setenv("CALIBRATE_TEST_KEY", "test-key")  # issue 20.10: keys only from a variable, as for `run`
    with JudgeServer(planned_judge()) as server:
        base = ["--judge-model", "judge-model", "--judge-base-url", server.url + "/v1",
                "--judge-api-key-env", "CALIBRATE_TEST_KEY", "--evaluator", "intent_resolution"]
        assert calibrate_main(base + ["--json", str(out)]) == 0
        printed = capsys.readouterr().out
        assert re.search(r"intent_resolution\s+23/24\s+78\.3%\s+0\.566\s+moderate", printed), printed
        [saved] = json.loads(out.read_text())
        assert saved["kappa"] == pytest.approx(PLAN["kappa"]) and len(saved["cases"]) == 24
        assert calibrate_main(base + ["--min-kappa", "0.9"]) == 1
        assert "kappa below 0.9" in capsys.readouterr().err


def test_cli_configuration_errors_exit_2(capsys):
    assert calibrate_main(["--evaluator", "nope", "--judge-model", "m", "--judge-base-url", "http://127.0.0.1:9/v1"]) == 2
    assert "unknown judge-backed evaluator 'nope'" in capsys.readouterr().err
    assert calibrate_main(["--judge-base-url", "http://127.0.0.1:9/v1"]) == 2
    assert "no judge model is named; pass --judge-model" in capsys.readouterr().err  # issue 20.10: run's wording
    assert calibrate_main(["--local-model", "/nonexistent/model.gguf"]) == 2
    assert "model file not found" in capsys.readouterr().err
