"""``agent-eval list``, ``report`` and ``adk`` through a subprocess."""

import json
from pathlib import Path

from agent_evaluators import registry

from .helpers import AGENTS, SAMPLES, agent_eval, sample_rows, write_jsonl


def test_list_shows_every_registered_evaluator_with_inputs():
    r = agent_eval("list", "--json")
    assert r.rc == 0, r
    listed = json.loads(r.out)
    assert list(listed) == registry.names()
    assert all("error" not in d for d in listed.values()), {k: d for k, d in listed.items() if "error" in d}
    assert listed["tool_trajectory"]["inputs"] == ["response", "ground_truth"]
    assert "match_type='exact'" in listed["tool_trajectory"]["options"]
    assert listed["intent_resolution"]["judge"] is True and listed["intent_resolution"]["threshold"] == 3
    assert "conversation=None" in listed["intent_resolution"]["inputs"]
    text = agent_eval("list")
    assert text.rc == 0 and "tool_trajectory  [deterministic]" in text.out and "intent_resolution  [judge]" in text.out


def test_report_command_compares_two_runs(tmp_path):
    rows = sample_rows()
    mapping = tmp_path / "m.yaml"
    mapping.write_text("evaluators:\n  trajectory:\n    type: tool_trajectory\n    options: {match_type: in_order}\n"
                       "    column_mapping:\n      ground_truth: ${data.expected_tool_calls}\n")
    before = agent_eval("run", "--config", mapping, "--data", AGENTS, "-o", tmp_path / "before")
    fixed = [dict(r) for r in rows]
    bad = next(i for i, r in enumerate(rows) if r["label"] == "bad")  # the first bad run (OpenAI format)
    fixed[bad]["expected_tool_calls"] = [  # now the expectation matches what the agent did
        {"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])}
        for c in rows[bad]["response"][0]["tool_calls"]
    ]
    data = write_jsonl(tmp_path / "after.jsonl", fixed)
    after = agent_eval("run", "--config", mapping, "--data", data, "-o", tmp_path / "after")
    assert before.rc == 1 and after.rc == 1, (before, after)
    r = agent_eval("report", tmp_path / "after", "--compare", tmp_path / "before")
    assert r.rc == 0, r
    page = (tmp_path / "after" / "report.html").read_text()
    assert "Rows that flipped (1)" in page and rows[bad]["id"] in page.split("Rows that flipped")[1].split("</table>")[0]
    assert "+0.083" in page  # trajectory pass rate 9/12 -> 10/12


def test_report_command_on_a_folder_without_a_run_exits_2(tmp_path):
    r = agent_eval("report", tmp_path)
    assert r.rc == 2 and "summary.json" in r.err


def test_adk_subcommand_dispatches_to_the_adk_runner(tmp_path):
    data = SAMPLES / "data"
    r = agent_eval("adk", data / "home_automation.evalset.json", "--actual", data / "home_automation.actual.jsonl",
                   "--config", data / "test_config.json", cwd=tmp_path)
    assert r.rc == 1, r  # home-004 switched off the wrong lamp
    assert "Tests passed: 3" in r.out and "Tests failed: 1" in r.out
    # README: without --output the result file goes to ./.adk/eval_history and its path is printed
    (written,) = (tmp_path / ".adk" / "eval_history").glob("*.evalset_result.json")
    assert f"Eval set result written to {Path('.adk') / 'eval_history' / written.name}" in r.out


def test_no_command_prints_help_and_exits_2():
    r = agent_eval()
    assert r.rc == 2 and "run" in r.out
