"""The shipped labelled sets: built from the scenarios, balanced, complete, and accepted by their evaluators."""

import json
import re
import subprocess
import sys
import zipfile

import pytest

from agent_evaluators.calibration import find_metric, judge_metrics
from agent_evaluators.calibration.build import DATA_DIR, build_all, render
from agent_evaluators.calibration.catalog import parse_cases
from agent_evaluators.errors import ConfigError, JudgeError
from agent_evaluators.testing import JudgeServer

from ..conftest import REPO_ROOT
from ..test_registry import public_evaluator_classes

METRICS = judge_metrics()


def test_catalog_lists_every_public_judge_evaluator():
    listed = {m.evaluator_class for m in METRICS}
    found = {c for c in public_evaluator_classes() if c.uses_judge}
    assert found, "discovery found no judge-backed evaluator"
    assert found == listed, f"not in the calibration catalog: {sorted(c.__name__ for c in found - listed)}"


def test_names_are_the_result_keys():
    for m in METRICS:
        assert m.build({"model": "m", "base_url": "http://127.0.0.1:9/v1"}).result_key == m.name


def test_shipped_files_equal_the_builder_output():
    built = build_all()
    assert sorted(built) == sorted(m.name for m in METRICS)
    for name, cases in built.items():
        assert (DATA_DIR / f"{name}.jsonl").read_text(encoding="utf-8") == render(cases), (
            f"{name}.jsonl is stale: run python -m agent_evaluators.calibration.build")


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.name)
def test_each_set_has_10_to_20_good_and_bad_cases(metric):
    cases = metric.cases()
    good = [c for c in cases if c.label == "good"]
    bad = [c for c in cases if c.label == "bad"]
    assert 10 <= len(good) <= 20 and 10 <= len(bad) <= 20
    assert len({c.id for c in cases}) == len(cases), "case ids must be unique"
    assert all(c.why for c in cases)
    # a bad case differs from its good twin (the labels are not attached to identical inputs)
    inputs = [json.dumps(c.inputs, sort_keys=True) for c in cases]
    assert len(set(inputs)) == len(inputs)


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.name)
def test_every_case_reaches_the_judge(metric):
    """Each case's inputs bind to the evaluator and are rendered into a judge request
    (the judge here is a schema-following stub; its verdicts are not the point)."""
    cases = metric.cases()
    with JudgeServer() as server:
        ev = metric.build(server.openai_config(), quick=True)
        for case in cases:
            before = server.stats()["requests"]
            try:
                ev(**case.inputs)
            except JudgeError:
                pass  # the stub's generic verdict may not fit every evaluator's extra checks
            assert server.stats()["requests"] > before, f"{metric.name} {case.id}: no judge request was made"
            probe = _probe(case.inputs)
            assert probe in server.requests[-1].text, f"{metric.name} {case.id}: {probe!r} is not in the prompt"


def _probe(inputs):
    """A plain-words stretch of the case's response (or query) text: it must reach the prompt.
    (Prompts JSON-encode inputs and escape <, > and &, so punctuation is avoided.)"""
    value = inputs.get("response") or inputs.get("query") or inputs.get("messages") or inputs.get("conversation")
    if not isinstance(value, str):
        value = next(m["content"] for m in reversed(value) if isinstance(m.get("content"), str) and m["content"])
    return max(re.findall(r"[A-Za-z][A-Za-z ]+", value), key=len)


def test_find_metric_by_key_or_class_name():
    assert find_metric("task_adherence").name == "task_adherence"
    assert find_metric("TaskAdherenceEvaluator").name == "task_adherence"
    assert find_metric("SafetyEvaluator").name == "safety_v1"
    with pytest.raises(ConfigError, match="unknown judge-backed evaluator 'nope' Choose one of: intent_resolution"):
        find_metric("nope")


def test_bad_case_file_names_the_line():
    with pytest.raises(ConfigError, match=r"x.jsonl line 2: expected"):
        parse_cases('{"id": "a", "label": "good", "inputs": {}}\n{"id": "b", "label": "maybe", "inputs": {}}\n',
                    source="x.jsonl")
    with pytest.raises(ConfigError, match="line 1: not valid JSON"):
        parse_cases("{oops\n", source="x.jsonl")


def test_sets_ship_in_the_wheel(tmp_path):
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path),
                    str(REPO_ROOT)], check=True, capture_output=True, text=True)
    wheel = next(tmp_path.glob("agent_evaluators-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for m in METRICS:
        assert f"agent_evaluators/calibration/data/{m.name}.jsonl" in names


def test_calibrate_names_the_closest_judge_and_says_a_deterministic_one_has_nothing_to_calibrate():
    with pytest.raises(ConfigError, match=r"did you mean 'intent_resolution'\?"):
        find_metric("intnt_resolution")
    with pytest.raises(ConfigError, match="asks no judge, so there is nothing to calibrate"):
        find_metric("tool_trajectory")
