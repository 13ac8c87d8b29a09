"""Issue "Reliability, round two", item 7: one bad row must not sink the run.

Before the fix a row that contains itself, an int over 4,300 digits, or an evaluator returning
a self-referencing dict raised out of the row writer, aborted the run and left summary.json
``running``; a deeply nested ``.json`` array or ``.evalset.json`` raised a raw RecursionError.
Each test here fails on that code (the run raised ValueError / RecursionError).
"""

import json
import sys

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import InputError


def _length(response) -> dict:
    return {"length": len(str(response)) if not isinstance(response, int) else 1}


def _rows():
    looped: dict = {"response": "fine"}
    looped["self"] = looped
    listy: list = []
    listy.append(listy)
    return [
        {"response": "row zero"},
        looped,
        {"response": "row two", "items": listy},
        {"response": 10 ** 5000},
        {"response": "row four"},
    ]


def test_unwritable_input_rows_become_error_rows_naming_row_and_column(tmp_path):
    out = tmp_path / "out"
    result = evaluate(data=_rows(), evaluators={"len": _length}, output_path=out)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "complete"
    assert [r["line_number"] for r in result.rows] == [0, 1, 2, 3, 4]
    ok = {r["line_number"] for r in result.rows if r["cell_status"] == {"len": "ok"}}
    assert ok == {0, 4}
    by_line = {r["line_number"]: r for r in result.rows}
    assert "row 1" in by_line[1]["row_error"] and "'self'" in by_line[1]["row_error"]
    assert "row 2" in by_line[2]["row_error"] and "'items'" in by_line[2]["row_error"]
    assert "row 3" in by_line[3]["row_error"] and "'response'" in by_line[3]["row_error"]
    assert "4300" in by_line[3]["row_error"] or "4,300" in by_line[3]["row_error"]
    assert by_line[1]["outputs.len.error"] == by_line[1]["row_error"]
    assert summary["error_count"] == 3
    # every line on disk is valid JSON
    lines = (out / "rows.jsonl").read_text().splitlines()
    assert len(lines) == 5 and all(json.loads(line) for line in lines)


def test_evaluator_returning_unwritable_value_becomes_its_error_cell(tmp_path):
    def loops(response: str) -> dict:
        out: dict = {"score": 1}
        out["me"] = out
        return out

    def huge(response: str) -> dict:
        return {"score": 10 ** 4400}

    out = tmp_path / "out"
    result = evaluate(data=[{"response": f"r{i}"} for i in range(4)],
                      evaluators={"loops": loops, "huge": huge, "len": _length}, output_path=out)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "complete"
    assert len(result.rows) == 4
    for row in result.rows:
        assert row["cell_status"] == {"loops": "error", "huge": "error", "len": "ok"}
        assert row["inputs.response"] == f"r{row['line_number']}"
        assert "evaluator 'loops'" in row["outputs.loops.error"] and "outputs.loops.me" in row["outputs.loops.error"]
        assert f"row {row['line_number']}" in row["outputs.huge.error"]
        assert row["outputs.len.length"] == 2
    assert summary["error_count"] == 8


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_deeply_nested_json_array_file_is_an_input_error_naming_the_file(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" + _deep(sys.getrecursionlimit() * 4) + "]")
    with pytest.raises(InputError, match="deep.json"):
        evaluate(data=str(path), evaluators={"len": _length})


def test_deeply_nested_evalset_is_an_input_error_naming_the_file(tmp_path):
    path = tmp_path / "deep.evalset.json"
    path.write_text('{"eval_set_id": "x", "eval_cases": ' + _deep(sys.getrecursionlimit() * 4) + "}")
    with pytest.raises(InputError, match="deep.evalset.json"):
        evaluate(data=str(path), evaluators={"len": _length}, output_path=tmp_path / "out")


def test_target_returning_unwritable_value_becomes_a_target_error(tmp_path):
    def target(response: str) -> dict:
        out: dict = {"answer": response}
        if response == "bad":
            out["loop"] = out
        return out

    out = tmp_path / "out"
    result = evaluate(data=[{"response": "good"}, {"response": "bad"}], target=target,
                      evaluators={"len": _length}, output_path=out)
    good, bad = result.rows
    assert good["cell_status"] == {"len": "ok"} and good["outputs.answer"] == "good"
    assert "row 1" in bad["target_error"] and "'loop'" in bad["target_error"]
    assert bad["cell_status"] == {"len": "error"}
    assert json.loads((out / "summary.json").read_text())["status"] == "complete"
