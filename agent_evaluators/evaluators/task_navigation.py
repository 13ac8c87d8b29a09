"""``TaskNavigationEfficiencyEvaluator``: did the agent take the expected path of tool calls?

azure-ai-evaluation 1.18's deterministic agent metric, in our result shape. Key
``task_navigation_efficiency``, inputs ``response`` (or ``actions``) and ``ground_truth``
(or ``expected_actions``), score 1.0 or 0.0, default threshold 1.0; precision, recall and
F1 (azure's numbers) in ``<key>_details``. The comparison lives in
:mod:`agent_evaluators.trajectory.navigation`; ``agent_evaluators.azure`` has the same
metric in azure's result shape.
"""

from typing import Any, Dict, List, Optional, Tuple, Union

from ..trajectory.navigation import NavigationResult, TaskNavigationEfficiencyMatchingMode, navigate, parse_matching_mode
from ..trajectory.navigation_inputs import read_navigation_inputs
from .base import Evaluator, Outcome

ActionsInput = Union[str, List[Any], Dict[str, Any]]
ExpectedInput = Union[str, List[Any], Tuple[List[str], Dict[str, Dict[str, Any]]]]


class TaskNavigationEfficiencyEvaluator(Evaluator):
    """Whether the agent's tool calls follow the expected steps (azure's task navigation efficiency).

    Key ``task_navigation_efficiency``; inputs ``response`` (the agent's messages in any
    supported format, its tool calls or ADK invocations; alias ``actions``) and
    ``ground_truth`` (alias ``expected_actions``): a list of tool names, or a pair
    ``(names, {tool: {param: value}})`` whose calls must also carry exactly those arguments
    (in JSON data the pair is a two-item list); score 1.0 or 0.0; default threshold 1.0.

    Args:
        matching_mode: ``exact_match`` (default: the same calls in the same order, nothing
            extra), ``in_order_match`` (the expected calls in order, extras allowed) or
            ``any_order_match`` (the expected calls, as often as expected, in any order).
            ``exact`` / ``in_order`` / ``any_order`` and azure's enum are accepted too.
        threshold: pass when the score is at least this.

    ``<key>_details`` holds azure's precision, recall and F1 (order-free, each call counted
    once, all 0.0 when no call was made) and the matched, missing and extra steps.
    """

    result_key = "task_navigation_efficiency"
    score_scale = (0.0, 1.0)
    default_threshold = 1.0

    def __init__(
        self,
        matching_mode: Union[str, TaskNavigationEfficiencyMatchingMode] = "exact_match",
        threshold: float = 1.0,
    ) -> None:
        super().__init__(threshold=threshold)
        self.matching_mode = parse_matching_mode(matching_mode, evaluator=self.name)

    def _evaluate(
        self,
        *,
        response: Optional[ActionsInput] = None,
        ground_truth: Optional[ExpectedInput] = None,
        actions: Optional[ActionsInput] = None,
        expected_actions: Optional[ExpectedInput] = None,
    ) -> Outcome:
        calls, expected = read_navigation_inputs(
            response=response, ground_truth=ground_truth, actions=actions, expected_actions=expected_actions,
            evaluator=self.name,
        )
        return self._outcome(navigate(calls, expected, self.matching_mode))

    def _outcome(self, result: NavigationResult) -> Outcome:
        """The comparison's result as this layer reports it (azure's layer keeps the result itself)."""
        return Outcome(result.score, result.reason(), result.details())
