"""azure-ai-evaluation 1.18's response-quality judges, on our judge and engine.

Each class is the top-level declaration (:mod:`agent_evaluators.evaluators.quality`,
:mod:`agent_evaluators.evaluators.groundedness`: same templates, 1–5, threshold 3) with 1.18's
row (:class:`._adapter.AzureShaped`) and 1.18's input rules where they differ from ours:

* a response is not applicable only when it ends in a pending ``function_call`` (1.18's
  intermediate-response rule), not whenever it ends in a tool call;
* a conversation turn that carries no ``"context"`` is judged against an empty context, as
  1.18 judges it (its context is ``str({})``), where the top level calls it not applicable;
* Groundedness's agent form: a plain-text response with no context is its own context, and
  messages whose ``file_search`` calls returned nothing are judged against the empty marker
  ``"<>"``, unless the query and the response are one item each (then not applicable, in
  azure's words). These are azure's behaviours, kept so the numbers match.
"""

from typing import Any, Dict, List, Mapping

from ..errors import InputError
from ..evaluators import groundedness as _grounded
from ..evaluators import quality as _quality
from ..evaluators.declared import (
    ContextInput,
    FinalText,
    Messages,
    NotApplicable,
    SaidText,
    Text,
    ToolDefinitionsInput,
)
from ._agent import Answered, TableText, check_answered, ground_truth_turns

#: 1.18's context for a conversation turn that carries none (``str({})``) and for an agent run
#: whose retrieval calls returned nothing (its ``NO_CONTEXT`` marker)
EMPTY_TURN_CONTEXT = "{}"
NO_CONTEXT_MARKER = "<>"
NO_CONTEXT_REASON = ("GroundednessEvaluator: No valid context provided or could be extracted from the query or "
                     "response. Please either provide valid context or pass the full items list for 'response' "
                     "and 'query' to extract context from tool calls.")


class _TurnContext:
    """1.18 judges a conversation turn without context against ``str({})``: so does this layer."""

    def _turn_inputs(self, bound: Dict[str, Any]) -> List[Dict[str, Any]]:
        turns: List[Dict[str, Any]] = super()._turn_inputs(bound)  # type: ignore[misc]
        for turn in turns:
            if turn.get("context") is None:
                turn["context"] = EMPTY_TURN_CONTEXT
        return turns


class RelevanceEvaluator(Answered, _quality.RelevanceEvaluator):
    """1.18's ``RelevanceEvaluator``: 1–5, threshold 3; ``query``, ``response`` or ``conversation``."""

    inputs = (Messages("query", "user"), Messages("response", "assistant"))


class CoherenceEvaluator(Answered, _quality.CoherenceEvaluator):
    """1.18's ``CoherenceEvaluator``: 1–5, threshold 3; ``query``, ``response`` or ``conversation``."""


class FluencyEvaluator(Answered, _quality.FluencyEvaluator):
    """1.18's ``FluencyEvaluator``: 1–5, threshold 3; ``response`` or ``conversation``."""


class SimilarityEvaluator(Answered, _quality.SimilarityEvaluator):
    """1.18's ``SimilarityEvaluator``: 1–5, threshold 3; ``query``, ``response``, ``ground_truth``, or
    ``conversation=`` (1.18's pairing: each assistant message carries its ``ground_truth``).
    A number, ``""`` or the NaN of an absent column is judged as the text 1.18 renders."""

    inputs = (TableText(SaidText("query", "user")), TableText(FinalText("response")),  # type: ignore[assignment]
              TableText(Text("ground_truth")))
    conversation_turn_inputs = ("query", "response", "ground_truth")

    def _turn_inputs(self, bound: Dict[str, Any]) -> List[Dict[str, Any]]:
        return ground_truth_turns(self.name, bound.pop("conversation"), self.conversation_turn_inputs)


class RetrievalEvaluator(_TurnContext, Answered, _quality.RetrievalEvaluator):
    """1.18's ``RetrievalEvaluator``: 1–5, threshold 3; ``query``, ``context`` or ``conversation``."""


class GroundednessEvaluator(_TurnContext, Answered, _grounded.GroundednessEvaluator):
    """1.18's ``GroundednessEvaluator``: 1–5, threshold 3; ``response`` + ``context`` (+ ``query``),
    the agent form ``query`` + ``response`` messages (+ ``tool_definitions``), or ``conversation``;
    1.18's context rules for the agent form (module docstring)."""

    inputs = (
        Messages("response", "assistant"),
        ContextInput("context", optional=True),
        Messages("query", "user", optional=True),
        ToolDefinitionsInput(),
    )

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        check_answered(given)
        if ContextInput("context", optional=True).prepare(self, given.get("context")) is not None:
            return super().judge_inputs(given)
        response, query = given.get("response"), given.get("query")
        if not query:
            raise InputError(f"{self.name}: Either 'conversation' or individual inputs must be provided. For Agent "
                             "groundedness 'query' and 'response' are required.", evaluator=self.name,
                             input_name="query")
        if isinstance(response, str):  # 1.18 judges a text response against itself
            return super().judge_inputs({**given, "context": response})
        try:
            return super().judge_inputs(given)
        except NotApplicable:
            if _single_entry(response) and _single_entry(query):
                raise NotApplicable(NO_CONTEXT_REASON) from None
        return super().judge_inputs({**given, "context": NO_CONTEXT_MARKER})


def _single_entry(value: Any) -> bool:
    """1.18's ``_is_single_entry``: text, or a list of one item."""
    return isinstance(value, str) or (isinstance(value, list) and len(value) == 1)
