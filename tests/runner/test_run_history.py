"""A finished, paid run is not replaced by a rerun (issue 35 item 12): ``output_path`` stays the folder
of the latest run, and a complete run it held moves to ``history/<its start time>/`` first, byte for
byte; a run that did not finish is still refused without ``force`` and, with it, replaced as before."""

import json

import pytest

from agent_evaluators import ResponseMatchEvaluator, evaluate
from agent_evaluators.errors import ConfigError
from tests.cli.helpers import AGENTS, agent_eval


def _run(out, **kw):
    return evaluate(data=str(AGENTS), evaluators={"match": ResponseMatchEvaluator()}, output_path=out,
                    show_progress=False, **kw)


def test_a_rerun_keeps_the_finished_run_in_history(tmp_path):
    out = tmp_path / "out"
    _run(out)
    first_rows, first_summary = (out / "rows.jsonl").read_bytes(), json.loads((out / "summary.json").read_text())
    _run(out)
    (entry,) = (out / "history").iterdir()
    assert (entry / "rows.jsonl").read_bytes() == first_rows
    assert json.loads((entry / "summary.json").read_text()) == first_summary
    latest = json.loads((out / "summary.json").read_text())
    assert latest["status"] == "complete" and latest["started_at"] != first_summary["started_at"]
    _run(out)
    assert len(list((out / "history").iterdir())) == 2


def test_an_unfinished_run_is_still_refused_and_force_replaces_it_without_history(tmp_path):
    out = tmp_path / "out"
    _run(out)
    summary = json.loads((out / "summary.json").read_text())
    (out / "summary.json").write_text(json.dumps({**summary, "status": "interrupted"}))
    with pytest.raises(ConfigError, match="was interrupted"):
        _run(out)
    _run(out, force=True)
    assert not (out / "history").exists()


def test_the_cli_says_where_the_earlier_run_went(tmp_path):
    args = ("run", "--data", AGENTS, "-e", "response_match", "-o", tmp_path / "out")
    assert agent_eval(*args).rc in (0, 1)
    again = agent_eval(*args)
    assert again.rc in (0, 1), again
    assert "held a finished run: kept in" in again.err and "history" in again.err, again
    report = agent_eval("report", tmp_path / "out", "-o", tmp_path / "r.html")
    assert report.rc == 0, report
