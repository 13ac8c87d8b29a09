"""How ``evaluate()`` calls whatever the user passed as an evaluator or target.

Anything callable works: our :class:`~agent_evaluators.evaluators.base.Evaluator`
classes (awaited through ``acall`` when they are async), another library's evaluators
(declared in :mod:`.foreign`), plain functions (sync or async) returning a dict or a scalar.

Sync callables run inline on the event loop: that is the cheap path for pure-code
metrics (no thread hop per row). One that blocks on I/O must say so, with a
``blocking = True`` attribute or by wrapping it in :func:`blocking`; it then runs
in a worker thread. A library whose evaluators call their own judge (:mod:`.foreign`) is always
treated as blocking (they do their own HTTP calls synchronously).
"""

import functools
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple

from ..errors import ConfigError
from .foreign import ForeignLibrary, foreign_library

INLINE = "inline"  # sync, called directly on the loop
THREAD = "thread"  # sync, blocking: asyncio.to_thread
ASYNC = "async"  # coroutine function / our async evaluators


class _Blocking:
    """A callable marked as blocking; see :func:`blocking`."""

    blocking = True

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"blocking({self.fn!r})"


def blocking(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a sync evaluator or target as blocking on I/O.

    ``evaluate()`` then runs it in a worker thread instead of on the event loop,
    so it does not hold up every other row while it waits::

        evaluate(data=..., evaluators={"http": agent_evaluators.blocking(my_http_check)})
    """
    if not callable(fn):
        raise TypeError(f"blocking() needs a callable, got {type(fn).__name__}")
    return _Blocking(fn)


@dataclass
class Invoker:
    """One evaluator (or the target) prepared for the runner.

    ``params``: the input names its signature names; ``var_kw``: it also takes ``**kwargs``;
    ``required``: alternatives of required-name sets (one per overload; any one
    satisfied is enough); ``turn_inputs``: inputs that ``conversation`` may replace;
    ``absent_is_nan``: a required input whose column a row lacks is passed as NaN, as a
    pandas-read table passes it (the evaluator's ``absent_column_is_nan``, or its library's);
    ``ignores_unknown``: a call with inputs it does not take works (they are ignored).
    """

    fn: Any
    call: Callable[..., Any]
    mode: str
    params: FrozenSet[str]
    var_kw: bool
    required: List[FrozenSet[str]]
    ours: bool
    foreign_kind: str  # "ours", "callable", or a foreign library's kind
    result_key: Optional[str] = None
    turn_inputs: Tuple[str, ...] = ()
    class_name: str = ""
    extra: Dict[str, Any] = field(default_factory=dict)
    library: Optional[ForeignLibrary] = None  # the other library whose evaluator this is
    absent_is_nan: bool = False
    #: it takes any keyword and ignores the ones it does not use (its ``ignores_unknown_inputs``), so a
    #: shared ``"default"`` mapping may name inputs it lacks
    ignores_unknown: bool = False

    @property
    def calls_own_judge(self) -> bool:
        """Whether it asks a judge through a client of its own (one our run's caps and dry run cannot see)."""
        return self.library is not None and self.library.calls_own_judge

    def accepts(self, name: str) -> bool:
        return self.var_kw or name in self.params


def _is_async_callable(obj: Any) -> bool:
    if inspect.iscoroutinefunction(obj):
        return True
    call = getattr(type(obj), "__call__", None)  # noqa: B004 - we need the method itself, to see if it is async
    return call is not None and not inspect.isfunction(obj) and inspect.iscoroutinefunction(call)


def _signature_inputs(sig: inspect.Signature) -> Tuple[FrozenSet[str], bool, FrozenSet[str]]:
    """(named inputs, takes **kwargs, required names) of one signature."""
    names = []
    required = []
    var_kw = False
    for p in sig.parameters.values():
        if p.name == "self":
            continue
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            var_kw = True
        elif p.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        elif p.kind is inspect.Parameter.POSITIONAL_ONLY:
            continue  # cannot be passed by keyword
        else:
            names.append(p.name)
            if p.default is inspect.Parameter.empty:
                required.append(p.name)
    return frozenset(names), var_kw, frozenset(required)


def _callable_name(obj: Any) -> str:
    if isinstance(obj, _Blocking):
        return _callable_name(obj.fn)
    if inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.isbuiltin(obj):
        return getattr(obj, "__qualname__", getattr(obj, "__name__", repr(obj)))
    if isinstance(obj, functools.partial):
        return f"partial({_callable_name(obj.func)})"
    return type(obj).__qualname__


def _async_entry(evaluator: Any) -> Callable[..., Any]:
    """``evaluator.acall`` without its own coroutine frame: every frame of a judge call's
    stack is resumed at each of its I/O events."""
    run = evaluator._run_async

    def call(**inputs: Any) -> Any:
        return run(inputs)

    return call


def make_invoker(obj: Any, *, role: str = "evaluator", default_mode: str = INLINE) -> Invoker:
    """Classify ``obj`` and work out which inputs it takes.

    ``default_mode`` is how a plain sync callable runs when it does not declare
    ``blocking`` (evaluators: inline; targets: in a thread, since a target almost
    always calls an agent over the network).
    """
    from ..evaluators.base import Evaluator

    if not callable(obj):
        raise ConfigError(f"{role} must be callable (a function, or an object with __call__), got {type(obj).__name__}")
    if isinstance(obj, Evaluator):
        params, var_kw, _ = _signature_inputs(obj._public_signature)
        call: Callable[..., Any]
        if obj._evaluate_is_async:
            mode, call = ASYNC, _async_entry(obj)
        else:
            mode, call = (THREAD if getattr(obj, "blocking", False) else INLINE), obj
        return Invoker(
            fn=obj,
            call=call,
            mode=mode,
            params=params,
            var_kw=var_kw,
            required=[frozenset(obj._required_inputs)],
            ours=True,
            foreign_kind="ours",
            result_key=obj.result_key,
            turn_inputs=tuple(obj.conversation_turn_inputs),
            class_name=type(obj).__name__,
            absent_is_nan=getattr(obj, "absent_column_is_nan", False) is True,
            ignores_unknown=getattr(obj, "ignores_unknown_inputs", False) is True,
        )

    library = foreign_library(obj)
    inner = obj.fn if isinstance(obj, _Blocking) else obj
    declared = library.inputs(obj) if library is not None else None
    if declared is not None:  # its __call__ is (*args, **kwargs); the library says what it takes
        params, required = declared
        var_kw = not params
    else:
        try:
            sig = inspect.signature(inner)
        except (TypeError, ValueError):
            sig = None
        if sig is None:
            params, var_kw, required = frozenset(), True, [frozenset()]
        else:
            params, var_kw, req = _signature_inputs(sig)
            required = [req]

    if _is_async_callable(inner):
        mode = ASYNC
    elif (library is not None and library.calls_own_judge) or getattr(obj, "blocking", False) is True:
        mode = THREAD
    elif getattr(obj, "blocking", None) is False:
        mode = INLINE
    else:
        mode = default_mode
    return Invoker(
        fn=obj,
        call=obj,
        mode=mode,
        params=params,
        var_kw=var_kw,
        required=required,
        ours=False,
        foreign_kind=library.kind if library is not None else "callable",
        class_name=_callable_name(obj),
        library=library,
        absent_is_nan=library is not None and library.absent_column_is_nan,
    )
