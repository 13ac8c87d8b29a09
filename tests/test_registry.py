"""The evaluator registry is the one list: every public evaluator is in it, and everything reads it."""

import importlib
import inspect
import pkgutil
import subprocess
import sys
from typing import List

import pytest

import agent_evaluators
from agent_evaluators import registry
from agent_evaluators.errors import ConfigError

ADK_METRICS = {
    "response_evaluation_score",
    "per_turn_user_simulator_quality_v1",
    "tool_trajectory_avg_score",
    "response_match_score",
    "final_response_match_v2",
    "rubric_based_final_response_quality_v1",
    "rubric_based_tool_use_quality_v1",
    "hallucinations_v1",
    "rubric_based_multi_turn_trajectory_quality_v1",
    "multi_turn_task_success_v1",
    "multi_turn_trajectory_quality_v1",
    "multi_turn_tool_use_quality_v1",
    "safety_v1",
}


EVALUATOR_PACKAGES = ("agent_evaluators.evaluators", "agent_evaluators.adk.judges", "agent_evaluators.adk.efficiency")


def public_evaluator_classes() -> List[type]:
    """Every concrete public Evaluator subclass defined in the packages that hold evaluators: the core's
    ``agent_evaluators.evaluators`` and the ADK wing's judges and efficiency metrics.

    Concrete = defines or inherits ``_evaluate``; private names (leading underscore),
    the shared bases and ``PromptyEvaluator`` (built from a user's template) are left out.
    """
    from agent_evaluators.evaluators.base import Evaluator
    from agent_evaluators.evaluators.judge_base import PromptyEvaluator

    for package in map(importlib.import_module, EVALUATOR_PACKAGES):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
    found: List[type] = []
    stack = list(Evaluator.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__name__.startswith("_") or issubclass(cls, PromptyEvaluator):
            continue
        if not cls.__module__.startswith(EVALUATOR_PACKAGES):
            continue
        if not hasattr(cls, "_evaluate_signature"):  # a base: no _evaluate anywhere in its MRO
            continue
        if cls not in found:
            found.append(cls)
    return found


def test_every_public_evaluator_is_registered_and_every_entry_is_one():
    found = {c.__module__ + ":" + c.__name__ for c in public_evaluator_classes()}
    listed = {e.target for e in registry.entries()}
    assert len(found) >= 14, found
    assert found == listed, {"not registered": found - listed, "registered but not found": listed - found}


@pytest.mark.parametrize("entry", registry.entries(), ids=lambda e: e.name)
def test_entry_matches_its_class(entry):
    cls = entry.load()
    assert cls.__name__ == entry.class_name and cls.__module__ == entry.module
    assert cls.result_key == entry.result_key
    assert bool(cls.uses_judge) is entry.judge
    if entry.judge:
        assert entry.calibration is not None, f"{entry.name}: a judge evaluator needs a calibration set"
    # the package exports the class under its own name, lazily, from the registry
    assert getattr(agent_evaluators, entry.class_name) is cls
    assert entry.class_name in agent_evaluators.__all__


def test_all_is_the_registry_plus_the_run_api():
    evaluators = {e.class_name for e in registry.entries()}
    others = set(agent_evaluators.__all__) - evaluators
    assert others == {"AgentEvalError", "ConfigError", "InputError", "JudgeError", "BudgetExhausted", "EvaluatorErrors",
                      "RunInterrupted", "__version__", "Evaluator",
                      "Outcome", "evaluate", "evaluate_async", "blocking", "EvaluationResult", "JudgeEvaluator",
                      "PromptyEvaluator"}
    for name in agent_evaluators.__all__:
        assert getattr(agent_evaluators, name) is not None


def test_adk_metric_names_map_to_one_entry_each():
    assert {e.adk_metric for e in registry.entries() if e.adk_metric} == ADK_METRICS
    for metric in ADK_METRICS:
        entry = registry.by_adk_metric(metric)
        assert entry is not None and entry.load().result_key == metric
        assert registry.get(metric) is entry  # the CLI accepts ADK names too
    assert registry.by_adk_metric("nope_v1") is None


def test_lookups_normalize_and_fail_with_the_known_names():
    assert registry.get(" Tool-Trajectory ").name == "tool_trajectory"
    assert registry.get("trajectory").name == "tool_trajectory"
    assert registry.get("intent").name == "intent_resolution"
    assert registry.by_class_name("SafetyEvaluator").name == "safety"
    assert [e.name for e in registry.judge_entries()] == [e.name for e in registry.entries() if e.judge]
    with pytest.raises(ConfigError) as err:
        registry.get("tool_trajectroy")
    assert "tool_trajectroy" in str(err.value) and "tool_trajectory" in str(err.value)


def test_the_registry_imports_no_evaluator_module():
    code = ("import sys, agent_evaluators.registry as r; r.entries(); "
            "print(sorted(m for m in sys.modules if m.startswith('agent_evaluators.evaluators')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_new_entry_is_all_the_cli_and_calibration_need(monkeypatch):
    """Adding one entry makes the name known to the run config, `agent-eval list` and calibration."""
    from agent_evaluators.calibration import catalog
    from agent_evaluators.cli.listing import describe_class
    from agent_evaluators.config import run_config

    base = registry.get("intent_resolution")
    new = registry.EvaluatorEntry(
        "my_intent", base.target, True, base.result_key,
        calibration=registry.CalibrationSet("intent_resolution.jsonl", (1, 5), {"threshold": 4}),
    )
    monkeypatch.setattr(registry, "ENTRIES", registry.ENTRIES + (new,))
    monkeypatch.setattr(registry, "_BY_NAME", {**registry._BY_NAME, "my_intent": new})
    monkeypatch.setattr(catalog, "_METRICS", tuple(catalog._metric(e) for e in registry.calibrated_entries()))

    assert "my_intent" in run_config.evaluator_names()
    spec = run_config.parse_evaluator_arg("my_intent=mine")
    assert spec.uses_judge and spec.alias == "mine"
    built = spec.build({"model": "m", "base_url": "http://127.0.0.1:9/v1"})
    assert type(built).__name__ == "IntentResolutionEvaluator"
    assert describe_class(new.load())["judge"] is True
    assert [m.kwargs for m in catalog.judge_metrics() if m.target == base.target][-1] == {"threshold": 4}


def test_import_agent_evaluators_stays_light():
    # nor the heavier stdlib modules a registry of dataclasses would pull in
    heavy = ('openai', 'pydantic', 'aiohttp', 'inspect', 'dataclasses')
    code = f"import sys, agent_evaluators; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_entry_has_a_shipped_calibration_file_when_it_names_one():
    from importlib import resources

    for entry in registry.calibrated_entries():
        assert entry.calibration is not None
        assert resources.files("agent_evaluators.calibration").joinpath("data", entry.calibration.file).is_file()
    assert inspect.isfunction(registry.get)


def test_a_misspelt_evaluator_name_gets_the_closest_one():
    """``-e intent_resolutoin`` says ``did you mean 'intent_resolution'?`` (issue 35 item 16)."""
    with pytest.raises(ConfigError, match=r"unknown evaluator 'intent_resolutoin'; did you mean 'intent_resolution'\?"):
        registry.get("intent_resolutoin")
    with pytest.raises(ConfigError) as info:
        registry.get("zzzz")
    assert "did you mean" not in str(info.value)
    assert registry.closest("hallucination_v1") == "hallucinations"  # ADK metric names count too
