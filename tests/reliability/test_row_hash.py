"""Issue 21 "Reliability, round three", item 11: ``row_hash`` for rows that are not plain JSON.

Before the fix ``row_hash`` was ``json.dumps(row, sort_keys=True, default=repr)``: a row with
keys of mixed types (``DataFrame.to_dict("records")`` with integer labels beside named ones)
raised inside it and got no hash, so after a reorder every row kept another row's result;
a row holding a set (its order changes with the process's hash seed) or an object whose
repr is its memory address hashed differently in every process and was re-judged on every
resume. These tests fail on that code.
"""

import json
import logging
import os
import subprocess
import sys
import textwrap

from agent_evaluators import evaluate

from .run_support import REPO


def _length(response: str) -> dict:
    return {"length": len(response)}


def test_rows_with_integer_labels_are_checked_after_a_reorder(tmp_path):
    out = tmp_path / "out"
    rows = [{"response": "x" * (i + 1), 0: i, 1: f"label {i}"} for i in range(6)]  # to_dict("records") shape
    evaluate(data=rows, evaluators={"len": _length}, output_path=out)
    assert all("row_hash" in json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines())
    result = evaluate(data=list(reversed(rows)), evaluators={"len": _length}, output_path=out, resume=True)
    assert [r["outputs.len.length"] for r in result.rows] == [len(r["response"]) for r in reversed(rows)]
    assert result.summary["rows_changed"] == 6 and result.summary["rows_reused"] == 0


_RUN = textwrap.dedent("""
    import json, sys
    from agent_evaluators import evaluate

    def length(response, tags):
        return {"length": len(response)}

    rows = [{"response": "r" * i, "tags": {"alpha", "beta", "gamma", "delta", "eps"}, "ids": frozenset({i, i + 7})}
            for i in range(1, 5)]
    result = evaluate(data=rows, evaluators={"len": length}, output_path=sys.argv[1], resume=sys.argv[2] == "1")
    print(json.dumps({"reused": result.summary["rows_reused"], "changed": result.summary["rows_changed"]}))
""")


def _run_in_new_process(out, seed: str, resume: bool) -> dict:
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", _RUN, str(out), "1" if resume else "0"], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_rows_holding_sets_are_reused_by_a_resume_in_another_process(tmp_path):
    out = tmp_path / "out"
    _run_in_new_process(out, "1", resume=False)
    assert _run_in_new_process(out, "2", resume=True) == {"reused": 4, "changed": 0}


class _Opaque:
    """An object whose repr is its address: no stable rendering exists."""


def test_a_row_that_cannot_be_hashed_is_warned_about(tmp_path, caplog):
    rows = [{"response": "a"}, {"response": "bb", "handle": _Opaque()}]
    with caplog.at_level(logging.WARNING, logger="agent_evaluators.runner"):
        result = evaluate(data=rows, evaluators={"len": _length}, output_path=tmp_path / "out")
    assert [r["outputs.len.length"] for r in result.rows] == [1, 2]
    assert "row 1 cannot be hashed" in caplog.text and "_Opaque" in caplog.text
