"""Caps on a run's judge work: ``max_judge_calls`` and ``max_cost`` (USD), decided before each call.

``evaluate()`` installs one :class:`JudgeBudget` for a run (the run context's ``budget``); the judge
client asks it before every judge call (:func:`admit_call`: one verdict request, repairs and
retries included; a reply served from the cache is free and is not asked about) and tells it
the call's measured usage afterwards (:meth:`Ticket.settle`). Every judge metric, sample,
panel judge, turn and simulated-user turn goes through that one client, so each is counted.

The rule, so a run never knowingly passes its cap:

* ``max_judge_calls``: a call is admitted while fewer than the cap have been admitted
  (calls in flight count at once), so a run makes at most the cap.
* ``max_cost``: a call is admitted when the money charged so far, plus the reservations of the
  calls in flight, plus this call's reservation stays within the cap. When it would not, and
  calls are in flight, it waits for them to be charged (they usually cost less than reserved)
  and is decided again; with nothing in flight, it is refused. A call's reservation is the most
  this request can cost, from its own size: its prompt tokens (counted with the model's tokenizer
  where one is installed, :mod:`.token_count`, else characters / 4, plus the chat framing) and the
  request's maximum output (``max_completion_tokens`` / ``max_tokens``; 1,000 when unset), at the
  model's price; never an average of earlier calls, which rows that grow during a run would
  outrun. Once a call is answered, its real cost (usage x price) replaces the reservation; a reply
  without token counts is charged the reservation. So the money cap is not passed (up to the
  tokenizer's error where none is installed), and a run stops at most one reservation short of it.
  A model whose price is unknown cannot be budgeted in money: the first call to it stops the run.
  In batch mode a request is expected at the batch price (half), which is what a batch answer costs,
  so a batch is filled up to the cap rather than to half of it.

The first refusal stops the budget for the rest of the run: no later call is admitted,
however cheap (a run does not skip around the cap). The caller sees :class:`BudgetExhausted`;
the engine marks the cell ``not_run`` with reason ``budget`` (:func:`watch_refusals` tells it
whether any call of a cell was refused, even one an evaluator caught). Calls already on the
wire finish and are charged.

On the Ray engine the same rule runs once for the whole cluster: the judge-permit actor holds
the run's :class:`BudgetBook` (the decide/settle core, shared with :class:`JudgeBudget`), and
each worker installs a view of it with the judge client's interface
(:mod:`agent_evaluators.ray_engine.cluster_caps`): it sends the request's estimate as a number,
and "wait for the calls in flight" becomes a short poll of the actor.

The caps count a whole run folder: a resume starts from what its earlier runs spent, so
``--resume`` with a higher cap continues where the lower one stopped. The book notes its totals
as they change (its ``journal``: the run folder's ``spend.jsonl``, written when a call is admitted,
before it is sent, and when it is settled), so a run killed before its ``summary.json`` was written
is counted too: a calls cap is never passed across kills, and a money cap by no more than the calls
in flight at a kill cost beyond their reservation.
"""

import asyncio
import contextlib
import math
import threading
from typing import Any, Dict, Iterator, List, Mapping, Optional, Protocol, Tuple, Union

from ..errors import BudgetExhausted
from ..run_context import Admission, current, scoped
from ..wording import JudgeKey, Option, Text
from .prices import Price, batch_price, cost_usd, format_usd, price_for
from .token_count import counter_for, prompt_tokens

#: a cell's ``<key>_result`` when it was not run, and the reason recorded for a cap
NOT_RUN = "not_run"
BUDGET_REASON = "budget"
#: output tokens expected of a request that sets no ``max_tokens``
_DEFAULT_OUTPUT_TOKENS = 1000
#: money comparisons allow for float sums (a cap of N calls' worth admits N calls)
_EPSILON = 1e-9


def estimated_cost(messages: List[Dict[str, Any]], params: Mapping[str, Any], price: Price,
                   model: Optional[str] = None) -> float:
    """The most one request can cost, from its own size, before it is sent (see the module docstring)."""
    prompt = prompt_tokens(messages, counter_for(model))
    output = params.get("max_completion_tokens") or params.get("max_tokens") or _DEFAULT_OUTPUT_TOKENS
    return cost_usd({"prompt_tokens": prompt, "completion_tokens": int(output)}, price) or 0.0


class SpendNotes(Protocol):
    """Where a budget notes its totals as they change (:class:`agent_evaluators.runner.spend_journal.SpendJournal`)."""

    def note(self, totals: Mapping[str, Any]) -> None: ...


class CallBudget(Protocol):
    """What the judge client and the row code use of a run's budget: the local :class:`JudgeBudget`,
    or a Ray worker's view of the cluster's one (:class:`~agent_evaluators.ray_engine.cluster_caps.ClusterCaps`)."""

    #: why the budget stopped admitting calls (``None``: it has not, as far as this side knows)
    stopped: Optional[str]

    async def admit(self, model: str, price: Optional[Price], messages: List[Dict[str, Any]],
                    params: Mapping[str, Any]) -> "Ticket": ...

    def _settle(self, ticket: "Ticket", cost: Optional[float]) -> None: ...


class Ticket:
    """One admitted call: its reservation, settled with the call's usage when it ends."""

    __slots__ = ("budget", "model", "reserved", "settled", "id")

    def __init__(self, budget: CallBudget, model: str, reserved: float, id: int = 0) -> None:
        self.budget = budget
        self.model = model
        self.reserved = reserved
        self.settled = False
        self.id = id  # the cluster budget's name for it (Ray); 0 locally

    def settle(self, usage: Optional[Mapping[str, Any]]) -> None:
        """Charge the call's measured cost (its usage's ``cost_usd``; the estimate where unknown)."""
        if not self.settled:
            self.settled = True
            cost = usage.get("cost_usd") if isinstance(usage, Mapping) else None
            if not isinstance(cost, (int, float)) or isinstance(cost, bool) or not 0 <= cost < math.inf:
                cost = None  # no cost, or none to trust (a negative one would give money back): the reservation
            self.budget._settle(self, None if cost is None else float(cost))


class BudgetBook:
    """The caps' rule and accounts, with no waiting and no lock: the one place a call is decided.

    :class:`JudgeBudget` holds one for a local run; the Ray engine's permit actor holds one for
    the whole cluster (its workers send each call's estimate as a number and wait by polling).
    Plain data, so a copy travels back to the Ray driver for ``summary.json``."""

    def __init__(self, max_judge_calls: Optional[int] = None, max_cost: Optional[float] = None) -> None:
        self.max_judge_calls = max_judge_calls
        self.max_cost = max_cost
        self.calls = 0  # admitted, earlier runs of the folder included
        self.cost = 0.0  # charged, the same
        self.reserved = 0.0  # expected cost of the calls in flight
        self.refused = 0
        #: why the budget stopped admitting calls (``None``: it has not); ``stopped_text`` says the same with
        #: its references (``max_cost``), for the run's closing warning in the reader's words
        self.stopped: Optional[str] = None
        self.stopped_text: Optional[Text] = None
        self.in_flight = 0
        #: where the totals are noted as they change (the run folder's ``spend.jsonl``), so a resume after a
        #: kill starts from what was spent; ``None``: nowhere (a run without a folder)
        self.journal: Optional[SpendNotes] = None

    def carry(self, calls: int, cost: float) -> None:
        """Start from what earlier runs of the same folder spent (a resume)."""
        self.calls += int(calls)
        self.cost += float(cost)

    def take(self, model: str, estimate: Optional[float]) -> Union[float, str, None]:
        """Decide one call: its reservation (admitted, counted now); the reason (refused: the budget
        stops, and every later call is refused too); ``None``: wait for the calls in flight to be
        settled, then ask again. ``estimate``: :func:`estimated_cost` of the request, ``None`` when
        the model's price is unknown."""
        if self.stopped is None:
            verdict = self._decide(model, estimate)
            if isinstance(verdict, float):
                self.calls += 1
                self.in_flight += 1
                self.reserved += verdict
                self._note()  # before the call is sent: a kill from here on still counts it
                return verdict
            if verdict is not None:
                self.stopped, self.stopped_text = str(verdict), verdict
                self._note()
        if self.stopped is not None:
            self.refused += 1
            return self.stopped
        return None

    def _decide(self, model: str, estimate: Optional[float]) -> Union[float, Text, None]:
        """This call's expected cost when it is admitted; why not when it is refused; ``None``: wait
        for the calls in flight (they may cost less than they were expected to)."""
        if self.max_judge_calls is not None and self.calls >= self.max_judge_calls:
            return Text("{cap} {calls} reached", cap=Option("max_judge_calls"), calls=self.max_judge_calls)
        if self.max_cost is None:
            return 0.0
        expected = estimate
        if expected is None:
            return Text("{cap} is set but the price of judge model {model!r} is unknown, so its calls cannot be "
                        "counted in money; give its price (--price MODEL=IN,OUT, prices: in a run config, or {price})",
                        cap=Option("max_cost"), model=model, price=JudgeKey("price"))
        expected = float(expected)
        if self.cost + self.reserved + expected <= self.max_cost + _EPSILON:
            return expected
        if self.in_flight:
            return None
        return Text("{cap} {limit} would be passed by the next call (spent {spent}, next call about {next})",
                    cap=Option("max_cost"), limit=format_usd(self.max_cost), spent=format_usd(self.cost),
                    next=format_usd(expected))

    def release(self, model: str, reserved: float, cost: Optional[float]) -> None:
        """A call admitted with ``reserved`` ended: charge ``cost`` (``None``: unknown, the reservation)."""
        self.in_flight -= 1
        self.reserved = max(self.reserved - reserved, 0.0)
        self.cost += reserved if cost is None else cost
        self._note()

    def _note(self) -> None:
        """Tell the journal the totals: every call admitted, and the money charged plus the calls in flight
        at their reservation (what a resume after a kill here must count as spent)."""
        if self.journal is not None:
            self.journal.note({"judge_calls": self.calls, "cost_usd": round(self.cost + self.reserved, 12),
                               "stopped": self.stopped})

    def record(self) -> Dict[str, Any]:
        """``summary.json``'s ``"budget"``: the caps, what the folder's runs spent, and whether it stopped."""
        return {"max_judge_calls": self.max_judge_calls, "max_cost": self.max_cost,
                "judge_calls": self.calls, "cost_usd": round(self.cost, 12),
                "stopped": self.stopped is not None, "reason": self.stopped, "refused_calls": self.refused}


class JudgeBudget(BudgetBook):
    """The caps of one local run and what it has spent (see the module docstring): a
    :class:`BudgetBook` behind a lock, whose calls wait on the event loop near the money cap."""

    def __init__(self, max_judge_calls: Optional[int] = None, max_cost: Optional[float] = None) -> None:
        super().__init__(max_judge_calls, max_cost)
        self._lock = threading.Lock()  # blocking evaluators call from worker threads
        self._waiters: List[Tuple[asyncio.AbstractEventLoop, "asyncio.Future[None]"]] = []

    async def admit(self, model: str, price: Optional[Price], messages: List[Dict[str, Any]],
                    params: Mapping[str, Any]) -> Ticket:
        """A ticket for one call, or :class:`BudgetExhausted` (and the budget stops). Near the money
        cap a call waits for the calls in flight to be charged, then is decided on what they cost."""
        estimate = request_estimate(self.max_cost, messages, params, price, model)
        while True:
            with self._lock:
                verdict = self.take(model, estimate)
                if isinstance(verdict, float):
                    return Ticket(self, model, verdict)
                if verdict is not None:
                    raise BudgetExhausted(verdict)
                loop = asyncio.get_running_loop()
                wake = loop.create_future()
                self._waiters.append((loop, wake))
            await wake

    def _settle(self, ticket: Ticket, cost: Optional[float]) -> None:
        with self._lock:
            self.release(ticket.model, ticket.reserved, cost)
            waiters, self._waiters = self._waiters, []
        for loop, wake in waiters:
            loop.call_soon_threadsafe(_wake, wake)


def request_estimate(max_cost: Optional[float], messages: List[Dict[str, Any]], params: Mapping[str, Any],
                     price: Optional[Price], model: Optional[str] = None) -> Optional[float]:
    """What :meth:`BudgetBook.take` needs of a request: its :func:`estimated_cost` under a money cap
    with a known price (``None`` otherwise: no money cap needs none, an unknown price stops it)."""
    if max_cost is None or price is None:
        return None
    return estimated_cost(messages, params, price, model)


@contextlib.contextmanager
def use_budget(budget: Optional[CallBudget]) -> Iterator[Optional[CallBudget]]:
    """Install ``budget`` for the judge calls made inside this block (``None``: no caps); a run
    installs its budget with the rest of its context (:mod:`agent_evaluators.run_context`)."""
    with scoped(budget=budget):
        yield budget


def _wake(wake: "asyncio.Future[None]") -> None:
    if not wake.done():
        wake.set_result(None)


async def admit_call(model: str, price: Optional[Price], messages: List[Dict[str, Any]],
                     params: Mapping[str, Any]) -> Optional[Admission]:
    """Ask the run's budget for one call (``None``: no budget, nothing to settle); the answer is a
    :class:`Ticket` to settle with the call's usage.

    Raises :class:`BudgetExhausted` when the call would pass a cap, after noting the refusal
    for :func:`watch_refusals`."""
    context = current()
    budget = context.budget
    if budget is None:
        return None
    price = price if price is not None else price_for(model)
    if price is not None and context.batch_route is not None:  # reserved at what a batch answer costs, so a
        price = batch_price(price)  # batch is filled up to the cap, not to half of it
    try:
        return await budget.admit(model, price, messages, params)
    except BudgetExhausted as exc:
        seen = current().refusals
        if seen is not None:
            seen.append(exc.reason)
        raise


@contextlib.contextmanager
def watch_refusals() -> Iterator[List[str]]:
    """Collect the budget's refusals of calls made inside this block (a cell: tasks it starts too)."""
    seen: List[str] = []
    with scoped(refusals=seen):
        yield seen
