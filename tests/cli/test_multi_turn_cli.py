"""The four multi-turn judges by name, as a user runs them: `agent-eval run` (flag and YAML),
`agent-eval adk` with a test_config.json naming them, and `agent-eval calibrate --quick`,
each against the bundled judge's default rules over real HTTP."""

import json
from pathlib import Path

from .helpers import agent_eval, clean_env, write_jsonl

NAMES = ("rubric_multi_turn_trajectory_quality", "multi_turn_task_success", "multi_turn_trajectory_quality",
         "multi_turn_tool_use_quality")
ADK_METRICS = ("rubric_based_multi_turn_trajectory_quality_v1", "multi_turn_task_success_v1",
               "multi_turn_trajectory_quality_v1", "multi_turn_tool_use_quality_v1")


def messages(lamp: str):
    return [
        {"role": "user", "content": f"Turn off the {lamp}."},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "set_device", "arguments": json.dumps({"device_id": lamp, "state": "off"})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"ok": true}'},
        {"role": "assistant", "content": f"The {lamp} is off."},
        {"role": "user", "content": "Thanks."},
        {"role": "assistant", "content": "You're welcome."},
    ]


def invocation(i: int, user: str, answer: str, calls=()):
    return {"invocation_id": f"mt-{i}", "user_content": {"role": "user", "parts": [{"text": user}]},
            "final_response": {"role": "model", "parts": [{"text": answer}]},
            "intermediate_data": {"tool_uses": [{"id": f"t{i}", "name": n, "args": a} for n, a in calls],
                                  "tool_responses": [{"id": f"t{i}", "name": n, "response": {"ok": True}}
                                                     for n, _ in calls]}}


def test_run_by_flag_and_by_yaml_type(judge_server, tmp_path: Path) -> None:
    server = judge_server(None)
    data = write_jsonl(tmp_path / "runs.jsonl", [{"conversation": messages("hall lamp")},
                                                 {"conversation": messages("desk lamp")}])
    judge = ["--judge-base-url", server.url + "/v1", "--judge-model", "fake"]
    r = agent_eval("run", "--data", data, "-e", "multi_turn_tool_use_quality", *judge, "-o", tmp_path / "flag",
                   env=clean_env())
    assert r.rc == 0, r
    rows = [json.loads(line) for line in (tmp_path / "flag" / "rows.jsonl").read_text().splitlines()]
    assert all(row["outputs.multi_turn_tool_use_quality.multi_turn_tool_use_quality_v1"] == 1.0 for row in rows)

    config = tmp_path / "eval.yaml"
    config.write_text(
        f"data: {data}\n"
        "evaluators:\n"
        "  trajectory:\n"
        "    type: rubric_multi_turn_trajectory_quality\n"
        "    options: {rubrics: ['The agent switches off the lamp the user named.'], num_samples: 1}\n"
        "  success:\n"
        "    type: multi_turn_task_success\n"
        "thresholds:\n"
        "  - success.pass_rate >= 1\n", encoding="utf-8")
    r = agent_eval("run", "--config", config, *judge, "-o", tmp_path / "yaml", env=clean_env())
    assert r.rc == 0, r
    assert "PASS  success.pass_rate" in r.out, r
    rows = [json.loads(line) for line in (tmp_path / "yaml" / "rows.jsonl").read_text().splitlines()]
    assert {row["outputs.trajectory.rubric_based_multi_turn_trajectory_quality_v1"] for row in rows} == {1.0}


def test_adk_config_naming_the_four_metrics_scores_the_case(judge_server, tmp_path: Path) -> None:
    server = judge_server(None)
    conversation = [invocation(1, "Turn off the hall lamp.", "Done.", [("set_device", {"device_id": "hall"})]),
                    invocation(2, "Thanks.", "You're welcome.")]
    evalset = tmp_path / "home.evalset.json"
    evalset.write_text(json.dumps({"eval_set_id": "home_mt", "eval_cases": [
        {"eval_id": "two-turns", "conversation": conversation}]}))
    actual = write_jsonl(tmp_path / "actual.jsonl", [{"eval_id": "two-turns", "invocations": conversation}])
    rubric = {"rubric_id": "lamp", "rubric_content": {"text_property": "The agent switches off the lamp named."}}
    criteria = {name: {"threshold": 0.8, "judge_model_options": {"num_samples": 1}} for name in ADK_METRICS}
    criteria[ADK_METRICS[0]]["rubrics"] = [rubric]
    config = tmp_path / "test_config.json"
    config.write_text(json.dumps({"criteria": criteria}))
    r = agent_eval("adk", evalset, "--actual", actual, "--config", config, "--output", tmp_path / "out",
                   "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--print_detailed_results",
                   env=clean_env())
    assert r.rc == 0, r
    assert "Tests passed: 1" in r.out, r
    (result_file,) = (tmp_path / "out").glob("*.evalset_result.json")
    case = json.loads(result_file.read_text())["eval_case_results"][0]
    overall = {m["metric_name"]: m for m in case["overall_eval_metric_results"]}
    assert set(overall) == set(ADK_METRICS)
    assert all(m["eval_status"] == 1 and m["score"] == 1.0 for m in overall.values())  # PASSED
    for per in case["eval_metric_result_per_invocation"]:
        statuses = {m["metric_name"]: m["eval_status"] for m in per["eval_metric_results"]}
        last = per["actual_invocation"]["invocation_id"] == "mt-2"
        assert set(statuses.values()) == ({1} if last else {3}), statuses  # earlier turns NOT_EVALUATED
    assert server.stats()["requests"] == 4


def test_calibrate_quick_answers_every_multi_turn_template(judge_server, tmp_path: Path) -> None:
    server = judge_server(None)
    report = tmp_path / "cal.json"
    args = [a for name in NAMES for a in ("--evaluator", name)]
    r = agent_eval("calibrate", "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--quick", *args,
                   "--json", report, env=clean_env())
    assert r.rc in (0, 1), r  # 1: the fake judge's verdicts do not agree with the labels (the gate), not an error
    cal = json.loads(report.read_text())
    assert [c["evaluator"] for c in cal] == list(ADK_METRICS)
    assert all(c["scored"] == c["total"] == 24 for c in cal), cal
