"""The Ray engine under the reliability fixes of round two (they live in the ledger it shares with
the local engine): a locked folder is refused, and unwritable rows become error rows / cells
(encoded on the worker by the same ``encode_row``)."""

import json

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.runner.lock import RunFolderLock

pytestmark = [pytest.mark.heavy, pytest.mark.ray]


def loops_on_odd(response: str) -> dict:
    out: dict = {"length": len(response)}
    if len(response) % 2:
        out["me"] = out
    return out


def test_ray_unwritable_rows_and_cells_do_not_sink_the_run(ray_cluster, tmp_path):
    looped: dict = {"response": "xx"}
    looped["self"] = looped
    rows = [{"response": "ab"}, {"response": "abc"}, looped, {"response": "abcd"}]
    out = tmp_path / "out"
    result = evaluate(data=rows, evaluators={"ev": loops_on_odd}, output_path=out, engine="ray")
    status = {r["line_number"]: r["cell_status"]["ev"] for r in result.rows}
    assert status == {0: "ok", 1: "error", 2: "error", 3: "ok"}
    by_line = {r["line_number"]: r for r in result.rows}
    assert "evaluator 'ev'" in by_line[1]["outputs.ev.error"]
    assert "'self'" in by_line[2]["row_error"]
    assert json.loads((out / "summary.json").read_text())["status"] == "complete"


def test_ray_run_on_a_locked_folder_is_refused(ray_cluster, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    lock = RunFolderLock(out)  # flock is per open file: a second open in this process conflicts too
    try:
        with pytest.raises(ConfigError, match="in use by another run"):
            evaluate(data=[{"response": "a"}], evaluators={"ev": loops_on_odd}, output_path=out, engine="ray")
    finally:
        lock.release()
