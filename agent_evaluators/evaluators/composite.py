"""Several metrics in one call: azure's catalog composites, on any judge.

A composite is a list of member classes. One call runs every member concurrently on the
inputs it takes and returns their flat result dicts merged, each member under its own keys,
plus the composite's own summary keys: ``<key>`` (the share of scored members that pass),
``<key>_result`` (``"pass"`` when that share reaches ``<key>_threshold``: 1.0, every scored
member, unless ``threshold=`` says otherwise),
``<key>_reason``, ``<key>_details`` (each member's result) and ``<key>_usage`` (all members'
judge calls together). The summary makes a composite behave like any evaluator where one
number is read (error cells, calibration, reports); ``evaluate()`` also averages every member
key, and its ``pass_rate`` counts a row as passed when all members pass.

A member whose required inputs are not given is ``not_applicable`` in its own keys, with the
reason; a call that gives no member what it needs is an ``InputError``. A member that fails
(``JudgeError``) fails the call, as any evaluator's failure does: a failure is never a score.

:class:`CompositeEvaluator` is generic: a later composite (``QAEvaluator``) is a subclass
naming its ``member_classes``.
"""

import asyncio
import inspect
from typing import Any, ClassVar, Dict, List, Mapping, Optional, Tuple, Type

from ..errors import ConfigError, InputError
from ..judge.usage import merge_usage
from .agent import IntentResolutionEvaluator, TaskAdherenceEvaluator, ToolCallAccuracyEvaluator
from .base import Evaluator, Outcome
from .declared import CalibrationCases
from .groundedness import GroundednessEvaluator
from .quality import CoherenceEvaluator, FluencyEvaluator
from .task_completion import TaskCompletionEvaluator
from .tool_use import ToolCallSuccessEvaluator, ToolInputAccuracyEvaluator, ToolOutputUtilizationEvaluator, ToolSelectionEvaluator

_EMPTY = inspect.Parameter.empty


class CompositeEvaluator(Evaluator):
    """Base of composites: declare ``result_key`` and ``member_classes`` (judge evaluators).

    The constructor takes the judge once (``model_config``, ``is_reasoning_model``,
    ``credential``, ``cache``) for every member; ``thresholds`` (member result key -> threshold)
    moves a member's pass mark, ``threshold`` the composite's own (the share of scored members
    that must pass; default 1.0, all of them).
    """

    #: the members, in the order their keys appear in the result
    member_classes: ClassVar[Tuple[Type[Evaluator], ...]] = ()
    #: the composite's own key and every member's: the metrics a run-level threshold may name
    result_keys: ClassVar[Tuple[str, ...]] = ()
    uses_judge = True
    default_threshold = 1.0
    score_scale = (0.0, 1.0)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.member_classes and "_evaluate" not in cls.__dict__:
            cls._evaluate = _composite_evaluate(cls)  # type: ignore[attr-defined]
            cls.result_keys = (cls.result_key, *(m.result_key for m in cls.member_classes))
        super().__init_subclass__(**kwargs)

    def __init__(self, model_config: Any = None, *, threshold: Optional[float] = None,
                 thresholds: Optional[Mapping[str, float]] = None, is_reasoning_model: bool = False,
                 credential: Any = None, cache: Optional[str] = None) -> None:
        super().__init__(threshold=threshold)
        keys = [m.result_key for m in self.member_classes]
        unknown = sorted(set(thresholds or {}) - set(keys))
        if unknown:
            raise ConfigError(f"{self.name}: thresholds names {unknown[0]!r}, not a member; "
                              f"its members are {', '.join(keys)}")
        self._members: List[Any] = [
            _member(cls, model_config, (thresholds or {}).get(cls.result_key), is_reasoning_model=is_reasoning_model,
                    credential=credential, cache=cache)
            for cls in self.member_classes
        ]
        # public, so a run's fingerprint changes when a member's pass mark or template does
        self.thresholds = {m.result_key: m.threshold for m in self._members}
        self.templates = {m.result_key: m.prompty.template_hash for m in self._members if getattr(m, "template_name", "")}
        self._is_reasoning_model = bool(is_reasoning_model)
        self._model_config = self._members[0]._model_config  # the one judge, as a run's fingerprint records it

    @property
    def members(self) -> List[Any]:
        """The member evaluators, as built."""
        return list(self._members)

    def check_ready(self) -> None:
        """Raise ``ConfigError`` now when no usable judge is configured (see ``JudgeEvaluator.check_ready``)."""
        for member in self._members:
            if member.uses_judge:
                member.check_ready()

    def _repr_extra(self) -> Dict[str, Any]:
        return self._members[0]._repr_extra()  # type: ignore[no-any-return]

    def _client(self) -> Any:
        """The judge client (every member asks the same judge; calibration reads its model)."""
        return self._members[0]._client()

    async def _run_async(self, inputs: Dict[str, Any]) -> Dict[str, Any]:
        # not per turn: a conversation goes to the members that take one, and each scores its turns
        try:
            return await self._evaluate(**self._bind(inputs))  # type: ignore[attr-defined, no-any-return]
        except InputError as exc:
            raise self._named(exc) from exc.__cause__

    async def _combine(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        """Run the members concurrently and merge their results under the summary keys."""
        plans = [(m, _member_inputs(m, given)) for m in self._members]
        runnable = [(m, args) for m, (args, missing) in plans if missing is None]
        if not runnable:
            member, (_, missing) = plans[0]
            accepted = ", ".join(n for n in self._public_signature.parameters if n != "self")
            raise InputError(f"{self.name}: no member can run on these inputs; {member.name} needs {missing!r} "
                             f"(the inputs are {accepted})", evaluator=self.name, input_name=missing)
        done = iter(await asyncio.gather(*(m.acall(**args) for m, args in runnable), return_exceptions=True))
        out: Dict[str, Any] = {}
        results: Dict[str, Dict[str, Any]] = {}
        for member, (_, missing) in plans:
            if missing is None:
                value = next(done)
                if isinstance(value, BaseException):
                    raise value
                result = value
            else:
                result = member._finish(Outcome(None, f"Not applicable: {member.name} needs the input {missing!r}, "
                                                      "which was not given", not_applicable=True))
            results[member.result_key] = result
            out.update(result)
        return {**self._finish(_summary(results)), **out}


def _member(cls: Any, model_config: Any, threshold: Optional[float], **judge: Any) -> Any:
    """A member built with the composite's judge; a deterministic member (QA's F1) takes its threshold only."""
    if cls.uses_judge:
        return cls(model_config, threshold=threshold, **judge)
    return cls(threshold=threshold)


def _member_inputs(member: Any, given: Mapping[str, Any]) -> Tuple[Dict[str, Any], Optional[str]]:
    """The inputs ``member`` takes from ``given``, and the first required one missing (or ``None``)."""
    params = member._public_signature.parameters
    args = {k: v for k, v in given.items() if k in params and v is not None}
    turn_inputs = member.conversation_turn_inputs if "conversation" in args else ()
    missing = next((n for n in member._required_inputs if n not in args and n not in turn_inputs), None)
    return args, missing


def _summary(results: Mapping[str, Mapping[str, Any]]) -> Outcome:
    """The composite's own outcome: the share of scored members that pass (pass = all of them)."""
    verdicts = {k: r.get(f"{k}_result") for k, r in results.items()}
    scored = [k for k, v in verdicts.items() if v in ("pass", "fail")]
    failed = [k for k in scored if verdicts[k] == "fail"]
    skipped = [k for k, v in verdicts.items() if v == "not_applicable"]
    usage = merge_usage(r.get(f"{k}_usage") for k, r in results.items())
    details = {"members": verdicts, "failed": failed, "not_applicable": skipped}
    if not scored:
        return Outcome(None, "Not applicable: no member could be scored", details, usage, not_applicable=True)
    reason = f"{len(scored) - len(failed)} of {len(scored)} scored members pass"
    if failed:
        reason += f"; failed: {', '.join(failed)}"
    if skipped:
        reason += f"; not applicable: {', '.join(skipped)}"
    return Outcome((len(scored) - len(failed)) / len(scored), reason, details, usage)


def _composite_evaluate(cls: Any) -> Any:
    """``_evaluate`` with every member input in its signature: each optional unless every member needs it."""
    params: Dict[str, inspect.Parameter] = {}
    needed_by_all: Optional[set] = None
    for member in cls.member_classes:
        sig = member._public_signature.parameters
        required = {n for n, p in sig.items() if n != "self" and p.default is _EMPTY}
        needed_by_all = required if needed_by_all is None else needed_by_all & required
        for name, p in sig.items():
            if name != "self" and name not in params:
                params[name] = p
    ordered = [p if p.name in (needed_by_all or set()) or p.default is not _EMPTY
               else p.replace(default=None, annotation=Optional[p.annotation]) for p in params.values()]
    ordered.sort(key=lambda p: p.default is not _EMPTY)

    async def _evaluate(self: CompositeEvaluator, **given: Any) -> Dict[str, Any]:
        return await self._combine(given)

    _evaluate.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + ordered)
    _evaluate.__qualname__ = f"{cls.__qualname__}._evaluate"
    return _evaluate


class ToolUseQualityEvaluator(CompositeEvaluator):
    """Tool use in one call (azure's catalog ``ToolUseQualityEvaluator``): tool call accuracy (our
    seed meaning, mean of per-call 0/1), tool call success, tool input accuracy, tool output
    utilization and tool selection, on any judge.

    Key ``tool_use_quality`` (the share of scored members that pass; pass = all pass, threshold
    1.0) plus every member's own keys; inputs: the members' (``query``, ``response``,
    ``tool_calls``, ``tool_definitions``), each member taking what it reads. A member that lacks
    an input, or cannot apply, is ``not_applicable`` in its own keys.
    """

    result_key = "tool_use_quality"
    member_classes = (ToolCallAccuracyEvaluator, ToolCallSuccessEvaluator, ToolInputAccuracyEvaluator,
                      ToolOutputUtilizationEvaluator, ToolSelectionEvaluator)
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "tool_calls": "tool_calls:call", "tool_definitions": "tools"},
        bad={"query": "query+system", "tool_calls": "tool_calls:wrong_tool_call", "tool_definitions": "tools"},
        why_bad="the agent called a tool that does not serve the request")


class OutputQualityEvaluator(CompositeEvaluator):
    """The quality of the agent's output in one call (azure's catalog ``OutputQualityEvaluator``):
    fluency, coherence, groundedness (1-5), intent resolution and task adherence (our seed
    meaning, 1-5) and task completion (0/1): the catalog's six.

    Key ``output_quality`` (the share of scored members that pass; pass = all pass, threshold
    1.0) plus every member's own keys. Groundedness judges against ``context`` or what the
    agent's ``file_search`` calls returned; with neither it is not applicable in its own keys.
    """

    result_key = "output_quality"
    member_classes = (FluencyEvaluator, CoherenceEvaluator, GroundednessEvaluator, IntentResolutionEvaluator,
                      TaskAdherenceEvaluator, TaskCompletionEvaluator)
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "run:answer", "tool_definitions": "tools"},
        bad={"query": "query+system", "response": "run:off_topic", "tool_definitions": "tools"},
        why_bad="the answer ignores what the user asked")
