"""``agent-eval run`` can do what ``evaluate()`` does: driven through a subprocess, as a shell or CI does."""

import json
import textwrap

from agent_evaluators.testing import JudgeServer, Reply
from tests.cli.helpers import AGENTS, SAMPLES, agent_eval, write_jsonl

TEMPLATE = textwrap.dedent(
    """\
    ---
    name: politeness
    model:
      api: chat
    inputs:
      query:
        type: string
      response:
        type: string
    ---
    system:
    Rate the politeness of the answer from 1 to 10. Reply as JSON {"reason": str, "score": int}.
    user:
    <answer>
    {{response}}
    </answer>
    """
)

MODULE = textwrap.dedent(
    """\
    class LengthEval:
        def __init__(self, *, max_chars=10):
            self.max_chars = max_chars

        def __call__(self, *, response):
            return {"short": 1.0 if len(str(response)) <= self.max_chars else 0.0}
    """
)


def _polite(req):
    return {"reason": "ok", "score": 9 if "please" in req.text.lower() else 2}


def _rows(tmp_path):
    return write_jsonl(tmp_path / "rows.jsonl", [
        {"id": "a", "query": "q", "response": "Please wait."},
        {"id": "b", "query": "q", "response": "No."},
    ])


def test_cli_sample_step_2_maps_ground_truth_and_passes(tmp_path):
    """samples/cli.sh step 2: the CLI maps ground_truth to expected_tool_calls (it used to end in 12 error cells)."""
    r = agent_eval("run", "--data", AGENTS, "-e", "tool_trajectory=trajectory",
                   "--map", "trajectory.ground_truth=expected_tool_calls",
                   "--option", "trajectory.match_type=in_order", "-o", tmp_path / "run")
    assert r.rc == 1, r  # three bad sample runs fail their cell: no thresholds, so exit 1 (not 2)
    assert "Errors" not in r.out and "75.0%" in r.out, r
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert "in_order" in json.dumps(summary["config"]), summary["config"]


def test_option_values_are_yaml_scalars_and_unknown_alias_is_named(tmp_path):
    r = agent_eval("run", "--data", AGENTS, "-e", "response_match", "--option", "response_match.threshold=0.1",
                   "-o", tmp_path / "run")
    assert r.rc == 0, r  # 0.1 parsed as a number: every row passes
    bad = agent_eval("run", "--data", AGENTS, "-e", "response_match", "--option", "nope.threshold=1", "-o", tmp_path)
    assert bad.rc == 2 and "--option nope.threshold=1: no evaluator with alias 'nope'" in bad.err, bad


def test_prompty_evaluator_from_the_command_line(tmp_path):
    (tmp_path / "polite.prompty").write_text(TEMPLATE)
    with JudgeServer(_polite) as server:
        r = agent_eval("run", "--data", _rows(tmp_path), "-e", f"prompty:{tmp_path / 'polite.prompty'}=mine",
                       "--option", "mine.result_key=politeness", "--option", "mine.scale=[1, 10]",
                       "--option", "mine.threshold=5", "--judge-base-url", server.url + '/v1', "--judge-model", "m",
                       "-o", tmp_path / "run")
    assert r.rc == 1, r
    rows = sorted((json.loads(x) for x in (tmp_path / "run" / "rows.jsonl").read_text().splitlines()),
                  key=lambda row: row["line_number"])  # the file is in completion order
    assert [row["outputs.mine.politeness"] for row in rows] == [9.0, 2.0]
    assert len(server.requests) == 2


def test_prompty_and_module_class_in_yaml_relative_to_the_config(tmp_path):
    folder = tmp_path / "cfg"
    folder.mkdir()
    (folder / "polite.prompty").write_text(TEMPLATE)
    (folder / "my_evals.py").write_text(MODULE)
    _rows(folder)
    (folder / "run.yaml").write_text(textwrap.dedent(
        """\
        data: rows.jsonl
        evaluators:
          polite:
            type: prompty
            prompty: polite.prompty
            result_key: politeness
            scale: [1, 10]
            threshold: 5
          length:
            type: my_evals:LengthEval
            options: {max_chars: 5}
        thresholds:
          - length.short >= 0.5
        """))
    with JudgeServer(_polite) as server:
        r = agent_eval("run", "--config", folder / "run.yaml", "--judge-base-url", server.url + '/v1',
                       "--judge-model", "m", "-o", tmp_path / "run", cwd=tmp_path)
    assert r.rc == 0, r
    rows = sorted((json.loads(x) for x in (tmp_path / "run" / "rows.jsonl").read_text().splitlines()),
                  key=lambda row: row["line_number"])  # the file is in completion order
    assert [row["outputs.polite.politeness"] for row in rows] == [9.0, 2.0]
    assert [row["outputs.length.short"] for row in rows] == [0.0, 1.0]


def test_module_class_typo_is_a_clear_error(tmp_path):
    r = agent_eval("run", "--data", AGENTS, "-e", "no_such_pkg.evals:MyEval", "-o", tmp_path)
    assert r.rc == 2 and "no module named 'no_such_pkg.evals'" in r.err, r


def test_empty_data_file_exits_2(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    r = agent_eval("run", "--data", empty, "-e", "response_match", "-o", tmp_path / "run")
    assert r.rc == 2 and "holds no rows" in r.err and "PASS" not in r.out, r


def test_result_line_says_how_many_thresholds_were_not_checked(tmp_path):
    r = agent_eval("run", "--config", SAMPLES / "eval.yaml", "-o", tmp_path)
    assert r.rc == 0, r
    assert "Result: PASS (4 of 6 thresholds not checked: no judge), exit code 0" in r.out


def test_judge_help_and_bare_judge_show_the_judge_command(tmp_path):
    h = agent_eval("judge", "--help")
    assert h.rc == 0 and "usage: agent-eval judge" in h.out and "serve" in h.out, h
    bare = agent_eval("judge")
    assert bare.rc == 2 and "usage: agent-eval judge" in bare.out, bare


def test_one_spelling_of_judge_flags_old_ones_hidden_but_accepted(tmp_path):
    h = agent_eval("run", "--help")
    for flag in ("--judge-timeout", "--judge-max-attempts", "--judge-max-text-length", "--judge-max-list-items",
                 "--max-concurrency", "--map", "--option", "--force", "--rerun-failed", "--timeout", "--engine"):
        assert flag in h.out, flag
    assert "--concurrency" not in h.out.replace("--max-concurrency", "")
    old = agent_eval("run", "--data", AGENTS, "-e", "response_match", "--concurrency", "2", "-o", tmp_path / "a")
    assert old.rc in (0, 1), old
    key = agent_eval("run", "--data", AGENTS, "-e", "response_match", "--judge-api-key", "sk-x", "-o", tmp_path)
    assert key.rc == 2 and "--judge-api-key-env" in key.err, key


def test_judge_timeout_and_attempts_reach_the_judge(tmp_path):
    """--judge-max-attempts 1 against a server that fails once: one request, an error cell (not 5 attempts)."""
    (tmp_path / "polite.prompty").write_text(TEMPLATE)
    def flaky(req):
        return Reply("down", status=500) if "No." in req.text else _polite(req)

    with JudgeServer(flaky) as server:
        r = agent_eval("run", "--data", _rows(tmp_path), "-e", f"prompty:{tmp_path / 'polite.prompty'}=mine",
                       "--judge-base-url", server.url + '/v1', "--judge-model", "m", "--judge-max-attempts", "1",
                       "--judge-timeout", "5", "--max-concurrency", "1", "-o", tmp_path / "run")
    assert r.rc == 2, r
    assert "failed after 1 attempts" in r.out, r  # the default would have retried 5 times
    assert sum("No." in q.text for q in server.requests) == 1


def test_runner_messages_name_the_flag(tmp_path):
    out = tmp_path / "run"
    assert agent_eval("run", "--data", AGENTS, "-e", "response_match", "-o", out).rc in (0, 1)
    changed = agent_eval("run", "--data", AGENTS, "-e", "response_match", "--option", "response_match.threshold=0.2",
                         "-o", out, "--resume")
    assert changed.rc == 2 and "Pass --force" in changed.err and "force=True" not in changed.err, changed
    assert "without --resume" in changed.err
    forced = agent_eval("run", "--data", AGENTS, "-e", "response_match", "--option", "response_match.threshold=0.2",
                        "-o", out, "--resume", "--force")
    assert forced.rc in (0, 1) and "12 kept from the earlier run, 0 evaluated now" in forced.out, forced
    no_gt = write_jsonl(tmp_path / "no_gt.jsonl", [{"response": "hi", "expected": []}])
    missing = agent_eval("run", "--data", no_gt, "-e", "tool_trajectory", "-o", tmp_path / "m")
    assert "--map <alias>.<input>=<column> (--map default.<input>" in missing.err, missing
    assert "evaluator_config" not in missing.err


def test_eval_set_as_data_says_it_holds_no_agent_output(tmp_path):
    r = agent_eval("run", "--data", SAMPLES / "data" / "home_automation.evalset.json", "-e", "response_match",
                   "-o", tmp_path)
    assert r.rc == 2, r
    assert "is an ADK eval set" in r.out + r.err and "agent-eval adk" in r.out + r.err, r


def test_malformed_line_is_one_row_error(tmp_path):
    data = tmp_path / "d.jsonl"
    data.write_text('{"response": "a", "ground_truth": "a"}\n{not json\n{"response": "b", "ground_truth": "b"}\n')
    r = agent_eval("run", "--data", data, "-e", "response_match", "-e", "response_match=second", "-o", tmp_path / "r")
    assert r.rc == 2, r
    assert "Unreadable input lines (1;" in r.out and "Errors (" not in r.out, r
