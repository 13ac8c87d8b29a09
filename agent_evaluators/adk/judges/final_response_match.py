"""``final_response_match_v2``: does the response mean what the reference answer means?

ADK's semantics (``reference/adk.md`` §4.3): ``num_samples`` judge samples per
invocation, each labelled valid (1.0) or invalid (0.0); a label the judge was not
asked for leaves that sample uncounted; majority vote, ties → invalid; no counted
sample → not evaluated; a failed sample → the invocation is not evaluated.
"""

from typing import Any, Dict, List, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from ...conversation.transcript import Reads, render_value
from ...evaluators.base import Outcome
from ...evaluators.inputs import majority_vote, text_input
from ...evaluators.judge_base import JudgeOptions, Unpack, check_num_samples, check_temperature
from ._shared import AdkJudgeEvaluator, JudgedInvocation, criterion_temperature

TextOrMessages = Union[str, List[Any], Dict[str, Any]]

# ADK's label sets (``llm_as_judge_utils.Label``); we compare case-insensitively,
# because a structured verdict of "Valid" means valid (ADK's regex is case-sensitive).
_VALID = frozenset({"valid", "true"})
_INVALID = frozenset({"invalid", "almost", "false", "partially_valid", "partially valid", "partially"})


class MatchVerdict(BaseModel):
    """The judge's reply for one sample: reasoning first, then the label."""

    model_config = ConfigDict(extra="forbid")
    reason: str
    verdict: str = Field(json_schema_extra={"enum": ["valid", "invalid"]})


def label_score(label: str) -> Optional[float]:
    """1.0 for valid, 0.0 for invalid (and ADK's synonyms), ``None`` for anything else."""
    norm = label.strip().lower()
    if norm in _VALID:
        return 1.0
    if norm in _INVALID:
        return 0.0
    return None


class FinalResponseMatchEvaluator(AdkJudgeEvaluator):
    """Semantic match of the agent's final response against a reference answer (ADK ``final_response_match_v2``).

    Key ``final_response_match_v2``; inputs ``query``, ``response`` and ``ground_truth``
    (text, or messages: the last user text / final assistant text is used). The judge
    is sampled ``num_samples`` times at ``temperature``; each sample says valid or
    invalid; the majority wins and a tie is invalid. Score 1.0 or 0.0 per row (the
    mean over invocations through ``evaluate_adk_case``); default threshold 0.8.
    Details list every sample's label and reason. A failed sample raises
    :class:`JudgeError`; so does a set of samples none of which gave a usable label.
    """

    result_key = "final_response_match_v2"
    template_name = "final_response_match.prompty"
    reads = Reads("ADK's metric compares the final response with the reference answer for the user's request: the "
                  "three texts only, as plain text", earlier="none", tool_calls=False)
    requires_expected = True

    def __init__(
        self,
        model_config: Any = None,
        *,
        num_samples: int = 5,
        temperature: float = 1.0,
        **judge: Unpack[JudgeOptions],
    ) -> None:
        super().__init__(model_config, **judge)
        self.num_samples = check_num_samples(self.name, num_samples)
        self.temperature = check_temperature(self.name, temperature)
        self._include_intermediate = False

    @classmethod
    def _from_criterion(cls, criterion: Any, model_config: Any) -> "FinalResponseMatchEvaluator":
        ev = cls(model_config, num_samples=criterion.judge_model_options.num_samples,
                 temperature=criterion_temperature(criterion, 1.0), threshold=criterion.threshold)
        ev._include_intermediate = criterion.include_intermediate_responses_in_final
        return ev

    async def _evaluate(
        self, *, query: TextOrMessages, response: TextOrMessages, ground_truth: TextOrMessages
    ) -> Outcome:
        query_text = text_input(self, query, "query", "user")
        response_text = text_input(self, response, "response", "assistant")
        truth_text = text_input(self, ground_truth, "ground_truth", "assistant")
        return self._outcome(await self._score(query_text, response_text, truth_text))

    async def _score_adk_invocation(self, actual: Any, expected: Any) -> JudgedInvocation:
        from ..convert import final_response_text, user_text

        return await self._score(
            user_text(expected),
            final_response_text(actual, include_intermediate=self._include_intermediate),
            final_response_text(expected, include_intermediate=self._include_intermediate),
        )

    async def _score(self, query: str, response: str, ground_truth: str) -> JudgedInvocation:
        verdicts, usage = await self._ask_samples(
            MatchVerdict,
            {name: render_value(text, self.reads.text_limit)
             for name, text in (("query", query), ("response", response), ("ground_truth", ground_truth))},
            num_samples=self.num_samples,
            temperature=self.temperature,
        )
        scores = [label_score(v.verdict) for v in verdicts]
        samples = [
            {"sample": i, "verdict": v.verdict, "score": s, "reason": v.reason}
            for i, (v, s) in enumerate(zip(verdicts, scores))
        ]
        valid = sum(1 for s in scores if s == 1.0)
        invalid = sum(1 for s in scores if s == 0.0)
        uncounted = len(scores) - valid - invalid
        score, chosen = majority_vote(scores)
        details = {"samples": samples, "votes": {"valid": valid, "invalid": invalid, "uncounted": uncounted}}
        tally = f"{valid} valid, {invalid} invalid, {uncounted} uncounted of {len(scores)} sample(s)"
        if score is None:
            return JudgedInvocation(None, f"no sample gave a valid/invalid label ({tally})", details, usage)
        label = "valid" if score == 1.0 else "invalid"
        tie = " (tie counts as invalid)" if valid == invalid else ""
        return JudgedInvocation(score, f"{label} by majority: {tally}{tie}. {verdicts[chosen].reason}", details, usage)
