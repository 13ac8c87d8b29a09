"""``max_judge_calls`` / ``max_cost`` on a Ray cluster: one budget for every worker.

The rule is the local engine's, in one place: :class:`~agent_evaluators.judge.caps.BudgetBook`.
The cluster has one book, inside the judge-permit actor (:class:`~.budget.JudgeBudget`, which
already knows which workers are alive); here are its two halves:

* :class:`CapsAccounts`, the actor's side: the book plus which worker holds which admitted
  call, so the calls of a worker that died (the permit actor reaps it after ``expire_s`` without
  a heartbeat, as it takes back its permits) stop being "in flight": each is charged its
  reservation, as a reply without token counts is, since it may well have been sent and paid.
  When every shard is done, calls still open can only be those of a dead worker not yet reaped:
  the driver has them charged the same way before it writes the record.
* :class:`ClusterCaps`, a worker's side: what the judge client already uses through
  the run context's ``budget`` / ``admit_call`` (``admit`` → a
  :class:`~agent_evaluators.judge.caps.Ticket`, ``settle``), so the client does not change. The
  worker computes the request's reservation itself (from its own size) and sends only numbers.
  Near the money cap "wait for the calls in flight"
  is a poll every :data:`WAIT_S`. A settle is sent without waiting for the answer; the shard
  waits for all of them before it ends, so the driver's final record counts every call.

One actor round trip per judge call, only in a run with a cap.
"""

import asyncio
import itertools
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..judge.caps import BudgetBook, BudgetExhausted, Ticket, estimated_cost
from ..judge.prices import Price

#: how often a worker asks again while its call waits for the calls in flight (near the money cap)
WAIT_S = 0.05
#: the owner of calls the driver makes itself (a target on the first row, run to check the mappings):
#: it sends no heartbeat, so its calls are never reaped
DRIVER = "driver"

#: the actor's answer to one ``admit``: (reservation, ticket id, refusal reason); all ``None``: wait
Verdict = Tuple[Optional[float], int, Optional[str]]


class CapsAccounts:
    """The cluster's :class:`BudgetBook` and the admitted calls not yet settled, by worker.

    Plain class (unit-tested without Ray); the permit actor holds one and runs every method
    on its one event loop, so no lock is needed."""

    def __init__(self, book: BudgetBook) -> None:
        self.book = book
        self._ids = itertools.count(1)
        self.open: Dict[int, Tuple[str, str, float]] = {}  # ticket id -> (worker, model, reservation)
        self.released = 0  # calls of dead workers charged their reservation

    def admit(self, worker: str, model: str, estimate: Optional[float]) -> Verdict:
        verdict = self.book.take(model, estimate)
        if isinstance(verdict, float):
            ticket = next(self._ids)
            self.open[ticket] = (worker, model, verdict)
            return verdict, ticket, None
        return None, 0, verdict

    def settle(self, ticket: int, cost: Optional[float]) -> None:
        """A call ended; a ticket already released (its worker was presumed dead) is not charged twice."""
        held = self.open.pop(ticket, None)
        if held is not None:
            self.book.release(held[1], held[2], cost)

    def drop_worker(self, worker: Optional[str]) -> int:
        """``worker`` is presumed dead (``None``: every worker, at the end of the run, when each live
        one has settled its calls): its open calls are charged their reservation; how many."""
        gone = [t for t, held in self.open.items() if worker is None or held[0] == worker]
        for ticket in gone:
            self.settle(ticket, None)
        self.released += len(gone)
        return len(gone)


class ClusterCaps:
    """A worker's view of the cluster budget, with the interface the judge client uses.

    ``owner`` names this side to the actor: the worker's current heartbeat id (the
    :class:`~.budget.ClusterLimiter`'s, which changes if the worker has to rejoin), or
    :data:`DRIVER`. ``stopped`` is what this side has heard: it is set on its first refusal (the
    row code then marks the rest of its judge cells ``not_run`` without asking)."""

    def __init__(self, actor: Any, owner: Callable[[], str], *, wait_s: float = WAIT_S) -> None:
        self._actor = actor
        self._owner = owner
        self._wait_s = wait_s
        self.stopped: Optional[str] = None
        self._pending: List[Any] = []

    async def admit(self, model: str, price: Optional[Price], messages: List[Dict[str, Any]],
                    params: Mapping[str, Any]) -> Ticket:
        estimate = estimated_cost(messages, params, price, model) if price is not None else None
        while True:
            reserved, ticket, refused = await self._actor.admit_call.remote(self._owner(), model, estimate)
            if reserved is not None:
                return Ticket(self, model, reserved, ticket)
            if refused is not None:
                self.stopped = refused
                raise BudgetExhausted(refused)
            await asyncio.sleep(self._wait_s)

    def _settle(self, ticket: Ticket, cost: Optional[float]) -> None:
        self._pending.append(self._actor.settle_call.remote(ticket.id, cost))

    async def flush(self) -> None:
        """Wait until the actor has every settle this side sent (before the shard reports back)."""
        pending, self._pending = self._pending, []
        if pending:
            await asyncio.gather(*pending)

    def flush_sync(self) -> None:
        """:meth:`flush` for the driver's own thread."""
        import ray

        pending, self._pending = self._pending, []
        if pending:
            ray.get(pending)
