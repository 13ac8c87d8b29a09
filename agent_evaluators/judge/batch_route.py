"""Where a judge request goes in batch mode: the run's collector, held in a ``ContextVar``.

A run with ``judge_mode="batch"`` installs a collector (:class:`~.batch_collect.BatchCollector`)
here for its duration; the transport hands each chat request to it instead of posting it, and the
evaluator's ``await`` waits until the request's batch has its answer. The tasks the runner spawns
inherit the variable, as they inherit the judge budget (:mod:`agent_evaluators._util.concurrency`).
"""

from contextvars import ContextVar
from typing import Any, Dict, Optional, Protocol

__all__ = ["BatchRoute", "batch_route", "batch_origin", "note_origin"]


class BatchRoute(Protocol):
    """Takes one chat request body and returns the judge's reply body once its batch is done."""

    async def send(self, transport: Any, body: Dict[str, Any], headers: Optional[Dict[str, str]], timeout: float,
                   max_reply_bytes: int) -> Dict[str, Any]: ...


batch_route: "ContextVar[Optional[BatchRoute]]" = ContextVar("batch_route", default=None)

#: which row and evaluator the current judge request is for, recorded beside its ``custom_id``
batch_origin: "ContextVar[str]" = ContextVar("batch_origin", default="")


def note_origin(line: int, alias: str) -> None:
    """Set by the runner for each cell, so the batch record says whose request each line is."""
    batch_origin.set(f"row {line} {alias}")
