"""Groundedness: is every claim of the response backed by the context it was given or retrieved?

Two forms, as azure-ai-evaluation 1.18's ``GroundednessEvaluator`` has them:

* ``response`` + ``context`` (+ optional ``query``): the context is given;
* the agent form, ``query`` + ``response`` messages (+ ``tool_definitions``): the context is
  what the agent's retrieval tools (``file_search``) returned in the response. Those results
  are shown to the judge as the context and left out of the response it judges, so the judge
  does not read the sources as claims. Without a context found there is nothing to judge
  against: ``not_applicable``, never a score.

A conversation is judged per user turn with the context its messages carry
(:class:`~agent_evaluators.conversation.Turn`), or the turn's own retrieval results.
"""

import json
from typing import Any, ClassVar, Dict, List, Mapping, Tuple

from ..conversation.transcript import Reads
from .declared import CalibrationCases, ContextInput, DeclaredJudgeEvaluator, Messages, NotApplicable, ToolDefinitionsInput
from .inputs import messages_json, require_messages

_NO_CONTEXT = ("Not applicable: no context to check the response against; pass context=, or the agent's "
               "messages with the results of its {tools} calls as response=")


class GroundednessEvaluator(DeclaredJudgeEvaluator):
    """Whether every claim of the response is supported by the context.

    Key ``groundedness``; inputs ``response`` and ``context`` (text or a list of passages),
    optional ``query``; or the agent form ``query`` + ``response`` messages (+ optional
    ``tool_definitions``, accepted as azure does; the judge needs none), where the context is
    what the ``file_search`` calls in the response returned (:attr:`context_tools`); or
    ``conversation=`` (per user turn, mean). Score 1–5: 1 ungrounded, 2 a central claim
    unsupported, 3 a minor claim unsupported, 4 grounded but leaving needed context out,
    5 fully grounded. Default threshold 3. Details list the unsupported claims.
    ``not_applicable`` when no context is given or found, or the response ends in a tool call.
    """

    result_key = "groundedness"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "groundedness.prompty"
    conversation_turn_inputs = ("query", "response", "context")
    inputs = (
        Messages("response", "assistant", answered=True),
        ContextInput("context", optional=True),
        Messages("query", "user", optional=True),
        ToolDefinitionsInput(),
    )
    verdict_fields = {"unsupported_claims": (List[str], "Claims in the response that the context does not support")}
    reads = Reads("claims are checked against the context: the user's request, the agent's reply and calls, the context "
                  "passages and the reply's other tool results (each kept head and tail)", tool_results=6000,
                  context=20_000)
    calibration_cases = CalibrationCases(
        good={"query": "query", "response": "answer", "context": "result"},
        bad={"query": "query", "response": "wrong_answer", "context": "result"},
        why_bad="the response contradicts the tool result it was given as context")
    #: the tools whose results are the context of the agent form (a subclass may name its own retrievers)
    context_tools: ClassVar[Tuple[str, ...]] = ("file_search",)

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        values = super().judge_inputs(given)
        values.pop("tool_definitions")
        if values["context"] is not None:
            return values
        response = given.get("response")
        no_context = _NO_CONTEXT.format(tools="/".join(self.context_tools))
        if isinstance(response, str):
            raise NotApplicable(no_context)
        messages = require_messages(self, response, "response", "assistant")
        ids = {c.id for m in messages for c in m.tool_calls if c.name in self.context_tools and c.id}
        passages = [p for m in messages if m.role == "tool" and m.tool_call_id in ids
                    for p in retrieved_passages(m.tool_result if m.tool_result is not None else m.content)]
        if not passages:
            raise NotApplicable(no_context)
        values["context"] = passages
        values["response"] = messages_json([m for m in messages if not (m.role == "tool" and m.tool_call_id in ids)])
        return values


def retrieved_passages(result: Any) -> List[Dict[str, Any]]:
    """A retrieval tool's result as passages ``{"source"?, "text"}``: azure agents' file_search
    results (``file_name`` + ``content: [{"text"}]``), the Responses API's (``filename`` +
    ``text``), a JSON string of either, or plain text; anything else is one passage of its JSON."""
    if isinstance(result, str):
        try:
            parsed = json.loads(result)
        except ValueError:
            return [{"text": result}] if result.strip() else []
        return retrieved_passages(parsed) if isinstance(parsed, (list, dict)) else [{"text": result}]
    if isinstance(result, list):
        return [p for item in result for p in retrieved_passages(item)]
    if not isinstance(result, dict):
        return [] if result is None else [{"text": json.dumps(result, ensure_ascii=False)}]
    if isinstance(result.get("results"), list):  # a wrapper: {"results": [...]}
        return retrieved_passages(result["results"])
    source = result.get("file_name") or result.get("filename") or result.get("source")
    content = result.get("content")
    raw = [c.get("text") for c in content if isinstance(c, dict)] if isinstance(content, list) else [
        content if isinstance(content, str) else result.get("text")]
    texts = [t for t in raw if isinstance(t, str) and t.strip()]
    if not texts:
        return [{"text": json.dumps(result, ensure_ascii=False, default=str)}]
    return [{**({"source": source} if source else {}), "text": t} for t in texts]
