"""Issue "Reliability, round two", item 1: two runs on one ``output_path``.

Before the fix both runs went ahead: each process's ``result.rows`` returned rows the other
had evaluated, then JSONDecodeError (``RowWriter`` tracked its own offsets on a shared
O_APPEND file and nothing locked the folder). These tests fail on that code: the second run
was not refused, and ``result.rows`` read whatever now sat at its offsets.
"""

import signal

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import AgentEvalError, ConfigError

from .run_support import lines_of, start_slow_run, write_rows


def _length(response: str) -> dict:
    return {"length": len(response)}


@pytest.mark.parametrize("resume", [False, True])
def test_second_run_on_a_busy_folder_is_refused_naming_the_holder(tmp_path, resume):
    data = write_rows(tmp_path / "data.jsonl", 400)
    out = tmp_path / "out"
    proc = start_slow_run(data, out, delay=0.05)
    try:
        with pytest.raises(ConfigError) as info:
            evaluate(data=str(data), evaluators={"len": _length}, output_path=out, resume=resume)
        assert f"pid {proc.pid}" in str(info.value)
        assert "in use by another run" in str(info.value)
        assert proc.poll() is None  # the holder was not disturbed
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    # a SIGKILLed holder does not block the folder: the kernel dropped its lock
    result = evaluate(data=str(data), evaluators={"slow": _length}, output_path=out, resume=True, force=True)
    assert len(result.rows) == 400
    assert [r["line_number"] for r in result.rows] == list(range(400))
    assert len({r["line_number"] for r in lines_of(out / "rows.jsonl")}) == 400


def test_rows_of_a_result_never_come_from_another_run(tmp_path):
    out = tmp_path / "out"
    first = evaluate(data=[{"response": f"first {i}"} for i in range(50)], evaluators={"len": _length},
                     output_path=out)
    assert first.rows[3]["inputs.response"] == "first 3"
    # a later run replaces the (complete) folder; the first result must not hand out its rows
    evaluate(data=[{"response": f"second run, row {i}"} for i in range(80)], evaluators={"len": _length},
             output_path=out)
    with pytest.raises(AgentEvalError, match="changed after this run wrote it"):
        first.rows[3]
    with pytest.raises(AgentEvalError, match="changed after this run wrote it"):
        list(first.rows)
