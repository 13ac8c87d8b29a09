"""Crash part-way, then resume: every row exactly once, only missing or failed cells re-run.

The first run is a real subprocess killed with SIGKILL once some rows are on disk;
calls are counted through the evaluator's side-channel file.
"""

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.runner import EvaluatorErrors

from .crash_worker import SlowLogged
from .helpers import ExactMatch, read_lines, write_jsonl

REPO = Path(__file__).resolve().parents[2]
N = 60
FLAKY = {5, 7}


def _data(path: Path) -> Path:
    rows = [{"response": ("flaky" if i in FLAKY else "r") + "x" * (i % 4), "row_id": i} for i in range(N)]
    return write_jsonl(path, rows)


def _calls(path: Path) -> list:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _ok_lines(rows_file: Path) -> set:
    ok = set()
    for raw in rows_file.read_bytes().split(b"\n"):
        try:
            rec = json.loads(raw)
        except ValueError:
            continue
        if rec["cell_status"].get("slow") == "ok":
            ok.add(rec["line_number"])
    return ok


@pytest.fixture
def crashed_run(tmp_path):
    data = _data(tmp_path / "d.jsonl")
    out, calls, heal = tmp_path / "run", tmp_path / "calls.txt", tmp_path / "healed"
    code = "from tests.runner.crash_worker import main; main()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(data), str(out), str(calls), str(heal), "0.05"],
        cwd=REPO,
        stderr=subprocess.PIPE,
    )
    rows_file = out / "rows.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if rows_file.exists() and rows_file.read_bytes().count(b"\n") >= 15:
            break
        if proc.poll() is not None:
            pytest.fail(f"worker exited early: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert json.loads((out / "summary.json").read_text())["status"] == "running"
    return data, out, calls, heal


def test_resume_after_kill_runs_each_missing_cell_once(crashed_run):
    data, out, calls, heal = crashed_run
    rows_file = out / "rows.jsonl"
    # a crash during a write (power cut) can leave a torn last line: the reader must cope
    with open(rows_file, "ab") as f:
        f.write(b'{"line_number": 3, "inputs.resp')
    ok_before = _ok_lines(rows_file)
    assert 10 <= len(ok_before) < N
    n_calls_before = len(_calls(calls))
    heal.write_text("")

    result = evaluate(
        data=data, evaluators={"slow": SlowLogged(str(calls), str(heal), 0.05)}, output_path=out, resume=True
    )
    resumed_calls = _calls(calls)[n_calls_before:]
    assert Counter(resumed_calls) == Counter(set(range(N)) - ok_before)
    lines = [r["line_number"] for r in result.rows]
    assert lines == list(range(N))
    assert all(r["cell_status"] == {"slow": "ok"} for r in result.rows)
    assert result.metrics["slow.n"] == N and result.metrics["slow.error_count"] == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "complete" and summary["rows_reused"] == len(ok_before)

    # a second resume has nothing left to do
    again = evaluate(
        data=data, evaluators={"slow": SlowLogged(str(calls), str(heal), 0.05)}, output_path=out, resume=True
    )
    assert len(_calls(calls)) == n_calls_before + len(resumed_calls)
    assert again.metrics == result.metrics


def test_resume_refuses_changed_data_or_config(crashed_run):
    data, out, calls, heal = crashed_run
    with pytest.raises(ConfigError) as e:
        evaluate(data=data, evaluators={"slow": SlowLogged(str(calls), str(heal), 0.5)}, output_path=out, resume=True)
    msg = str(e.value)
    assert "evaluator 'slow' changed" in msg and "delay: 0.05 -> 0.5" in msg and "force=True" in msg

    with open(data, "a") as f:
        f.write(json.dumps({"response": "new", "row_id": N}) + "\n")
    with pytest.raises(ConfigError, match="data file's content changed.*force=True"):
        evaluate(data=data, evaluators={"slow": SlowLogged(str(calls), str(heal), 0.05)}, output_path=out, resume=True)

    forced = evaluate(
        data=data, evaluators={"slow": SlowLogged(str(calls), str(heal), 0.05)}, output_path=out, resume=True, force=True
    )
    assert [r["line_number"] for r in forced.rows] == list(range(N + 1))


def test_rerun_failed_reruns_error_cells_only(tmp_path):
    data = _data(tmp_path / "d.jsonl")
    out, calls, heal = tmp_path / "run", tmp_path / "calls.txt", tmp_path / "healed"
    ev = lambda: {"slow": SlowLogged(str(calls), str(heal), 0.0), "ex": ExactMatch()}  # noqa: E731
    cfg = {"ex": {"column_mapping": {"ground_truth": "${data.response}"}}}
    first = evaluate(data=data, evaluators=ev(), evaluator_config=cfg, output_path=out)
    assert {e["line_number"] for e in first.errors} == FLAKY
    assert first.metrics["slow.error_count"] == 2 and first.metrics["slow.n"] == N - 2
    before = len(_calls(calls))
    heal.write_text("")

    second = evaluate(data=data, evaluators=ev(), evaluator_config=cfg, output_path=out, rerun_failed=True)
    assert sorted(_calls(calls)[before:]) == sorted(FLAKY)
    assert [r["line_number"] for r in second.rows] == list(range(N))
    assert second.metrics["slow.error_count"] == 0 and second.metrics["slow.n"] == N
    # latest record wins: rows.jsonl holds 2 extra records, result.rows none
    assert len(read_lines(out / "rows.jsonl")) == N + 2
    assert second.rows[5]["outputs.slow.slow"] == float(len("flaky" + "x"))
    assert second.rows[5]["outputs.ex.exact"] == 1.0  # kept cell carried over


def test_fail_on_evaluator_errors_raises_after_saving(tmp_path):
    data = _data(tmp_path / "d.jsonl")
    out, calls, heal = tmp_path / "run", tmp_path / "calls.txt", tmp_path / "healed"
    with pytest.raises(EvaluatorErrors) as e:
        evaluate(
            data=data,
            evaluators={"slow": SlowLogged(str(calls), str(heal), 0.0)},
            output_path=out,
            fail_on_evaluator_errors=True,
        )
    assert "2 evaluator cell(s) failed" in str(e.value) and "flaky failure on 5" in str(e.value)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "complete" and summary["error_count"] == 2
    assert len(read_lines(out / "rows.jsonl")) == N
    assert e.value.result.metrics["slow.n"] == N - 2


def test_timeout_becomes_error_cell():
    import asyncio
    import time as _time

    from agent_evaluators import blocking

    async def hangs(response):
        if response == "hang":
            await asyncio.sleep(5)
        return 1

    def blocks(response):
        if response == "hang":
            _time.sleep(1.0)
        return 1

    async def own_timeout(response):
        raise TimeoutError("upstream said no")

    t0 = time.monotonic()
    result = evaluate(
        data=[{"response": "ok"}, {"response": "hang"}],
        evaluators={"a": hangs, "b": blocking(blocks), "c": own_timeout},
        timeout=0.2,
    )
    assert time.monotonic() - t0 < 3
    bad = result.rows[1]
    assert "row 1: evaluator 'a'" in bad["outputs.a.error"] and "timed out after 0.2 s" in bad["outputs.a.error"]
    assert "timed out after 0.2 s" in bad["outputs.b.error"]
    assert result.metrics["a.n"] == 1 and result.metrics["a.error_count"] == 1
    # an evaluator's own TimeoutError is reported as such, not as our deadline
    assert "TimeoutError: upstream said no" in bad["outputs.c.error"] and "timed out after" not in bad["outputs.c.error"]
