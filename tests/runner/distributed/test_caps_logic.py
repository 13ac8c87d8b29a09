"""The Ray engine's judge caps without Ray (fast, default suite).

The permit actor (:class:`JudgeBudget`, a plain class) holds the run's :class:`BudgetBook`;
workers' :class:`ClusterCaps` reach it through the stand-in actor handle of
``test_budget_logic.py``. The decisions are the local engine's (the same ``BudgetBook``
code): a call cap admits exactly N calls across workers, a money cap of N calls' worth plus one
reservation's headroom admits N (each call reserves the most its own request can cost; a call near the
cap polls until the calls in flight are charged), a dead worker's calls
stop being in flight after ``expire_s``. The Ray tests (``test_caps_ray.py``) run it across
processes against the fake judge.
"""

import asyncio
from typing import List, Optional

import pytest

from agent_evaluators.judge.caps import BudgetBook, BudgetExhausted, estimated_cost
from agent_evaluators.judge.caps import JudgeBudget as LocalBudget
from agent_evaluators.judge.prices import Price
from agent_evaluators.ray_engine import ClusterLimiter, JudgeBudget
from agent_evaluators.ray_engine.cluster_caps import ClusterCaps

from .test_budget_logic import FakeHandle

PRICE: Price = {"input": 1.0, "cached_input": 1.0, "output": 5.0}
MESSAGES = [{"role": "user", "content": "x" * 3000}]
#: what each call reserves: its own prompt's tokens + 1,000 out (about 0.0054 USD; the tokenizer decides the rest)
RESERVE = estimated_cost(MESSAGES, {}, PRICE, "judge-m")
PER_CALL = 0.002  # what each call really costs (its usage's cost_usd)


async def _workers(actor: JudgeBudget, n: int) -> List[ClusterCaps]:
    handle = FakeHandle(actor)
    limiters = [await ClusterLimiter(handle, f"w{i}", poll_in_thread=False).start() for i in range(n)]
    return [ClusterCaps(handle, lambda lim=lim: lim.id, wait_s=0.005) for lim in limiters]


async def _call(caps: ClusterCaps, sent: List[str], who: str, cost: Optional[float] = PER_CALL) -> bool:
    """One judge call as the client makes it: admit, 'send' (a short wait), settle; False if refused."""
    try:
        ticket = await caps.admit("judge-m", PRICE, MESSAGES, {})
    except BudgetExhausted:
        return False
    sent.append(who)
    await asyncio.sleep(0.01)
    ticket.settle({"cost_usd": cost} if cost is not None else None)
    return True


def test_a_call_cap_admits_exactly_n_across_workers_and_then_refuses_every_call():
    async def main():
        actor = JudgeBudget(8, caps=BudgetBook(max_judge_calls=5))
        workers = await _workers(actor, 3)
        sent: List[str] = []
        done = await asyncio.gather(*(_call(workers[i % 3], sent, f"w{i % 3}") for i in range(12)))
        for w in workers:
            await w.flush()
        return actor, workers, sent, done

    actor, workers, sent, done = asyncio.run(main())
    assert len(sent) == 5 and sum(done) == 5
    book = actor.caps.book
    assert book.record() == {"max_judge_calls": 5, "max_cost": None, "judge_calls": 5, "cost_usd": pytest.approx(5 * PER_CALL),
                             "stopped": True, "reason": "max_judge_calls 5 reached", "refused_calls": 7}
    assert book.in_flight == 0 and not actor.caps.open
    # each worker that was refused knows it; the row code then marks its judge cells not_run without asking
    assert all(w.stopped == "max_judge_calls 5 reached" for w in workers)


@pytest.mark.parametrize("calls_worth", [3, 4, 7])
def test_a_money_cap_of_n_calls_worth_admits_n_across_workers(calls_worth):
    async def main():
        actor = JudgeBudget(8, caps=BudgetBook(max_cost=(calls_worth - 1) * PER_CALL + RESERVE))
        workers = await _workers(actor, 2)
        sent: List[str] = []
        await asyncio.gather(*(_call(workers[i % 2], sent, f"w{i % 2}") for i in range(10)))
        for w in workers:
            await w.flush()
        return actor, sent

    actor, sent = asyncio.run(main())
    # each call reserves the most its request can cost (more than its real 0.002): the other worker's calls
    # polled until the calls in flight were charged, and the last one fitted with its reservation
    assert len(sent) == calls_worth and RESERVE > 2 * PER_CALL
    record = actor.caps.book.record()
    assert record["cost_usd"] == pytest.approx(calls_worth * PER_CALL) and record["cost_usd"] <= record["max_cost"]
    assert "would be passed by the next call" in record["reason"]


def test_cluster_and_local_budgets_decide_one_sequence_alike():
    """One rule: the same calls, one after another, give the same record on both engines."""

    async def run_cluster(caps: BudgetBook):
        actor = JudgeBudget(4, caps=caps)
        (worker,) = await _workers(actor, 1)
        for cost in (0.001, 0.004, None, 0.002, 0.002, 0.002):
            await _call(worker, [], "w", cost)
        await worker.flush()
        return actor.caps.book.record()

    async def run_local(budget: LocalBudget):
        for cost in (0.001, 0.004, None, 0.002, 0.002, 0.002):
            try:
                ticket = await budget.admit("judge-m", PRICE, MESSAGES, {})
            except BudgetExhausted:
                continue
            ticket.settle({"cost_usd": cost} if cost is not None else None)
        return budget.record()

    for caps in ({"max_cost": 0.0125}, {"max_judge_calls": 4}, {"max_cost": 0.02, "max_judge_calls": 5}):
        cluster_book = BudgetBook(**caps)
        cluster_book.carry(2, 0.003)  # a resume
        local = LocalBudget(**caps)
        local.carry(2, 0.003)
        assert asyncio.run(run_cluster(cluster_book)) == asyncio.run(run_local(local)), caps


def test_an_unknown_price_stops_a_money_cap_on_the_cluster_too():
    async def main():
        actor = JudgeBudget(2, caps=BudgetBook(max_cost=1.0))
        (worker,) = await _workers(actor, 1)
        with pytest.raises(BudgetExhausted, match="'my-deployment' is unknown"):
            await worker.admit("my-deployment", None, MESSAGES, {})
        return actor

    assert asyncio.run(main()).caps.book.calls == 0


def test_a_dead_worker_s_calls_are_released_after_the_expiry_and_charged_their_reservation():
    async def main():
        actor = JudgeBudget(4, expire_s=0.2, caps=BudgetBook(max_cost=0.01))
        handle = FakeHandle(actor)
        await actor.poll("dead")  # it registered (its heartbeat), then its process was killed mid-call
        dead = ClusterCaps(handle, lambda: "dead")
        ticket = await dead.admit("judge-m", PRICE, MESSAGES, {})
        (alive,) = await _workers(actor, 1)
        blocked = asyncio.ensure_future(alive.admit("judge-m", PRICE, MESSAGES, {}))
        await asyncio.sleep(0.1)
        assert not blocked.done()  # 0.0054 in flight + 0.0054 would pass 0.01: it waits for the call in flight
        refused = None
        try:
            await asyncio.wait_for(blocked, 2.0)  # the heartbeat of `alive` reaps `dead` after 0.2 s
        except BudgetExhausted as exc:
            refused = exc.reason
        book = actor.caps.book
        # the dead call was charged its estimate (it may have been sent and paid): the next one no longer fits
        assert refused is not None and "would be passed" in refused
        assert book.cost == pytest.approx(RESERVE) and book.in_flight == 0 and actor.caps.released == 1
        ticket.settle({"cost_usd": PER_CALL})  # a settle that arrives late is not charged twice
        await dead.flush()
        assert book.cost == pytest.approx(RESERVE)

    asyncio.run(main())


def test_calls_left_open_when_every_shard_is_done_are_charged_their_reservation():
    """A dead worker not reaped yet when the run ends: the driver has its open calls charged."""

    async def main():
        actor = JudgeBudget(4, expire_s=60, caps=BudgetBook(max_cost=1.0))
        (worker,) = await _workers(actor, 1)
        await _call(worker, [], "w")
        await worker.admit("judge-m", PRICE, MESSAGES, {})  # its worker died with it on the wire
        await worker.flush()
        assert actor.caps.book.in_flight == 1
        assert await actor.end_calls() == 1
        return actor

    actor = asyncio.run(main())
    book = actor.caps.book
    assert book.in_flight == 0 and book.calls == 2 and book.cost == pytest.approx(PER_CALL + RESERVE)
    stats = asyncio.run(actor.stats())
    assert stats["judge_calls_released"] == 1 and stats["judge_calls_in_flight"] == 0
