"""Where a judge request goes in batch mode: the run's collector, the run context's ``batch_route``.

A run with ``judge_mode="batch"`` installs a collector (:class:`~.batch_collect.BatchCollector`)
in its context (:mod:`agent_evaluators.run_context`) for its duration; the transport hands each chat
request to it instead of posting it, and the evaluator's ``await`` waits until the request's batch
has its answer. The tasks the runner spawns inherit it, as they inherit the judge budget.
"""

from typing import Optional

from ..run_context import BatchRoute, FieldView, current, set_for_task

#: the run context's ``batch_route`` with a ``ContextVar``'s interface (the name it had as one)
batch_route: "FieldView[Optional[BatchRoute]]" = FieldView("batch_route")

#: which row and evaluator the current judge request is for, recorded beside its ``custom_id``
#: (the run context's ``batch_origin``, with a ``ContextVar``'s interface)
batch_origin: "FieldView[str]" = FieldView("batch_origin")


def origin(line: int, alias: str) -> str:
    """How the batch record names a cell: ``row 3 intent``."""
    return f"row {line} {alias}"


def note_origin(line: int, alias: str) -> None:
    """Set by the runner for each cell, so the batch record says whose request each line is; only in
    batch mode (a new run context per cell cost every direct judge call about 2 µs)."""
    if current().batch_route is not None:
        set_for_task(batch_origin=origin(line, alias))
