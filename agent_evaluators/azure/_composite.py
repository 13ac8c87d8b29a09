"""The catalog's two composite evaluators, on any judge: several 1.18 metrics in one call.

Microsoft's evaluator catalog names ``ToolUseQualityEvaluator`` and ``OutputQualityEvaluator``;
azure-ai-evaluation 1.18.10 ships neither. Here each is a plain list of this package's members:
one call runs every member on the inputs it takes (concurrently) and returns their 1.18 rows
merged into one dict, as azure's own composites (``QAEvaluator``) do. A member that cannot run
on the inputs given raises its ``InputError``, naming itself; nothing is scored in its place.

Members that exist today: ToolUseQuality = tool_call_accuracy, tool_call_success,
tool_input_accuracy, tool_output_utilization, tool_selection (all five); OutputQuality =
intent_resolution, task_adherence, task_completion (fluency, coherence and groundedness come
with the quality family and are not in yet).
"""

import asyncio
import inspect
from typing import Any, ClassVar, Dict, List, Optional, Tuple

__all__ = ["ToolUseQualityEvaluator", "OutputQualityEvaluator"]


class _Composite:
    """Runs ``members`` (names of classes in :mod:`agent_evaluators.azure`) and merges their rows."""

    members: ClassVar[Tuple[str, ...]] = ()
    #: ``evaluate()`` runs a sync call in a worker thread (each member call waits on its judge)
    blocking: ClassVar[bool] = True

    def __init__(self, model_config: Any = None, *, credential: Any = None, is_reasoning_model: bool = False,
                 cache: Optional[str] = None) -> None:
        import agent_evaluators.azure as layer

        self.evaluators = [getattr(layer, name)(model_config, credential=credential,
                                                is_reasoning_model=is_reasoning_model, cache=cache)
                           for name in self.members]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(type(e).__name__ for e in self.evaluators)})"

    def __call__(self, *, query: Any = None, response: Any = None, tool_calls: Any = None,
                 tool_definitions: Any = None) -> Dict[str, Any]:
        from .._loop import run_sync

        return run_sync(self.acall(query=query, response=response, tool_calls=tool_calls,
                                   tool_definitions=tool_definitions))

    async def acall(self, *, query: Any = None, response: Any = None, tool_calls: Any = None,
                    tool_definitions: Any = None) -> Dict[str, Any]:
        given = {"query": query, "response": response, "tool_calls": tool_calls, "tool_definitions": tool_definitions}
        rows: List[Dict[str, Any]] = await asyncio.gather(*(
            e.acall(**_taken(e, given)) for e in self.evaluators))
        merged: Dict[str, Any] = {}
        for row in rows:
            merged.update(row)
        return merged


def _taken(evaluator: Any, given: Dict[str, Any]) -> Dict[str, Any]:
    """The given inputs (left-out ones dropped) that ``evaluator`` takes."""
    accepted = inspect.signature(evaluator.acall).parameters
    return {k: v for k, v in given.items() if v is not None and k in accepted}


class ToolUseQualityEvaluator(_Composite):
    """Every 1.18 tool metric in one call: tool_call_accuracy, tool_call_success, tool_input_accuracy,
    tool_output_utilization, tool_selection. Inputs ``query``, ``response`` (messages with the
    calls and their results), ``tool_definitions``; ``tool_calls`` where a member reads them."""

    members = ("ToolCallAccuracyEvaluator", "ToolCallSuccessEvaluator", "ToolInputAccuracyEvaluator",
               "ToolOutputUtilizationEvaluator", "ToolSelectionEvaluator")


class OutputQualityEvaluator(_Composite):
    """The 1.18 answer metrics that exist here, in one call: intent_resolution, task_adherence,
    task_completion (fluency, coherence and groundedness are not in yet). Inputs ``query``,
    ``response``, optional ``tool_definitions``."""

    members = ("IntentResolutionEvaluator", "TaskAdherenceEvaluator", "TaskCompletionEvaluator")
