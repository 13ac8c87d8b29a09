"""``rubric_based_final_response_quality_v1`` and ``rubric_based_tool_use_quality_v1``.

ADK's rubric machinery (``reference/adk.md`` §4.4): the judge gives yes (1.0) or
no (0.0) per rubric per sample; per invocation each rubric takes the majority of
its samples' verdicts (ties → no; only unscored entries → unscored); the
invocation score is the mean of its scored rubrics; over a case the score is the
mean of *all* (invocation, rubric) scores, flattened.

How a reply maps onto the configured rubrics (ours, following ADK's fail-closed
reading): a verdict names its rubric by ``rubric_id``, else by its property text
(normalized as ADK does); a verdict for an unknown rubric is dropped (listed in
the details); a rubric the reply omits is unscored in that sample, never 0; a
label other than yes/no leaves that rubric unscored in that sample, never 0; two
verdicts for one rubric in one sample leave it unscored in that sample.
"""

import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Dict, List, Optional, Tuple, Union

from pydantic import BaseModel, ConfigDict, Field

from ...conversation.transcript import DataText, Reads
from ...conversation.transcript_values import render_items
from ...errors import ConfigError, InputError
from ...evaluators.base import Outcome
from ...evaluators.inputs import (
    majority_vote,
    mean_or_none,
    message_tool_steps,
    messages_json,
    require_messages,
    tool_definitions_json,
)
from ...evaluators.judge_base import JudgeOptions, Unpack, check_num_samples, check_temperature
from ._shared import (
    AdkJudgeEvaluator,
    JudgedInvocation,
    adk_grounding,
    adk_instructions,
    adk_tool_declarations,
    adk_tool_steps,
    adk_user_text,
    criterion_temperature,
    judge_data,
)

logger = logging.getLogger(__name__)

TextOrMessages = Union[str, List[Any], Dict[str, Any]]
ToolDefinitions = Union[List[Any], Dict[str, Any]]

_AGGREGATED_RATIONALE = "Mean of this rubric's scores over the invocations; see each invocation for the judge's rationale."


# ---------------------------------------------------------------------------- rubrics
@dataclass(frozen=True)
class RubricSpec:
    """One rubric: a unique id and the property the response must have."""

    rubric_id: str
    text: str
    type: Optional[str] = None
    description: Optional[str] = None


def _rubric(raw: Any, index: int, owner: str) -> RubricSpec:
    if isinstance(raw, RubricSpec):
        return raw
    if isinstance(raw, str):
        return RubricSpec(f"rubric_{index + 1}", raw)
    if not isinstance(raw, dict):  # ADK / our Rubric models and similar objects
        dump = getattr(raw, "model_dump", None)
        raw = dump() if callable(dump) else {k: getattr(raw, k, None) for k in ("rubric_id", "rubric_content", "type")}

    def get(snake: str, camel: str) -> Any:
        return raw.get(snake, raw.get(camel))

    content = get("rubric_content", "rubricContent")
    if isinstance(content, dict):
        text = content.get("text_property", content.get("textProperty"))
    else:
        text = raw.get("text", raw.get("property"))
    rubric_id = get("rubric_id", "rubricId") or raw.get("id") or f"rubric_{index + 1}"
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(
            f"{owner}: rubrics[{index}] has no text; give a string, or an ADK rubric "
            '{"rubric_id": ..., "rubric_content": {"text_property": "..."}}'
        )
    return RubricSpec(str(rubric_id), text, get("type", "type"), raw.get("description"))


def normalize_rubrics(rubrics: Any, *, owner: str, allow_empty: bool = False) -> List[RubricSpec]:
    """Rubrics as given (plain strings, ADK ``Rubric`` dicts or models) → :class:`RubricSpec`.

    Plain strings get ids ``rubric_1``, ``rubric_2``, ... by position. A duplicate id
    is a :class:`ConfigError` (ADK raises ``ValueError``).
    """
    if rubrics is None or isinstance(rubrics, (str, dict)) or not isinstance(rubrics, (list, tuple)):
        if isinstance(rubrics, (str, dict)):
            rubrics = [rubrics]
        elif rubrics is None:
            rubrics = []
        else:
            raise ConfigError(f"{owner}: rubrics must be a list, got {type(rubrics).__name__}")
    specs = [_rubric(r, i, owner) for i, r in enumerate(rubrics)]
    return _check_unique(specs, owner, allow_empty=allow_empty)


def _check_unique(specs: List[RubricSpec], owner: str, *, allow_empty: bool = False) -> List[RubricSpec]:
    seen = set()
    for spec in specs:
        if spec.rubric_id in seen:
            raise ConfigError(f"{owner}: rubric id {spec.rubric_id!r} is used twice; rubric ids must be unique")
        seen.add(spec.rubric_id)
    if not specs and not allow_empty:
        raise ConfigError(f"{owner}: rubrics are required; pass rubrics=[...] (strings or ADK rubric dicts)")
    return specs


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})
_STRIP = " *_`#>-\u2022\"'"


def normalize_rubric_text(text: Any) -> str:
    """ADK's ``_normalize_text``: NFKC, smart quotes and dashes to ASCII, whitespace
    collapsed, list/markdown decoration stripped from the ends, lowercase."""
    if not isinstance(text, str):
        return ""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = re.sub(r"\s+", " ", text)
    return text.strip(_STRIP).lower()


# ---------------------------------------------------------------------------- verdicts
class RubricItemVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rubric_id: str
    property: str = Field(description="The rubric's property text, as given")
    evidence: str = Field(description="What in the data bears on this rubric")
    rationale: str
    verdict: str = Field(json_schema_extra={"enum": ["yes", "no"]})


class RubricVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rubrics: List[RubricItemVerdict]


def _verdict_score(label: str) -> Optional[float]:
    norm = label.strip().lower()
    return 1.0 if norm == "yes" else 0.0 if norm == "no" else None


def _read_sample(verdict: RubricVerdict, rubrics: List[RubricSpec]) -> Tuple[Dict[str, Dict[str, Any]], List[str]]:
    """One sample's entries by rubric id, and the verdicts that named no known rubric."""
    by_id = {r.rubric_id: r for r in rubrics}
    by_text = {normalize_rubric_text(r.text): r.rubric_id for r in rubrics}
    entries: Dict[str, Dict[str, Any]] = {}
    unknown: List[str] = []
    for item in verdict.rubrics:
        rid = item.rubric_id.strip()
        if rid not in by_id:
            rid = by_text.get(normalize_rubric_text(item.property), "")
        if not rid:
            logger.warning("rubric verdict for unknown rubric %r / %r dropped", item.rubric_id, item.property)
            unknown.append(item.rubric_id or item.property)
            continue
        entry = {"verdict": item.verdict, "score": _verdict_score(item.verdict), "rationale": item.rationale}
        if rid in entries:
            entry = {"verdict": None, "score": None, "rationale": "the judge gave this rubric more than one verdict"}
        entries[rid] = entry
    return entries, unknown


def _aggregate(samples: List[Dict[str, Dict[str, Any]]], rubrics: List[RubricSpec]) -> List[Dict[str, Any]]:
    """ADK's per-invocation majority vote, rubric by rubric."""
    out = []
    for rubric in rubrics:
        entries = [(i, s[rubric.rubric_id]) for i, s in enumerate(samples) if rubric.rubric_id in s]
        score, chosen = majority_vote([e["score"] for _, e in entries])
        votes = {
            "yes": sum(1 for _, e in entries if e["score"] == 1.0),
            "no": sum(1 for _, e in entries if e["score"] == 0.0),
            "unscored": sum(1 for _, e in entries if e["score"] is None),
            "missing": len(samples) - len(entries),
        }
        out.append(
            {
                "rubric_id": rubric.rubric_id,
                "rubric": rubric.text,
                "score": score,
                "rationale": entries[chosen][1]["rationale"] if entries else "no sample gave a verdict for this rubric",
                "votes": votes,
                "samples": [{"sample": i, "verdict": e["verdict"], "score": e["score"]} for i, e in entries],
            }
        )
    return out


# ---------------------------------------------------------------------------- evaluators
if TYPE_CHECKING:
    _MixinBase = AdkJudgeEvaluator
else:
    _MixinBase = object


class _RubricJudge(_MixinBase):
    """The shared rubric machinery, mixed into the two rubric metrics beside :class:`AdkJudgeEvaluator`.

    A mixin rather than a base class, so that a rubric metric is an ``AdkJudgeEvaluator``
    directly, three classes deep like the other ADK judges; subclasses give the
    template, the inputs and the rubric type.
    """

    rubric_type = ""
    reads = Reads("a rubric may ask about anything the agent did: the request, each tool call with its arguments and "
                  "result, the final response, and the tools it had", earlier="all", tool_results=2000,
                  tool_definitions="all")
    _case_rule = "mean of every (invocation, rubric) score"
    #: ADK allows a criterion without rubrics when every invocation brings its own (see _from_criterion)
    _allow_empty = False

    def __init__(
        self,
        rubrics: Any = None,
        model_config: Any = None,
        *,
        num_samples: int = 5,
        temperature: float = 1.0,
        **judge: Unpack[JudgeOptions],
    ) -> None:
        super().__init__(model_config, **judge)
        self.rubrics = normalize_rubrics(rubrics, owner=self.name, allow_empty=self._allow_empty)
        self.num_samples = check_num_samples(self.name, num_samples)
        self.temperature = check_temperature(self.name, temperature)
        self._include_intermediate = False

    @classmethod
    def _from_criterion(cls, criterion: Any, model_config: Any) -> "_RubricJudge":
        # ADK allows a criterion without rubrics when every invocation brings its own.
        ev = cls.__new__(cls)
        ev._allow_empty = True
        ev.__init__(  # type: ignore[misc]
            list(criterion.rubrics), model_config, num_samples=criterion.judge_model_options.num_samples,
            temperature=criterion_temperature(criterion, 1.0), threshold=criterion.threshold,
        )
        ev._include_intermediate = criterion.include_intermediate_responses_in_final
        return ev

    # -------------------------------------------------------------- scoring
    async def _score(self, inputs: Dict[str, Any], rubrics: List[RubricSpec]) -> JudgedInvocation:
        verdicts, usage = await self._ask_samples(
            RubricVerdict,
            {**judge_data(inputs, self.reads), "rubrics": self._rubrics_text(rubrics)},
            num_samples=self.num_samples,
            temperature=self.temperature,
        )
        samples: List[Dict[str, Dict[str, Any]]] = []
        unknown: List[Dict[str, Any]] = []
        for i, verdict in enumerate(verdicts):
            entries, dropped = _read_sample(verdict, rubrics)
            samples.append(entries)
            unknown.extend({"sample": i, "rubric": name} for name in dropped)
        per_rubric = _aggregate(samples, rubrics)
        score = mean_or_none([r["score"] for r in per_rubric])
        details = {"rubrics": per_rubric, "unknown_rubrics": unknown, "num_samples": len(verdicts)}
        rubric_scores = [{"rubric_id": r["rubric_id"], "score": r["score"], "rationale": r["rationale"]} for r in per_rubric]
        scored = [r for r in per_rubric if r["score"] is not None]
        if score is None:
            return JudgedInvocation(None, "the judge gave no usable yes/no verdict for any rubric", details, usage,
                                   rubric_scores=rubric_scores)
        met = sum(1 for r in scored if r["score"] == 1.0)
        unscored = len(per_rubric) - len(scored)
        reason = f"{met} of {len(scored)} scored rubric(s) met" + (f"; {unscored} unscored" if unscored else "")
        failed = [r["rubric_id"] for r in scored if r["score"] == 0.0]
        if failed:
            reason += f"; not met: {', '.join(failed)}"
        return JudgedInvocation(score, reason, details, usage, rubric_scores=rubric_scores)

    #: whether the judge sees each rubric's ``type`` too (ADK's multi-turn prompt lists it)
    _show_rubric_type: ClassVar[bool] = False

    def _rubrics_text(self, rubrics: List[RubricSpec]) -> DataText:
        """The rubrics one a line, ``rubric_id: property`` (the judge echoes the id), the type after
        the property where the template shows it."""
        return render_items((r.rubric_id, f"{r.text} (type: {r.type})" if self._show_rubric_type and r.type else r.text)
                            for r in rubrics)

    def _case_score(self, results: List[JudgedInvocation]) -> Optional[float]:
        """ADK: the mean of all (invocation, rubric) scores, flattened."""
        return mean_or_none([r["score"] for res in results for r in (res.rubric_scores or [])])

    def _case_details(self, results: List[JudgedInvocation]) -> Dict[str, Any]:
        by_id: Dict[str, List[Optional[float]]] = {}
        for res in results:
            for r in res.rubric_scores or []:
                by_id.setdefault(r["rubric_id"], []).append(r["score"])
        return {
            "overall_rubric_scores": [
                {"rubric_id": rid, "score": mean_or_none(scores), "rationale": _AGGREGATED_RATIONALE}
                for rid, scores in by_id.items()
            ]
        }

    def _effective_rubrics(self, actual: Any) -> List[RubricSpec]:
        """The criterion's rubrics plus the actual invocation's own of this metric's type (ADK's
        ``create_effective_rubrics_list``). Only the actual invocation is read: the runner (as
        ADK's ``LocalEvalService``) and ``evaluate_invocations`` copy the case's and the expected
        invocation's rubrics onto it first, so reading the expected one too would count them twice."""
        invocation: List[RubricSpec] = []
        if actual is not None and actual.rubrics:
            invocation = normalize_rubrics(list(actual.rubrics), owner=self.name, allow_empty=True)
        _check_unique(invocation, f"{self.name} (invocation rubrics)", allow_empty=True)
        typed = [r for r in invocation if r.type == self.rubric_type]
        return _check_unique(self.rubrics + typed, self.name)


class RubricBasedFinalResponseQualityEvaluator(_RubricJudge, AdkJudgeEvaluator):
    """Final-response quality against your rubrics (ADK ``rubric_based_final_response_quality_v1``).

    Key ``rubric_based_final_response_quality_v1``. Construct with ``rubrics=[...]``
    (strings, or ADK rubrics ``{"rubric_id", "rubric_content": {"text_property"}}``).
    Inputs ``query``, ``response`` (text, or messages whose tool calls and results
    the judge also sees), optional ``tool_definitions`` and ``instructions`` (the
    agent's system prompt). The judge says yes or no per rubric, ``num_samples`` times
    at ``temperature``; each rubric takes the majority (ties → no); score = mean over
    the scored rubrics, 0–1; default threshold 0.8. Details hold every rubric's
    votes, score and rationale.
    """

    result_key = "rubric_based_final_response_quality_v1"
    template_name = "rubric_final_response.prompty"
    rubric_type = "FINAL_RESPONSE_QUALITY"
    conversation_turn_inputs = ("query", "response")

    async def _evaluate(
        self,
        *,
        query: TextOrMessages,
        response: TextOrMessages,
        tool_definitions: Optional[ToolDefinitions] = None,
        instructions: Optional[str] = None,
    ) -> Outcome:
        from ...conversation import final_text

        query_msgs = require_messages(self, query, "query", "user")
        response_msgs = require_messages(self, response, "response", "assistant")
        inputs = {
            "query": messages_json(query_msgs),
            "response_steps": message_tool_steps(response_msgs),
            "final_response": final_text(response_msgs) or "",
            "tool_definitions": tool_definitions_json(tool_definitions),
            "instructions": _instructions(self, instructions),
        }
        return self._outcome(await self._score(inputs, self.rubrics))

    async def _score_adk_invocation(self, actual: Any, expected: Any) -> JudgedInvocation:
        from ..convert import final_response_text

        return await self._score(
            {
                "query": [{"role": "user", "content": adk_user_text(actual)}],
                "response_steps": adk_tool_steps(actual),
                "final_response": final_response_text(actual, include_intermediate=self._include_intermediate),
                "grounding_metadata": adk_grounding(actual),
                "tool_definitions": adk_tool_declarations(actual),
                "instructions": adk_instructions(actual),
            },
            self._effective_rubrics(actual),
        )


class RubricBasedToolUseQualityEvaluator(_RubricJudge, AdkJudgeEvaluator):
    """Tool-use quality against your rubrics (ADK ``rubric_based_tool_use_quality_v1``).

    Key ``rubric_based_tool_use_quality_v1``. Construct with ``rubrics=[...]`` as for
    :class:`RubricBasedFinalResponseQualityEvaluator`. Inputs ``query`` and either
    ``response`` (messages holding the tool calls, with their results) or
    ``tool_calls``; optional ``tool_definitions``. Same votes, ties and score
    (0–1, default threshold 0.8). An agent that made no tool call is still judged
    (a rubric may require that no tool be called).
    """

    result_key = "rubric_based_tool_use_quality_v1"
    template_name = "rubric_tool_use.prompty"
    rubric_type = "TOOL_USE_QUALITY"
    conversation_turn_inputs = ("query", "response")

    async def _evaluate(
        self,
        *,
        query: TextOrMessages,
        response: Optional[TextOrMessages] = None,
        tool_calls: Optional[Union[List[Any], Dict[str, Any]]] = None,
        tool_definitions: Optional[ToolDefinitions] = None,
    ) -> Outcome:
        from ...conversation import to_tool_calls

        if response is None and tool_calls is None:
            raise InputError(
                f"{self.name}: pass response= (messages holding the tool calls) or tool_calls=",
                evaluator=self.name,
                input_name="tool_calls",
            )
        query_msgs = require_messages(self, query, "query", "user")
        if tool_calls is not None:
            steps = [
                {"step": i, "tool_call": {"name": c.name, "arguments": c.arguments}, "tool_response": None}
                for i, c in enumerate(to_tool_calls(tool_calls, input_name="tool_calls"))
            ]
        else:
            steps = message_tool_steps(require_messages(self, response, "response", "assistant"))
        inputs = {"query": messages_json(query_msgs), "tool_calls": steps,
                  "tool_definitions": tool_definitions_json(tool_definitions)}
        return self._outcome(await self._score(inputs, self.rubrics))

    async def _score_adk_invocation(self, actual: Any, expected: Any) -> JudgedInvocation:
        return await self._score(
            {
                "query": [{"role": "user", "content": adk_user_text(actual)}],
                "tool_calls": adk_tool_steps(actual),
                "tool_definitions": adk_tool_declarations(actual),
            },
            self._effective_rubrics(actual),
        )


# ---------------------------------------------------------------------------- input helpers
def _instructions(evaluator: AdkJudgeEvaluator, value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(
            f"{evaluator.name}: input 'instructions' must be text (the agent's system prompt), got {type(value).__name__}",
            evaluator=evaluator.name,
            input_name="instructions",
        )
    return value
