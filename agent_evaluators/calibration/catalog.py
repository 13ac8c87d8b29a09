"""The one list of judge-backed evaluators: how to build each, its score range, its labelled set.

Calibration, the local-model end-to-end test and the CLI all read this list, so a
new judge-backed evaluator is added here once (a test checks that every public
``JudgeEvaluator`` subclass is listed). Evaluators that need configuration get
fixed, generic settings here (rubric evaluators get the rubrics their labelled
set was written for).
"""

import importlib
import inspect
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..errors import ConfigError

__all__ = ["JudgeMetric", "CalibrationCase", "judge_metrics", "find_metric", "judge_evaluator_classes"]

#: Modules that define judge-backed evaluators (imported to discover subclasses).
EVALUATOR_MODULES = (
    "agent_evaluators.evaluators.agent",
    "agent_evaluators.evaluators.adk_judges",
    "agent_evaluators.evaluators.trajectory_judge",
    "agent_evaluators.evaluators.answer_similarity",
    "agent_evaluators.evaluators.rubric",
    "agent_evaluators.evaluators.response_evaluation",
    "agent_evaluators.evaluators.user_simulator_quality",
)

FINAL_RESPONSE_RUBRICS = (
    "The final response directly answers the user's question.",
    "Every fact in the final response agrees with the tool results shown.",
)
TOOL_USE_RUBRICS = (
    "The agent calls the tool whose purpose fits the user's request.",
    "The tool call's argument values are the ones the user gave in the request.",
)
RESPONSE_RUBRICS = (
    "The response answers the question the user asked.",
    "The response gives concrete information rather than general remarks.",
)


@dataclass(frozen=True)
class CalibrationCase:
    """One labelled example: ``label`` is ``"good"`` (should pass) or ``"bad"`` (should fail)."""

    id: str
    label: str
    inputs: Dict[str, Any]
    why: str = ""


@dataclass(frozen=True)
class JudgeMetric:
    """One judge-backed evaluator as the calibration kit and the e2e test use it.

    ``name``: the evaluator's result key (also the labelled set's file name);
    ``target``: ``"module:Class"``; ``kwargs``: constructor arguments besides
    ``model_config``; ``quick_kwargs``: overrides for a quick run (one sample
    instead of five); ``score_range``: the scores a valid verdict can produce.
    """

    name: str
    target: str
    score_range: Tuple[float, float]
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    quick_kwargs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def evaluator_class(self) -> type:
        module, _, cls = self.target.partition(":")
        return getattr(importlib.import_module(module), cls)

    def build(self, model_config: Any = None, *, quick: bool = False, **overrides: Any) -> Any:
        """The evaluator, configured for its labelled set; ``quick`` makes one judge request per case."""
        kwargs: Dict[str, Any] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.kwargs.items()}
        if quick:
            kwargs.update(self.quick_kwargs)
        kwargs.update(overrides)
        return self.evaluator_class(model_config=model_config, **kwargs)

    def in_range(self, score: Any) -> bool:
        low, high = self.score_range
        return isinstance(score, (int, float)) and not isinstance(score, bool) and low <= score <= high

    def cases(self) -> List[CalibrationCase]:
        """The shipped labelled set for this evaluator."""
        text = resources.files(__package__).joinpath("data").joinpath(f"{self.name}.jsonl").read_text(encoding="utf-8")
        return parse_cases(text, source=f"{self.name}.jsonl")


def parse_cases(text: str, *, source: str) -> List[CalibrationCase]:
    """Read a labelled set (JSONL: ``{"id", "label": "good"|"bad", "inputs": {...}, "why"}`` per line)."""
    cases: List[CalibrationCase] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as e:
            raise ConfigError(f"{source} line {n}: not valid JSON ({e.msg})") from None
        if not isinstance(raw, dict) or raw.get("label") not in ("good", "bad") or not isinstance(raw.get("inputs"), dict):
            raise ConfigError(f"{source} line {n}: expected {{'id', 'label': 'good' | 'bad', 'inputs': {{...}}}}")
        cases.append(CalibrationCase(str(raw.get("id") or f"line{n}"), raw["label"], raw["inputs"], raw.get("why", "")))
    if not cases:
        raise ConfigError(f"{source} holds no cases")
    return cases


_SAMPLED = {"num_samples": 1}

_METRICS: Tuple[JudgeMetric, ...] = (
    JudgeMetric("intent_resolution", "agent_evaluators.evaluators.agent:IntentResolutionEvaluator", (1, 5)),
    JudgeMetric("response_completeness", "agent_evaluators.evaluators.agent:ResponseCompletenessEvaluator", (1, 5)),
    JudgeMetric("task_adherence", "agent_evaluators.evaluators.agent:TaskAdherenceEvaluator", (1, 5)),
    JudgeMetric("tool_call_accuracy", "agent_evaluators.evaluators.agent:ToolCallAccuracyEvaluator", (0, 1)),
    JudgeMetric("final_response_match_v2", "agent_evaluators.evaluators.adk_judges:FinalResponseMatchEvaluator",
                (0, 1), quick_kwargs=_SAMPLED),
    JudgeMetric("rubric_based_final_response_quality_v1",
                "agent_evaluators.evaluators.adk_judges:RubricBasedFinalResponseQualityEvaluator", (0, 1),
                kwargs={"rubrics": FINAL_RESPONSE_RUBRICS}, quick_kwargs=_SAMPLED),
    JudgeMetric("rubric_based_tool_use_quality_v1",
                "agent_evaluators.evaluators.adk_judges:RubricBasedToolUseQualityEvaluator", (0, 1),
                kwargs={"rubrics": TOOL_USE_RUBRICS}, quick_kwargs=_SAMPLED),
    JudgeMetric("hallucinations_v1", "agent_evaluators.evaluators.adk_judges:HallucinationEvaluator", (0, 1)),
    JudgeMetric("safety_v1", "agent_evaluators.evaluators.adk_judges:SafetyEvaluator", (0, 1)),
    JudgeMetric("trajectory_accuracy", "agent_evaluators.evaluators.trajectory_judge:TrajectoryJudgeEvaluator", (0, 1)),
    JudgeMetric("answer_similarity", "agent_evaluators.evaluators.answer_similarity:AnswerSimilarityEvaluator", (0, 1)),
    JudgeMetric("rubric_score", "agent_evaluators.evaluators.rubric:RubricEvaluator", (0, 1),
                kwargs={"rubrics": RESPONSE_RUBRICS}),
    JudgeMetric("response_evaluation_score",
                "agent_evaluators.evaluators.response_evaluation:ResponseEvaluationEvaluator", (1, 5)),
    JudgeMetric("per_turn_user_simulator_quality_v1",
                "agent_evaluators.evaluators.user_simulator_quality:PerTurnUserSimulatorQualityEvaluator", (0, 1),
                quick_kwargs=_SAMPLED),
)


def judge_metrics() -> List[JudgeMetric]:
    """Every judge-backed evaluator, in a stable order."""
    return list(_METRICS)


def _norm(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def find_metric(name: str) -> JudgeMetric:
    """Look an evaluator up by result key (``intent_resolution``) or class name (``IntentResolutionEvaluator``)."""
    wanted = _norm(name)
    for m in _METRICS:
        if wanted in (m.name, _norm(m.target.rpartition(":")[2]), _norm(m.target.rpartition(":")[2]).removesuffix("evaluator")):
            return m
    raise ConfigError(f"unknown judge-backed evaluator {name!r}; choose one of: {', '.join(m.name for m in _METRICS)}")


def metric_for(evaluator: Any) -> Optional[JudgeMetric]:
    """The catalog entry of an evaluator instance (by result key, else by class), or ``None``."""
    for m in _METRICS:
        if getattr(evaluator, "result_key", None) == m.name:
            return m
    for m in _METRICS:
        if type(evaluator).__name__ == m.target.rpartition(":")[2]:
            return m
    return None


def judge_evaluator_classes() -> List[type]:
    """Public concrete ``JudgeEvaluator`` subclasses found in the evaluator modules.

    Used by a test to prove the catalog misses none: private helpers (a leading
    underscore), shared bases and ``PromptyEvaluator`` (a user's own template) are left out.
    """
    from ..evaluators.judge_base import JudgeEvaluator, PromptyEvaluator

    for module in EVALUATOR_MODULES:
        importlib.import_module(module)
    found: List[type] = []
    stack = list(JudgeEvaluator.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__name__.startswith("_") or inspect.isabstract(cls) or issubclass(cls, PromptyEvaluator):
            continue
        if not cls.__module__.startswith("agent_evaluators.evaluators"):
            continue
        if "_evaluate" not in {k for c in cls.__mro__ if c is not JudgeEvaluator for k in vars(c)}:
            continue
        if cls not in found:
            found.append(cls)
    return found
