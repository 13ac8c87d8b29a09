"""What the ADK judge metrics share: sampling, ADK's vote rules, and the per-case runner.

Each metric has one core, ``_score_invocation``-style, that scores one invocation from
normalized inputs and returns a :class:`JudgedInvocation`. Two surfaces call it:

* the evaluator class (``evaluator(query=..., response=...)``): a ``None`` score
  becomes ``not_applicable`` when there was nothing to judge, and :class:`JudgeError`
  when the judge gave nothing usable (failure is never a number);
* :meth:`AdkJudgeEvaluator.evaluate_adk_case`, ADK's own shape (a list of actual and
  expected invocations): nothing to judge is ADK's ``NOT_EVALUATED`` with the reason
  in the per-invocation details, a judge failure is ``FAILED`` marked :data:`JUDGE_ERROR`
  (never ``NOT_EVALUATED``, which a case's verdict skips), and the case score is
  aggregated as ADK does (mean over evaluated invocations; flat over rubric scores for
  rubric metrics).

Parsing is ours (structured JSON verdicts); labels, votes, ties and aggregation
follow ``reference/adk.md`` §4.
"""

import asyncio
import dataclasses
import logging
from dataclasses import dataclass, field
from typing import (
    Any,
    Awaitable,
    ClassVar,
    Dict,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
)

from ...conversation.transcript import (
    DataText,
    Reads,
    called_names,
    render_calls_text,
    render_definitions_text,
    render_messages,
    render_value,
)
from ...conversation.transcript_values import render_items
from ...errors import ConfigError, JudgeError
from ...evaluators.base import Outcome
from ...evaluators.inputs import mean_or_none, tool_definitions_json
from ...evaluators.judge_base import JudgeEvaluator
from ...judge.usage import merge_usage
from ...wording import recall
from ..results import JUDGE_ERROR, judge_error_summary

logger = logging.getLogger(__name__)


PASSED, FAILED, NOT_EVALUATED = "PASSED", "FAILED", "NOT_EVALUATED"


@dataclass
class JudgedInvocation:
    """What one judge metric's core made of one invocation, before either surface reads it
    (not :class:`agent_evaluators.adk.evalsets.criteria.InvocationScore`, the ADK runner's per-invocation
    result with a status).

    ``score`` is ``None`` when it could not be scored: ``not_applicable`` says there was
    nothing to judge; otherwise ``reason`` says what the judge failed to give.
    ``rubric_scores`` (rubric metrics) feeds ADK's flat case aggregation.
    """

    score: Optional[float]
    reason: str
    details: Dict[str, Any]
    usage: Optional[Dict[str, Any]] = None
    not_applicable: bool = False
    rubric_scores: Optional[List[Dict[str, Any]]] = None


@dataclass
class AdkJudgeResult:
    """A metric over one ADK case, in ADK's terms.

    ``status`` is ``"PASSED"``, ``"FAILED"`` or ``"NOT_EVALUATED"``;
    ``per_invocation`` holds, per invocation, ``score``, ``status``, ``reason``,
    ``details`` and ``error`` (why it is unscored, or ``None``); a judge failure also sets
    :data:`JUDGE_ERROR` there and in ``details`` (the status is then ``"FAILED"``).
    """

    metric_name: str
    threshold: float
    score: Optional[float]
    status: str
    per_invocation_scores: List[Optional[float]]
    per_invocation: List[Dict[str, Any]] = field(default_factory=list)
    usage: Optional[Dict[str, Any]] = None
    details: Dict[str, Any] = field(default_factory=dict)


#: why an earlier invocation of a ``whole_conversation`` metric has no score of its own (ADK's rule)
EARLIER_TURN = "judged with the whole conversation on the last invocation"


async def _ready(result: JudgedInvocation) -> JudgedInvocation:
    return result


def eval_status(score: Optional[float], threshold: float) -> str:
    """ADK's ``get_eval_status``."""
    if score is None:
        return NOT_EVALUATED
    return PASSED if score >= threshold else FAILED


class AdkJudgeEvaluator(JudgeEvaluator):
    """Base of the ADK judge metrics: sampling, outcome mapping and the ADK case runner.

    Subclasses implement ``_score_adk_invocation(actual, expected)`` (and the class
    surface ``_evaluate``); ``requires_expected`` says whether ADK needs expected
    invocations for the metric.
    """

    default_threshold = 0.8
    score_scale = (0.0, 1.0)
    #: ADK raises without expected invocations for this metric (final_response_match_v2).
    requires_expected: ClassVar[bool] = False

    def _outcome(self, result: JudgedInvocation) -> Outcome:
        """The class surface: unscored is ``not_applicable`` or a :class:`JudgeError`, never a number."""
        if result.score is None:
            if result.not_applicable:
                return Outcome(None, result.reason, result.details, result.usage, not_applicable=True)
            raise JudgeError(self.name + ": " + recall(result.reason), usage=result.usage, evaluator=self.name)
        return Outcome(result.score, result.reason, result.details, result.usage)

    # ------------------------------------------------------------------ ADK surface
    @classmethod
    def from_adk_criterion(cls, criterion: Any, model_config: Any = None) -> "AdkJudgeEvaluator":
        """An evaluator configured from an ADK criterion (a number or a ``test_config.json`` object).

        ``judge_model_options.judge_model`` replaces the model of ``model_config``
        (for endpoints that serve several models); ``num_samples`` is honoured where
        the metric samples.
        """
        crit = _criterion(cls.result_key, criterion)
        options = crit.judge_model_options
        if options.judge_model:
            from ...judge.endpoint import resolve_config

            model_config = dataclasses.replace(resolve_config(model_config), model=options.judge_model)
        return cls._from_criterion(crit, model_config)

    @classmethod
    def _from_criterion(cls, criterion: Any, model_config: Any) -> "AdkJudgeEvaluator":
        return cls(model_config, threshold=criterion.threshold)  # type: ignore[call-arg]

    async def _score_adk_invocation(self, actual: Any, expected: Any) -> JudgedInvocation:
        raise NotImplementedError

    #: ADK judges the whole conversation once, on its last invocation (the multi-turn metrics):
    #: the earlier invocations are ``NOT_EVALUATED`` and the last one carries the case's verdict.
    whole_conversation: ClassVar[bool] = False

    async def _score_adk_conversation(self, actual: Sequence[Any]) -> JudgedInvocation:
        raise NotImplementedError

    def _invocation_scores(self, pairs: Sequence[Tuple[Any, Any]]) -> List[Awaitable[JudgedInvocation]]:
        """What each invocation of a case waits for: its own judgement, or, for a
        ``whole_conversation`` metric, nothing before the last, which is judged on them all."""
        if not self.whole_conversation:
            return [self._score_adk_invocation(a, e) for a, e in pairs]
        if not pairs:
            return []
        earlier = [_ready(JudgedInvocation(None, EARLIER_TURN, {}, not_applicable=True)) for _ in pairs[:-1]]
        return [*earlier, self._score_adk_conversation([a for a, _ in pairs])]

    #: how ``_case_score`` aggregates, for the case-level reason.
    _case_rule: ClassVar[str] = "mean"

    def _case_score(self, results: List[JudgedInvocation]) -> Optional[float]:
        """ADK's case score: mean over the invocations that were evaluated."""
        return mean_or_none([r.score for r in results])

    def _case_details(self, results: List[JudgedInvocation]) -> Dict[str, Any]:
        return {}

    @classmethod
    async def evaluate_adk_case(
        cls,
        actual: Sequence[Any],
        expected: Optional[Sequence[Any]] = None,
        criterion: Any = None,
        model_config: Any = None,
    ) -> AdkJudgeResult:
        """Score one ADK case (``actual`` / ``expected``: lists of ADK invocation dicts or models).

        Every judge call of the case runs concurrently under the run-wide judge
        budget. An invocation whose judge failed (or gave nothing usable) is ``FAILED``
        with the error in ``error`` and :data:`JUDGE_ERROR`, and so is the metric, with no
        score (ADK would average the others and could pass: a false pass). A
        length mismatch raises ``ValueError`` (ADK ≥ 2.6); a metric that needs
        expected invocations and got none is ``NOT_EVALUATED``.
        """
        from ..convert import as_invocations

        evaluator = cls.from_adk_criterion(criterion, model_config)
        acts = as_invocations(actual, name="actual") or []
        exps = as_invocations(expected, name="expected")
        if exps is not None and len(exps) != len(acts):
            raise ValueError(
                f"{cls.result_key}: {len(acts)} actual invocation(s) but {len(exps)} expected; "
                "ADK compares them one to one, so the lists must have the same length"
            )
        if exps is None and cls.requires_expected:
            return evaluator._not_evaluated(
                len(acts), f"{cls.result_key} compares with expected invocations, and none were given"
            )
        pairs = list(zip(acts, exps if exps is not None else [None] * len(acts)))
        outcomes = await asyncio.gather(*evaluator._invocation_scores(pairs), return_exceptions=True)
        config_errors = [o for o in outcomes if isinstance(o, ConfigError)]
        if config_errors:
            # ADK: an exception inside the metric (duplicate rubric ids, no rubrics) leaves it NOT_EVALUATED.
            logger.warning("%s: not evaluated: %s", cls.result_key, config_errors[0])
            return evaluator._not_evaluated(len(acts), str(config_errors[0]))
        results: List[JudgedInvocation] = []
        per_invocation: List[Dict[str, Any]] = []
        for i, out in enumerate(outcomes):
            if isinstance(out, JudgeError):
                logger.warning("%s: invocation %d could not be judged: %s", cls.result_key, i, out)
                out = JudgedInvocation(None, str(out), {"error": str(out), "raw_text": out.raw_text}, out.usage)
                error: Optional[str] = str(out.reason)
            elif isinstance(out, BaseException):
                raise out
            else:  # no score and something to judge: the judge gave nothing usable
                error = None if out.score is not None or out.not_applicable else out.reason
            results.append(out)
            entry: Dict[str, Any] = {
                "invocation_id": getattr(pairs[i][0], "invocation_id", None),
                "score": out.score,
                "status": FAILED if error else eval_status(out.score, evaluator.threshold),
                "reason": out.reason,
                "details": out.details,
                "error": error,
            }
            if error:
                entry[JUDGE_ERROR] = error
            per_invocation.append(entry)
        judge_error = judge_error_summary(per_invocation)
        # an error is never a score: one invocation the judge failed on leaves the metric unscored
        score = evaluator._case_score(results) if results and judge_error is None else None
        evaluated = sum(1 for r in results if r.score is not None)
        details = {
            "reason": (f"{evaluator._case_rule} over {evaluated} evaluated invocation(s) of {len(results)}"
                       if score is not None else
                       f"the judge failed: {judge_error}" if judge_error else "no invocation could be evaluated"),
            **evaluator._case_details(results),
        }
        if judge_error:
            details[JUDGE_ERROR] = judge_error
        return AdkJudgeResult(
            metric_name=cls.result_key,
            threshold=evaluator.threshold,
            score=score,
            status=FAILED if judge_error else eval_status(score, evaluator.threshold),
            per_invocation_scores=[r.score for r in results],
            per_invocation=per_invocation,
            usage=merge_usage([r.usage for r in results]),
            details=details,
        )

    def _not_evaluated(self, n: int, reason: str) -> AdkJudgeResult:
        return AdkJudgeResult(
            metric_name=self.result_key,
            threshold=self.threshold,
            score=None,
            status=NOT_EVALUATED,
            per_invocation_scores=[None] * n,
            per_invocation=[
                {"invocation_id": None, "score": None, "status": NOT_EVALUATED, "reason": reason, "details": None,
                 "error": reason}
                for _ in range(n)
            ],
            details={"reason": reason, "error": reason},
        )


def _criterion(metric_name: str, value: Any) -> Any:
    from ..eval_config import Criterion, parse_criterion

    if isinstance(value, Criterion) and value.threshold is not None:
        return value
    return parse_criterion(metric_name, value, source=f"{metric_name} criterion")


# ---------------------------------------------------------------------------- ADK invocation reading
def adk_user_text(invocation: Any) -> str:
    from ..convert import user_text

    return user_text(invocation) if invocation is not None else ""


def adk_instructions(invocation: Any) -> str:
    """The developer instructions ADK gives its judges: the agent that authored the first
    event, else the first agent in ``app_details``, else ``""``."""
    from ..models import InvocationEvents

    details = invocation.app_details
    if details is None or not details.agent_details:
        return ""
    data = invocation.intermediate_data
    if isinstance(data, InvocationEvents) and data.invocation_events:
        agent = details.agent_details.get(data.invocation_events[0].author)
        if agent is not None:
            return agent.instructions
    return next(iter(details.agent_details.values())).instructions


def adk_all_instructions(invocation: Any) -> str:
    """Every agent's instructions, ``<agent>:\\n<instructions>`` joined by blank lines (hallucinations_v1)."""
    details = invocation.app_details
    if details is None:
        return ""
    return "\n\n".join(f"{name}:\n{agent.instructions}" for name, agent in details.agent_details.items())


def adk_tool_declarations(invocation: Any) -> List[Dict[str, Any]]:
    """The tools each agent had, ``[{"agent", "tool_declarations"}]`` (empty when none)."""
    details = invocation.app_details
    if details is None:
        return []
    return [
        {"agent": name, "tool_declarations": list(agent.tool_declarations)}
        for name, agent in details.agent_details.items()
        if agent.tool_declarations
    ]


def adk_event_grounding(events: Sequence[Any]) -> List[Dict[str, Any]]:
    """Every event's ``grounding_metadata`` (ADK sends them to its judges as a source of
    truth), ``[{"step", "author", "grounding_metadata"}]``; empty when none carries any."""
    return [
        {"step": i, "author": e.author, "grounding_metadata": e.grounding_metadata}
        for i, e in enumerate(events)
        if e.grounding_metadata
    ]


def adk_grounding(invocation: Any) -> List[Dict[str, Any]]:
    """:func:`adk_event_grounding` over an invocation's events (the static form has none)."""
    from ..models import InvocationEvents

    data = invocation.intermediate_data
    return adk_event_grounding(data.invocation_events) if isinstance(data, InvocationEvents) else []


def adk_tool_steps(invocation: Any) -> List[Dict[str, Any]]:
    """Tool calls paired with their responses by id, in order (ADK's ``tool_calls_and_response``)."""
    from ..convert import function_calls, function_responses

    responses = function_responses(invocation)
    by_id = {r.id: r for r in responses if r.id}
    steps = []
    for i, call in enumerate(function_calls(invocation)):
        response = by_id.get(call.id) if call.id else None
        steps.append(
            {
                "step": i,
                "tool_call": {"name": call.name, "arguments": call.args},
                "tool_response": response.response if response is not None else None,
            }
        )
    return steps


# ---------------------------------------------------------------------------- input and option checks
def criterion_temperature(criterion: Any, default: float) -> float:
    """``judge_model_options.judge_model_config.temperature`` when the criterion sets one."""
    config = criterion.judge_model_options.judge_model_config or {}
    value = config.get("temperature")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default


# ---------------------------------------------------------------------------- the judges' data text
def _declaration(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(exclude_none=True) if callable(dump) else value


def adk_definitions_text(definitions: Any, reads: Reads, called: Set[str]) -> DataText:
    """Tool definitions as the transcript writes them, one tool a line: a flat list (any supported
    format, as ``tool_definitions_json`` reads it) or ADK's per-agent ``[{"agent", "tool_declarations"}]``
    (the agents' lists joined; with several agents each description ends with its agent's name)."""
    flat: List[Any] = []
    agents = [e for e in definitions or () if isinstance(e, Mapping) and "tool_declarations" in e]
    for entry in definitions or ():
        if isinstance(entry, Mapping) and "tool_declarations" in entry:
            for d in tool_definitions_json([_declaration(d) for d in entry["tool_declarations"] or ()]):
                if len(agents) > 1 and isinstance(d, Mapping):  # whose tool it is, as ADK's prompt lists them by agent
                    d = {**d, "description": f"{d.get('description') or ''} (agent {entry['agent']})".strip()}
                flat.append(d)
        else:
            flat.append(_declaration(entry))
    return render_definitions_text(flat, reads, called)


def steps_calls(steps: Sequence[Mapping[str, Any]]) -> List[Dict[str, Any]]:
    """Tool steps (``{"step", "tool_call": {"name", "arguments"}, "tool_response"}``) as the call list
    the transcript renders (``call N: name(arg=value)`` and its result where one came back)."""
    calls = []
    for s in steps:
        call = {"call_index": s.get("step"), "name": s["tool_call"].get("name"), "arguments": s["tool_call"].get("arguments")}
        if s.get("tool_response") is not None:
            call["result"] = s["tool_response"]
        calls.append(call)
    return calls


def judge_data(inputs: Mapping[str, Any], reads: Reads) -> Dict[str, Any]:
    """An ADK judge's template inputs as data text, by what each holds: a conversation or request
    (message dicts) as numbered turns, tool steps as calls with their results, tool definitions one
    a line, per-agent instructions as ``agent: text`` lines, any other value (a final response, an
    instruction text, grounding sources) as plain text; never a JSON document in a JSON string."""
    out: Dict[str, Any] = {}
    for name, value in inputs.items():
        if isinstance(value, DataText):
            out[name] = value
        elif name in ("query", "conversation", "prior_steps"):
            out[name] = render_messages(value, reads)[0] if value else DataText("")
        elif name in ("response_steps", "tool_calls"):
            out[name] = render_calls_text(steps_calls(value), reads) if isinstance(value, list) else render_value(value)
        elif name == "tool_definitions":
            steps = inputs.get("response_steps") or inputs.get("tool_calls") or []
            called = called_names(steps_calls(steps), inputs.get("conversation") or [])
            out[name] = adk_definitions_text(value, reads, called)
        elif isinstance(value, list) and all(isinstance(v, Mapping) and set(v) == {"agent", "instructions"} for v in value):
            out[name] = render_items((v["agent"], v["instructions"]) for v in value)
        elif value is None or value == [] or value == "":
            out[name] = DataText("")
        else:
            out[name] = render_value(value, reads.text_limit)
    return out
