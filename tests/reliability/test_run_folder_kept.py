"""Issue 21 "Reliability, round three", item 8: a run that cannot start leaves the folder as it was.

Before the fix a new run wrote ``summary.json`` (``running``) and emptied ``rows.jsonl``
before its first-row check: a column mapping the first row did not have failed the run
*after* the earlier results were wiped (``rows.jsonl`` 0 bytes, summary ``running``). And a
``rows.jsonl`` this tool never wrote (no ``summary.json`` beside it) was truncated by any run
pointed at its folder. Both tests fail on that code.
"""

import json

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError, InputError

from ..cli.helpers import agent_eval, write_jsonl


def _length(response: str) -> dict:
    return {"length": len(response)}


ROWS = [{"response": "a"}, {"response": "bb"}]


@pytest.mark.parametrize("garbled_first_line", [False, True])
def test_a_run_failing_its_first_row_check_keeps_the_earlier_results(tmp_path, garbled_first_line):
    out = tmp_path / "out"
    evaluate(data=ROWS, evaluators={"len": _length}, output_path=out)
    rows_before = (out / "rows.jsonl").read_bytes()
    summary_before = (out / "summary.json").read_bytes()
    assert rows_before and json.loads(summary_before)["status"] == "complete"

    data = tmp_path / "new.jsonl"
    data.write_text(("{not json\n" if garbled_first_line else "") + "".join(json.dumps(r) + "\n" for r in ROWS))
    bad_mapping = {"len": {"column_mapping": {"response": "${data.answer}"}}}
    with pytest.raises((InputError, ConfigError), match="answer"):
        evaluate(data=str(data), evaluators={"len": _length}, evaluator_config=bad_mapping, output_path=out)
    assert (out / "rows.jsonl").read_bytes() == rows_before
    assert (out / "summary.json").read_bytes() == summary_before
    # the folder is free and intact: resume still accepts it and reuses every row
    again = evaluate(data=ROWS, evaluators={"len": _length}, output_path=out, resume=True)
    assert again.summary["rows_reused"] == 2


def test_a_rows_file_without_its_summary_is_never_replaced(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    out = tmp_path / "out"
    out.mkdir()
    foreign = out / "rows.jsonl"
    foreign.write_text('{"someone": "else wrote this"}\n', encoding="utf-8")

    r = agent_eval("run", "--data", data, "-e", "response_match", "--map", "default.ground_truth=response",
                   "--output", out)
    assert r.rc == 2, r
    assert f"{foreign} has no summary.json beside it" in r.err and "Move or delete it" in r.err, r
    assert foreign.read_text(encoding="utf-8") == '{"someone": "else wrote this"}\n'
    assert not (out / "summary.json").exists()

    with pytest.raises(ConfigError, match="has no summary.json beside it"):
        evaluate(data=ROWS, evaluators={"len": _length}, output_path=out, force=True)
    assert foreign.read_text(encoding="utf-8") == '{"someone": "else wrote this"}\n'
