"""Faults on a local Ray cluster: a worker killed mid-shard, the driver killed mid-run,
and a 429 seen by one worker pausing the others.

Calls are counted through the evaluator's side-channel file (``Logged``), so the tests
see which rows were evaluated how often, not just the final output.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.ray_engine import ClusterLimiter, JudgeBudget, evaluate_ray
from agent_evaluators.testing import Faults, JudgeServer

from .helpers import Logged, calls, make_rows, record_lines, rule_judge, write_data

pytestmark = [pytest.mark.heavy, pytest.mark.ray]

REPO = Path(__file__).resolve().parents[3]


def test_killed_worker_shard_is_retried_and_every_row_written_once(ray_cluster, tmp_path):
    n, hang = 80, 33
    data = write_data(tmp_path / "d.jsonl", make_rows(n))
    calls_file, pid_file = tmp_path / "calls.txt", tmp_path / "worker.pid"
    killed = []

    def killer():
        deadline = time.monotonic() + 120
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        pid = int(pid_file.read_text())
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    with JudgeServer(rule_judge, delay_s=0.25) as server:
        evs = {
            "logged": Logged(str(calls_file), hang_row=hang, pid_file=str(pid_file)),
            "intent": IntentResolutionEvaluator(model_config=server.openai_config()),
        }
        result = evaluate_ray(data=str(data), evaluators=evs, output_path=tmp_path / "run", max_concurrency=4,
                              num_workers=2, shard_size=20, worker_expire_s=2.0)
    thread.join(5)

    assert killed and killed[0] != os.getpid()  # a worker process, not this driver, was killed
    # the killed worker's shard (rows 20..39) ran again; rows of other shards ran once
    counts = Counter(calls(calls_file))
    assert counts[hang] == 2
    assert all(counts[i] == 1 for i in range(n) if not 20 <= i < 40)
    assert set(counts) == set(range(n))
    # every row exactly once in rows.jsonl and in the result, all scored
    assert sorted(record_lines(tmp_path / "run" / "rows.jsonl")) == list(range(n))
    assert [r["line_number"] for r in result.rows] == list(range(n))
    assert result.metrics["logged.n"] == n and result.metrics["intent.n"] == n
    assert result.metrics["intent.error_count"] == 0
    # the dead worker's judge permits went back to the pool
    budget = result.summary["engine"]["budget"]
    assert budget["reaped"] >= 1 and budget["leased"] == 0


def test_resume_after_driver_killed(ray_cluster, tmp_path):
    n = 120
    data = write_data(tmp_path / "d.jsonl", make_rows(n))
    out, calls_file = tmp_path / "run", tmp_path / "calls.txt"
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [sys.executable, "-c", "from tests.runner.distributed.helpers import driver_main; driver_main()",
         ray_cluster, str(data), str(out), str(calls_file)],
        cwd=REPO, env=env, stderr=subprocess.PIPE,
    )
    rows_file = out / "rows.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if rows_file.exists() and rows_file.read_bytes().count(b"\n") >= 30:
            break
        if proc.poll() is not None:
            pytest.fail(f"driver exited early: {proc.stderr.read().decode()[-3000:]}")
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert json.loads((out / "summary.json").read_text())["status"] == "running"
    done_before = set(record_lines(rows_file))
    assert 30 <= len(done_before) < n
    time.sleep(1.0)  # the dead driver's workers are stopped by Ray; let their last calls land
    calls_before = Counter(calls(calls_file))

    result = evaluate(data=str(data), evaluators={"logged": Logged(str(calls_file), delay=0.05)}, output_path=out,
                      max_concurrency=4, resume=True, engine="ray", num_workers=2)

    rerun = Counter(calls(calls_file)) - calls_before
    assert not set(rerun) & done_before  # rows already on disk were not evaluated again
    assert set(rerun) == set(range(n)) - done_before  # and every missing row was
    assert all(c == 1 for c in rerun.values())
    assert [r["line_number"] for r in result.rows] == list(range(n))
    assert result.metrics["logged.n"] == n
    assert result.summary["status"] == "complete" and result.summary["rows_reused"] == len(done_before)
    assert result.rows[5]["outputs.logged.logged"] == len(make_rows(n)[5]["response"])


def test_429_seen_by_one_worker_pauses_the_others(ray_cluster):
    """Worker A (a Ray task in another process) reports a 429 with Retry-After 1.5 s; worker B,
    asking for a permit 0.3 s later, gets it only when that pause is over."""
    import ray

    from agent_evaluators._util.loop import run_sync

    budget = ray.remote(JudgeBudget).options(num_cpus=0).remote(8)

    @ray.remote(num_cpus=0.1)
    def worker_a(budget):
        async def go():
            limiter = await ClusterLimiter(budget, "A").start()
            await limiter.acquire()
            limiter.throttled(1.5)  # what report_throttle() does on a 429
            limiter.release()
            t = time.time()
            await limiter.acquire()  # A itself waits too
            waited = time.time() - t
            limiter.release()
            await limiter.close()
            return waited

        return run_sync(go())

    async def worker_b():
        limiter = await ClusterLimiter(budget, "B").start()
        while (await budget.stats.remote())["throttles"] == 0:
            await asyncio_sleep(0.01)
        t0 = time.monotonic()
        await asyncio_sleep(0.3)
        await limiter.acquire()
        waited = time.monotonic() - t0
        limiter.release()
        await limiter.close()
        return waited

    from asyncio import sleep as asyncio_sleep

    ref = worker_a.remote(budget)
    b_waited = run_sync(worker_b())
    a_waited = ray.get(ref)
    assert b_waited >= 1.3  # paused by A's 429 although B never saw one
    assert a_waited >= 1.3
    stats = ray.get(budget.stats.remote())
    assert stats["throttles"] == 1 and stats["leased"] == 0
    ray.kill(budget)


def test_judge_429s_are_shared_and_the_run_completes(ray_cluster):
    faults = Faults(rate_429=0.15, retry_after_ms=100, seed=3)
    with JudgeServer(rule_judge, faults=faults, delay_s=0.01) as server:
        ev = IntentResolutionEvaluator(model_config=server.openai_config())
        result = evaluate_ray(data=make_rows(80), evaluators={"intent": ev}, max_concurrency=4,
                              num_workers=2, shard_size=20)
        stats = server.stats()
    assert stats["faults"]["429"] > 3
    assert result.summary["engine"]["budget"]["throttles"] == stats["faults"]["429"]
    assert result.metrics["intent.n"] == 80
    assert result.usage["intent"]["attempts"] == stats["requests"]
    assert stats["max_in_flight"] <= 4
