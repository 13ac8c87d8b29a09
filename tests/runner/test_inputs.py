"""Inputs: JSONL (path and file object), CSV, iterables; bad lines become error rows, the run goes on."""

import io
import json

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.runner import register_reader

from .helpers import ExactMatch, write_jsonl

BAD = '{"response": "b", "ground_truth": '


def test_malformed_jsonl_line_is_error_row_naming_line(tmp_path):
    data = write_jsonl(
        tmp_path / "d.jsonl",
        [
            {"response": "a", "ground_truth": "a"},
            BAD,
            "",
            "[1, 2]",
            {"response": "c", "ground_truth": "x"},
        ],
    )
    result = evaluate(data=data, evaluators={"ex": ExactMatch()})
    rows = list(result.rows)
    assert [r["line_number"] for r in rows] == [0, 1, 2, 3]
    # the line ends after the dangling "ground_truth": , so the value is expected just past its end
    assert f"line 2 of d.jsonl: invalid JSON (column {len(BAD) + 1}): Expecting value" in rows[1]["row_error"]
    assert "line 4 of d.jsonl: expected a JSON object" in rows[2]["row_error"] and "got list" in rows[2]["row_error"]
    assert rows[1]["outputs.ex.exact_result"] == "error" and "line 2" in rows[1]["outputs.ex.exact_error"]
    assert rows[3]["outputs.ex.exact"] == 0.0
    m = result.metrics
    assert m["ex.n"] == 2 and m["ex.error_count"] == 2 and m["ex.pass_rate"] == 0.5


def test_file_object_input(tmp_path):
    buf = io.StringIO('{"response": "a", "ground_truth": "a"}\n{"response": "b", "ground_truth": "a"}\n')
    result = evaluate(data=buf, evaluators={"ex": ExactMatch()})
    assert [r["outputs.ex.exact"] for r in result.rows] == [1.0, 0.0]


def test_csv_input(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("response,ground_truth\na,a\nb,c\n\"x,y\",\"x,y\"\nz,z,extra\n")
    result = evaluate(data=p, evaluators={"ex": ExactMatch()})
    rows = list(result.rows)
    assert [r.get("outputs.ex.exact") for r in rows] == [1.0, 0.0, 1.0, None]
    assert "more fields than the header" in rows[3]["row_error"]


def test_iterable_generator_input_is_lazy():
    produced = []

    def gen():
        for i in range(5):
            produced.append(i)
            yield {"response": str(i), "ground_truth": "1"}
        yield "not a dict"

    result = evaluate(data=gen(), evaluators={"ex": ExactMatch()})
    assert len(result.rows) == 6
    assert result.metrics["ex.pass_rate"] == pytest.approx(0.2)
    assert "expected a dict of columns, got str" in result.rows[5]["row_error"]


def test_unknown_suffix_and_missing_file(tmp_path):
    (tmp_path / "d.parquet").write_text("x")
    with pytest.raises(ConfigError, match="supported suffixes"):
        evaluate(data=tmp_path / "d.parquet", evaluators={"ex": ExactMatch()})
    with pytest.raises(ConfigError, match="not found"):
        evaluate(data=tmp_path / "nope.jsonl", evaluators={"ex": ExactMatch()})


def test_register_reader_plugs_in_a_format(tmp_path):
    p = tmp_path / "d.pipes"
    p.write_text("a|a\nb|c\n")
    register_reader(".pipes", lambda path: ({"response": l.split("|")[0], "ground_truth": l.split("|")[1]} for l in path.read_text().splitlines()))
    result = evaluate(data=p, evaluators={"ex": ExactMatch()})
    assert [r["outputs.ex.exact"] for r in result.rows] == [1.0, 0.0]


def test_adk_evalset_file_becomes_one_row_per_invocation(tmp_path):
    evalset = {
        "eval_set_id": "s1",
        "eval_cases": [
            {
                "eval_id": "case1",
                "conversation": [
                    {
                        "invocation_id": f"inv{i}",
                        "user_content": {"role": "user", "parts": [{"text": f"question {i}"}]},
                        "final_response": {"role": "model", "parts": [{"text": f"answer {i}"}]},
                        "intermediate_data": {"tool_uses": [], "intermediate_responses": []},
                    }
                    for i in range(2)
                ],
            }
        ],
    }
    p = tmp_path / "small.evalset.json"
    p.write_text(json.dumps(evalset))

    def echo_query(query, ground_truth):
        return {"q": query, "gt": ground_truth}

    result = evaluate(data=p, evaluators={"e": echo_query})
    rows = list(result.rows)
    assert [r["outputs.e.q"] for r in rows] == ["question 0", "question 1"]
    assert [r["outputs.e.gt"] for r in rows] == ["answer 0", "answer 1"]
    assert rows[1]["inputs.eval_id"] == "case1" and rows[1]["inputs.invocation_id"] == "inv1"


def test_progress_line_only_when_asked():
    from agent_evaluators.runner.progress import Progress

    out = io.StringIO()  # not a TTY: auto mode prints plain lines (issue 20.8; it used to stay quiet)
    p = Progress(None, stream=out)
    p.update(1)
    p.close()
    assert out.getvalue().startswith("evaluate: 1 rows") and out.getvalue().count("\n") == 1
    out = io.StringIO()
    p = Progress(False, stream=out)
    p.update(1)
    p.close()
    assert out.getvalue() == ""
    p = Progress(True, total=3, stream=out)
    p.update(1, errors=1)
    p.close()
    text = out.getvalue()
    assert text.startswith("\revaluate: 1/3 rows") and "rows/s" in text and "1 errors" in text and text.endswith("\n")
