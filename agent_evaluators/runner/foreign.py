"""Another library's evaluator classes, run as they are: how the engine recognises and calls them.

``evaluate()`` takes any callable. A library whose evaluators need more than a plain call (its
own HTTP client, inputs declared on ``typing.overload`` s, a version worth recording) declares
itself once as a :class:`ForeignLibrary`; the engine finds the declaration by the module prefix of
the evaluator's class (:data:`agent_evaluators.plugins.FOREIGN_LIBRARIES`), so the engine names
no such library. What the engine asks of a declaration:

* its ``kind`` (``summary.json``'s ``"kind"`` for such an evaluator) and the distribution whose
  version ``summary.json`` records;
* the inputs of an evaluator whose ``__call__`` takes ``*args, **kwargs``;
* whether its evaluators call their own judge: then they run in a worker thread, count as judge
  evaluators, a dry run cannot estimate them and a judge budget cannot count their calls (the
  declaration's messages say what to use instead);
* whether its evaluators, run by the library's own ``evaluate()``, get pandas' NaN for a required
  input whose column a row lacks (``absent_column_is_nan``, :mod:`.mapping`).
"""

from dataclasses import dataclass
from typing import Any, Callable, FrozenSet, List, Optional, Tuple

from .. import plugins

#: (accepted input names, alternative sets of required names), or ``None`` to read the signature
Inputs = Optional[Tuple[FrozenSet[str], List[FrozenSet[str]]]]


@dataclass(frozen=True)
class ForeignLibrary:
    """One library's evaluator classes, as the engine runs them."""

    kind: str
    distribution: str
    import_name: str
    inputs: Callable[[Any], Inputs]
    #: why a judge budget refuses such an evaluator: a template with ``{alias}``, ``{class_name}`` and the caps
    #: ``{max_cost}`` / ``{max_judge_calls}`` (references: the command line says ``--max-cost``)
    budget_refusal: str
    #: why a dry run leaves such an evaluator out
    not_estimated: str
    calls_own_judge: bool = True
    #: a required input whose column a row lacks is passed as NaN (what a pandas-read table gives the
    #: library's evaluators in its own ``evaluate()``), not made an error cell
    absent_column_is_nan: bool = False


def foreign_library(obj: Any) -> Optional[ForeignLibrary]:
    """The declaration of the library ``obj``'s class comes from, or ``None`` (ours, or a plain callable)."""
    module = type(obj).__module__
    for prefix, target in plugins.FOREIGN_LIBRARIES.items():
        if module.startswith(prefix):
            library: ForeignLibrary = plugins.load(target)
            return library
    return None
