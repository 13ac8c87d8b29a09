"""Google ADK's judge metrics, on any OpenAI-compatible judge.

| class | ADK metric (result key) |
|---|---|
| :class:`FinalResponseMatchEvaluator` | ``final_response_match_v2`` |
| :class:`RubricBasedFinalResponseQualityEvaluator` | ``rubric_based_final_response_quality_v1`` |
| :class:`RubricBasedToolUseQualityEvaluator` | ``rubric_based_tool_use_quality_v1`` |
| :class:`HallucinationEvaluator` | ``hallucinations_v1`` |
| :class:`SafetyEvaluator` | ``safety_v1`` |
| :class:`RubricBasedMultiTurnTrajectoryQualityEvaluator` | ``rubric_based_multi_turn_trajectory_quality_v1`` |
| :class:`MultiTurnTaskSuccessEvaluator` | ``multi_turn_task_success_v1`` |
| :class:`MultiTurnTrajectoryQualityEvaluator` | ``multi_turn_trajectory_quality_v1`` |
| :class:`MultiTurnToolUseQualityEvaluator` | ``multi_turn_tool_use_quality_v1`` |

Each class scores one invocation (the multi-turn ones: a whole ``conversation``) when
called with keyword inputs, and a whole ADK
case through ``await Class.evaluate_adk_case(actual, expected=None, criterion=...,
model_config=None)`` (ADK's per-invocation scores, statuses and case aggregation).
:data:`ADK_JUDGE_METRICS` maps ADK metric names to the classes (from :mod:`agent_evaluators.registry`).
"""

from typing import Dict, Type

from ...evaluators.inputs import majority_vote
from ...registry import ENTRIES
from ._shared import AdkJudgeEvaluator, AdkJudgeResult, JudgedInvocation
from .final_response_match import FinalResponseMatchEvaluator
from .hallucinations import HallucinationEvaluator
from .multi_turn import (
    MultiTurnTaskSuccessEvaluator,
    MultiTurnToolUseQualityEvaluator,
    MultiTurnTrajectoryQualityEvaluator,
    RubricBasedMultiTurnTrajectoryQualityEvaluator,
)
from .rubrics import RubricBasedFinalResponseQualityEvaluator, RubricBasedToolUseQualityEvaluator, RubricSpec
from .safety import SafetyEvaluator

__all__ = [
    "ADK_JUDGE_METRICS",
    "AdkJudgeEvaluator",
    "AdkJudgeResult",
    "FinalResponseMatchEvaluator",
    "HallucinationEvaluator",
    "JudgedInvocation",
    "MultiTurnTaskSuccessEvaluator",
    "MultiTurnToolUseQualityEvaluator",
    "MultiTurnTrajectoryQualityEvaluator",
    "RubricBasedMultiTurnTrajectoryQualityEvaluator",
    "RubricBasedFinalResponseQualityEvaluator",
    "RubricBasedToolUseQualityEvaluator",
    "RubricSpec",
    "SafetyEvaluator",
    "majority_vote",
]

#: the modules of the judges above (response_evaluation and user_simulator_quality, beside them, have
#: entry shapes of their own in the criteria table)
_JUDGE_MODULES = frozenset(f"{__name__}.{m}" for m in ("final_response_match", "hallucinations", "multi_turn",
                                                        "rubrics", "safety"))

#: ADK metric name -> evaluator class; each has ``evaluate_adk_case`` and ``requires_expected``.
#: Read from the registry (its judge entries with an ``adk_metric``), not listed a second time.
ADK_JUDGE_METRICS: Dict[str, Type[AdkJudgeEvaluator]] = {
    entry.adk_metric: globals()[entry.class_name]
    for entry in ENTRIES
    if entry.judge and entry.adk_metric and entry.module in _JUDGE_MODULES
}
