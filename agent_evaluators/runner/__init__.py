"""The run engine behind ``evaluate()`` / ``evaluate_async()`` (and ``engine="ray"``).

How one row travels (each step is one module):

* :mod:`.options` — the call's arguments, checked once (:class:`RunOptions`, :class:`RowSpec`);
* :mod:`.readers` — rows read lazily from JSONL / CSV / JSON / ADK files / iterables;
* :mod:`.mapping` — ``${data.x}`` / ``${target.y}`` column mapping per evaluator;
* :mod:`.rows` and :mod:`.cells` — the target, then each evaluator's cell (errors become error cells);
* :mod:`.window` — how many rows run at once;
* :mod:`.ledger` — the run folder: ``rows.jsonl`` appended per finished row, counting
  (:mod:`.tally`, :mod:`.aggregate`), resume, ``summary.json``, the result;
* engines: :mod:`.local` (one event loop) and :mod:`.distributed` (Ray), both on the pieces above;
* :mod:`.api` — the public functions.
"""

from .api import evaluate, evaluate_async
from .callables import blocking
from .ledger import EvaluatorErrors, RunInterrupted
from .options import RowSpec, RunOptions
from .readers import RowError, register_reader
from .result import EvaluationResult

__all__ = [
    "evaluate",
    "evaluate_async",
    "blocking",
    "EvaluationResult",
    "EvaluatorErrors",
    "RunInterrupted",
    "register_reader",
    "RowError",
    "RunOptions",
    "RowSpec",
]
