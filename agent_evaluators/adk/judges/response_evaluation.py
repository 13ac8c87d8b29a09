"""``response_evaluation_score``: coherence of the agent's final response, 1–5 (ADK's definition).

ADK sends this to the Vertex Gen AI Eval service (``PrebuiltMetric.COHERENCE``); ours asks
any judge model with ``prompty/response_evaluation_score.prompty``. One judge call per
invocation; the case score is the mean over invocations (ADK). As in ADK, the ADK surface
needs expected invocations (a ``conversation_scenario`` case gets ``NOT_EVALUATED``), although
the coherence judgement itself reads only the request and the response.
"""

from typing import Any, Dict, Mapping, Optional

from ...conversation.transcript import Reads
from ...evaluators.base import Outcome
from ...evaluators.declared import CalibrationCases, DeclaredJudgeEvaluator, SaidText
from ...evaluators.judge_base import LikertVerdict
from ._shared import AdkJudgeEvaluator, JudgedInvocation


class ResponseEvaluationEvaluator(AdkJudgeEvaluator, DeclaredJudgeEvaluator):
    """Coherence of the agent's final response (ADK ``response_evaluation_score``).

    Key ``response_evaluation_score``; inputs ``query`` (text or messages: the last user
    message is the request) and ``response`` (text or messages: the final assistant text is
    judged). Score 1–5 (integer, from the judge), default threshold 3; ``conversation=`` is
    scored per user turn (mean).
    """

    result_key = "response_evaluation_score"
    template_name = "response_evaluation_score.prompty"
    default_threshold = 3.0
    score_scale = (1.0, 5.0)
    conversation_turn_inputs = ("query", "response")
    requires_expected = True  # ADK: expected invocations are required for this metric
    inputs = (SaidText("query", "user"), SaidText("response", "assistant"))
    reads = Reads("ADK's metric grades the coherence of the final response to the request: the user's last message "
                  "and the agent's final text, as plain text", earlier="none", tool_calls=False)
    verdict_model = LikertVerdict
    calibration_cases = CalibrationCases(
        good={"query": "query", "response": "answer"},
        bad={"query": "query", "response": "off_topic"},
        why_bad="the response does not relate to the request")

    def outcome(self, verdict: Any, usage: Optional[Dict[str, Any]], values: Mapping[str, Any]) -> Outcome:
        return Outcome(float(verdict.score), verdict.reason, {"scale": [1, 5]}, usage)

    # the ADK surface: one invocation's request and final response, through the same verdict and outcome
    async def _score_adk_invocation(self, actual: Any, expected: Any) -> JudgedInvocation:
        from ..convert import final_response_text, user_text

        text = final_response_text(actual)
        if not text.strip():
            return JudgedInvocation(None, "the invocation has no final response text to grade", {}, None,
                                   not_applicable=True)
        values = {"query": user_text(actual), "response": text}
        verdict, usage = await self._ask(self._verdict_model, self.prompt_values(values)[0])
        result = self.outcome(verdict, usage, values)
        return JudgedInvocation(result.score, result.reason, result.details, result.usage)
