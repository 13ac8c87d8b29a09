"""``response_evaluation_score``: coherence of the agent's final response, 1–5 (ADK's definition).

ADK sends this to the Vertex Gen AI Eval service (``PrebuiltMetric.COHERENCE``); ours asks
any judge model with ``prompty/response_evaluation_score.prompty``. One judge call per
invocation; the case score is the mean over invocations (ADK). As in ADK, the ADK surface
needs expected invocations (a ``conversation_scenario`` case gets ``NOT_EVALUATED``), although
the coherence judgement itself reads only the request and the response.
"""

from typing import Any, List, Union

from .adk_judges._shared import AdkJudgeEvaluator, JudgedInvocation
from .base import Outcome
from .inputs import text_input
from .judge_base import LikertVerdict

__all__ = ["ResponseEvaluationEvaluator"]

TextOrMessages = Union[str, List[Any]]


class ResponseEvaluationEvaluator(AdkJudgeEvaluator):
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

    async def _evaluate(self, *, query: TextOrMessages, response: TextOrMessages) -> Outcome:
        request = text_input(self, query, "query", "user")
        answer = text_input(self, response, "response", "assistant")
        return self._outcome(await self._score(request, answer))

    async def _score_adk_invocation(self, actual: Any, expected: Any) -> JudgedInvocation:
        from ..adk.convert import final_response_text, user_text

        text = final_response_text(actual)
        if not text.strip():
            return JudgedInvocation(None, "the invocation has no final response text to grade", {}, None,
                                   not_applicable=True)
        return await self._score(user_text(actual), text)

    async def _score(self, query: str, response: str) -> JudgedInvocation:
        verdict, usage = await self._ask(LikertVerdict, {"query": query, "response": response})
        return JudgedInvocation(float(verdict.score), verdict.reason, {"scale": [1, 5]}, usage)
