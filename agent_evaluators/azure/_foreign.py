"""azure-ai-evaluation's own evaluator classes inside our ``evaluate()``: the engine's declaration of them.

1.18's evaluators take ``*args, **kwargs`` and declare their real inputs on ``typing.overload``
signatures and ``_get_all_singleton_inputs``; they call their judge synchronously through their
own client, so the engine runs them in a worker thread, counts them as judge evaluators, and a dry
run or a judge budget, which only see our judge client, leave them out or refuse them.
"""

import inspect
import typing
from typing import Any, FrozenSet, List, Set

from ..runner.foreign import ForeignLibrary, Inputs


def _signature_names(sig: inspect.Signature) -> "tuple[FrozenSet[str], FrozenSet[str]]":
    names, required = [], []
    for p in sig.parameters.values():
        if p.name == "self" or p.kind in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL,
                                          inspect.Parameter.POSITIONAL_ONLY):
            continue
        names.append(p.name)
        if p.default is inspect.Parameter.empty:
            required.append(p.name)
    return frozenset(names), frozenset(required)


def _overload_signatures(obj: Any) -> List[inspect.Signature]:
    get_overloads = getattr(typing, "get_overloads", None)
    if get_overloads is None:
        return []
    try:
        fns = get_overloads(type(obj).__call__)
    except Exception:
        return []
    out = []
    for fn in fns:
        try:
            out.append(inspect.signature(fn))
        except (TypeError, ValueError):
            pass
    return out


def _inputs(obj: Any) -> Inputs:
    """The inputs on the overloads (each one an alternative) and ``_get_all_singleton_inputs``."""
    if not hasattr(obj, "_get_all_singleton_inputs"):
        return None
    accepted: Set[str] = set()
    required_sets: List[FrozenSet[str]] = []
    for sig in _overload_signatures(obj):
        names, required = _signature_names(sig)
        accepted |= set(names)
        required_sets.append(required)
    try:
        accepted |= set(obj._get_all_singleton_inputs())
    except Exception:
        pass
    return frozenset(accepted), required_sets or [frozenset()]


AZURE_AI_EVALUATION = ForeignLibrary(
    kind="azure",
    distribution="azure-ai-evaluation",
    import_name="azure.ai.evaluation",
    inputs=_inputs,
    budget_refusal=(
        "evaluator {alias!r} ({class_name}) is azure-ai-evaluation's own class: it calls its judge "
        "through its own client, which {max_cost} / {max_judge_calls} cannot count. Use "
        "agent_evaluators.azure.{class_name} (the same metric on our judge client), or leave the caps out."),
    not_estimated=("not estimated: azure-ai-evaluation's own class sends its own requests, which a dry run cannot "
                   "intercept; it was not run"),
)
