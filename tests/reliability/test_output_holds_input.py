"""Issue "Reliability, round two", item 2: an ``output_path`` that holds the data file.

Before the fix ``evaluate(data="runs/rows.jsonl", output_path="runs")`` truncated
runs/rows.jsonl before reading it and reported a complete run with 0 rows. These tests
fail on that code (no error; the input file emptied).
"""

import os

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError

from .run_support import write_rows


def _length(response: str) -> dict:
    return {"length": len(response)}


def _earlier_run(out):
    evaluate(data=[{"response": f"r{i}"} for i in range(20)], evaluators={"len": _length}, output_path=out)
    return (out / "rows.jsonl").read_bytes()


def test_data_that_is_the_runs_rows_file_is_refused_untouched(tmp_path):
    out = tmp_path / "runs"
    before = _earlier_run(out)
    summary = (out / "summary.json").read_bytes()
    with pytest.raises(ConfigError, match="would be overwritten"):
        evaluate(data=str(out / "rows.jsonl"), evaluators={"len": _length}, output_path=out)
    assert (out / "rows.jsonl").read_bytes() == before
    assert (out / "summary.json").read_bytes() == summary


def test_relative_paths_and_symlinks_are_resolved(tmp_path, monkeypatch):
    out = tmp_path / "runs"
    before = _earlier_run(out)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError):
        evaluate(data="runs/../runs/rows.jsonl", evaluators={"len": _length}, output_path="runs")
    link = tmp_path / "data.jsonl"
    os.symlink(out / "rows.jsonl", link)
    with pytest.raises(ConfigError, match="data.jsonl"):
        evaluate(data=str(link), evaluators={"len": _length}, output_path=out, resume=True)
    alias = tmp_path / "alias"
    os.symlink(out, alias)
    with pytest.raises(ConfigError):
        evaluate(data=str(out / "rows.jsonl"), evaluators={"len": _length}, output_path=alias)
    with open(out / "rows.jsonl", encoding="utf-8") as f:  # an open file object too
        with pytest.raises(ConfigError):
            evaluate(data=f, evaluators={"len": _length}, output_path=out)
    assert (out / "rows.jsonl").read_bytes() == before


def test_summary_file_as_data_is_refused(tmp_path):
    out = tmp_path / "runs"
    _earlier_run(out)
    with pytest.raises(ConfigError):
        evaluate(data=str(out / "summary.json"), evaluators={"len": _length}, output_path=out)


def test_other_files_in_the_folder_are_fine(tmp_path):
    out = tmp_path / "runs"
    out.mkdir()
    data = write_rows(out / "data.jsonl", 5)
    result = evaluate(data=str(data), evaluators={"len": _length}, output_path=out)
    assert len(result.rows) == 5
