"""The one adapter from our engine's :class:`~agent_evaluators.evaluators.base.Outcome` to 1.18's row.

Every judge-backed class of :mod:`agent_evaluators.azure` is ``class X(AzureShaped, <our
evaluator>)``: our evaluator does the reading, rendering, asking and validating; this mixin
only writes the result the way azure-ai-evaluation 1.18 writes it (through :mod:`._shape`):

* ``<k>_properties``: the verdict's details (azure: the judge's ``properties``) plus the
  token counts, ``finish_reason`` and ``model`` from our usage record;
* the threshold azure *reports* and the pass rule azure *applies*, where those differ
  (``reported_threshold`` / ``pass_mark``: TaskAdherence and TaskCompletion report 3 and pass
  at a score of 1, whatever ``threshold=`` says; that is azure's behaviour, kept on purpose);
* ``conversation=``: one azure row per turn, then azure's aggregation (numbers averaged, a
  bool ``_passed`` included, anything else the last turn's value, every value per turn under
  ``evaluation_per_turn``); a one-turn conversation is that turn's row, as in azure.

* ``<k>_properties`` under 1.18's names and types where our verdict's fields differ
  (:meth:`AzureShaped.azure_properties`), and the row's keys in 1.18's order (``row_order``);
* ``is_reasoning_model=True``: 1.18's output budget for a reasoning judge (``max_completion_tokens``
  60,000 in place of the template's ``max_tokens``), so a long hidden reasoning is not cut off;
* a conversation with no user turn answered is ``{}``, as 1.18 returns it.

Every class here is also an :class:`~._calls.AzureCall`: unknown inputs and constructor keywords
are ignored and errors are 1.18's ``EvaluationException`` too, as 1.18's calls behave.

The engine keeps working on these cells: ``<k>_result`` is ``pass``/``fail``/``not_applicable``
(what the runner counts), and the runner reads the token counts out of ``<k>_properties``
for its usage totals (:func:`agent_evaluators.runner.aggregate.properties_usage`).
"""

import asyncio
import math
from typing import Any, ClassVar, Dict, List, Mapping, Optional, Sequence, Tuple, Type

from pydantic import BaseModel

from ..evaluators.base import Outcome
from ..judge.usage import merge_usage
from ._calls import AzureCall
from ._row import AzureRow
from ._shape import ROW_ORDER, azure_result, not_applicable_result

#: the output budget 1.18 gives a reasoning judge (``DEFAULT_MAX_COMPLETION_TOKENS_REASONING_MODELS``): it
#: replaces a template's ``max_tokens`` when ``is_reasoning_model=True``
REASONING_OUTPUT_TOKENS = 60_000

#: azure's reason for a response that ends in a pending call (its words, so dashboards match)
INTERMEDIATE_REASON = "Intermediate response. Please provide the agent's final response for evaluation."

#: the content types that make a response "intermediate" in 1.18 (azure's ``_is_intermediate_response``)
_PENDING_TYPES = ("function_call", "mcp_approval_request")

#: per-turn keys azure does not lift to the top of an aggregated row (token and sample columns)
_NOT_LIFTED = ("_total_tokens", "_prompt_tokens", "_completion_tokens", "_finish_reason", "_sample_input",
               "_sample_output", "_model", "_details")


def is_intermediate_response(value: Any) -> bool:
    """1.18's test for a response whose agent has not answered: the last message is the
    assistant's and its last content item is a ``function_call`` or ``mcp_approval_request``.

    Narrower than our top-level rule (:func:`~agent_evaluators.evaluators.inputs.ends_in_tool_call`):
    azure judges a response that ends in an azure-agent ``tool_call`` item or a tool result,
    and so does this layer, so the numbers match."""
    if not isinstance(value, list) or not value:
        return False
    last = value[-1]
    if not isinstance(last, Mapping) or last.get("role") != "assistant":
        return False
    content = last.get("content")
    if not isinstance(content, list) or not content:
        return False
    item = content[-1]
    return isinstance(item, Mapping) and item.get("type") in _PENDING_TYPES


def unanswered(conversation: Any) -> bool:
    """Whether ``conversation`` holds messages but no user message answered by the assistant (1.18 then
    returns ``{}``); an empty or unreadable one is left to the usual checks (1.18 refuses those)."""
    from ..conversation import split_turns

    messages = conversation.get("messages") if isinstance(conversation, Mapping) else conversation
    if not isinstance(messages, list) or not messages:
        return False
    try:
        return not split_turns(conversation)
    except Exception:  # noqa: BLE001  # unreadable: the base's reader raises the InputError
        return False


def token_properties(usage: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """azure's token metadata from our usage record. A finished verdict always ended with
    ``stop`` (a ``length`` finish is a ``JudgeError`` in our client, never a row)."""
    usage = usage or {}
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    total = prompt + completion if prompt is not None and completion is not None else None
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": total,
        "finish_reason": "stop",
        "model": usage.get("model") or "",
    }


def _plain(value: Any) -> Any:
    """Verdict details as plain JSON values (nested verdict models dumped)."""
    if isinstance(value, BaseModel):
        return value.model_dump()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def aggregate_turns(rows: Sequence[Dict[str, Any]]) -> Dict[str, Any]:
    """1.18's aggregation of per-turn rows (``EvaluatorBase._aggregate_results``): a key whose
    values are all numbers (bools count) is averaged; any other key takes the last turn's value
    (token and sample keys excepted); every value is kept per turn under ``evaluation_per_turn``."""
    if not rows:
        return {}  # 1.18: a conversation with no turn to judge
    if len(rows) == 1:
        return dict(rows[0])
    per_turn: Dict[str, List[Any]] = {}
    for row in rows:
        for key, value in row.items():
            per_turn.setdefault(key, []).append(value)
    out: Dict[str, Any] = {}
    for key, values in per_turn.items():
        if all(isinstance(v, (int, float)) for v in values):
            out[key] = sum(values) / len(values)
        elif key and not key.endswith(_NOT_LIFTED) and values:
            out[key] = values[-1]
    out["evaluation_per_turn"] = per_turn
    return out


class _Turns(Outcome):
    """The outcomes of a conversation's turns, carried to :meth:`AzureShaped._finish` unmerged."""

    def __init__(self, outcomes: Sequence[Outcome]) -> None:
        super().__init__(None, not_applicable=True)
        self.outcomes = list(outcomes)


class AzureShaped(AzureCall):
    """Mixin (listed first) that writes 1.18's row from our evaluator's outcome."""

    takes_any_keyword = True  # 1.18's judge evaluators take **kwargs
    #: the deprecated ``gpt_<k>`` key azure still writes for this metric
    legacy_alias: ClassVar[Optional[str]] = None
    #: the keys after ``<k>`` in 1.18's order for this metric (ToolCallAccuracy writes ``_result`` first)
    row_order: ClassVar[Tuple[str, ...]] = ROW_ORDER
    #: ``is_reasoning_model=True``: the output budget 1.18 sends (``None``: the template's, floored by our client;
    #: 1.18 keeps a template's own ``max_completion_tokens``, as TaskAdherence's)
    reasoning_output_tokens: ClassVar[Optional[int]] = REASONING_OUTPUT_TOKENS
    #: the threshold azure reports, where it is not the one the user gave (azure's behaviour)
    reported_threshold: ClassVar[Optional[float]] = None
    #: the fixed score azure passes at, where it ignores the threshold (azure's behaviour)
    pass_mark: ClassVar[Optional[float]] = None

    #: False for a row that no judge call of its own produced (a composite's summary)
    uses_judge_call: ClassVar[bool] = True

    result_key: ClassVar[str]
    threshold: Any
    _is_reasoning_model: bool

    def _row_threshold(self) -> Any:
        return self.reported_threshold if self.reported_threshold is not None else self.threshold

    def _finish(self, outcome: Outcome) -> Dict[str, Any]:
        if isinstance(outcome, _Turns):
            return AzureRow(aggregate_turns([self._azure_row(o) for o in outcome.outcomes]),
                            merge_usage(o.usage for o in outcome.outcomes))
        return AzureRow(self._azure_row(outcome), outcome.usage)

    def _azure_row(self, outcome: Outcome) -> Dict[str, Any]:
        key = self.result_key
        if outcome.not_applicable:
            return not_applicable_result(key, outcome.reason or "", self._row_threshold())
        score = float(outcome.score)  # type: ignore[arg-type]
        if outcome.passed is not None:
            passed: Optional[bool] = outcome.passed
        else:
            mark = self.pass_mark if self.pass_mark is not None else self.threshold
            passed = None if math.isnan(score) else score >= mark
        details = _plain(outcome.details)
        # a composite's summary has no judge call of its own: its members' rows carry the tokens
        tokens = token_properties(outcome.usage) if outcome.usage is not None or self.uses_judge_call else {}
        judged = self.azure_properties(details) if isinstance(details, Mapping) else {}
        return azure_result(key, score=score, passed=passed, reason=outcome.reason, threshold=self._row_threshold(),
                            properties={**judged, **tokens}, legacy_alias=self.legacy_alias, order=self.row_order)

    def azure_properties(self, details: Mapping[str, Any]) -> Dict[str, Any]:
        """The verdict's details as 1.18's ``<k>_properties`` name them (before the token keys): as they
        are, unless the metric's verdict fields differ from 1.18's (a subclass maps them)."""
        return dict(details)

    async def _ask(self, verdict_model: Type[Any], inputs: Mapping[str, Any], *,
                   params: Optional[Mapping[str, Any]] = None, sample_index: int = 0) -> Any:
        if self._is_reasoning_model and self.reasoning_output_tokens is not None:
            params = {**(params or {}), "max_completion_tokens": self.reasoning_output_tokens}
        return await super()._ask(verdict_model, inputs, params=params,  # type: ignore[misc]
                                  sample_index=sample_index)

    def combine_runs(self, runs: List[Dict[str, Any]]) -> Dict[str, Any]:
        """``num_runs > 1``: the runs' rows as one 1.18 row (the engine calls this, :mod:`._runs`)."""
        from ._runs import combine_azure_runs

        return combine_azure_runs(self, runs)

    def _turn_inputs(self, bound: Dict[str, Any]) -> List[Dict[str, Any]]:
        """The base's turns; none (no user message answered, in a non-empty conversation) is no row: 1.18's ``{}``."""
        if not unanswered(bound.get("conversation")):
            return super()._turn_inputs(bound)  # type: ignore[misc, no-any-return]
        bound.pop("conversation", None)
        return []

    async def _per_turn_async(self, bound: Dict[str, Any]) -> Outcome:
        turns = self._turn_inputs(dict(bound))  # type: ignore[attr-defined]
        outcomes = await asyncio.gather(*(self._evaluate(**t) for t in turns))  # type: ignore[attr-defined]
        return _Turns(outcomes)
