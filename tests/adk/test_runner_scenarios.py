"""``conversation_scenario`` cases scored from recorded conversations, the producer hook, and exit codes."""

import json

import pytest

from agent_evaluators.adk.eval_config import load_eval_config
from agent_evaluators.adk.evalsets.runner import run_eval_sets
from agent_evaluators.adk.judges.safety import HARM_CATEGORIES
from agent_evaluators.adk.results import EvalSetResult, EvalStatus
from agent_evaluators.cli.eval_sets import main
from agent_evaluators.errors import ConfigError
from agent_evaluators.testing import JudgeServer

from ..evaluators.conftest import block

LIVE = "live_non_blocking_tool_agent/live_non_blocking_tool_agent.evalset.json"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the CLI's default result folder is ./.adk/eval_history


def turn(user, answer):
    return {"user_content": {"role": "user", "parts": [{"text": user}]},
            "final_response": {"role": "model", "parts": [{"text": answer}]}}


class Live:
    """The live eval set of a fixture tree: a conversation_scenario case and a case of user turns only."""

    def __init__(self, root):
        self.path = root / LIVE
        self.data = json.loads(self.path.read_text())
        scenario, scripted = self.data["eval_cases"]
        self.scenario, self.scripted = scenario["eval_id"], scripted["eval_id"]
        # a recorded conversation that follows the scenario: it opens with the starting prompt
        self.recorded = [turn(scenario["conversation_scenario"]["starting_prompt"], "Sure, the job is running."),
                         turn("While it runs, a quick question?", "Go ahead."),
                         turn("Thanks, bye.", "Bye!")]


@pytest.fixture
def live(adk_root):
    return Live(adk_root)


def safety_judge(req):
    """unsafe (violence) when the agent's words mention 'hurt'."""
    said = " ".join(m.get("content") or "" for m in block(req, "agent_response"))
    return {c: {"reason": "checked", "label": "unsafe" if c == "violence" and "hurt" in said else "safe"}
            for c in HARM_CATEGORIES}


def halluc_judge(req):
    if "<agent_text>" in req.text:  # segmenter: one sentence per reply
        return {"sentences": ["The reply."]}
    return {"sentences": [{"index": 0, "rationale": "ok", "supporting_excerpt": "", "contradicting_excerpt": "",
                           "label": "supported"}]}


@pytest.fixture
def server():
    with JudgeServer(safety_judge) as s:
        yield s


def test_scenario_case_with_a_recorded_conversation_is_scored_without_references(server, live):
    config = {"criteria": {"safety_v1": 0.8, "tool_trajectory_avg_score": 1.0}}
    (result,) = run_eval_sets(f"{live.path}:{live.scenario}", actual={live.scenario: live.recorded}, config=config,
                              model_config=server.openai_config())
    metrics = {m.metric_name: (m.eval_status, m.score) for m in result.overall_eval_metric_results}
    assert metrics == {"safety_v1": (EvalStatus.PASSED, 1.0), "tool_trajectory_avg_score": (EvalStatus.NOT_EVALUATED, None)}
    assert result.final_eval_status == EvalStatus.PASSED
    # the criterion that needs expected invocations says why, in one line
    (note,) = result.notes
    assert note == ("tool_trajectory_avg_score: not evaluated: tool_trajectory_avg_score compares with expected "
                    "invocations, and a conversation_scenario case has none")
    assert server.stats()["requests"] == 3  # safety_v1: one judge call per recorded invocation
    per = result.eval_metric_result_per_invocation
    assert len(per) == 3 and all(item.expected_invocation is None for item in per)
    assert [item.eval_metric_results[0].eval_status for item in per] == [EvalStatus.PASSED] * 3


def test_scenario_case_fails_on_what_its_recorded_conversation_says(server, live):
    bad = [*live.recorded[:2], turn("Thanks, bye.", "Go hurt someone.")]
    (result,) = run_eval_sets(f"{live.path}:{live.scenario}", actual={live.scenario: bad},
                              config={"criteria": {"safety_v1": 0.8}}, model_config=server.openai_config())
    (metric,) = result.overall_eval_metric_results
    assert metric.score == pytest.approx(2 / 3) and metric.eval_status == EvalStatus.FAILED
    assert result.final_eval_status == EvalStatus.FAILED


def test_cli_exit_codes_with_scenario_cases(tmp_path, server, monkeypatch, capsys, live):
    cfg = server.openai_config()
    monkeypatch.setenv("OPENAI_BASE_URL", cfg["base_url"])
    monkeypatch.setenv("OPENAI_API_KEY", cfg["api_key"])
    monkeypatch.setenv("AGENT_EVAL_JUDGE_MODEL", cfg["model"])
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps({"criteria": {"safety_v1": 0.8}}))
    actual = tmp_path / "actual.jsonl"
    actual.write_text(json.dumps({"eval_id": live.scenario, "invocations": live.recorded}) + "\n")
    path = live.path
    # the recorded scenario passes; the scripted case's agent said nothing unsafe either
    scripted = [turn("Please start the background job.", "Started."), turn("Anything else while it runs?", "No.")]
    both = tmp_path / "both.jsonl"
    both.write_text(actual.read_text() + json.dumps({"eval_id": live.scripted, "invocations": scripted}) + "\n")
    assert main([str(path), "--actual", str(both), "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "Tests passed: 2\n  Tests failed: 0" in out and "not evaluated" not in out
    # a scenario case without a recorded conversation is NOT_EVALUATED, which is no failure: exit 0
    assert main([f"{path}:{live.scenario}", "--actual", str(both.with_name("none.jsonl")), "--config", str(config)]) == 2
    none = tmp_path / "none.jsonl"
    none.write_text(json.dumps({"eval_id": "someone else", "invocations": []}) + "\n")
    assert main([f"{path}:{live.scenario}", "--actual", str(none), "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "Tests passed: 0\n  Tests failed: 0\n  Tests not evaluated: 1" in out
    written = sorted((tmp_path / ".adk" / "eval_history").glob("*.evalset_result.json"))
    assert len(written) == 2
    last = EvalSetResult.parse(max(written, key=lambda p: p.stat().st_mtime).read_text())
    # ADK's <app>_<eval_set_id>_<timestamp>; the app is the eval-set file's folder
    assert last.eval_set_result_id.startswith(f"{path.parent.name}_{live.data['eval_set_id']}_")
    assert last.eval_case_results[0].final_eval_status == EvalStatus.NOT_EVALUATED


def test_a_producer_supplies_each_cases_invocations_with_the_eval_config(adk_root, live):
    """The hook a live agent runner plugs into: async producer(case, config) -> invocations."""
    config_path = adk_root / "conversation_scenario" / "test_config.json"
    simulator = json.loads(config_path.read_text())["user_simulator_config"]
    seen = []

    async def producer(case, config):
        seen.append((case.eval_id, case.conversation_scenario is not None, config.user_simulator_config))
        if case.eval_id == live.scripted:
            return [turn(inv.user_content.parts[0].text, "Done.") for inv in case.conversation]
        return live.recorded

    with JudgeServer(halluc_judge) as judge:
        results = run_eval_sets(live.path, config=config_path, producer=producer, model_config=judge.openai_config())
    assert sorted((e, s) for e, s, _ in seen) == sorted([(live.scenario, True), (live.scripted, False)])
    sim = seen[0][2]
    # the fixture's user_simulator_config
    assert (sim.model, sim.max_allowed_invocations) == (simulator["model"], simulator["max_allowed_invocations"])
    by_id = {r.eval_id: r for r in results}
    for eval_id, n in ((live.scenario, 3), (live.scripted, 2)):
        (metric,) = by_id[eval_id].overall_eval_metric_results
        assert (metric.metric_name, metric.eval_status, metric.score) == ("hallucinations_v1", EvalStatus.PASSED, 1.0)
        assert len(by_id[eval_id].eval_metric_result_per_invocation) == n


def test_a_producer_that_fails_or_miscounts_fails_that_case_only(live):
    async def producer(case, config):
        if case.eval_id == live.scenario:
            raise RuntimeError("agent crashed")
        return [turn("only one turn", "x")]  # the scripted case expects two

    results = run_eval_sets(live.path, producer=producer, config={"criteria": {"response_match_score": 0.0}})
    by_id = {r.eval_id: r for r in results}
    assert by_id[live.scenario].final_eval_status == EvalStatus.FAILED and "agent crashed" in by_id[live.scenario].notes[0]
    assert by_id[live.scripted].final_eval_status == EvalStatus.FAILED
    assert "2 expected invocation(s) but 1 actual" in by_id[live.scripted].notes[0]
    assert by_id[live.scripted].overall_eval_metric_results == []


def test_user_simulator_config_is_parsed_and_kept(adk_root):
    path = adk_root / "conversation_scenario" / "test_config.json"
    simulator = json.loads(path.read_text())["user_simulator_config"]
    cfg = load_eval_config(path)
    assert cfg.user_simulator_config is not None
    assert (cfg.user_simulator_config.model, cfg.user_simulator_config.max_allowed_invocations) == (
        simulator["model"], simulator["max_allowed_invocations"])
    assert cfg.criteria["hallucinations_v1"].threshold == 0.8


def test_eval_status_prints_its_name_and_is_stored_as_adks_int():
    assert [str(s) for s in EvalStatus] == ["PASSED", "FAILED", "NOT_EVALUATED", "INFORMATIONAL"]
    assert f"{EvalStatus.FAILED}" == "FAILED" and f"{EvalStatus.PASSED:>8}" == "  PASSED"
    assert EvalStatus.parse("passed") == EvalStatus.PASSED == 1


def test_num_runs_asks_the_producer_once_per_run_and_keeps_each_runs_result(capsys, live):
    calls = []

    async def producer(case, config):
        calls.append(case.eval_id)
        n = len(calls)
        # the agent acts differently each run: only the first run makes no tool call, as expected
        extra = {} if n == 1 else {"intermediate_data": {"tool_uses": [{"name": "index_documents", "args": {}}]}}
        return [dict(turn(inv.user_content.parts[0].text, "ok"), **extra) for inv in case.conversation]

    results = run_eval_sets(f"{live.path}:{live.scripted}", producer=producer, num_runs=3,
                            config={"criteria": {"tool_trajectory_avg_score": 1.0}})
    assert calls == [live.scripted] * 3
    assert [r.eval_id for r in results] == [live.scripted] * 3
    assert sorted(r.overall_eval_metric_results[0].score for r in results) == [0.0, 0.0, 1.0]
    with pytest.raises(ConfigError, match="num_runs"):
        run_eval_sets(live.path, producer=producer, num_runs=0)
    assert main([str(live.path), "--actual", "x.jsonl", "--num_runs", "0"]) == 2


def test_per_turn_user_simulator_quality_reads_the_scenario_through_the_runner(live):
    """The criterion cell gets the case's conversation_scenario: turn 1 is checked against its
    starting_prompt without a judge call, later turns and the stop by the judge; a static case
    of the same run is NOT_EVALUATED with the reason."""
    config = {"criteria": {"per_turn_user_simulator_quality_v1": {"threshold": 0.5,
                                                                  "judge_model_options": {"num_samples": 1}}}}
    scripted = [turn("Start the background task please.", "Started."), turn("Is it done?", "Yes, done.")]
    with JudgeServer(lambda req: {"criteria": [], "is_valid": True}) as server:
        scenario, static = run_eval_sets(
            f"{live.path}:{live.scenario},{live.scripted}", actual={live.scenario: live.recorded, live.scripted: scripted},
            config=config, model_config=server.openai_config())
        judged = len(server.requests)
    (metric,) = scenario.overall_eval_metric_results
    assert (metric.metric_name, metric.eval_status, metric.score) == (
        "per_turn_user_simulator_quality_v1", EvalStatus.PASSED, 1.0)
    assert judged == len(live.recorded)  # turns 2 and 3, then the stop signal; turn 1 needs no judge
    (static_metric,) = static.overall_eval_metric_results
    assert static_metric.eval_status == EvalStatus.NOT_EVALUATED and static.final_eval_status == EvalStatus.NOT_EVALUATED
    assert static.notes == ["per_turn_user_simulator_quality_v1: not evaluated: per_turn_user_simulator_quality_v1 "
                            "needs the case's conversation_scenario; a static conversation has none"]


def test_per_turn_user_simulator_quality_fails_a_wrong_first_turn(live):
    config = {"criteria": {"per_turn_user_simulator_quality_v1": {"threshold": 0.5,
                                                                  "judge_model_options": {"num_samples": 1}}}}
    wrong_start = [turn("Something else entirely.", "Okay.")] + live.recorded[1:]
    with JudgeServer(lambda req: {"criteria": [], "is_valid": True}) as server:
        (result,) = run_eval_sets(f"{live.path}:{live.scenario}", actual={live.scenario: wrong_start},
                                  config=config, model_config=server.openai_config())
    (metric,) = result.overall_eval_metric_results
    assert metric.score == pytest.approx(2 / 3) and metric.eval_status == EvalStatus.PASSED
    per_turn = [m.eval_status for i in result.eval_metric_result_per_invocation for m in i.eval_metric_results]
    assert per_turn == [EvalStatus.FAILED, EvalStatus.PASSED, EvalStatus.PASSED]
