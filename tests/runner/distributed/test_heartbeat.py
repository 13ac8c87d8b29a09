"""A worker whose event loop is busy still looks alive to the cluster's judge budget.

Before: the heartbeat was a task on the worker's event loop, so an evaluator that held
the loop longer than ``worker_expire_s`` made the budget presume the worker dead and take
back permits it was still using (the log said "silent for 26.5 s; took back its permits").
Now a real Ray actor is polled from a thread of its own.
"""

import pytest

from agent_evaluators import IntentResolutionEvaluator
from agent_evaluators.ray_engine import evaluate_ray
from agent_evaluators.testing import JudgeServer

from .helpers import LoopBlocker, make_rows, rule_judge

pytestmark = [pytest.mark.heavy, pytest.mark.ray]


def test_a_worker_with_a_blocked_loop_is_not_reaped(ray_cluster):
    n = 80
    with JudgeServer(rule_judge, delay_s=0.2) as server:
        evs = {
            "intent": IntentResolutionEvaluator(model_config=server.openai_config()),
            "blocker": LoopBlocker(block_row=2, block_s=2.5),
        }
        result = evaluate_ray(data=make_rows(n), evaluators=evs, max_concurrency=4, num_workers=2, shard_size=10,
                              worker_expire_s=1.0)
    budget = result.summary["engine"]["budget"]
    assert budget["reaped"] == 0, budget
    assert budget["max_leased"] <= 4
    assert result.metrics["intent.n"] == n and result.metrics["intent.error_count"] == 0
    assert result.metrics["blocker.n"] == n
