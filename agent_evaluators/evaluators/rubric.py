"""A general rubric judge for users' own yes/no criteria.

The user lists the properties a good response has ("Mentions the refund deadline",
"Does not promise a delivery date"); the judge answers yes or no for each, with a
rationale; the score is the share of rubrics met. With ``num_samples > 1`` the
judge is asked several times at a temperature above 0 and each rubric keeps the
majority verdict, ties counting as "no" (ADK's rule; the vote helper is shared with
the ADK judges in :mod:`.inputs`).

Fail closed per rubric: when the judge's reply leaves a rubric out, answers it more
than once, or answers something other than yes/no, that rubric is *unscored*: it is
reported as such in the details and left out of the share, never counted as a "no".
Verdicts for rubric ids that were not asked are ignored (and listed). If no rubric
could be scored at all, the evaluation raises :class:`~agent_evaluators.errors.JudgeError`.
"""

import logging
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from pydantic import BaseModel, ConfigDict, Field

from ..conversation.transcript import Reads, render_exchange
from ..conversation.transcript_values import render_items
from ..errors import ConfigError, JudgeError
from .base import Outcome
from .inputs import majority_vote, messages_json, require_messages
from .judge_base import JudgeEvaluator, JudgeOptions, Unpack, check_num_samples, check_temperature

logger = logging.getLogger(__name__)

MessagesOrText = Union[str, List[Any], Dict[str, Any]]


@dataclass(frozen=True)
class Rubric:
    """One yes/no criterion: a stable id (echoed by the judge) and its text."""

    rubric_id: str
    text: str


def _text_of(item: Any) -> Optional[str]:
    if isinstance(item, Mapping):
        for key in ("text", "rubric", "criterion", "description", "text_property"):
            if isinstance(item.get(key), str):
                return item[key]
        content = item.get("rubric_content") or item.get("content")
        if content is not None:
            return _text_of(content if isinstance(content, Mapping) else _as_mapping(content))
    return None


def _as_mapping(obj: Any) -> Optional[Mapping[str, Any]]:
    if isinstance(obj, Mapping):
        return obj
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        value = dump()
        return value if isinstance(value, Mapping) else None
    return None


def normalize_rubrics(rubrics: Any, owner: str = "RubricEvaluator") -> List[Rubric]:
    """Read the rubric list: strings (ids ``r1``, ``r2``, … are assigned), dicts with
    ``rubric_id``/``id`` and ``text``/``rubric``, or ADK ``Rubric`` objects/dicts
    (``rubric_id`` + ``rubric_content.text_property``). Raises ``ConfigError`` for an
    empty list, an empty text or a duplicated id."""
    if isinstance(rubrics, (str, bytes)) or not isinstance(rubrics, Sequence) or not rubrics:
        raise ConfigError(f"{owner}: rubrics must be a non-empty list of criteria (strings or dicts), got {rubrics!r}")
    out: List[Rubric] = []
    seen = set()
    for i, item in enumerate(rubrics):
        if isinstance(item, str):
            rubric_id, text = f"r{i + 1}", item
        else:
            d = _as_mapping(item)
            if d is None:
                raise ConfigError(f"{owner}: rubrics[{i}] must be a string or a dict with 'text', got {item!r}")
            text = _text_of(d)  # type: ignore[assignment]
            raw_id = d.get("rubric_id", d.get("id"))
            rubric_id = str(raw_id) if raw_id is not None and str(raw_id).strip() else f"r{i + 1}"
        if not isinstance(text, str) or not text.strip():
            raise ConfigError(f"{owner}: rubrics[{i}] has no text; give the criterion as a string or {{'text': ...}}")
        if rubric_id in seen:
            raise ConfigError(f"{owner}: rubric id {rubric_id!r} appears more than once (rubrics[{i}]); ids must be unique")
        seen.add(rubric_id)
        out.append(Rubric(rubric_id, text.strip()))
    return out


# ---------------------------------------------------------------------------- verdicts
class RubricJudgement(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rubric_id: str
    rationale: str
    # Any (not Literal): a bad label must fail this rubric only, not the whole reply.
    verdict: Any = Field(json_schema_extra={"type": "string", "enum": ["yes", "no"]},
                         description='"yes" if the response has the property, "no" otherwise')


class RubricVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rubrics: List[RubricJudgement] = Field(description="One entry per rubric, in the order given")


def _label(value: Any) -> Optional[bool]:
    if isinstance(value, str):
        v = value.strip().lower()
        if v == "yes":
            return True
        if v == "no":
            return False
    return None


def read_rubric_votes(
    rubrics: Sequence[Rubric], verdict: RubricVerdict
) -> Tuple[Dict[str, Optional[bool]], Dict[str, Dict[str, Any]], List[str]]:
    """One sample → (vote per rubric id: True/False/None, what the judge said per id, unknown ids).

    A rubric gets ``None`` (abstains) when the reply omits it, repeats it, or labels it
    anything but yes/no; the problem is recorded in its entry.
    """
    known = {r.rubric_id for r in rubrics}
    grouped: Dict[str, List[RubricJudgement]] = {}
    unknown: List[str] = []
    for judgement in verdict.rubrics:
        if judgement.rubric_id in known:
            grouped.setdefault(judgement.rubric_id, []).append(judgement)
        else:
            unknown.append(judgement.rubric_id)
    votes: Dict[str, Optional[bool]] = {}
    said: Dict[str, Dict[str, Any]] = {}
    for r in rubrics:
        entries = grouped.get(r.rubric_id, [])
        if not entries:
            votes[r.rubric_id] = None
            said[r.rubric_id] = {"verdict": None, "rationale": None, "problem": "the judge did not answer this rubric"}
        elif len(entries) > 1:
            votes[r.rubric_id] = None
            said[r.rubric_id] = {"verdict": [e.verdict for e in entries], "rationale": None,
                                 "problem": f"the judge answered this rubric {len(entries)} times"}
        else:
            e = entries[0]
            vote = _label(e.verdict)
            votes[r.rubric_id] = vote
            said[r.rubric_id] = {"verdict": e.verdict, "rationale": e.rationale}
            if vote is None:
                said[r.rubric_id]["problem"] = f"verdict {e.verdict!r} is neither 'yes' nor 'no'"
    return votes, said, unknown


# ---------------------------------------------------------------------------- the evaluator
class RubricEvaluator(JudgeEvaluator):
    """Scores a response against the user's own yes/no rubrics.

    Key: the ``result_key`` given (default ``rubric_score``); inputs ``query`` and
    ``response`` (text or messages in any supported format). Score 0–1 = share of
    the scored rubrics the judge says are met; default threshold 0.8.

    Args:
        rubrics: the criteria; strings, ``{"rubric_id", "text"}`` dicts or ADK rubrics.
        result_key: name of the metric in results.
        num_samples: ask the judge this many times (at ``temperature``) and keep
            each rubric's majority verdict; ties count as "no".
        temperature: temperature of sampled requests (only when ``num_samples > 1``), 0–2.
        sample_temperature: deprecated name of ``temperature``.

    Details: ``rubrics`` (per rubric: id, text, ``met`` True/False/None, rationale,
    votes and any problem), ``met``, ``scored``, ``unscored``, ``unknown_rubric_ids``.
    """

    result_key = "rubric_score"
    score_scale = (0.0, 1.0)
    default_threshold = 0.8
    template_name = "rubric.prompty"
    reads = Reads("the rubrics may ask about anything the agent said or did: the system instructions, every turn, "
                  "its tool calls and their results", system=True, earlier="all", tool_results=2000)

    def __init__(
        self,
        rubrics: Sequence[Any],
        model_config: Any = None,
        *,
        result_key: str = "rubric_score",
        num_samples: int = 1,
        temperature: float = 1.0,
        sample_temperature: Optional[float] = None,
        **judge: Unpack[JudgeOptions],
    ) -> None:
        if not isinstance(result_key, str) or not result_key.strip():
            raise ConfigError(f"RubricEvaluator: result_key must be a non-empty string, got {result_key!r}")
        if sample_temperature is not None:
            warnings.warn("RubricEvaluator: sample_temperature is deprecated; pass temperature= (the same name as "
                          "the ADK judges use)", DeprecationWarning, stacklevel=2)
            temperature = sample_temperature
        self.rubrics = normalize_rubrics(rubrics)
        self.result_key = result_key  # type: ignore[misc]
        super().__init__(model_config, **judge)
        self.num_samples = check_num_samples(self.name, num_samples)
        self.temperature = check_temperature(self.name, temperature)

    @property
    def sample_temperature(self) -> float:
        """Deprecated name of :attr:`temperature`."""
        return self.temperature

    async def _evaluate(self, *, query: MessagesOrText, response: MessagesOrText) -> Outcome:
        asked, answer, _ = render_exchange(messages_json(require_messages(self, query, "query", "user")),
                                           messages_json(require_messages(self, response, "response", "assistant")),
                                           self.reads)
        inputs = {
            "query": asked,
            "response": answer,
            "rubrics": render_items((r.rubric_id, r.text) for r in self.rubrics),  # id first: the judge echoes it
        }
        verdicts, usage = await self._ask_samples(
            RubricVerdict, inputs, num_samples=self.num_samples,
            temperature=self.temperature if self.num_samples > 1 else None,
        )
        samples = [read_rubric_votes(self.rubrics, verdict) for verdict in verdicts]
        majority: Dict[str, Optional[bool]] = {}
        for r in self.rubrics:
            score, _ = majority_vote([_as_score(votes[r.rubric_id]) for votes, _, _ in samples])
            majority[r.rubric_id] = None if score is None else score == 1.0
        unknown = sorted({rid for _, _, ids in samples for rid in ids})
        if unknown:
            logger.warning("%s: the judge answered rubric ids that were not asked: %s", self.name, unknown)

        per_rubric = []
        for r in self.rubrics:
            entry: Dict[str, Any] = {"rubric_id": r.rubric_id, "rubric": r.text, "met": majority[r.rubric_id]}
            said = [s[1][r.rubric_id] for s in samples]
            if self.num_samples == 1:
                entry.update(said[0])
            else:
                entry["votes"] = [votes[r.rubric_id] for votes, _, _ in samples]
                entry["rationale"] = _rationale_for(majority[r.rubric_id], entry["votes"], said)
                problems = [s["problem"] for s in said if "problem" in s]
                if problems:
                    entry["problems"] = problems
            per_rubric.append(entry)

        scored = [e for e in per_rubric if e["met"] is not None]
        details = {
            "rubrics": per_rubric,
            "met": sum(1 for e in scored if e["met"]),
            "scored": len(scored),
            "unscored": len(per_rubric) - len(scored),
            "unknown_rubric_ids": unknown,
            "num_samples": self.num_samples,
        }
        if not scored:
            raw = verdicts[0].model_dump_json()
            raise JudgeError(
                f"{self.name}: no rubric could be scored: the judge's reply answered none of the "
                f"{len(self.rubrics)} rubric(s) with a usable yes/no "
                f"({per_rubric[0].get('problem') or per_rubric[0].get('problems')})",
                raw_text=raw,
                usage=usage,
            )
        met = sum(1 for e in scored if e["met"])
        score = met / len(scored)
        reason = f"{details['met']} of {len(scored)} scored rubric(s) met"
        if details["unscored"]:
            reason += f"; {details['unscored']} rubric(s) unscored (no usable verdict from the judge)"
        not_met = [e["rubric"] for e in scored if not e["met"]]
        if not_met:
            reason += ". Not met: " + "; ".join(not_met[:5]) + ("; ..." if len(not_met) > 5 else "")
        return Outcome(score, reason, details, usage)


def _as_score(vote: Optional[bool]) -> Optional[float]:
    return None if vote is None else (1.0 if vote else 0.0)


def _rationale_for(met: Optional[bool], votes: List[Optional[bool]], said: List[Dict[str, Any]]) -> Optional[str]:
    """The rationale of the first sample that voted with the majority."""
    for vote, s in zip(votes, said, strict=True):
        if met is not None and vote is met:
            return s.get("rationale")
    return None
