"""Task completion: did the agent finish the user's task, end to end (azure-ai-evaluation 1.18's metric).

A 0/1 verdict, not a scale: a task is done or it is not. It is judged on the outcome only
(adherence to instructions is :class:`~.agent.TaskAdherenceEvaluator`'s job, understanding
the request :class:`~.agent.IntentResolutionEvaluator`'s).
"""

from typing import List

from ..conversation.transcript import Reads
from .declared import CalibrationCases, DeclaredJudgeEvaluator, EndsInHandOff, Messages, ToolDefinitionsInput


class TaskCompletionEvaluator(EndsInHandOff, DeclaredJudgeEvaluator):
    """Whether the agent completed the user's task end to end, with a usable result that meets
    every requirement the user stated.

    Key ``task_completion``; inputs ``query`` (text or messages; include the system message),
    ``response`` (text or messages, with the agent's tool calls and results), optional
    ``tool_definitions``, or ``conversation=`` (per user turn; score = the share of turns
    completed). Score 0 or 1 (1 = completed); default threshold 1. Details:
    ``task_requirements``, ``delivered_outcome``, ``completion_gaps``.

    ``not_applicable`` (no judge call) when the response ends in a tool call or a tool result:
    the agent has not given its final answer yet (azure 1.18's "intermediate response" rule), unless
    its last call hands the conversation over (a tool whose name holds ``transfer``, ``handoff``/
    ``hand_off`` or ``escalat``, or one named in ``terminal_tools=`` or the run's ``terminal_tools``):
    that conversation is over and is judged on what the agent did.
    """

    result_key = "task_completion"
    default_threshold = 1
    score_scale = (0.0, 1.0)
    template_name = "task_completion.prompty"
    conversation_turn_inputs = ("query", "response")
    inputs = (Messages("query", "user"), Messages("response", "assistant", answered=True), ToolDefinitionsInput())
    reads = Reads("completion is judged on the outcome: the user's requests, the agent's calls and replies and "
                  "what its last calls returned (shortened); the policy and schemas are not asked about",
                  earlier="calls", tool_results=1500)
    verdict_name = "TaskCompletionVerdict"
    verdict_fields = {
        "task_requirements": (str, "What the user asked to have done, in one or two sentences"),
        "delivered_outcome": (str, "What the agent actually delivered, in one or two sentences"),
        "completion_gaps": (List[str], "Requirements the delivered outcome leaves unmet; empty when none"),
    }
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "run:answer", "tool_definitions": "tools"},
        bad={"query": "query+system", "response": "run:vague", "tool_definitions": "tools"},
        why_bad="the agent fetched the data but never delivered what the user asked for")
