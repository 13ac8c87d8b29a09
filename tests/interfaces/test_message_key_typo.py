"""A misspelled message key is an error naming it, not "response is empty"."""

import json

from tests.cli.helpers import agent_eval, write_jsonl


def test_contnt_typo_names_the_key_and_the_closest_valid_one(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [
        {"response": [{"role": "assistant", "contnt": "Your table is booked."}], "ground_truth": "booked"},
        {"response": [{"role": "assistant", "content": "Your table is booked."}], "ground_truth": "booked"},
    ])
    r = agent_eval("run", "--data", data, "-e", "response_match", "-o", tmp_path / "run")
    assert r.rc == 2, r
    assert "unknown message key 'contnt' (did you mean 'content'?)" in r.out, r
    assert "empty" not in r.out.split("unknown message key", 1)[0].rsplit("row 0", 1)[-1]
    rows = sorted((json.loads(x) for x in (tmp_path / "run" / "rows.jsonl").read_text().splitlines()),
                  key=lambda row: row["line_number"])  # the file is in completion order
    assert rows[1]["cell_status"]["response_match"] == "ok"
