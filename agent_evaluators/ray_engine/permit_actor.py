"""One judge budget for a whole Ray cluster: a permit actor and the limiter each worker installs.

The local engine's budget is a semaphore (:class:`agent_evaluators._util.concurrency.Permits`):
every judge HTTP attempt holds one permit (:func:`agent_evaluators._util.concurrency.judge_slot`). Across processes that
becomes :class:`JudgeBudget`, a small async Ray actor that owns ``capacity`` permits,
and :class:`ClusterLimiter`, the worker side, which implements the same ``Limiter``
protocol (``await acquire()`` / ``release()``), so the judge client does not change.

Invariant: permits leased by the actor never exceed ``capacity``, and a worker never has
more requests in flight than it holds permits; so the judge never sees more than
``capacity`` requests at once, however many workers run.

Round trips are kept off the per-request path:

* a worker leases permits in batches (one call asks for as many as it has waiters);
* a released permit goes straight to a local waiter, as long as the worker holds no more
  than its fair share (``capacity / workers``), is not paused and heard from the actor
  recently; otherwise it goes back to the actor (fire-and-forget), where other workers
  can lease it;
* each worker polls the actor every ``poll_s`` (0.1 s): the poll is also its heartbeat.

429 back-off is shared: a worker whose request got a 429 reports it
(:func:`agent_evaluators._util.concurrency.report_throttle` → :meth:`ClusterLimiter.throttled`);
the actor then grants no permit until ``Retry-After`` has passed, and every worker
learns the pause on its next lease or poll (≤ ``poll_s`` later) and stops handing out
permits locally until then. Requests already on the wire finish normally.

A worker that dies (killed process, lost node) stops polling; after ``expire_s`` the
actor takes its permits back, so a retried shard does not shrink the budget for good.

A run with ``max_judge_calls`` / ``max_cost`` also keeps its caps here (:mod:`.caps`): the same
heartbeat tells which worker's admitted calls to release when it dies.
"""

import asyncio
import logging
import math
import threading
import time
import uuid
from collections import deque
from typing import Any, Deque, Dict, Optional, Set, Tuple

from ..judge.caps import BudgetBook
from ..runner.options import DEFAULT_WORKER_EXPIRE_S
from .cluster_caps import CapsAccounts, Verdict

logger = logging.getLogger("agent_evaluators.ray_engine")

#: pause when a 429 came without Retry-After (the client's own backoff still applies on top).
DEFAULT_PAUSE_S = 0.5
#: how often a worker polls the actor (pause, fair share; doubles as heartbeat).
POLL_S = 0.1
#: a worker silent this long is presumed dead; its permits return to the pool.
EXPIRE_S = DEFAULT_WORKER_EXPIRE_S
#: a worker that has not heard from the actor this long stops handing permits on locally.
STALE_S = 1.0


class JudgeBudget:
    """The cluster's judge permits (run as an async Ray actor, ``num_cpus=0``).

    Plain class so it can be unit-tested without Ray; the engine wraps it with
    ``ray.remote``. All methods run on the actor's one event loop, so no locks are needed
    beyond the condition that wakes waiting leases.
    """

    def __init__(self, capacity: int, *, expire_s: float = EXPIRE_S, caps: Optional[BudgetBook] = None) -> None:
        # ``capacity`` is the run's max_concurrency, checked where the user set it (RunSettings)
        self.capacity = capacity
        self.available = capacity
        self.expire_s = expire_s
        self.held: Dict[str, int] = {}
        self.seen: Dict[str, float] = {}
        self.left: Set[str] = set()  # workers that said goodbye (or were reaped): never re-registered
        self.pause_until = 0.0
        self._cond: Optional[asyncio.Condition] = None
        self.max_leased = 0
        self.grants = 0
        self.lease_calls = 0
        self.throttles = 0
        self.reaped = 0
        #: the run's judge caps, when it has any (:mod:`.caps`)
        self.caps = CapsAccounts(caps) if caps is not None else None

    # ------------------------------------------------------------------ internals
    def _condition(self) -> asyncio.Condition:
        if self._cond is None:
            self._cond = asyncio.Condition()
        return self._cond

    def _touch(self, worker: str) -> bool:
        """Note ``worker`` as alive; ``False`` for one that already left (a late call after ``leave``)."""
        if worker in self.left:
            return False
        self.held.setdefault(worker, 0)
        self.seen[worker] = time.monotonic()
        return True

    def _share(self) -> int:
        return max(1, math.ceil(self.capacity / max(1, len(self.held))))

    def _reap(self) -> None:
        now = time.monotonic()
        for worker, last in list(self.seen.items()):
            if now - last > self.expire_s:
                n = self.held.pop(worker, 0)
                del self.seen[worker]
                self.left.add(worker)
                self.available += n
                self.reaped += 1
                if self.caps is not None:
                    self.caps.drop_worker(worker)
                logger.warning("judge budget: worker %s silent for %.1f s; took back its %d permit(s)", worker, now - last, n)

    def _pause_left(self) -> float:
        return max(0.0, self.pause_until - time.monotonic())

    async def _notify(self) -> None:
        cond = self._condition()
        async with cond:
            cond.notify_all()

    # ------------------------------------------------------------------ API (remote methods)
    async def lease(self, worker: str, want: int) -> Tuple[int, int, float]:
        """Wait until at least one permit is free and no 429 pause is on; grant up to ``want``.

        Returns ``(granted, fair_share, pause_left_s)``.
        """
        self.lease_calls += 1
        self._touch(worker)
        cond = self._condition()
        async with cond:
            while True:
                # A waiting call is no sign of life (Ray does not cancel it when its caller dies):
                # only polls keep a worker registered while it waits.
                self._reap()
                if worker in self.left or worker not in self.held:
                    # it left (or died) while this call waited: grant nothing
                    return 0, self._share(), self._pause_left()
                pause = self._pause_left()
                if pause <= 0 and self.available > 0:
                    break
                try:
                    await asyncio.wait_for(cond.wait(), timeout=pause if pause > 0 else min(1.0, self.expire_s / 4))
                except asyncio.TimeoutError:
                    pass
            share = self._share()
            granted = min(max(1, want), self.available, max(1, share - self.held[worker]))
            self.available -= granted
            self.held[worker] += granted
            self.grants += granted
            self.max_leased = max(self.max_leased, self.capacity - self.available)
        return granted, share, self._pause_left()

    async def give(self, worker: str, n: int) -> None:
        """Permits coming back from ``worker``."""
        have = self.held.get(worker, 0)
        n = min(n, have)  # a worker already presumed dead gives back nothing twice
        if worker in self.held:
            self.held[worker] = have - n
            self.seen[worker] = time.monotonic()
        self.available += n
        if n:
            await self._notify()

    async def poll(self, worker: str) -> Tuple[int, float]:
        """Heartbeat; returns ``(fair_share, pause_left_s)``."""
        self._touch(worker)
        self._reap()
        return self._share(), self._pause_left()

    async def throttled(self, worker: str, wait_s: Optional[float]) -> float:
        """A judge request of ``worker`` got a 429: pause every lease for ``wait_s``."""
        self.throttles += 1
        wait = DEFAULT_PAUSE_S if wait_s is None else max(0.0, float(wait_s))
        self.pause_until = max(self.pause_until, time.monotonic() + wait)
        return self._pause_left()

    async def leave(self, worker: str) -> None:
        """``worker`` is done: every permit it still holds returns to the pool."""
        n = self.held.pop(worker, 0)
        self.seen.pop(worker, None)
        self.left.add(worker)
        self.available += n
        await self._notify()  # also wakes this worker's own pending lease, which then returns nothing

    async def admit_call(self, worker: str, model: str, estimate: Optional[float]) -> Verdict:
        """The caps' decision on one judge call (:meth:`.caps.CapsAccounts.admit`)."""
        assert self.caps is not None, "admit_call on a run without caps"
        return self.caps.admit(worker, model, estimate)

    async def settle_call(self, ticket: int, cost: Optional[float]) -> None:
        """An admitted call ended, costing ``cost`` USD (``None``: unknown)."""
        if self.caps is not None:
            self.caps.settle(ticket, cost)

    async def end_calls(self) -> int:
        """Every shard is done: calls still open belong to dead workers; charge them their reservation."""
        return self.caps.drop_worker(None) if self.caps is not None else 0

    async def caps_book(self) -> Optional[BudgetBook]:
        """A copy of the caps' accounts (the driver writes ``summary.json``'s ``"budget"`` from it)."""
        return self.caps.book if self.caps is not None else None

    async def stats(self) -> Dict[str, Any]:
        return {
            "capacity": self.capacity,
            "available": self.available,
            "leased": self.capacity - self.available,
            "max_leased": self.max_leased,
            "workers": len(self.held),
            "grants": self.grants,
            "lease_calls": self.lease_calls,
            "throttles": self.throttles,
            "reaped": self.reaped,
            "pause_left_s": self._pause_left(),
            **({"judge_calls_in_flight": self.caps.book.in_flight, "judge_calls_released": self.caps.released}
               if self.caps is not None else {}),
        }


class ClusterLimiter:
    """A worker's view of :class:`JudgeBudget`: the ``Limiter`` protocol the judge client uses.

    Create it on the worker's event loop, ``await start()``, install it as the shard's run context's
    ``limiter``, and ``await close()`` when the shard is done.
    """

    def __init__(self, actor: Any, worker_id: Optional[str] = None, *, poll_s: float = POLL_S,
                 stale_s: float = STALE_S, poll_in_thread: Optional[bool] = None) -> None:
        self._actor = actor
        # A real actor is polled from a thread of its own: a worker whose event loop is busy with
        # CPU-bound evaluators must still look alive, or the budget takes back permits it is using.
        self._poll_in_thread = _is_ray_actor(actor) if poll_in_thread is None else poll_in_thread
        self._stop_polling = threading.Event()
        self._poll_thread: Optional[threading.Thread] = None
        self.id = worker_id or uuid.uuid4().hex[:12]
        self._poll_s = poll_s
        self._stale_s = stale_s
        self._held = 0  # leased from the actor and not given back
        self._in_use = 0
        self._waiters: Deque[asyncio.Future] = deque()
        self._share = 1
        self._pause_deadline = 0.0
        self._last_heard = -math.inf
        self._lease_task: Optional[asyncio.Task] = None
        self._poll_task: Optional[asyncio.Task] = None
        self._to_return = 0
        self._flush_scheduled = False
        self.local_handoffs = 0
        self.leased = 0

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> "ClusterLimiter":
        self._heard(*await self._actor.poll.remote(self.id))
        loop = asyncio.get_running_loop()
        if self._poll_in_thread:
            self._poll_thread = threading.Thread(target=self._poll_thread_main, args=(loop,),
                                                 name=f"judge-budget-heartbeat-{self.id}", daemon=True)
            self._poll_thread.start()
        else:
            self._poll_task = loop.create_task(self._poll_loop())
        return self

    async def close(self) -> None:
        self._stop_polling.set()
        if self._poll_thread is not None:
            await asyncio.to_thread(self._poll_thread.join, 5.0)
        for task in (self._poll_task, self._lease_task):
            if task is not None:
                task.cancel()
        for task in (self._poll_task, self._lease_task):
            if task is not None:
                try:
                    await task
                except BaseException:
                    pass
        await self._actor.leave.remote(self.id)
        self._held = self._to_return = 0

    # ------------------------------------------------------------------ Limiter protocol
    async def acquire(self) -> bool:
        loop = asyncio.get_running_loop()
        while True:
            pause = self._pause_deadline - time.monotonic()
            if pause <= 0:
                break
            await asyncio.sleep(pause)
        fut = loop.create_future()
        self._waiters.append(fut)
        self._kick()
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # a permit reached us just as we were cancelled: pass it on
            raise
        return True

    def release(self) -> None:
        self._in_use -= 1
        if self._may_hand_off():
            while self._waiters:
                fut = self._waiters.popleft()
                if not fut.done():
                    self._in_use += 1
                    self.local_handoffs += 1
                    fut.set_result(True)
                    return
        if self._held > 0:  # after a rejoin, permits of the old registration are not ours to return
            self._held -= 1
            self._give_back(1)
        if self._waiters:
            self._kick()

    def throttled(self, wait_s: Optional[float]) -> None:
        """Called (through ``report_throttle``) when one of this worker's requests got a 429."""
        wait = DEFAULT_PAUSE_S if wait_s is None else max(0.0, float(wait_s))
        self._pause_deadline = max(self._pause_deadline, time.monotonic() + wait)
        self._actor.throttled.remote(self.id, wait_s)

    # ------------------------------------------------------------------ internals
    def _heard(self, share: int, pause_left: float) -> None:
        now = time.monotonic()
        self._share = share
        self._last_heard = now
        if pause_left > 0:
            self._pause_deadline = max(self._pause_deadline, now + pause_left)

    def _may_hand_off(self) -> bool:
        now = time.monotonic()
        return (
            bool(self._waiters)
            and now >= self._pause_deadline
            and now - self._last_heard < self._stale_s
            and self._held <= self._share
        )

    def _give_back(self, n: int) -> None:
        self._to_return += n
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        n, self._to_return = self._to_return, 0
        if n:
            self._actor.give.remote(self.id, n)  # fire and forget: nothing waits on the answer

    def _kick(self) -> None:
        if self._lease_task is None or self._lease_task.done():
            self._lease_task = asyncio.get_running_loop().create_task(self._lease_loop())

    def _live_waiters(self) -> int:
        while self._waiters and self._waiters[0].done():
            self._waiters.popleft()
        return sum(1 for f in self._waiters if not f.done())

    async def _lease_loop(self) -> None:
        while True:
            want = self._live_waiters()
            if not want:
                return
            granted, share, pause = await self._actor.lease.remote(self.id, want)
            self._heard(share, pause)
            if granted == 0:
                self._rejoin()
                continue
            self._held += granted
            self.leased += granted
            for _ in range(granted):
                while self._waiters and self._waiters[0].done():
                    self._waiters.popleft()
                if self._waiters:
                    self._in_use += 1
                    self._waiters.popleft().set_result(True)
                else:  # the waiter was cancelled meanwhile
                    self._held -= 1
                    self._give_back(1)

    def _poll_thread_main(self, loop: asyncio.AbstractEventLoop) -> None:
        """Heartbeat from a plain thread (real Ray actors): it runs however busy the event loop is."""
        import ray

        while not self._stop_polling.wait(self._poll_s):
            try:
                share, pause = ray.get(self._actor.poll.remote(self.id), timeout=max(1.0, 10 * self._poll_s))
            except Exception:  # the actor is gone or slow: the run is failing anyway; leases will raise
                logger.debug("judge budget poll failed", exc_info=True)
                continue
            try:
                loop.call_soon_threadsafe(self._heard, share, pause)
            except RuntimeError:  # the loop is closed: the shard is over
                return

    def _rejoin(self) -> None:
        """The budget presumed this (live) worker dead and took its permits back: join again under
        a new id rather than wait forever. Permits still on the wire are counted as returned, so the
        budget may be exceeded by those until they finish; a warning says so."""
        old_id, self.id = self.id, uuid.uuid4().hex[:12]
        logger.warning("judge budget: worker %s was presumed dead while alive; rejoining as %s (%d request(s) "
                       "in flight are no longer counted)", old_id, self.id, self._in_use)
        self._held = 0

    async def _poll_loop(self) -> None:
        while True:
            await asyncio.sleep(self._poll_s)
            try:
                self._heard(*await self._actor.poll.remote(self.id))
            except asyncio.CancelledError:
                raise
            except Exception:  # the actor is gone: the run is failing anyway; leases will raise
                logger.debug("judge budget poll failed", exc_info=True)


def _is_ray_actor(actor: Any) -> bool:
    return type(actor).__module__.startswith("ray.")
