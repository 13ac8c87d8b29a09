"""Issue "Reliability, round two", item 10: interrupted runs.

Before the fix Ctrl-C showed a raw KeyboardInterrupt traceback, left summary.json
``"status": "running"``, and a later run without ``resume`` wiped the unfinished folder.
These tests fail on that code: the child exits with a traceback (no RunInterrupted), the
summary says ``running``, and the rerun is not refused.
"""

import json
import signal

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError

from .run_support import lines_of, start_slow_run, write_rows


def _length(response: str) -> dict:
    return {"length": len(response)}


@pytest.fixture
def interrupted_run(tmp_path):
    data = write_rows(tmp_path / "data.jsonl", 300)
    out = tmp_path / "out"
    proc = start_slow_run(data, out, delay=0.03)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    return data, out, proc.returncode, stdout, stderr


def test_ctrl_c_saves_rows_and_marks_the_summary_interrupted(interrupted_run):
    data, out, code, stdout, stderr = interrupted_run
    assert code == 130, stderr
    assert "Traceback" not in stderr
    report = json.loads(stdout.strip().splitlines()[-1])
    on_disk = lines_of(out / "rows.jsonl")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "interrupted"
    assert 0 < summary["rows"] == report["rows_done"] == len(on_disk) < 300
    assert report["output_path"] == str(out)
    assert "resume=True" in report["interrupted"]
    assert len({r["line_number"] for r in on_disk}) == len(on_disk)


def test_rerun_without_resume_over_an_interrupted_run_is_refused(interrupted_run):
    data, out, *_ = interrupted_run
    before = (out / "rows.jsonl").read_bytes()
    with pytest.raises(ConfigError) as info:
        evaluate(data=str(data), evaluators={"slow": _length}, output_path=out)
    assert "resume=True" in str(info.value) and "force=True" in str(info.value)
    assert "interrupted" in str(info.value)
    assert (out / "rows.jsonl").read_bytes() == before
    # resume finishes it (force: this process's evaluator is another function than the child's)
    result = evaluate(data=str(data), evaluators={"slow": _length}, output_path=out, resume=True, force=True)
    assert [r["line_number"] for r in result.rows] == list(range(300))
    assert json.loads((out / "summary.json").read_text())["status"] == "complete"


def test_force_replaces_an_interrupted_run(interrupted_run):
    data, out, *_ = interrupted_run
    result = evaluate(data=[{"response": "only"}], evaluators={"slow": _length}, output_path=out, force=True)
    assert len(result.rows) == 1 and len(lines_of(out / "rows.jsonl")) == 1


def test_a_crashed_run_is_not_wiped_either(tmp_path):
    data = write_rows(tmp_path / "data.jsonl", 300)
    out = tmp_path / "out"
    proc = start_slow_run(data, out, delay=0.03)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    assert json.loads((out / "summary.json").read_text())["status"] == "running"
    with pytest.raises(ConfigError, match="did not finish"):
        evaluate(data=str(data), evaluators={"slow": _length}, output_path=out)


def test_a_complete_run_is_still_replaced_at_the_folder_and_kept_in_its_history(tmp_path, caplog):
    out = tmp_path / "out"
    evaluate(data=[{"response": "a"}, {"response": "b"}], evaluators={"len": _length}, output_path=out)
    result = evaluate(data=[{"response": "c"}], evaluators={"len": _length}, output_path=out)
    assert [r["inputs.response"] for r in result.rows] == ["c"]
    assert "held a finished run: kept in" in caplog.text
    (kept,) = (out / "history").iterdir()
    assert len((kept / "rows.jsonl").read_text().splitlines()) == 2


def test_report_of_an_interrupted_folder_says_incomplete(interrupted_run):
    from agent_evaluators.report import write_report
    from agent_evaluators.report.load import load_run

    data, out, *_ = interrupted_run
    run = load_run(out)
    done = len(lines_of(out / "rows.jsonl"))
    assert run.incomplete is not None and run.incomplete.startswith(f"incomplete: {done} of 300 rows")
    html = write_report(out).read_text(encoding="utf-8")
    assert f"incomplete: {done} of 300 rows" in html


def test_cancelled_evaluate_async_marks_the_summary_interrupted(tmp_path):
    import asyncio

    from agent_evaluators import evaluate_async

    out = tmp_path / "out"

    async def slow(response: str) -> dict:
        await asyncio.sleep(0.01)
        return {"length": len(response)}

    async def main() -> None:
        task = asyncio.ensure_future(evaluate_async(
            data=[{"response": f"r{i}"} for i in range(2000)], evaluators={"slow": slow}, output_path=out,
            max_concurrency=2))
        while not (out / "rows.jsonl").exists() or (out / "rows.jsonl").stat().st_size == 0:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "interrupted"
    assert 0 < summary["rows"] == len(lines_of(out / "rows.jsonl")) < 2000
    assert summary["rows_total"] == 2000
