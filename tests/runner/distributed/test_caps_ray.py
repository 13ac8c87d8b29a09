"""``max_judge_calls`` / ``max_cost`` on the Ray engine (local Ray, 2 CPUs, 2 workers).

The local engine's budget tests (``tests/runner/test_budget.py``), on the cluster: the same fake
judge (real HTTP) with fixed token counts per reply (1,000 in, 200 out at 1 / 5 USD per million:
0.002 USD a call), the server's own request counter, small shards so both workers judge. A cap
sends exactly what it allows across the workers, the cells left are ``not_run`` (reason
``budget``), ``summary.json`` has the local engine's ``budget`` section and status, a resume with
a higher cap ends with the rows of a run that never had one, and the CLI says INCOMPLETE, exit 2.
"""

import asyncio
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.ray_engine import evaluate_ray
from agent_evaluators.testing import JudgeServer, Reply
from tests.cli.helpers import agent_eval, write_jsonl

from ..budget_helpers import KEY, PER_CALL, PRICE, cell_results, comparable_cells, priced_judge, read_summary, reservations
from .helpers import Logged, make_rows

pytestmark = [pytest.mark.heavy, pytest.mark.ray]

ROWS = 12
RAY = {"num_workers": 2, "shard_size": 2}  # evaluate_ray(): small shards, so both workers judge




def _run(server: JudgeServer, out: Path, **kwargs: Any) -> Any:
    """``evaluate()`` (``engine="ray"`` among ``kwargs``), or ``evaluate_ray()`` when ``kwargs`` has a shard size."""
    evaluators = {"intent": IntentResolutionEvaluator(model_config={**server.openai_config("judge-m"), "price": PRICE})}
    run = evaluate_ray if "shard_size" in kwargs else evaluate
    return run(data=make_rows(ROWS), evaluators=evaluators, output_path=out, show_progress=False,
               max_concurrency=4, **kwargs)








def test_a_call_cap_sends_exactly_n_calls_across_workers(ray_cluster, tmp_path):
    with JudgeServer(priced_judge) as server:
        result = _run(server, tmp_path / "out", max_judge_calls=5, **RAY)
        sent = server.stats()["requests"]
    assert sent == 5
    assert cell_results(result).count("not_run") == ROWS - 5
    for row in result.rows:
        if row[f"{KEY}_result"] == "not_run":
            assert row[KEY] is None and row[f"{KEY}_not_run"] == "budget" and row["cell_status"] == {"intent": "not_run"}
            assert "max_judge_calls 5 reached" in row[f"{KEY}_reason"]
    m = result.metrics
    assert (m["intent.n"], m["intent.not_run_count"], m["intent.error_count"]) == (5, ROWS - 5, 0)
    summary = read_summary(tmp_path / "out")
    assert summary["status"] == "stopped" and summary["engine"]["name"] == "ray"
    assert summary["engine"]["worker_processes"] == 2  # both workers judged, under the one budget
    budget = summary["budget"]
    assert (budget["judge_calls"], budget["max_judge_calls"], budget["not_run_cells"], budget["stopped"]) == (
        5, 5, ROWS - 5, True)
    assert budget["cost_usd"] == pytest.approx(5 * PER_CALL) and budget["refused_calls"] >= 1


@pytest.mark.parametrize("calls_worth, engine", [(3, RAY), (7, {"engine": "ray", "num_workers": 2})])
def test_a_money_cap_of_n_calls_worth_sends_n_calls(ray_cluster, tmp_path, calls_worth, engine):
    with JudgeServer(priced_judge) as server:
        _run(server, tmp_path / "sizes")  # what each row's request reserves: its own maximum, more than it costs
        reserve = max(reservations(server))
        server.reset()
        result = _run(server, tmp_path / "out", max_cost=(calls_worth - 1) * PER_CALL + reserve, **engine)
        sent = server.stats()["requests"]
    assert sent == calls_worth
    assert cell_results(result).count("not_run") == ROWS - calls_worth
    budget = read_summary(tmp_path / "out")["budget"]
    assert budget["cost_usd"] == pytest.approx(calls_worth * PER_CALL) and budget["cost_usd"] <= budget["max_cost"]
    assert "max_cost" in budget["reason"] and "would be passed" in budget["reason"]


def test_resume_with_a_higher_cap_ends_with_the_uncapped_rows(ray_cluster, tmp_path):
    with JudgeServer(priced_judge) as server:
        uncapped = _run(server, tmp_path / "full")  # the local engine: the rows every engine must end with
        assert server.stats()["requests"] == ROWS
        _run(server, tmp_path / "out", max_judge_calls=4, **RAY)
        assert server.stats()["requests"] == ROWS + 4
        # the caps count the whole folder: 9 in all, 5 more now
        second = _run(server, tmp_path / "out", max_judge_calls=9, resume=True, **RAY)
        assert server.stats()["requests"] == ROWS + 9
        assert cell_results(second).count("not_run") == ROWS - 9
        assert read_summary(tmp_path / "out")["budget"]["judge_calls"] == 9
        last = _run(server, tmp_path / "out", max_cost=1.0, resume=True, engine="ray", num_workers=2)
        assert server.stats()["requests"] == 2 * ROWS  # every row judged exactly once over the three runs
    assert comparable_cells(last.rows) == comparable_cells(uncapped.rows)
    assert last.metrics["intent.not_run_count"] == 0
    assert {k: v for k, v in last.metrics.items() if k != "intent.not_run_count"} == uncapped.metrics
    summary = read_summary(tmp_path / "out")
    assert summary["status"] == "complete" and summary["budget"]["judge_calls"] == ROWS
    assert summary["budget"]["cost_usd"] == pytest.approx(ROWS * PER_CALL)


def test_cli_engine_ray_with_a_call_cap_is_incomplete_and_exits_2(ray_cluster, tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", make_rows(6))
    with JudgeServer(priced_judge) as server:
        r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-model", "eval-judge",
                       "--judge-base-url", server.url + "/v1", "--price", "eval-judge=1,5", "-o", tmp_path / "out",
                       "--no-show-progress", "--engine", "ray", "--ray-address", ray_cluster, "--num-workers", "2",
                       "--max-judge-calls", "2")
        assert server.stats()["requests"] == 2
    assert r.rc == 2, r
    assert "stopped by the judge budget (--max-judge-calls 2 reached): 2 judge call(s), $0.0040 spent" in r.err, r
    assert "4 cell(s) not run, saved. Finish the run with a higher cap" in r.err, r
    assert r.err.strip().splitlines()[-1].endswith("--resume --max-judge-calls N"), r
    assert "INCOMPLETE (stopped by the judge budget: 4 cell(s) not run), exit code 2" in r.out, r
    summary = read_summary(tmp_path / "out")
    assert summary["status"] == "stopped" and summary["engine"]["name"] == "ray"


def test_a_killed_worker_s_call_in_flight_is_released_after_the_expiry(ray_cluster, tmp_path):
    """A worker killed while its judge call is on the wire: after ``worker_expire_s`` the actor stops
    counting that call as in flight (it is charged its reservation; a call of a dead worker not yet
    reaped when the last shard ends is charged then); the retried shard runs on."""
    n, hang = 40, 13
    calls_file, pid_file = tmp_path / "calls.txt", tmp_path / "worker.pid"
    on_the_wire, killed = threading.Event(), threading.Event()

    async def judge(req: Any) -> Reply:
        if f"task {hang} " in req.text and not killed.is_set():
            on_the_wire.set()  # the dying worker's call was admitted and sent; it never gets its reply
            while not killed.is_set():
                await asyncio.sleep(0.02)
        await asyncio.sleep(0.25)  # the shards left after the kill take longer than the expiry
        return priced_judge(req)

    def killer() -> None:
        deadline = time.monotonic() + 120
        while not (pid_file.exists() and on_the_wire.is_set()) and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
        killed.set()

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    with JudgeServer(judge) as server:
        evaluators = {
            "logged": Logged(str(calls_file), hang_row=hang, pid_file=str(pid_file)),
            "intent": IntentResolutionEvaluator(model_config={**server.openai_config("judge-m"), "price": PRICE}),
        }
        result = evaluate_ray(data=make_rows(n), evaluators=evaluators, output_path=tmp_path / "out",
                              show_progress=False, max_concurrency=4, num_workers=2, shard_size=10,
                              worker_expire_s=1.0, max_cost=1.0)
        sent = server.stats()["requests"]
    thread.join(5)
    # the killed shard ran again whole: its calls sent before the kill were sent twice
    assert killed.is_set() and sent > n
    assert result.metrics["intent.n"] == n and result.metrics["intent.error_count"] == 0
    summary = read_summary(tmp_path / "out")
    assert summary["status"] == "complete"
    engine = summary["engine"]["budget"]
    # the call on the wire when its worker died (at least the one the judge held) was released when the
    # worker was reaped, and none is left in flight
    assert engine["reaped"] >= 1 and engine["judge_calls_released"] >= 1 and engine["judge_calls_in_flight"] == 0
    budget = summary["budget"]
    # every call sent counts (the killed ones may have been paid for), a released one at its reservation,
    # which is at least a call's real cost
    assert budget["judge_calls"] >= sent and not budget["stopped"]
    assert budget["cost_usd"] >= sent * PER_CALL - 1e-9
