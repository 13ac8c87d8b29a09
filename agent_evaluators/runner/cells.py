"""One row × one evaluator: calling it, timing it out, and turning any failure into an error cell.

A cell is the evaluator's flat result dict plus whether it is an error. Errors never
become numbers: an evaluator that raises, times out, or lacks an input yields a cell
with ``<key>_result: "error"`` and ``<key>_error`` (for our evaluators; a foreign
callable's error cell is ``{"error": message}``), and the message names the row, the
evaluator alias and class, and what to do.

The stored message is text in Python's words (``rows.jsonl`` holds it); an error cell also keeps
its :class:`CellProblem` in memory: the problem as a :class:`~agent_evaluators.wording.Text`
with its references, without the ``row N: evaluator 'a' (Class):`` that names the cell, so a
reader that lists cells under their row and alias (the command line) says it in its own words.
"""

import asyncio
import inspect
import math
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from typing import Any, Dict, List, NamedTuple, Optional, Union

from .._util.deadlines import SHARED_DEADLINES, expired_here, survived
from ..errors import JudgeError
from ..judge.caps import BUDGET_REASON, NOT_RUN
from ..stats.intervals import finite_mean
from ..stats.passk import pass_at_k, pass_hat_k
from ..wording import Option, Text, recall, remember, words_of
from .aggregate import add_usage
from .callables import ASYNC, THREAD, Invoker
from .deadlines import deadlines_for


class CellProblem(NamedTuple):
    """An error cell's problem as a reader lists it under its row and alias: ``text`` is what follows the
    ``row N: evaluator 'a' (Class):`` of the stored message (all of it when it has none), with its
    references; ``class_name`` the evaluator's class, which the listing names once (a judge evaluator's
    message repeats it: ``JudgeError: IntentResolutionEvaluator: ...``)."""

    text: Text
    class_name: str


class Cell:
    """One row × evaluator result: the evaluator's flat dict, and whether it is an error; an error cell's
    ``message`` is the stored text, its ``problem`` the same with its references (see the module docstring)."""

    __slots__ = ("out", "ok", "message", "problem")

    def __init__(self, out: Dict[str, Any], ok: bool, message: Optional[str] = None,
                 problem: Optional[CellProblem] = None) -> None:
        self.out = out
        self.ok = ok
        self.message = message
        self.problem = problem


class NotRunCell(Cell):
    """A cell the run's budget left unrun: neither an error nor a score. ``rows.jsonl`` marks it
    ``cell_status: "not_run"``; a resume runs it."""

    __slots__ = ()
    status = NOT_RUN


class CallTimeout(Exception):
    """Our per-call ``timeout`` expired (distinct from a TimeoutError the evaluator raised itself)."""


class ErrorResult(Exception):
    """Raised by an evaluator that failed but has a result worth keeping (its details, the judge's
    usage): the engine writes ``result`` as the cell and counts it as an error cell with ``message``
    (a :class:`~agent_evaluators.wording.Text` keeps its references for the cell's problem).
    The ADK criteria use it for a judge that could not be reached or understood: the case result is
    built from the cell's details, and the run's ``error_count`` still counts it."""

    def __init__(self, result: Mapping[str, Any], message: Union[str, Text]) -> None:
        super().__init__(str(message))
        self.result = dict(result)
        self.message = str(message)
        self.text = message if isinstance(message, Text) else recall(message)  # a judge error's words: its references


def describe_exc(exc: BaseException) -> str:
    return str(describe_exc_text(exc))


def describe_exc_text(exc: BaseException) -> Text:
    """``Kind: message`` of an exception, the message with its references when it is one of ours."""
    kind = type(exc).__name__
    said = str(exc)
    text = words_of(exc)
    if text is None or said != said.strip():  # not ours (or oddly spaced): its words as they are
        said = said.strip()
        return Text.of(f"{kind}: {said}" if said else kind)
    return Text("{kind}: {message}", kind=kind, message=text) if said else Text.of(kind)


def timeout_message(what: str, timeout: Optional[float]) -> Text:
    """``what`` ran past the run's ``timeout``: Python's ``evaluate(timeout=...)``, the command line's
    ``--timeout SECONDS``."""
    return Text("{what} timed out after {timeout:g} s; raise {option} or check that the judge endpoint / agent is "
                "responding", what=what, timeout=timeout,
                option=Text.keyed("raise-timeout", "evaluate(timeout=...)", option=Option("timeout")))


def target_failed(target_error: Text, alias: str) -> Text:
    """The problem of every cell of a row whose target failed: the target's error (field ``target``)."""
    return Text.keyed("target-failed", "{target}; evaluator {alias!r} was not run", target=target_error, alias=alias)


def sync_result(out: Any) -> Any:
    """A sync call's return value; an un-awaited coroutine is a mistake worth naming."""
    if inspect.isawaitable(out):
        if inspect.iscoroutine(out):
            out.close()
        raise TypeError("a sync evaluator returned an awaitable; define it with `async def` so evaluate() awaits it")
    return out


def as_dict(value: Any) -> Dict[str, Any]:
    """An evaluator's return value as a flat dict (a scalar becomes ``{"output": value}``)."""
    if isinstance(value, dict):
        return value
    if isinstance(value, Mapping):
        return dict(value)
    return {"output": value}


def error_cell(inv: Invoker, problem: Union[str, Text], exc: Optional[BaseException] = None, usage: Any = None, *,
               where: Optional[str] = None) -> Cell:
    """The error cell of ``inv`` for ``problem``; ``where`` (``row N: evaluator 'a' (Class)``) heads the
    stored message when given."""
    message = remember(where + ": " + Text.of(problem) if where is not None else Text.of(problem))
    if inv.ours and inv.result_key:
        k = inv.result_key
        out: Dict[str, Any] = {k: None, f"{k}_result": "error", f"{k}_error": message}
        if isinstance(exc, JudgeError):
            details = {"error_type": type(exc).__name__, "status_code": exc.status_code, "attempts": exc.attempts}
            if exc.raw_text is not None:
                details["raw_text"] = exc.raw_text[:4000]
            out[f"{k}_details"] = details
        if usage:
            out[f"{k}_usage"] = usage
    else:
        out = {"error": message}
    return Cell(out, False, message, CellProblem(Text.of(problem), inv.class_name))


def _not_run_key(inv: Invoker) -> str:
    return inv.result_key if inv.ours and inv.result_key else "output"


def is_not_run(inv: Invoker, out: Mapping[str, Any]) -> bool:
    """Whether a stored cell of ``inv`` is one the judge budget left unrun."""
    return out.get(f"{_not_run_key(inv)}_result") == NOT_RUN


def not_run_cell(inv: Invoker, where: str, why: str, usage: Any = None) -> Cell:
    """``<key>_result: "not_run"`` with ``<key>_not_run: "budget"`` (``output_*`` for an evaluator without
    a result key); ``usage``: what calls it made before the refusal cost (they were paid for)."""
    k = _not_run_key(inv)
    message = remember(Text("{where}: not run: the run's judge budget stopped ({why}); resume with a higher {cost} / "
                            "{calls} runs it", where=where, why=why, cost=Option("max_cost"),
                            calls=Option("max_judge_calls")))
    out: Dict[str, Any] = {k: None, f"{k}_result": NOT_RUN, f"{k}_not_run": BUDGET_REASON, f"{k}_reason": message}
    if usage:
        out[f"{k}_usage"] = dict(usage)
    return NotRunCell(out, True, message)


def exception_cell(inv: Invoker, where: str, exc: BaseException, timeout: Optional[float]) -> Cell:
    """The error cell for an evaluator call that raised (``where``: "row N: evaluator 'a' (Class)")."""
    if isinstance(exc, ErrorResult):
        return Cell(exc.result, False, f"{where}: {exc.message}", CellProblem(exc.text, inv.class_name))
    if isinstance(exc, CallTimeout):
        line_part, _, who = where.partition(": ")
        return error_cell(inv, f"{line_part}: " + timeout_message(who, timeout), exc)
    usage = getattr(exc, "usage", None) if isinstance(exc, JudgeError) else None
    if usage is not None and not isinstance(usage, Mapping):
        usage = None
    if usage is None and isinstance(exc, JudgeError) and exc.attempts:
        usage = {"attempts": exc.attempts}  # the failed requests were still sent (and billed)
    return error_cell(inv, describe_exc_text(exc), exc, dict(usage) if usage else None, where=where)


async def call_with_timeout(inv: Invoker, kwargs: Dict[str, Any], timeout: Optional[float]) -> Any:
    """Call ``inv`` the way its mode says (awaited, in a thread, or inline) under ``timeout``.

    An inline sync call cannot be interrupted, so the timeout covers async and blocking
    (threaded) calls only. Our own expiry raises :class:`CallTimeout`; a ``TimeoutError``
    the callable raised itself passes through as that callable's error.

    This is ``async with asyncio.timeout(timeout): return await aw`` at a fraction of its cost
    (this runs for every cell): no timer of its own (the calls under one timeout share one,
    :mod:`.deadlines`), no scope object, no coroutine of its own around the call, with the same
    rules: a cancellation from outside, even one that lands with the expiry, stays a cancellation
    (``Task.cancelling`` / ``uncancel``, Python 3.11+; ``asyncio.wait_for`` before).
    """
    if inv.mode == ASYNC:
        aw = inv.call(**kwargs)
    elif inv.mode == THREAD:
        aw = asyncio.to_thread(inv.call, **kwargs)
    else:
        out = inv.call(**kwargs)
        if inspect.isawaitable(out):
            out = await out
        return out
    if timeout is None:
        return await aw
    task = asyncio.current_task()
    if not SHARED_DEADLINES or task is None:
        try:
            return await asyncio.wait_for(aw, timeout)
        except asyncio.TimeoutError:
            raise CallTimeout() from None
    cancelling = task.cancelling()  # type: ignore[attr-defined,unused-ignore]
    loop = asyncio.get_running_loop()
    deadlines = deadlines_for(loop, timeout)
    entry = deadlines.start(loop, task)
    try:
        result = await aw
    except asyncio.CancelledError:
        if expired_here(entry, task, cancelling):
            raise CallTimeout() from None
        raise
    finally:
        deadlines.end(entry)
    survived(entry, task)  # the callable swallowed our cancellation and returned: its result stands
    return result


def row_pass_at_k(results: List[Any]) -> Dict[str, Any]:
    """This row's pass@k and pass^k for k = 1..runs judged (the runs that passed or failed), keyed by k."""
    judged = [r for r in results if r in ("pass", "fail")]
    if not judged:
        return {}
    n, c = len(judged), judged.count("pass")
    return {"passes": c, "pass_at_k": {str(t): pass_at_k(n, c, t) for t in range(1, n + 1)},
            "pass_hat_k": {str(t): pass_hat_k(n, c, t) for t in range(1, n + 1)}}


def _mean(values: List[Any]) -> float:
    """The runs' mean; scores whose sum is past float's range (1.5e308 twice) still have one."""
    total = sum(values)
    if math.isfinite(total) or not all(math.isfinite(v) for v in values):  # an infinite score: its own mean
        return total / len(values)
    return finite_mean([float(v) for v in values])


def combine_runs(inv: Invoker, runs: List[Dict[str, Any]]) -> Dict[str, Any]:
    """``num_runs > 1``: one cell holding the mean, with every run in its details; an evaluator
    with a ``combine_runs(runs)`` method writes its own cell (a result shape of its own, as the compatibility wing's rows)."""
    own = getattr(inv.fn, "combine_runs", None)
    if callable(own):
        combined: Dict[str, Any] = own(runs)
        return combined
    if not (inv.ours and inv.result_key):
        out = dict(runs[0])
        keys = {key for r in runs for key, v in r.items() if type(v) in (int, float)}
        for key in keys:
            vals = [r[key] for r in runs if type(r.get(key)) in (int, float)]
            out[key] = _mean(vals)
        out["runs"] = runs
        return out
    k = inv.result_key
    usage: Optional[Dict[str, Any]] = None
    for r in runs:
        u = r.get(f"{k}_usage")
        if isinstance(u, Mapping):
            usage = usage if usage is not None else {}
            add_usage(usage, u)
    scores = [r[k] for r in runs if isinstance(r.get(k), (int, float)) and r.get(f"{k}_result") != "not_applicable"]
    out = dict(runs[0])
    threshold = runs[0].get(f"{k}_threshold")
    std: Optional[float] = None
    if not scores:
        out.update({k: None, f"{k}_result": "not_applicable", f"{k}_reason": f"No run of {len(runs)} was scored"})
    else:
        mean = _mean(scores)
        std = (sum((s - mean) * (s - mean) for s in scores) / len(scores)) ** 0.5  # inf past float's range, no error
        passed = threshold is None or mean >= threshold
        out.update({
            k: mean,
            f"{k}_result": "pass" if passed else "fail",
            f"{k}_reason": f"Mean of {len(scores)} scored run(s) of {len(runs)} (std {std:.4g})",
        })
    out[f"{k}_details"] = {
        "runs": runs,
        "scores": [r.get(k) for r in runs],
        "std": std,
        "min": min(scores) if scores else None,
        "max": max(scores) if scores else None,
        **row_pass_at_k([r.get(f"{k}_result") for r in runs]),
    }
    if inv.fn is not None and getattr(inv.fn, "uses_judge", False):
        out[f"{k}_usage"] = usage
    return out
