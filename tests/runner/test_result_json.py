"""Issue 20 "A verdict you can trust", item 16: ``json.dumps(evaluate(...))``.

azure-ai-evaluation's ``evaluate()`` returns a plain dict, and code written for it dumps the
result as JSON. Before the fix our result was a ``Mapping`` (not a dict), so ``json.dumps``
raised ``TypeError``. It is a ``dict`` now; with ``output_path`` the rows stay lazy in memory
(``result.rows`` reads one row per access) and are read from ``rows.jsonl`` when serialised.
"""

import json

from agent_evaluators import evaluate
from agent_evaluators.runner.store import RowsView


def _length(response: str) -> dict:
    return {"length": len(response), "length_result": "pass" if len(response) > 1 else "fail"}


ROWS = [{"response": "a"}, {"response": "bb"}, {"response": "ccc"}]


def _check(doc: dict, result) -> None:
    assert set(doc) == {"rows", "metrics", "studio_url"} and doc["studio_url"] is None
    assert [r["outputs.len.length"] for r in doc["rows"]] == [1, 2, 3]
    assert doc["metrics"] == result.metrics and doc["metrics"]["len.pass_rate"] == 2 / 3


def test_a_result_kept_in_memory_is_json_as_is():
    result = evaluate(data=ROWS, evaluators={"len": _length})
    assert isinstance(result, dict)
    _check(json.loads(json.dumps(result)), result)


def test_a_result_with_a_folder_reads_its_rows_from_disk_when_serialised(tmp_path):
    result = evaluate(data=ROWS, evaluators={"len": _length}, output_path=tmp_path / "out")
    assert isinstance(result.rows, RowsView) and result["rows"] is result.rows  # lazy in memory
    _check(json.loads(json.dumps(result)), result)
    _check(json.loads(json.dumps(result, indent=2, sort_keys=True)), result)  # the pure-Python encoder too
    assert isinstance(result.rows, RowsView)  # serialising did not load them for good
    assert result.metrics is result["metrics"] and result.summary["status"] == "complete"
