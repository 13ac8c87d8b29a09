"""``evaluate(azure_compat=True)``, ``evaluate(azure_ai_project=...)`` and the registry's 1.18 name map."""

import importlib
import json
import logging

import pytest

from agent_evaluators import evaluate, registry
from agent_evaluators.azure import meaning as azure_meaning
from agent_evaluators.testing import JudgeServer

ROWS = [{"response": "a"}, {"response": "bbbb"}, {"response": "boom"}, {"response": "cc"}]


def scored(response: str) -> dict:
    if response == "boom":
        raise ValueError("boom on purpose")
    ok = len(response) > 1
    return {"length": len(response), "length_passed": ok, "length_result": "pass" if ok else "fail",
            "length_threshold": 2}


def test_azure_compat_adds_1_18s_metric_names_to_ours_and_to_summary_json(tmp_path):
    result = evaluate(data=ROWS, evaluators={"len": scored}, azure_compat=True, output_path=tmp_path / "out",
                      show_progress=False)
    m = result.metrics
    assert m["len.binary_aggregate"] == 0.5  # 2 passes over all 4 rows (the errored one counts, as in 1.18)
    assert m["len.length_passed"] == pytest.approx(2 / 3)  # the errored row has no value: left out
    assert m["len.pass_rate"] == pytest.approx(2 / 3) and m["len.error_count"] == 1  # ours stay
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["metrics"]["len.binary_aggregate"] == 0.5 and summary["config"]["azure_compat"] is True
    plain = evaluate(data=ROWS, evaluators={"len": scored}, show_progress=False)
    assert "len.binary_aggregate" not in plain.metrics and "len.length_passed" not in plain.metrics


def test_top_level_evaluate_accepts_azure_ai_project_and_says_results_stay_local(caplog):
    project = {"subscription_id": "s", "resource_group_name": "g", "project_name": "p"}
    with caplog.at_level(logging.WARNING):
        first = evaluate(data=ROWS[:2], evaluators={"len": scored}, azure_ai_project=project, show_progress=False)
        evaluate(data=ROWS[:2], evaluators={"len": scored}, azure_ai_project="https://x.services.ai.azure.com/api/p",
                 show_progress=False)
    assert first.studio_url is None and first["studio_url"] is None
    assert sum("results stay local" in r.getMessage() for r in caplog.records) == 2  # one per call


def test_every_azure_name_loads_and_every_class_the_azure_layer_has_is_mapped():
    azure = importlib.import_module("agent_evaluators.azure")
    for name, target in azure_meaning.TARGETS.items():
        assert registry.get(name).name == name
        assert registry.compat_class(name) is getattr(azure, target.partition(":")[2])
    for entry in registry.entries():
        if getattr(azure, entry.class_name, None) is not None:  # the azure layer has a class of that name
            assert entry.name in azure_meaning.TARGETS, entry.name
        else:
            assert registry.compat_class(entry.name) is entry.load()  # keeps its own class


def test_an_azure_compat_run_with_a_name_resolves_to_the_azure_class():
    from agent_evaluators.azure import TaskAdherenceEvaluator
    from agent_evaluators.config.run_config import RunConfig, build_evaluators, parse_evaluator_arg

    with JudgeServer() as server:
        cfg = RunConfig()
        cfg.evaluators = [parse_evaluator_arg("task_adherence=task"), parse_evaluator_arg("response_match")]
        cfg.run_options["azure_compat"] = True
        cfg.judge = cfg.judge.merged(model="fake", base_url=server.openai_config()["base_url"])
        built, skipped, _ = build_evaluators(cfg)
    assert isinstance(built["task"], TaskAdherenceEvaluator) and not skipped
    assert type(built["response_match"]) is registry.get("response_match").load()
