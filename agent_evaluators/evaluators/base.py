"""The evaluator contract every metric follows.

A metric is a small class: it names its result key and default threshold and
implements ``_evaluate`` with an explicit keyword-only signature that returns an
:class:`Outcome`. This base turns that into the public surface:

* ``__call__`` (sync) and ``acall`` (async) with the *same* signature as
  ``_evaluate`` (visible to ``inspect.signature``, Prompt flow and ``evaluate()``
  column validation), where an unknown, missing or mistyped input raises
  :class:`~agent_evaluators.errors.InputError` naming it;
* ``conversation=`` for metrics that judge one turn at a time
  (``conversation_turn_inputs``): evaluated per user turn, score = mean;
* the flat result dict ``<key>``, ``<key>_result``, ``<key>_threshold``,
  ``<key>_reason``, ``<key>_details`` (and ``<key>_usage`` for judge metrics).

Failures raise; they never become a score.
"""

import asyncio
import functools
import inspect
import math
from dataclasses import dataclass
from typing import Any, ClassVar, Dict, FrozenSet, List, Optional, Sequence, Tuple, TypedDict, Union

from ..errors import ConfigError, InputError

__all__ = ["Evaluator", "Outcome", "EvaluatorOutput", "ConversationInput", "score_scale", "meets_threshold"]

ConversationInput = Union[List[Any], Dict[str, Any]]


class EvaluatorOutput(TypedDict, total=False):
    """Flat result dict; the keys depend on the metric's ``result_key``.

    A TypedDict (not ``dict``) so that Prompt flow accepts our classes as flex-flow entries.
    """


@dataclass
class Outcome:
    """What one evaluation produced, before it is flattened into the result dict.

    ``score`` is ``None`` only together with ``not_applicable=True``. ``passed``
    overrides the default ``score >= threshold`` rule where a metric's reference
    defines its own (e.g. ADK statuses).
    """

    score: Optional[float]
    reason: str = ""
    details: Any = None
    usage: Optional[Dict[str, Any]] = None
    not_applicable: bool = False
    passed: Optional[bool] = None


_MISSING = inspect.Parameter.empty


def score_scale(evaluator: Any) -> Optional[Tuple[float, float]]:
    """The (low, high) scale an evaluator (or evaluator-like callable) declares as ``score_scale``.

    The one place a scale is read from, so a report draws every metric on the metric's own
    axis instead of guessing it from the scores (all 1.0 on a 0–1 metric looks like a 1–5
    scale). ``None`` for callables that declare none, or a malformed declaration.
    """
    scale = getattr(evaluator, "score_scale", None)
    if not isinstance(scale, (tuple, list)) or len(scale) != 2:
        return None
    low, high = scale
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (low, high)):
        return None
    return (float(low), float(high)) if low < high else None


class Evaluator:
    """Base of every evaluator. Subclasses set ``result_key`` and ``default_threshold``
    and implement ``_evaluate`` (sync for pure-code metrics, async for judge metrics)."""

    result_key: ClassVar[str] = ""
    default_threshold: ClassVar[float] = 0.5
    #: True when a sync ``__call__`` blocks on I/O; ``evaluate()`` then runs it in a worker thread.
    blocking: ClassVar[bool] = False
    #: True for judge-backed metrics: their result dict carries ``<key>_usage``.
    uses_judge: ClassVar[bool] = False
    #: Inputs that ``conversation=`` replaces, evaluated one user turn at a time.
    conversation_turn_inputs: ClassVar[Tuple[str, ...]] = ()
    #: How per-turn scores become the conversation's: ``"mean"``, or ``"max"`` (the worst turn of a
    #: harm severity, as azure-ai-evaluation aggregates its content-safety metrics).
    turn_aggregation: ClassVar[str] = "mean"
    #: False for metrics where a lower score is better (a harm severity): pass is then
    #: ``score <= threshold``, and reports read the direction from here.
    higher_is_better: ClassVar[bool] = True
    #: The (low, high) range a score can take, read by reports for their axes (:func:`score_scale`);
    #: ``None`` when the metric cannot say. An instance may set its own (a configurable scale).
    score_scale: ClassVar[Optional[Tuple[float, float]]] = None
    #: False where the result dict carries no reason of the metric's own (azure-ai-evaluation's
    #: deterministic rows have ``_reason: None``): such a metric need not format one per row.
    writes_reason: ClassVar[bool] = True
    #: several judges behind one judge metric (:class:`~.panel.JudgePanel`); ``None`` for one judge
    _panel: Any = None

    _evaluate_signature: ClassVar[inspect.Signature]
    _public_signature: ClassVar[inspect.Signature]
    _required_inputs: ClassVar[Tuple[str, ...]]
    #: the input names ``__call__`` accepts (its signature's, less ``self``), checked once per call as a set
    _accepted_inputs: ClassVar[FrozenSet[str]]
    _evaluate_is_async: ClassVar[bool]
    #: the method ``_evaluate`` hands its keyword inputs to as one dict (``__direct__`` on a generated
    #: ``_evaluate``), called with the bound inputs at once: one coroutine frame and one dict less per call
    _evaluate_direct: ClassVar[Optional[str]] = None

    def __init__(self, *, threshold: Optional[float] = None) -> None:
        if threshold is None:
            threshold = self.default_threshold
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or math.isnan(threshold):
            raise ConfigError(f"{type(self).__name__}: threshold must be a number, got {threshold!r}")
        self.threshold = threshold

    # ------------------------------------------------------------------ subclass hook
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        evaluate = cls.__dict__.get("_evaluate")
        if evaluate is None:
            return
        sig = inspect.signature(evaluate)
        params = [p for name, p in sig.parameters.items() if name != "self"]
        for p in params:
            if p.kind not in (inspect.Parameter.KEYWORD_ONLY,):
                raise TypeError(f"{cls.__name__}._evaluate: input {p.name!r} must be keyword-only")
        cls._evaluate_signature = sig
        cls._evaluate_is_async = inspect.iscoroutinefunction(evaluate)
        cls._evaluate_direct = getattr(evaluate, "__direct__", None)
        turn_inputs = cls.conversation_turn_inputs
        public: List[inspect.Parameter] = []
        for p in params:
            if p.name in turn_inputs:
                ann = p.annotation
                p = p.replace(default=None, annotation=Optional[ann] if ann is not _MISSING else ann)
            public.append(p)
        if turn_inputs:
            public.append(
                inspect.Parameter(
                    "conversation",
                    inspect.Parameter.KEYWORD_ONLY,
                    default=None,
                    annotation=Optional[ConversationInput],
                )
            )
        cls._public_signature = inspect.Signature(
            [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + public,
            return_annotation=EvaluatorOutput,
        )
        cls._required_inputs = tuple(p.name for p in params if p.default is _MISSING)
        cls._accepted_inputs = frozenset(p.name for p in public)
        cls.__call__ = _make_sync_entry(cls)  # type: ignore[method-assign]
        cls.acall = _make_async_entry(cls)  # type: ignore[method-assign]

    # ------------------------------------------------------------------ public surface
    @property
    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        """``ToolTrajectoryEvaluator(threshold=1.0, match_type='in_order')``: the class, its threshold and the
        options set away from their defaults (plus the judge, for judge metrics); never a secret."""
        parts = {"threshold": self.threshold, **_set_options(self), **self._repr_extra()}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in parts.items())})"

    def _repr_extra(self) -> Dict[str, Any]:
        """More ``name: value`` pairs for :meth:`__repr__` (judge metrics add their model and endpoint)."""
        return {}

    def __call__(self, **inputs: Any) -> EvaluatorOutput:  # replaced per subclass
        raise NotImplementedError

    async def acall(self, **inputs: Any) -> EvaluatorOutput:  # replaced per subclass
        raise NotImplementedError

    # ------------------------------------------------------------------ internals
    def _bind(self, inputs: Dict[str, Any]) -> Dict[str, Any]:
        """Check names and presence of inputs; return the keyword arguments for ``_evaluate``."""
        if not self._accepted_inputs.issuperset(inputs):
            known = self._public_signature.parameters
            unknown = [k for k in inputs if k not in known or k == "self"]
            accepted = ", ".join(n for n in known if n != "self")
            raise InputError(
                f"{self.name}: unknown input {unknown[0]!r}; accepted inputs are: {accepted}",
                evaluator=self.name,
                input_name=unknown[0],
            )
        conversation = inputs.get("conversation")
        if conversation is not None:
            given = [k for k in self.conversation_turn_inputs if inputs.get(k) is not None]
            if given:
                raise InputError(
                    f"{self.name}: pass either conversation= or {'/'.join(self.conversation_turn_inputs)}, "
                    f"not both (got conversation and {given[0]})",
                    evaluator=self.name,
                    input_name=given[0],
                )
            return dict(inputs)
        for name in self._required_inputs:
            if inputs.get(name) is None:
                hint = " (or conversation=)" if name in self.conversation_turn_inputs else ""
                raise InputError(
                    f"{self.name}: missing required input {name!r}{hint}",
                    evaluator=self.name,
                    input_name=name,
                )
        if "conversation" in inputs:  # given as None
            return {k: v for k, v in inputs.items() if k != "conversation"}
        return inputs  # the entry points' own **inputs dict: no copy needed

    def _finish(self, outcome: Outcome) -> Dict[str, Any]:
        """Flatten an :class:`Outcome` into the metric's result dict."""
        key = self.result_key
        if outcome.not_applicable:
            score: Optional[float] = None
            result = "not_applicable"
        else:
            if outcome.score is None or (isinstance(outcome.score, float) and math.isnan(outcome.score)):
                raise AssertionError(f"{self.name} produced no score without marking it not applicable")
            score = float(outcome.score)
            passed = outcome.passed if outcome.passed is not None else meets_threshold(self, score)
            result = "pass" if passed else "fail"
        names = _result_names(key)
        out: Dict[str, Any] = {
            key: score,
            names[0]: result,
            names[1]: self.threshold,
            names[2]: outcome.reason,
            names[3]: outcome.details,
        }
        if self.uses_judge:
            out[names[4]] = outcome.usage
        return out

    async def _run_async(self, inputs: Dict[str, Any]) -> Dict[str, Any]:
        # one coroutine, not a wrapper around another: every frame of a judge call's stack is
        # resumed at each of its I/O events
        try:
            bound = self._bind(inputs)
            if self._panel is not None:
                return self._finish(await self._panel.outcome(self, bound))
            if self._per_turn(bound):
                return self._finish(await self._per_turn_async(bound))
            if self._evaluate_direct is not None:
                outcome = await getattr(self, self._evaluate_direct)(bound)
            elif self._evaluate_is_async:
                outcome = await self._evaluate(**bound)  # type: ignore[attr-defined]
            else:
                outcome = self._evaluate(**bound)  # type: ignore[attr-defined]
            return self._finish(outcome)
        except InputError as exc:
            raise self._named(exc) from exc.__cause__

    def _run_sync(self, inputs: Dict[str, Any]) -> Dict[str, Any]:
        # one frame for the whole sync call (a deterministic metric's row costs microseconds)
        try:
            if self._evaluate_is_async or self._panel is not None:
                from .._util.loop import run_sync

                return run_sync(self._run_async(inputs))
            bound = self._bind(inputs)
            if self._per_turn(bound):
                turns = self._turn_inputs(bound)
                return self._finish(_mean_over_turns(self, [self._evaluate(**t) for t in turns]))  # type: ignore[attr-defined]
            return self._finish(self._evaluate(**bound))  # type: ignore[attr-defined]
        except InputError as exc:
            raise self._named(exc) from exc.__cause__

    def _named(self, exc: InputError) -> InputError:
        """Adapters raise InputError without knowing the evaluator: add its name."""
        if exc.evaluator is not None:
            return exc
        return InputError(self.name + ": " + exc.text, evaluator=self.name, input_name=exc.input_name)

    def _per_turn(self, bound: Dict[str, Any]) -> bool:
        """Whether ``conversation=`` stands for per-turn inputs here (a multi-turn judge reads it whole)."""
        return "conversation" in bound and bool(self.conversation_turn_inputs)

    def _turn_inputs(self, bound: Dict[str, Any]) -> List[Dict[str, Any]]:
        from ..conversation import split_turns

        conversation = bound.pop("conversation")
        turns = split_turns(conversation)
        if not turns:
            raise InputError(
                f"{self.name}: conversation has no user turn followed by an assistant reply",
                evaluator=self.name,
                input_name="conversation",
            )
        names = self.conversation_turn_inputs
        out = []
        for turn in turns:
            args = dict(bound)
            parts = {"query": turn.query, "response": turn.response, "context": turn.context}
            if all(name in parts for name in names):  # by name: a metric may judge the response alone
                args.update((name, parts[name]) for name in names)
            else:  # other names: the first is the turn's query, the second its response
                args[names[0]] = turn.query
                if len(names) > 1:
                    args[names[1]] = turn.response
            out.append(args)
        return out

    async def _per_turn_async(self, bound: Dict[str, Any]) -> Outcome:
        turns = self._turn_inputs(dict(bound))
        if self._evaluate_is_async:
            outcomes = await asyncio.gather(*(self._evaluate(**t) for t in turns))  # type: ignore[attr-defined]
        else:
            outcomes = [self._evaluate(**t) for t in turns]  # type: ignore[attr-defined]
        return _mean_over_turns(self, list(outcomes))


#: constructor arguments never shown by ``repr``: the judge (shown its own way), secrets, plumbing
_NOT_SHOWN = frozenset({"self", "threshold", "model_config", "credential", "cache"})
_SECRET_WORDS = ("key", "token", "secret", "password", "credential")


def _set_options(evaluator: Evaluator) -> Dict[str, Any]:
    """The constructor options of ``evaluator`` that differ from their defaults, read back from the
    attributes of the same name (``match_type`` or ``_match_type``); lists shown by their length."""
    import enum

    out: Dict[str, Any] = {}
    for name, p in inspect.signature(type(evaluator).__init__).parameters.items():
        if name in _NOT_SHOWN or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if any(word in name.lower() for word in _SECRET_WORDS):
            continue
        value = getattr(evaluator, name, getattr(evaluator, f"_{name}", _MISSING))
        if isinstance(value, enum.Enum):
            value = value.value
        if value is _MISSING or value == p.default:
            continue
        if isinstance(value, (list, tuple)):
            value = _Shown(f"<{len(value)} items>")
        elif not isinstance(value, (str, int, float, bool)) or value is None:
            continue
        out[name] = value
    return out


class _Shown(str):
    """Text shown as is by ``repr`` (no quotes)."""

    def __repr__(self) -> str:
        return str(self)


@functools.lru_cache(maxsize=1024)
def _result_names(key: str) -> Tuple[str, str, str, str, str]:
    """The result dict's other keys for ``key`` (made once, not per row)."""
    return f"{key}_result", f"{key}_threshold", f"{key}_reason", f"{key}_details", f"{key}_usage"


def meets_threshold(evaluator: Any, score: float) -> bool:
    """Whether ``score`` passes ``evaluator``'s threshold: at or above it, or at or below it for a
    metric that declares ``higher_is_better = False``."""
    if getattr(evaluator, "higher_is_better", True):
        return score >= evaluator.threshold  # type: ignore[no-any-return]
    return score <= evaluator.threshold  # type: ignore[no-any-return]


def _mean_over_turns(evaluator: Evaluator, outcomes: Sequence[Outcome]) -> Outcome:
    """Per-turn outcomes → one outcome: mean (or worst, see ``turn_aggregation``) score over scored
    turns, every turn in details."""
    per_turn = [
        {
            "turn": i,
            "score": o.score,
            "result": "not_applicable" if o.not_applicable else (
                "pass" if (o.passed if o.passed is not None else meets_threshold(evaluator, o.score)) else "fail"  # type: ignore[arg-type]
            ),
            "reason": o.reason,
            "details": o.details,
        }
        for i, o in enumerate(outcomes)
    ]
    scored = [o.score for o in outcomes if not o.not_applicable and o.score is not None]
    usage = _sum_usage([o.usage for o in outcomes])
    details = {"per_turn": per_turn}
    if not scored:
        return Outcome(None, "No turn could be scored", details, usage, not_applicable=True)
    if getattr(evaluator, "turn_aggregation", "mean") == "max":
        return Outcome(max(scored), f"Worst turn of {len(scored)} scored turn(s) of {len(outcomes)}", details, usage)
    mean = sum(scored) / len(scored)
    reason = f"Mean over {len(scored)} scored turn(s) of {len(outcomes)}"
    return Outcome(mean, reason, details, usage)


def _sum_usage(usages: Sequence[Optional[Dict[str, Any]]]) -> Optional[Dict[str, Any]]:
    present = [u for u in usages if u]
    if not present:
        return None
    from ..judge.usage import merge_usage

    return merge_usage(present)


def _make_sync_entry(cls: type) -> Any:
    def __call__(self: Evaluator, **inputs: Any) -> Dict[str, Any]:
        return self._run_sync(inputs)

    __call__.__signature__ = cls._public_signature  # type: ignore[attr-defined]
    __call__.__doc__ = cls.__doc__
    __call__.__qualname__ = f"{cls.__qualname__}.__call__"
    return __call__


def _make_async_entry(cls: type) -> Any:
    async def acall(self: Evaluator, **inputs: Any) -> Dict[str, Any]:
        return await self._run_async(inputs)

    acall.__signature__ = cls._public_signature  # type: ignore[attr-defined]
    acall.__doc__ = cls.__doc__
    acall.__qualname__ = f"{cls.__qualname__}.acall"
    return acall
