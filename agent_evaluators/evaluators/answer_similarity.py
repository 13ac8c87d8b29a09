"""How close an agent's answer is to a known-good answer (Mastra's answer similarity).

The judge breaks the response and the ground truth into small semantic units
(single facts or claims), then says for every ground-truth unit whether the
response states it exactly, with the same meaning, partly, or not at all; it also
lists response units that have no counterpart (extra information) and response
units that contradict the ground truth. The score is then computed **in code**
from that analysis with Mastra's formula and options (``@mastra/evals`` 1.10.2,
``createAnswerSimilarityScorer``; see :func:`answer_similarity_score`), so the
same analysis always gives the same number.

Mastra uses two judge calls (extract units, then analyze). We ask for both in one
structured reply, units first and then the matches that refer to them by index:
one call per row instead of two, and a reply whose matches do not cover every
ground-truth unit exactly once is rejected instead of silently distorting the
score. Mastra's third call (an LLM-written reason) is replaced by an explanation
generated from the analysis.
"""

import math
import sys
from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, Union

from pydantic import BaseModel, ConfigDict, Field

from ..conversation.transcript import Reads, render_value
from ..errors import ConfigError, InputError, JudgeError
from .base import Outcome
from .judge_base import JudgeEvaluator, JudgeOptions, Unpack

MessagesOrText = Union[str, List[Any], Dict[str, Any]]
MatchType = Literal["exact", "semantic", "partial", "missing"]
MATCH_TYPES = ("exact", "semantic", "partial", "missing")

#: Mastra hard-codes this cap on the extra-information penalty; it is not scaled.
EXTRA_INFO_PENALTY_CAP = 0.2


# ---------------------------------------------------------------------------- the formula
@dataclass(frozen=True)
class AnswerSimilarityOptions:
    """Mastra's ``AnswerSimilarityOptions``, same defaults (``contradictionPenalty`` is
    really 1.0 in the code, although Mastra's interface comment says 0.3)."""

    require_ground_truth: bool = True
    semantic_threshold: float = 0.8
    exact_match_bonus: float = 0.2
    missing_penalty: float = 0.15
    contradiction_penalty: float = 1.0
    extra_info_penalty: float = 0.05
    scale: float = 1

    def validate(self, owner: str = "AnswerSimilarityEvaluator") -> "AnswerSimilarityOptions":
        for name in ("semantic_threshold", "exact_match_bonus", "missing_penalty", "contradiction_penalty",
                     "extra_info_penalty", "scale"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ConfigError(f"{owner}: {name} must be a finite number >= 0, got {value!r}")
        if self.scale <= 0:
            raise ConfigError(f"{owner}: scale must be > 0, got {self.scale!r}")
        return self


def _round2(value: float) -> float:
    """JavaScript ``Math.round((n + Number.EPSILON) * 100) / 100`` (Mastra's roundToTwoDecimals):
    halves round up, as ``Math.round`` does (Python's ``round`` would round half to even)."""
    return math.floor((value + sys.float_info.epsilon) * 100 + 0.5) / 100


def _field(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, Mapping):
            if name in obj:
                return obj[name]
        elif hasattr(obj, name):
            return getattr(obj, name)
    return None


def answer_similarity_score(analysis: Any, options: Union[AnswerSimilarityOptions, Mapping[str, Any], None] = None) -> float:
    """Mastra's answer-similarity score from a judge analysis.

    ``analysis`` has ``matches`` (each with a ``match_type`` / ``matchType`` of exact,
    semantic, partial or missing), ``extra_in_output`` / ``extraInOutput`` (a list)
    and ``contradictions`` (a list); a :class:`SimilarityAnalysis`, or a dict in our
    snake_case or Mastra's camelCase shape. ``options`` overrides the defaults
    (an :class:`AnswerSimilarityOptions` or a dict of its fields)::

        no matches → 0
        raw   = Σ exact: 1 + exact_match_bonus | semantic: semantic_threshold
                  | partial: semantic_threshold × 0.5 | missing: −missing_penalty
        score = raw / (len(matches) × (1 + exact_match_bonus))
                − len(contradictions) × contradiction_penalty
                − min(len(extra) × extra_info_penalty, 0.2)
        return round2(clamp(score, 0, 1) × scale)
    """
    if options is None:
        opts = AnswerSimilarityOptions()
    elif isinstance(options, AnswerSimilarityOptions):
        opts = options
    else:
        opts = AnswerSimilarityOptions(**dict(options))
    matches = list(_field(analysis, "matches") or [])
    if not matches:
        return 0.0
    extra = list(_field(analysis, "extra_in_output", "extraInOutput") or [])
    contradictions = list(_field(analysis, "contradictions") or [])
    raw = 0.0
    for match in matches:
        kind = _field(match, "match_type", "matchType")
        if kind == "exact":
            raw += 1 + opts.exact_match_bonus
        elif kind == "semantic":
            raw += opts.semantic_threshold
        elif kind == "partial":
            raw += opts.semantic_threshold * 0.5
        elif kind == "missing":
            raw -= opts.missing_penalty
        else:
            raise ValueError(f"unknown match type {kind!r}; expected one of {', '.join(MATCH_TYPES)}")
    score = raw / (len(matches) * (1 + opts.exact_match_bonus))
    score -= len(contradictions) * opts.contradiction_penalty
    score -= min(len(extra) * opts.extra_info_penalty, EXTRA_INFO_PENALTY_CAP)
    score = max(0.0, min(1.0, score))
    return _round2(score * opts.scale)


# ---------------------------------------------------------------------------- the judge's reply
class UnitMatchVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ground_truth_unit: int = Field(description="Index of the ground-truth unit in ground_truth_units")
    output_unit: Optional[int] = Field(description="Index of the matching unit in output_units, or null when missing")
    match_type: MatchType
    explanation: str


class ContradictionVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    output_unit: int = Field(description="Index in output_units of the unit that contradicts the ground truth")
    ground_truth_unit: int = Field(description="Index in ground_truth_units of the contradicted unit")
    explanation: str


class SimilarityVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    output_units: List[str] = Field(description="The semantic units of the agent's response")
    ground_truth_units: List[str] = Field(description="The semantic units of the ground truth")
    matches: List[UnitMatchVerdict] = Field(description="Exactly one entry per ground-truth unit")
    extra_in_output: List[int] = Field(description="Indices of output units with no counterpart in the ground truth")
    contradictions: List[ContradictionVerdict]


class UnitMatch(BaseModel):
    """One ground-truth unit and how the response covers it (Mastra's match entry)."""

    ground_truth_unit: str
    output_unit: Optional[str]
    match_type: MatchType
    explanation: str


class Contradiction(BaseModel):
    output_unit: str
    ground_truth_unit: str
    explanation: str


class SimilarityAnalysis(BaseModel):
    """The analysis the score is computed from (Mastra's ``analyzeStepResult``, snake_case)."""

    matches: List[UnitMatch]
    extra_in_output: List[str]
    contradictions: List[Contradiction]


def _resolve(evaluator: JudgeEvaluator, verdict: SimilarityVerdict) -> SimilarityAnalysis:
    """Index references → unit texts, rejecting a reply that is not self-consistent."""
    out_units, gt_units = verdict.output_units, verdict.ground_truth_units

    def bad(problem: str) -> JudgeError:
        return JudgeError(f"{evaluator.name}: the judge's analysis is unusable: {problem}",
                          raw_text=verdict.model_dump_json())

    def out_ref(i: Optional[int], where: str) -> Optional[str]:
        if i is None:
            return None
        if not 0 <= i < len(out_units):
            raise bad(f"{where} refers to output unit {i}, but there are {len(out_units)} output units")
        return out_units[i]

    if not gt_units:
        raise bad("no semantic units were extracted from a non-empty ground truth")
    by_gt: Dict[int, UnitMatchVerdict] = {}
    for m in verdict.matches:
        if not 0 <= m.ground_truth_unit < len(gt_units):
            raise bad(f"a match refers to ground-truth unit {m.ground_truth_unit}, but there are {len(gt_units)}")
        if m.ground_truth_unit in by_gt:
            raise bad(f"ground-truth unit {m.ground_truth_unit} is matched more than once")
        if m.match_type != "missing" and m.output_unit is None:
            raise bad(f"ground-truth unit {m.ground_truth_unit} is a {m.match_type!r} match without an output unit")
        by_gt[m.ground_truth_unit] = m
    unmatched = sorted(set(range(len(gt_units))) - set(by_gt))
    if unmatched:
        raise bad(f"no match entry for ground-truth unit(s) {unmatched}")
    matches = [
        UnitMatch(
            ground_truth_unit=gt_units[i],
            output_unit=out_ref(by_gt[i].output_unit, f"the match for ground-truth unit {i}"),
            match_type=by_gt[i].match_type,
            explanation=by_gt[i].explanation,
        )
        for i in range(len(gt_units))
    ]
    if len(set(verdict.extra_in_output)) != len(verdict.extra_in_output):
        raise bad("extra_in_output lists an output unit more than once")
    extra = [out_ref(i, "extra_in_output") for i in verdict.extra_in_output]
    contradictions = []
    for c in verdict.contradictions:
        if not 0 <= c.ground_truth_unit < len(gt_units):
            raise bad(f"a contradiction refers to ground-truth unit {c.ground_truth_unit}, but there are {len(gt_units)}")
        contradictions.append(
            Contradiction(
                output_unit=out_ref(c.output_unit, "a contradiction") or "",
                ground_truth_unit=gt_units[c.ground_truth_unit],
                explanation=c.explanation,
            )
        )
    return SimilarityAnalysis(matches=matches, extra_in_output=[e for e in extra if e is not None],
                              contradictions=contradictions)


# ---------------------------------------------------------------------------- the evaluator
class AnswerSimilarityEvaluator(JudgeEvaluator):
    """How similar the response is to the ground-truth answer, unit by unit (Mastra's scorer).

    Key ``answer_similarity``; inputs ``response`` (text, or messages whose last
    assistant text is the answer) and ``ground_truth`` (text; anything else is
    compared as its JSON). Score 0–``scale`` by Mastra's formula
    (:func:`answer_similarity_score`); default threshold ``0.8 × scale``.

    Args (Mastra's options and defaults):
        require_ground_truth: without ground truth, raise ``InputError`` (True) or
            report ``not_applicable`` (False; never an invented 0, no judge call).
        semantic_threshold: credit for a semantic match (partial gets half of it).
        exact_match_bonus: extra credit for an exact match.
        missing_penalty: subtracted per ground-truth unit the response lacks.
        contradiction_penalty: subtracted per contradiction (1.0: any contradiction → 0).
        extra_info_penalty: per extra unit, at most 0.2 in total.
        scale: the score is multiplied by it (after clamping to 0–1).

    Details: the extracted units, the matches, extra units, contradictions, counts
    per match type and the options used.
    """

    result_key = "answer_similarity"
    default_threshold = 0.8
    template_name = "answer_similarity.prompty"
    reads = Reads("the analysis compares the facts of two answers: the final answer text and the expected answer, "
                  "each as plain text (a structured expected answer as compact JSON), nothing of the conversation",
                  earlier="none", tool_calls=False, text_limit=20000)

    def __init__(
        self,
        model_config: Any = None,
        *,
        require_ground_truth: bool = True,
        semantic_threshold: float = 0.8,
        exact_match_bonus: float = 0.2,
        missing_penalty: float = 0.15,
        contradiction_penalty: float = 1.0,
        extra_info_penalty: float = 0.05,
        scale: float = 1,
        **judge: Unpack[JudgeOptions],
    ) -> None:
        self.options = AnswerSimilarityOptions(
            require_ground_truth=bool(require_ground_truth),
            semantic_threshold=semantic_threshold,
            exact_match_bonus=exact_match_bonus,
            missing_penalty=missing_penalty,
            contradiction_penalty=contradiction_penalty,
            extra_info_penalty=extra_info_penalty,
            scale=scale,
        ).validate()
        if judge.get("threshold") is None:
            judge["threshold"] = round(0.8 * scale, 10)
        super().__init__(model_config, **judge)

    @property
    def score_scale(self) -> Tuple[float, float]:  # type: ignore[override]  # 0..scale, per instance
        return 0.0, float(self.options.scale)

    async def _evaluate(self, *, response: MessagesOrText, ground_truth: Optional[Any] = None) -> Outcome:
        from ..conversation import final_text, to_messages

        if ground_truth is None or (isinstance(ground_truth, str) and not ground_truth.strip()):
            if self.options.require_ground_truth:
                raise InputError(
                    f"{self.name}: input 'ground_truth' is required (the expected answer to compare with); "
                    "pass it, or create the evaluator with require_ground_truth=False to mark rows without it "
                    "not applicable",
                    evaluator=self.name,
                    input_name="ground_truth",
                )
            return Outcome(None, "Not applicable: no ground truth was provided to compare with", not_applicable=True)
        if isinstance(response, str):
            text: Optional[str] = response
        else:
            text = final_text(to_messages(response, input_name="response", default_role="assistant"))
        if text is None or not text.strip():
            raise InputError(f"{self.name}: the response has no answer text to compare", evaluator=self.name,
                             input_name="response")
        verdict, usage = await self._ask(SimilarityVerdict, {"response": render_value(text, self.reads.text_limit),
                                                             "ground_truth": render_value(ground_truth, self.reads.text_limit)})
        analysis = _resolve(self, verdict)
        score = answer_similarity_score(analysis, self.options)
        counts = {t: sum(1 for m in analysis.matches if m.match_type == t) for t in MATCH_TYPES}
        details = {
            "output_units": verdict.output_units,
            "ground_truth_units": verdict.ground_truth_units,
            "matches": [m.model_dump() for m in analysis.matches],
            "extra_in_output": analysis.extra_in_output,
            "contradictions": [c.model_dump() for c in analysis.contradictions],
            "match_counts": counts,
            "options": {k: v for k, v in asdict(self.options).items() if k != "require_ground_truth"},
        }
        return Outcome(score, _reason(score, self.options.scale, analysis, counts), details, usage)


def _reason(score: float, scale: float, analysis: SimilarityAnalysis, counts: Dict[str, int]) -> str:
    total = len(analysis.matches)
    parts = [f"{counts[t]} {t}" for t in MATCH_TYPES if counts[t]]
    text = f"The score is {score:g}/{scale:g}: of {total} ground-truth unit(s), {', '.join(parts)}."
    if analysis.contradictions:
        listed = "; ".join(f"{c.output_unit!r} contradicts {c.ground_truth_unit!r}" for c in analysis.contradictions[:3])
        text += f" {len(analysis.contradictions)} contradiction(s): {listed}."
    missing = [m.ground_truth_unit for m in analysis.matches if m.match_type == "missing"]
    if missing:
        text += " Missing: " + "; ".join(repr(u) for u in missing[:5]) + ("; ..." if len(missing) > 5 else "") + "."
    if analysis.extra_in_output:
        text += f" {len(analysis.extra_in_output)} extra unit(s) not in the ground truth."
    return text
