"""Sync evaluators leave the event loop when the run also calls a judge (issue: judge path, Ray).

A CPU-bound metric evaluated inline would stall every judge request in flight (and a
Ray worker's budget heartbeat). With a judge evaluator in the run, sync evaluators run
in one dedicated thread, never two at once; without one they stay inline (cheapest).
"""

import threading
import time

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.testing import JudgeServer


def test_sync_evaluators_run_off_the_loop_one_at_a_time_when_a_judge_is_in_the_run():
    seen = set()
    active = []
    overlap = []

    def cpu_metric(response):
        seen.add(threading.current_thread().name)
        active.append(1)
        if len(active) > 1:
            overlap.append(True)
        time.sleep(0.005)
        active.pop()
        return 1.0

    rows = [{"query": f"q{i}", "response": f"r{i}"} for i in range(12)]
    with JudgeServer() as server:
        judge = IntentResolutionEvaluator(model_config=server.openai_config())
        result = evaluate(data=rows, evaluators={"intent": judge, "cpu": cpu_metric}, max_concurrency=8)
    assert result.metrics["cpu.output"] == 1.0 and result.metrics["intent.n"] == 12
    assert seen and all(name.startswith("agent-eval-sync") for name in seen)
    assert not overlap, "sync evaluators must never run concurrently with each other"


def test_sync_evaluators_stay_inline_without_a_judge():
    seen = set()

    def metric(response):
        seen.add(threading.current_thread().name)
        return 1

    evaluate(data=[{"response": "a"}, {"response": "b"}], evaluators={"m": metric})
    assert seen == {"agent-evaluators-loop"}
