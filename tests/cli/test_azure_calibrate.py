"""The azure-ai-evaluation 1.18 meanings from the command line: ``agent-eval calibrate --azure-compat``
against the bundled fake judge (``python -m agent_evaluators.testing``, a subprocess as a shell starts it)
scores every labelled case of every azure-layer judge metric, and ``agent-eval list --azure-compat``
says which class, scale and threshold each name means in an ``--azure-compat`` run."""

import json
import re

from agent_evaluators import registry
from agent_evaluators.azure import meaning as azure_meaning
from agent_evaluators.calibration import find_metric, judge_metrics
from agent_evaluators.calibration.build import DATA_DIR, azure_sets, render

from .helpers import agent_eval, clean_env

#: the azure-layer judge metrics, by registry name, and the set each is calibrated on
AZURE_JUDGE = {e.name: e.calibration.stem for e in registry.compat_entries() if e.judge and e.calibration}



def test_every_azure_layer_judge_metric_has_a_set() -> None:
    judges = [name for name in azure_meaning.TARGETS if registry.get(name).judge]
    assert sorted(AZURE_JUDGE) == sorted(judges)
    # the two 1.18 meanings that ask another question than ours have their own labelled set
    assert AZURE_JUDGE["task_adherence"] == "azure_task_adherence"
    assert AZURE_JUDGE["tool_call_accuracy"] == "azure_tool_call_accuracy"
    for name, stem in AZURE_JUDGE.items():
        metric = find_metric(name, azure_compat=True)
        # a 1.18 class that asks its own question is calibrated itself; one that renders our template
        # on our scale is measured through our class (same prompt, same agreement)
        own_question = stem.startswith("azure_")
        expected = registry.compat_class(name) if own_question else registry.get(name).load()
        assert metric.name == stem and metric.evaluator_class is expected, name
    assert [m.name for m in judge_metrics(azure_compat=True)] == list(AZURE_JUDGE.values())


def test_shipped_azure_sets_equal_their_declarations() -> None:
    sets = azure_sets()
    assert sorted(sets) == ["azure_task_adherence", "azure_tool_call_accuracy"]
    for name, cases in sets.items():
        assert (DATA_DIR / f"{name}.jsonl").read_text(encoding="utf-8") == render(cases), (
            f"{name}.jsonl is stale: run python -m agent_evaluators.calibration.build")
        assert sum(c["label"] == "good" for c in cases) == sum(c["label"] == "bad" for c in cases) == 12


def test_calibrate_quick_azure_compat_scores_every_azure_judge_metric(fake_judge_process, tmp_path) -> None:
    report = tmp_path / "cal.json"
    r = agent_eval("calibrate", "--judge-base-url", fake_judge_process + "/v1", "--judge-model", "fake", "--quick",
                   "--azure-compat", "--json", report, env=clean_env())
    assert r.rc == 0, r
    cal = json.loads(report.read_text())
    assert [c["evaluator"] for c in cal] == list(AZURE_JUDGE.values())
    for c in cal:
        assert c["scored"] == c["total"] >= 20, c  # every case of the set scored
        assert not c["errors"] and not c["not_applicable"], c
    # 1.18's scales reached the report: 0/1 material failure, 1-5 tool-call accuracy
    scores = {c["evaluator"]: {case["score"] for case in c["cases"]} for c in cal}
    assert scores["azure_task_adherence"] <= {0.0, 1.0}
    assert scores["azure_tool_call_accuracy"] <= {1.0, 2.0, 3.0, 4.0, 5.0}
    # the terminal names them as `agent-eval run --azure-compat --evaluator` takes them (the JSON keeps the set's name)
    assert re.search(r"^task_adherence\s", r.out, re.M) and re.search(r"^tool_call_accuracy\s", r.out, re.M), r
    assert "azure_task_adherence" not in r.out, r


def test_calibrate_azure_compat_by_name(fake_judge_process, tmp_path) -> None:
    report = tmp_path / "cal.json"
    r = agent_eval("calibrate", "--judge-base-url", fake_judge_process + "/v1", "--judge-model", "fake", "--quick",
                   "--azure-compat", "--evaluator", "task_adherence", "--evaluator", "hallucinations",
                   "--json", report, env=clean_env())
    assert r.rc == 0, r
    # a name azure_compat does not change keeps its own meaning, as in an --azure-compat run
    assert [c["evaluator"] for c in json.loads(report.read_text())] == ["azure_task_adherence", "hallucinations_v1"]


def test_list_azure_compat_names_the_class_scale_and_threshold() -> None:
    listed = json.loads(agent_eval("list", "--azure-compat", "--json").out)
    assert listed["task_adherence"]["module"] == "agent_evaluators.azure"
    assert (listed["task_adherence"]["scale"], listed["task_adherence"]["threshold"],
            listed["task_adherence"]["pass_at"]) == ([0.0, 1.0], 3, 1.0)
    assert (listed["tool_call_accuracy"]["scale"], listed["tool_call_accuracy"]["threshold"]) == ([1.0, 5.0], 3)
    for name in azure_meaning.TARGETS:
        assert listed[name]["class"] == registry.compat_class(name).__name__, name
    assert listed["hallucinations"]["module"] != "agent_evaluators.azure"
    text = agent_eval("list", "--azure-compat").out
    assert ("task_adherence  [judge]  agent_evaluators.azure.TaskAdherenceEvaluator, key task_adherence, "
            "scale 0-1, threshold 3 (passes at 1)") in text
    # without the flag, the seed meaning
    assert json.loads(agent_eval("list", "--json").out)["task_adherence"]["threshold"] == 3
    assert "module" not in json.loads(agent_eval("list", "--json").out)["task_adherence"]
