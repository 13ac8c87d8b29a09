"""Issue 20 "A verdict you can trust", item 17: ``evaluate()`` on a data file with no rows.

Before the fix Python ``evaluate()`` returned ``{'len.n': 0, ...}`` silently while
``agent-eval run`` exited 2; now both say the same: an :class:`InputError` with the CLI's
message, raised before the run folder is touched. An empty in-memory iterable stays an empty
result (a filter that matched nothing is the caller's own value), with a warning.
"""

import io
import json
import logging

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import InputError


def _length(response: str) -> dict:
    return {"length": len(response)}


@pytest.mark.parametrize("content", ["", "\n  \n\n"])
def test_an_empty_data_file_is_an_input_error_like_the_cli(tmp_path, content):
    data = tmp_path / "data.jsonl"
    data.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=r"data\.jsonl holds no rows \(empty, or only blank lines\)"):
        evaluate(data=str(data), evaluators={"len": _length})
    with pytest.raises(InputError, match="holds no rows"):
        evaluate(data=io.StringIO(content), evaluators={"len": _length})


def test_an_empty_data_file_leaves_the_earlier_run_in_place(tmp_path):
    out = tmp_path / "out"
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"response": "abc"}) + "\n", encoding="utf-8")
    evaluate(data=str(data), evaluators={"len": _length}, output_path=out)
    before = (out / "rows.jsonl").read_bytes(), (out / "summary.json").read_bytes()
    data.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="holds no rows"):
        evaluate(data=str(data), evaluators={"len": _length}, output_path=out)
    assert ((out / "rows.jsonl").read_bytes(), (out / "summary.json").read_bytes()) == before


def test_an_empty_list_is_an_empty_result_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="agent_evaluators.runner"):
        result = evaluate(data=[], evaluators={"len": _length})
    assert result.metrics["len.n"] == 0 and len(result.rows) == 0
    assert "holds no rows" in caplog.text
