"""Certifying a run's judge from people's labels, end to end: a real run against the scripted judge server,
labels appended as the labelling page writes them, ``certify()`` / ``agent-eval calibrate --labels``, then a
run that reads the certification (summary.json, corrected pass rate, ``require_certified``).

The exact intervals below are scipy's (scipy 1.16.3, in a throw-away venv)::

    /tmp/lstats-venv/bin/python -c "from scipy.stats import binomtest; \\
        print(binomtest(29, 30).proportion_ci(method='exact'))"    # (0.827830544366587, 0.9991564290733507)

The run: 62 rows; people pass rows 0-29 and fail rows 30-59; the judge passes rows 0-28, 59 and 60 (row 29 a
false negative, row 59 a false positive). Row 60 is labelled skip, row 61 is a tie between two annotators.
"""

import json
from pathlib import Path

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.calibration import certify, labels_to_cases
from agent_evaluators.calibration.catalog import parse_cases
from agent_evaluators.calibration.labels import Label, append_label
from agent_evaluators.cli.calibrate import calibrate_main
from agent_evaluators.errors import ConfigError
from agent_evaluators.stats.judge_error import rogan_gladen
from agent_evaluators.testing import JudgeServer, schema_reply
from tests.cli.helpers import agent_eval, write_jsonl

CP_29_OF_30 = (0.827830544366587, 0.9991564290733507)
JUDGE_PASSES = set(range(29)) | {59, 60}


def respond(req):
    return schema_reply(req, score=5 if "PASSME" in req.text else 1)


@pytest.fixture(scope="module")
def judge():
    with JudgeServer(respond) as server:
        yield server


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rows = [{"id": f"r{i}", "query": f"Question number {i}: where is my order?",
             "response": f"Answer {i}: " + ("PASSME it ships today." if i in JUDGE_PASSES else "NOPE.")}
            for i in range(62)]
    return write_jsonl(tmp_path_factory.mktemp("data") / "rows.jsonl", rows)


@pytest.fixture(scope="module")
def labelled(judge, data, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "labelled"
    evaluate(data=str(data), evaluators={"intent": IntentResolutionEvaluator(judge.openai_config())},
             output_path=out, show_progress=False)
    for line in range(60):
        append_label(out, Label(line, "intent", "pass" if line < 30 else "fail", "ana"))
    append_label(out, Label(60, "intent", "skip", "ana"))
    append_label(out, Label(61, "intent", "pass", "ana"))
    for line in (0, 1, 2, 3, 4, 40, 41, 42, 43, 44):  # a second person agrees on ten cells
        append_label(out, Label(line, "intent", "pass" if line < 30 else "fail", "bo"))
    append_label(out, Label(61, "intent", "fail", "bo"))  # and disagrees on one: a tie, left out
    return out


def test_certify_counts_rates_and_exact_intervals(labelled):
    record = certify(labelled)["intent"]
    assert (record["n"], record["positives"], record["true_positives"], record["negatives"],
            record["true_negatives"]) == (60, 30, 29, 30, 29)
    assert record["agreement"] == pytest.approx(58 / 60)
    assert record["kappa"] == pytest.approx((58 / 60 - 0.5) / 0.5)
    assert record["tpr"] == pytest.approx(29 / 30) and record["tnr"] == pytest.approx(29 / 30)
    assert record["tpr_interval"] == pytest.approx(CP_29_OF_30, rel=1e-9)
    assert record["tnr_interval"] == pytest.approx(CP_29_OF_30, rel=1e-9)
    assert record["certified"] is True and record["floor"] == 0.8
    assert record["left_out"] == {"not_applicable": 0, "error": 0, "not_run": 0, "skip": 1, "tie": 1, "no_row": 0}
    assert record["annotators"] == ["ana", "bo"] and record["consensus"] == "majority"
    inter = record["inter_annotator"]
    # ana: pass 0-4 and 61, fail 40-44; bo: pass 0-4, fail 40-44 and 61 -> po 10/11, pe 60/121, kappa 50/61
    assert inter["method"] == "cohen" and inter["cells"] == 11
    assert inter["kappa"] == pytest.approx(50 / 61) and inter["all_agree"] == pytest.approx(10 / 11)
    assert certify(labelled, floor=0.9)["intent"]["certified"] is False  # 0.83 < 0.9


def test_certify_refuses_a_bad_floor_and_a_folder_without_labels(labelled, tmp_path):
    with pytest.raises(ConfigError, match="floor must be a number between 0 and 1"):
        certify(labelled, floor=1.5)
    (tmp_path / "rows.jsonl").write_text("")
    with pytest.raises(ConfigError, match="no labels; label the run first"):
        certify(tmp_path)


def test_cells_without_a_judge_verdict_are_left_out_and_counted(tmp_path):
    rows = [{"line_number": 0, "cell_status": {"j": "error"}},
            {"line_number": 1, "cell_status": {"j": "not_run"}},
            {"line_number": 2, "outputs.j.k_result": "not_applicable"},
            {"line_number": 3, "outputs.j.k_result": "pass"},
            {"line_number": 4, "outputs.j.k_result": "fail"}]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    for line in range(6):  # line 5 has no row
        append_label(tmp_path, Label(line, "j", "pass", "ana"))
    record = certify(tmp_path)["j"]
    assert record["left_out"] == {"not_applicable": 1, "error": 1, "not_run": 1, "skip": 0, "tie": 0, "no_row": 1}
    assert (record["n"], record["true_positives"], record["positives"], record["negatives"]) == (2, 1, 2, 0)
    assert record["tnr"] is None and record["tnr_interval"] is None and record["certified"] is False


def test_calibrate_labels_json_report_has_the_issue_shape(labelled, tmp_path, capsys):
    report = tmp_path / "cert.json"
    record_file = tmp_path / "eval.calibration.json"
    code = calibrate_main(["--labels", str(labelled), "--json", str(report), "--save-calibration", str(record_file)])
    assert code == 0
    text = capsys.readouterr().out
    assert "intent: certified (TPR 0.97 [0.83, 1.00], TNR 0.97 [0.83, 1.00], 60 labels, floor 0.8)" in text
    data = json.loads(report.read_text())
    assert set(data) == {"intent"}
    assert {"n", "agreement", "kappa", "tpr", "tpr_interval", "tnr", "tnr_interval", "certified"} <= set(data["intent"])
    [entry] = json.loads(record_file.read_text())["entries"]
    assert entry["source"] == "labels" and entry["evaluator"] == "intent_resolution" and entry["certified"] is True
    assert entry["model"] == "judge-model" and entry["template_hash"] == data["intent"]["template_hash"]
    assert calibrate_main(["--labels", str(labelled), "--floor", "0.9", "--require-certified"]) == 1
    assert "not certified at floor 0.9: intent" in capsys.readouterr().err


def test_labels_become_a_calibration_set_a_judge_runs_on(labelled, judge, tmp_path, capsys):
    cases_file = tmp_path / "intent_cases.jsonl"
    assert calibrate_main(["--labels", str(labelled), "--evaluator", "intent", "--to-cases", str(cases_file)]) == 0
    cases = parse_cases(cases_file.read_text(), source=str(cases_file))
    assert len(cases) == 60 and [c.label for c in cases[:30]] == ["good"] * 30 and cases[30].label == "bad"
    assert set(cases[0].inputs) == {"query", "response"} and "PASSME" in cases[0].inputs["response"]
    assert labels_to_cases(labelled, "intent")[0]["id"] == "line0"
    code = calibrate_main(["--judge-model", "judge-model", "--judge-base-url", judge.url + "/v1",
                           "--judge-api-key-env", "PATH", "--evaluator", "intent_resolution",
                           "--cases", str(cases_file)])
    assert code == 0
    assert "96.7%" in capsys.readouterr().out  # the judge agrees with the people on 58 of the 60 cases


def test_a_run_with_the_certification_records_it_and_the_corrected_rate(labelled, judge, data, tmp_path):
    out = tmp_path / "second"
    result = evaluate(data=str(data), evaluators={"intent": IntentResolutionEvaluator(judge.openai_config())},
                      output_path=out, show_progress=False, certification=labelled)
    summary = json.loads((out / "summary.json").read_text())
    cert = summary["certification"]["intent"]
    assert cert["certified"] is True and cert["n"] == 60 and cert["source"] == str(labelled)
    raw = summary["metrics"]["intent.pass_rate"]
    assert raw == pytest.approx(31 / 62)
    expected = rogan_gladen(31 / 62, 29 / 30, 29 / 30)
    assert summary["metrics"]["intent.corrected_pass_rate"] == pytest.approx(expected)
    interval = summary["intervals"]["intent.corrected_pass_rate"]
    assert interval["low"] < expected < interval["high"] and interval["method"] == "delta-agresti-coull"
    assert result.metrics["intent.corrected_pass_rate"] == pytest.approx(expected)
    assert cert["corrected_pass_rate"]["rate"] == pytest.approx(expected)
    assert summary["config"]["certification"] == str(labelled)


def test_require_certified_makes_an_uncertified_threshold_inconclusive(judge, data, labelled, tmp_path):
    flags = ["run", "--data", data, "-e", "intent_resolution=intent", "--judge-base-url", judge.url + "/v1",
             "--judge-model", "judge-model", "--judge-api-key-env", "PATH", "--no-show-progress",
             "-t", "intent.pass_rate >= 0.4"]
    r = agent_eval(*flags, "-o", tmp_path / "bare", "--require-certified")
    assert r.rc == 3, r
    assert "INCONCLUSIVE" in r.out and "judge not certified (no labels" in r.out
    assert "a judge is not certified by people's labels" in r.out
    r = agent_eval(*flags, "-o", tmp_path / "uncertified", "--certification", labelled)
    assert r.rc == 0, r  # certified, so no note; without require_certified an uncertified judge only says so
    r = agent_eval(*flags, "-t", "intent.corrected_pass_rate >= 0.45", "-o", tmp_path / "certified",
                   "--require-certified", "--certification", labelled)
    assert r.rc == 0, r
    assert "intent: certified" in r.out and "pass rate 0.50, corrected 0.50 [" in r.out
    checks = json.loads((tmp_path / "certified" / "checks.json").read_text())["thresholds"]
    assert [c["status"] for c in checks] == ["pass", "pass"]


def test_an_uncertified_judge_says_so_beside_its_threshold(judge, data, labelled, tmp_path):
    cert = tmp_path / "strict.json"
    assert calibrate_main(["--labels", str(labelled), "--floor", "0.9", "--json", str(cert)]) == 0
    r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-base-url", judge.url + "/v1",
                   "--judge-model", "judge-model", "--judge-api-key-env", "PATH", "--no-show-progress",
                   "-t", "intent.pass_rate >= 0.4", "-o", tmp_path / "out", "--certification", cert)
    assert r.rc == 0, r
    assert "judge not certified (TPR lower bound 0.83, TNR lower bound 0.83, floor 0.9)" in r.out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["certification"]["intent"]["certified"] is False
    assert "intent.corrected_pass_rate" not in summary["metrics"]


def test_a_certification_option_naming_nothing_is_refused(data):
    with pytest.raises(ConfigError, match="no such file or folder"):
        evaluate(data=str(data), evaluators={"x": lambda **_: {"x": 1}}, certification="/nonexistent/labels")
