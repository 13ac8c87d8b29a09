"""``task_navigation_efficiency`` from the command line: listed, picked with ``-e``, its matching mode set
with ``--option`` or a run config's ``options``."""

import json

from .helpers import agent_eval, write_jsonl

KEY = "task_navigation_efficiency"


def _azure_run(*names):
    return [{"role": "user", "content": "Plan my trip"}] + [
        {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": f"c{i}", "name": n, "arguments": {}}]}
        for i, n in enumerate(names)
    ]


ROWS = [
    {"id": "exact", "response": _azure_run("search", "book"), "steps": ["search", "book"]},
    {"id": "extra", "response": _azure_run("search", "fetch", "book"), "steps": ["search", "book"]},
    {"id": "swapped", "response": _azure_run("book", "search"), "steps": ["search", "book"]},
]


def _metrics(out_dir):
    return json.loads((out_dir / "summary.json").read_text())["metrics"]


def test_list_shows_it_with_its_matching_mode():
    r = agent_eval("list", "--json")
    assert r.rc == 0, r
    entry = json.loads(r.out)["task_navigation_efficiency"]
    assert entry["key"] == KEY and entry["judge"] is False and entry["threshold"] == 1.0
    assert entry["inputs"] == ["response=None", "ground_truth=None", "actions=None", "expected_actions=None"]
    assert entry["options"] == ["matching_mode='exact_match'"]


def test_run_picks_the_mode_with_option(tmp_path):
    data = write_jsonl(tmp_path / "runs.jsonl", ROWS)
    common = ("run", "--data", data, "-e", "task_navigation_efficiency=nav", "--map", "nav.ground_truth=steps")
    exact = agent_eval(*common, "-o", tmp_path / "exact")
    assert exact.rc == 1, exact  # exact_match (the default): only the first row passes
    assert _metrics(tmp_path / "exact")[f"nav.{KEY}"] == 1 / 3
    in_order = agent_eval(*common, "--option", "nav.matching_mode=in_order_match", "-o", tmp_path / "in_order")
    assert in_order.rc == 1, in_order
    assert _metrics(tmp_path / "in_order")[f"nav.{KEY}"] == 2 / 3
    bad = agent_eval(*common, "--option", "nav.matching_mode=sideways", "-o", tmp_path / "bad")
    assert bad.rc == 2 and "matching_mode" in bad.err and "any_order_match" in bad.err, bad


def test_a_run_config_sets_the_mode_under_options(tmp_path):
    data = write_jsonl(tmp_path / "runs.jsonl", ROWS)
    cfg = tmp_path / "eval.yaml"
    cfg.write_text(f"data: {data}\nevaluators:\n  nav:\n    type: task_navigation_efficiency\n"
                   "    options: {matching_mode: any_order_match}\n"
                   "    column_mapping:\n      expected_actions: ${data.steps}\n"
                   f"thresholds:\n  - nav.{KEY} >= 1.0\n")
    r = agent_eval("run", "--config", cfg, "-o", tmp_path / "out")
    assert r.rc == 0, r
    assert _metrics(tmp_path / "out")[f"nav.{KEY}"] == 1.0
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert {row[f"outputs.nav.{KEY}_details"]["matching_mode"] for row in rows} == {"any_order_match"}
