"""azure-ai-evaluation 1.18's ``_TaskNavigationEfficiencyEvaluator``, public, in its result shape.

The comparison and the inputs are the top-level metric's (this class is a subclass of it);
only the constructor and the result dict are azure's: keyword-only ``matching_mode`` (the
enum or its exact value), a fixed threshold of 1.0 (azure's constructor takes none), and the
eight keys ``task_navigation_efficiency``, ``_score``, ``_result``, ``_passed``,
``_reason`` (``None``), ``_status``, ``_threshold`` and ``_properties``
(``precision_score``, ``recall_score``, ``f1_score``), in azure's order.
"""

from typing import Any, ClassVar, Dict, Union

from ..evaluators import task_navigation as _ours
from ..evaluators.base import Outcome
from ..trajectory.navigation import NavigationResult, TaskNavigationEfficiencyMatchingMode, parse_matching_mode
from ._calls import AzureCall
from ._shape import azure_result

_KEY = "task_navigation_efficiency"
#: the order azure 1.18 writes this evaluator's keys in (its own dict literal, not the shared one)
_ORDER = tuple(f"{_KEY}{suffix}" for suffix in
               ("", "_score", "_result", "_passed", "_reason", "_status", "_threshold", "_properties"))


class TaskNavigationEfficiencyEvaluator(AzureCall, _ours.TaskNavigationEfficiencyEvaluator):
    """Whether the agent's tool calls follow the expected steps (azure-ai-evaluation 1.18's shape).

    Key ``task_navigation_efficiency``; inputs ``response`` (alias ``actions``) and
    ``ground_truth`` (alias ``expected_actions``: tool names, or ``(names, parameters)``);
    score 1.0 or 0.0; threshold 1.0. ``matching_mode``: ``exact_match`` (default),
    ``in_order_match`` or ``any_order_match``.
    """

    id: ClassVar[str] = "azureai://built-in/evaluators/task_navigation_efficiency"
    result_key = _KEY
    score_scale = (0.0, 1.0)
    default_threshold = 1.0

    def __init__(
        self,
        *,
        matching_mode: Union[str, TaskNavigationEfficiencyMatchingMode] = TaskNavigationEfficiencyMatchingMode.EXACT_MATCH,
    ) -> None:
        super().__init__(threshold=1.0)
        self.matching_mode = parse_matching_mode(matching_mode, evaluator=self.name, azure_spellings_only=True)
        self._threshold = 1.0  # azure's attribute, read by code written against it

    def _outcome(self, result: NavigationResult) -> Outcome:
        return Outcome(result.score, details=result)  # _finish writes azure's dict from the result itself

    def _finish(self, outcome: Outcome) -> Dict[str, Any]:
        """azure's dict instead of ours: the same verdict, its keys and order."""
        result: NavigationResult = outcome.details
        out = azure_result(
            _KEY,
            score=result.score,
            passed=result.passed,
            reason=None,
            threshold=float(self._threshold),
            properties={"precision_score": result.precision, "recall_score": result.recall, "f1_score": result.f1},
        )
        return {key: out[key] for key in _ORDER}
