"""Judge budget caps across SIGKILLs (issue 36, item 1).

A capped run killed part-way used to leave no record of its spending (``summary.json`` is written
at the end), so each resume counted from zero: 254 requests for a cap of 150. The budget now notes
its totals in ``spend.jsonl`` as it admits and settles each call, and a resume starts there.

The evaluating process is a real subprocess (``budget_child``) against a fake judge owned by the
test, whose request counter outlives every kill. What must hold: across every kill and the final
resume, the requests the judge received stay within the cap plus the calls in flight at each kill
(calls are counted when admitted, before they are sent, so a call cap is not passed at all).
"""

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

import pytest

from agent_evaluators.testing import JudgeServer
from tests.conftest import optional_import

from ..runner.budget_helpers import PER_CALL, priced_judge
from ..runner.distributed.helpers import make_rows, write_data
from .figures import record

REPO = Path(__file__).resolve().parents[2]
CONCURRENCY = 4


def _child(data: Path, out: Path, server: JudgeServer, kind: str, cap: float, engine: str = "local") -> List[str]:
    return [sys.executable, "-m", "tests.reliability.budget_child", str(data), str(out), server.url + "/v1", kind,
            str(cap), str(CONCURRENCY), engine]


def _killed(cmd: List[str], server: JudgeServer, after: int, wait_s: float = 60.0) -> int:
    """Run ``cmd`` until the judge has seen ``after`` more requests, then SIGKILL it; its exit code."""
    start = server.stats()["requests"]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + wait_s
    while proc.poll() is None and server.stats()["requests"] < start + after and time.monotonic() < deadline:
        time.sleep(0.002)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, -signal.SIGKILL), err.decode(errors="replace")[-3000:]
    return proc.returncode


def budget_kill_loop(tmp_path: Path, *, seed: int, kind: str, cap_calls: int, kills: int, rows: int,
                     engine: str = "local") -> Dict[str, object]:
    rng = random.Random(seed)
    data = write_data(tmp_path / "data.jsonl", make_rows(rows))
    out = tmp_path / "run"
    cap = cap_calls if kind == "calls" else cap_calls * PER_CALL
    exits = []
    with JudgeServer(priced_judge, delay_s=0.02) as server:
        cmd = _child(data, out, server, kind, cap, engine)
        for _ in range(kills):
            exits.append(_killed(cmd, server, rng.randint(1, max(1, cap_calls // kills))))
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, timeout=300)
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
        sent = server.stats()["requests"]
    summary = json.loads((out / "summary.json").read_text())
    budget = summary["budget"]
    killed = exits.count(-signal.SIGKILL)
    figures = {"engine": engine, "cap_kind": kind, "cap_calls": cap_calls, "seed": seed, "kills": killed,
               "requests_sent": sent, "recorded_calls": budget["judge_calls"], "status": summary["status"]}
    record("budget_kills", figures)
    assert killed >= kills // 2, f"too few runs were killed part-way: {exits}"
    # calls are counted when admitted, before they are sent: a kill loses none of them
    assert sent <= cap_calls, figures
    assert budget["judge_calls"] >= sent, figures
    assert summary["status"] == "stopped" and budget["stopped"], figures
    if kind == "cost":
        assert budget["cost_usd"] <= cap + 1e-9 and sent * PER_CALL <= cap + CONCURRENCY * PER_CALL, figures
    return figures


def test_a_killed_capped_run_resumes_from_what_it_spent(tmp_path):
    figures = budget_kill_loop(tmp_path, seed=1, kind="calls", cap_calls=12, kills=2, rows=30)
    # calls are counted when admitted, before they are sent: a call admitted and then lost to a kill counts
    # against the cap unsent, so the run records the cap exactly and sends at most it (at most the calls in
    # flight short of it per kill)
    assert figures["recorded_calls"] == 12, figures
    assert 12 - 2 * CONCURRENCY <= figures["requests_sent"] <= 12, figures
    journal = [json.loads(line) for line in (tmp_path / "run" / "spend.jsonl").read_text().splitlines()]
    assert {line["run"] for line in journal} == {json.loads((tmp_path / "run" / "summary.json").read_text())[
        "budget"]["journal"]}


def test_a_run_killed_before_its_first_row_still_counts_what_it_sent(tmp_path):
    data = write_data(tmp_path / "data.jsonl", make_rows(12))
    out = tmp_path / "run"
    with JudgeServer(priced_judge, delay_s=1.0) as server:  # no row finishes before the kill
        cmd = _child(data, out, server, "calls", 6)
        assert _killed(cmd, server, CONCURRENCY) == -signal.SIGKILL
        assert not (out / "summary.json").exists() and (out / "spend.jsonl").exists()
        first = server.stats()["requests"]
        server.delay_s = 0.0
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
        sent = server.stats()["requests"]
    assert first == CONCURRENCY and sent <= 6, (first, sent)
    assert json.loads((out / "summary.json").read_text())["budget"]["judge_calls"] == 6


def test_a_killed_resume_keeps_the_budget_record_of_the_stopped_run(tmp_path):
    data = write_data(tmp_path / "data.jsonl", make_rows(30))
    out = tmp_path / "run"
    with JudgeServer(priced_judge, delay_s=0.05) as server:
        done = subprocess.run(_child(data, out, server, "calls", 4), cwd=REPO, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
        stopped = json.loads((out / "summary.json").read_text())
        assert stopped["status"] == "stopped" and stopped["budget"]["judge_calls"] == 4
        proc = subprocess.Popen(_child(data, out, server, "calls", 20), cwd=REPO, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while json.loads((out / "summary.json").read_text())["status"] != "running" and time.monotonic() < deadline:
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        running = json.loads((out / "summary.json").read_text())
        # the resume's summary still holds the budget: what the folder had spent, and its chain in spend.jsonl
        assert running["status"] == "running" and running["budget"]["judge_calls"] >= 4
        assert running["budget"]["journal"] == stopped["budget"]["journal"]
        last = subprocess.run(_child(data, out, server, "calls", 20), cwd=REPO, capture_output=True, timeout=120)
        assert last.returncode == 0, last.stderr.decode(errors="replace")[-3000:]
        assert server.stats()["requests"] <= 20
    assert json.loads((out / "summary.json").read_text())["budget"]["judge_calls"] == 20


@pytest.mark.heavy
@pytest.mark.parametrize("seed", [2, 3, 4])
@pytest.mark.parametrize("kind", ["calls", "cost"])
def test_budget_kill_loop(tmp_path, seed, kind):
    budget_kill_loop(tmp_path, seed=seed, kind=kind, cap_calls=40, kills=6, rows=80)


@pytest.mark.heavy
@pytest.mark.ray
def test_budget_kill_loop_on_ray(tmp_path):
    optional_import("ray")
    budget_kill_loop(tmp_path, seed=5, kind="calls", cap_calls=30, kills=3, rows=60, engine="ray")
