"""The catalog's two composite evaluators with 1.18's members and row shape, on any judge.

Microsoft's evaluator catalog names ``ToolUseQualityEvaluator`` and ``OutputQualityEvaluator``;
azure-ai-evaluation 1.18.10 ships neither. These are our generic composites
(:class:`agent_evaluators.evaluators.composite.CompositeEvaluator`: members run concurrently on
the inputs each takes, a member without its inputs is not applicable in its own keys) with this
package's members, so every member's keys, scales and thresholds are 1.18's, and the summary key
(``tool_use_quality`` / ``output_quality``: the share of scored members that pass) is written
in 1.18's shape too.

Members: ToolUseQuality = tool_call_accuracy, tool_call_success, tool_input_accuracy,
tool_output_utilization, tool_selection; OutputQuality = fluency, coherence, groundedness,
intent_resolution, task_adherence, task_completion (the catalog's lists, all present).
"""

from ..evaluators import composite as _composite
from ._adapter import AzureShaped
from ._agent import IntentResolutionEvaluator, TaskAdherenceEvaluator, TaskCompletionEvaluator
from ._quality import CoherenceEvaluator, FluencyEvaluator, GroundednessEvaluator
from ._tool_metrics import (
    ToolCallAccuracyEvaluator,
    ToolCallSuccessEvaluator,
    ToolInputAccuracyEvaluator,
    ToolOutputUtilizationEvaluator,
    ToolSelectionEvaluator,
)


class ToolUseQualityEvaluator(AzureShaped, _composite.ToolUseQualityEvaluator):
    """Every 1.18 tool metric in one call: tool_call_accuracy (1–5), tool_call_success,
    tool_input_accuracy, tool_output_utilization, tool_selection (0/1), each in 1.18's row shape,
    plus ``tool_use_quality`` (the share of scored members that pass; passes when all do)."""

    uses_judge_call = False
    member_classes = (ToolCallAccuracyEvaluator, ToolCallSuccessEvaluator,  # type: ignore[assignment]  # 1.18's
                      ToolInputAccuracyEvaluator,
                      ToolOutputUtilizationEvaluator, ToolSelectionEvaluator)


class OutputQualityEvaluator(AzureShaped, _composite.OutputQualityEvaluator):
    """The catalog's six answer metrics in one call: fluency, coherence, groundedness and
    intent_resolution (1–5), task_adherence and task_completion (0/1), each in 1.18's row shape,
    plus ``output_quality`` (the share of scored members that pass; passes when all do)."""

    uses_judge_call = False
    member_classes = (FluencyEvaluator, CoherenceEvaluator,  # type: ignore[assignment]  # 1.18's
                      GroundednessEvaluator, IntentResolutionEvaluator, TaskAdherenceEvaluator, TaskCompletionEvaluator)
