"""``hallucinations_v1``: is every sentence of the response grounded in what the agent had?

ADK's two-step judge (``reference/adk.md`` §4.7): a segmenter call splits each
natural-language step into sentences; a validator call labels each sentence
supported, unsupported, contradictory, disputed or not_applicable against the
step's context. Step score = share of labelled sentences that are supported or
not_applicable (any other label leaves the sentence unscored, never 0);
invocation score = mean of the scored steps; case score = mean of the scored
invocations. By default only the final response is a step;
``evaluate_intermediate_nl_responses=True`` adds every earlier text the agent wrote.
One segmenter and one validator call per step (``num_samples`` does not apply, as in ADK).
"""

import asyncio
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from ...conversation.transcript import Reads, render_value
from ...conversation.transcript_values import render_items
from ...errors import InputError, JudgeError
from ...evaluators.base import Outcome
from ...evaluators.inputs import mean_or_none, tool_definitions_json
from ...evaluators.judge_base import JudgeEvaluator, JudgeOptions, Unpack
from ...judge.usage import merge_usage
from ._shared import (
    AdkJudgeEvaluator,
    JudgedInvocation,
    adk_all_instructions,
    adk_event_grounding,
    adk_tool_declarations,
    judge_data,
)

TextOrMessages = Union[str, List[Any], Dict[str, Any]]

#: ADK's label values; any other label leaves the sentence unscored.
LABEL_SCORES = {"supported": 1.0, "not_applicable": 1.0, "unsupported": 0.0, "contradictory": 0.0, "disputed": 0.0}


class Segmentation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sentences: List[str]


class SentenceVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    index: int
    rationale: str
    supporting_excerpt: str = Field(description="Quote from the context that supports the sentence, or empty")
    contradicting_excerpt: str = Field(description="Quote from the context that contradicts the sentence, or empty")
    label: str = Field(json_schema_extra={"enum": list(LABEL_SCORES)})


class Validation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sentences: List[SentenceVerdict]


@dataclass
class _Step:
    """One natural-language text to check and what the agent had when it wrote it."""

    text: str
    context: Dict[str, Any]
    author: Optional[str] = None
    kind: str = "final"  # "final" | "intermediate"


@dataclass
class _StepResult:
    details: Dict[str, Any]
    score: Optional[float] = None
    usage: List[Optional[Dict[str, Any]]] = field(default_factory=list)
    error: Optional[JudgeError] = None
    judge_gave_nothing: bool = False  # sentences were found but no label was usable


class _Segmenter(JudgeEvaluator):
    """The segmenter half of :class:`HallucinationEvaluator` (its own template, same judge)."""

    template_name = "hallucination_segmenter.prompty"

    @property
    def name(self) -> str:
        return "HallucinationEvaluator (segmenter)"


class HallucinationEvaluator(AdkJudgeEvaluator):
    """Share of the response's sentences grounded in the agent's context (ADK ``hallucinations_v1``).

    Key ``hallucinations_v1``; inputs ``response`` (text, or messages: tool calls and
    results in it are context for the texts after them), optional ``query``,
    ``context`` (documents or other grounding the agent had, as text or JSON),
    ``tool_definitions`` and ``instructions``. Score 0–1 = share of sentences
    labelled supported or not_applicable (per step, then mean over steps); default
    threshold 0.8. Details list every sentence with its label, rationale and
    excerpts. ``not_applicable`` when there is no text or no sentence to check;
    :class:`JudgeError` when a judge call fails or no label is usable.
    """

    result_key = "hallucinations_v1"
    template_name = "hallucination_validator.prompty"
    reads = Reads("a sentence is grounded in what the agent had when it wrote it: its instructions, the request, its "
                  "tools, the context and every earlier step (its messages, tool calls and their results)",
                  earlier="all", tool_results=6000, tool_definitions="all")
    conversation_turn_inputs = ("query", "response")

    def __init__(
        self,
        model_config: Any = None,
        *,
        evaluate_intermediate_nl_responses: bool = False,
        **judge: Unpack[JudgeOptions],
    ) -> None:
        super().__init__(model_config, **judge)
        self.evaluate_intermediate_nl_responses = bool(evaluate_intermediate_nl_responses)
        self._segmenter = _Segmenter(
            self._model_config, is_reasoning_model=self._is_reasoning_model, cache=self._cache
        )

    def _client(self) -> Any:
        """One judge client for both halves: the segmenter is handed the validator's."""
        client = super()._client()
        self._segmenter._judge_client = client
        return client

    @classmethod
    def _from_criterion(cls, criterion: Any, model_config: Any) -> "HallucinationEvaluator":
        return cls(model_config, threshold=criterion.threshold,
                   evaluate_intermediate_nl_responses=criterion.evaluate_intermediate_nl_responses)

    # -------------------------------------------------------------- class surface
    async def _evaluate(
        self,
        *,
        response: TextOrMessages,
        query: Optional[TextOrMessages] = None,
        context: Optional[Any] = None,
        tool_definitions: Optional[Union[List[Any], Dict[str, Any]]] = None,
        instructions: Optional[str] = None,
    ) -> Outcome:
        from ...conversation import messages_to_json, to_messages

        messages = to_messages(response, input_name="response", default_role="assistant")
        if instructions is not None and not isinstance(instructions, str):
            raise InputError(f"{self.name}: input 'instructions' must be text, got {type(instructions).__name__}",
                             evaluator=self.name, input_name="instructions")
        base = {
            "instructions": instructions or "",
            "query": messages_to_json(to_messages(query, input_name="query", default_role="user")) if query is not None else [],
            "tool_definitions": tool_definitions_json(tool_definitions),
            "context": context if context is not None else "",
        }
        texts = [i for i, m in enumerate(messages) if m.role == "assistant" and (m.content or "").strip()]
        chosen = texts if self.evaluate_intermediate_nl_responses else texts[-1:]
        steps = [
            _Step(
                messages[i].content or "",
                {**base, "prior_steps": messages_to_json(messages[:i])},
                author=messages[i].name,
                kind="final" if i == texts[-1] else "intermediate",
            )
            for i in chosen
        ]
        result = await self._score_steps(steps, fail_on_error=True)
        return self._outcome(result)

    # -------------------------------------------------------------- ADK surface
    async def _score_adk_invocation(self, actual: Any, expected: Any) -> JudgedInvocation:
        return await self._score_steps(self._adk_steps(actual), fail_on_error=False)

    def _adk_steps(self, invocation: Any) -> List[_Step]:
        """ADK's ``_get_steps_to_evaluate``: events come only from the events form."""
        from ..convert import final_response_text, user_text
        from ..models import InvocationEvents

        events = invocation.intermediate_data.invocation_events if isinstance(
            invocation.intermediate_data, InvocationEvents) else []
        base = {
            "instructions": adk_all_instructions(invocation),
            "query": [{"role": "user", "content": user_text(invocation)}],
            "tool_definitions": adk_tool_declarations(invocation),
        }
        steps: List[_Step] = []
        if self.evaluate_intermediate_nl_responses:
            for k, event in enumerate(events):
                parts = (event.content.parts or []) if event.content else []
                for part in parts:
                    if part.text and not part.thought:  # a model's private thought is not its answer
                        ctx_events = list(events[:k]) + ([event.model_copy(update={"content": None})]
                                                         if event.grounding_metadata else [])
                        steps.append(_Step(part.text, {**base, **_event_context(ctx_events)},
                                           author=event.author, kind="intermediate"))
        final = final_response_text(invocation)
        if final:
            steps.append(_Step(final, {**base, **_event_context(list(events))}, kind="final"))
        return steps

    # -------------------------------------------------------------- scoring
    async def _score_steps(self, steps: List[_Step], *, fail_on_error: bool) -> JudgedInvocation:
        if not steps:
            return JudgedInvocation(None, "the response has no text to check", {"steps": []}, None, not_applicable=True)
        results = await asyncio.gather(*(self._score_step(i, s) for i, s in enumerate(steps)))
        usage = merge_usage([u for r in results for u in r.usage])
        details = {"steps": [r.details for r in results]}
        errors = [r.error for r in results if r.error is not None]
        if errors and fail_on_error:
            first = errors[0]
            raise JudgeError(self.name + ": " + first.text, raw_text=first.raw_text, status_code=first.status_code,
                             attempts=first.attempts, usage=usage) from first
        score = mean_or_none([r.score for r in results])
        if score is None:
            if errors or any(r.judge_gave_nothing for r in results):
                why = str(errors[0]) if errors else "the validator gave no usable label for any sentence"
                return JudgedInvocation(None, why, details, usage)
            return JudgedInvocation(None, "the response has no sentence to check", details, usage, not_applicable=True)
        labelled = [s for r in results for s in r.details.get("sentences", []) if s["score"] is not None]
        grounded = sum(1 for s in labelled if s["score"] == 1.0)
        reason = (f"{grounded} of {len(labelled)} labelled sentence(s) supported or not applicable"
                  f" over {sum(1 for r in results if r.score is not None)} scored step(s)")
        bad = [s["sentence"] for s in labelled if s["score"] == 0.0]
        if bad:
            reason += "; not grounded: " + " | ".join(bad[:3]) + (" ..." if len(bad) > 3 else "")
        return JudgedInvocation(score, reason, details, usage)

    async def _score_step(self, index: int, step: _Step) -> _StepResult:
        details: Dict[str, Any] = {"step": index, "kind": step.kind, "author": step.author, "text": step.text}
        result = _StepResult(details)
        try:
            segmentation, usage = await self._segmenter._ask(Segmentation, {"response": render_value(step.text)})
            result.usage.append(usage)
            sentences = [s for s in segmentation.sentences if s.strip()]
            if not sentences:
                details.update(score=None, sentences=[], note="the segmenter found no sentence")
                return result
            validation, usage = await self._ask(
                Validation,
                {**judge_data(step.context, self.reads),
                 "sentences": render_items(enumerate(sentences))},  # "index: sentence" lines
            )
            result.usage.append(usage)
        except JudgeError as exc:
            result.error = exc
            details.update(score=None, error=str(exc))
            return result
        rows = _label_sentences(sentences, validation)
        result.score = mean_or_none([r["score"] for r in rows])
        result.judge_gave_nothing = result.score is None
        details.update(score=result.score, sentences=rows)
        return result


def _label_sentences(sentences: List[str], validation: Validation) -> List[Dict[str, Any]]:
    """Each sentence with its label; missing, duplicated or unknown labels leave it unscored."""
    by_index: Dict[int, List[SentenceVerdict]] = {}
    for verdict in validation.sentences:
        by_index.setdefault(verdict.index, []).append(verdict)
    rows = []
    for i, sentence in enumerate(sentences):
        found = by_index.get(i, [])
        row: Dict[str, Any] = {"index": i, "sentence": sentence, "label": None, "score": None}
        if len(found) == 1:
            v = found[0]
            label = v.label.strip().lower()
            row.update(
                label=label,
                score=LABEL_SCORES.get(label),
                rationale=v.rationale,
                supporting_excerpt=v.supporting_excerpt or None,
                contradicting_excerpt=v.contradicting_excerpt or None,
            )
            if row["score"] is None:
                row["note"] = f"label {v.label!r} is not one of {', '.join(LABEL_SCORES)}"
        else:
            row["note"] = "no label from the validator" if not found else "more than one label from the validator"
        rows.append(row)
    return rows


def _event_context(events: List[Any]) -> Dict[str, Any]:
    """Grounding metadata and the prior steps (texts, tool calls, tool outputs) of ADK events."""
    grounding = adk_event_grounding(events)
    prior: List[Dict[str, Any]] = []  # as messages, which the transcript writes as numbered turns
    for e in events:
        parts = (e.content.parts or []) if e.content else []
        texts = [p.text for p in parts if p.text and not p.thought]  # a private thought is not a claim
        calls = [p.function_call for p in parts if p.function_call is not None]
        outputs = [p.function_response for p in parts if p.function_response is not None]
        if texts:
            prior.append({"role": "user" if e.author == "user" else "assistant", "name": e.author,
                          "content": "\n".join(texts)})
        if calls:
            prior.append({"role": "assistant", "name": e.author,
                          "tool_calls": [{"name": c.name, "arguments": c.args or {}} for c in calls]})
        prior.extend({"role": "tool", "name": o.name, "content": o.response} for o in outputs)
    return {"context": {"grounding_metadata": grounding} if grounding else "", "prior_steps": prior}

