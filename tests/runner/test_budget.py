"""Judge budget caps: ``max_judge_calls`` and ``max_cost`` (issue 25, item 3).

Every test drives a real run against the fake judge (``JudgeServer``, real HTTP) that reports
fixed token counts, so a call's cost is known by hand: 1,000 prompt tokens and 200 completion
tokens at 1 USD / 5 USD per million = 0.002 USD. The server's own request counter says how many
calls were really sent. A cap stops judge work before it would be passed; the cells left are
``not_run`` (reason ``budget``), neither errors nor scores; a resume with a higher cap goes on
and ends with the rows of a run that never had a cap.
"""

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.judge.token_count import counter_for
from agent_evaluators.testing import JudgeServer, Reply
from tests.cli.helpers import agent_eval, write_jsonl

from .budget_helpers import KEY, PER_CALL, PRICE, cell_results, comparable_cells, priced_judge, read_summary, reservations
from .distributed.helpers import make_rows, rule_judge

ROWS = 10




def _intent(server: JudgeServer, **extra: Any) -> IntentResolutionEvaluator:
    return IntentResolutionEvaluator(model_config={**server.openai_config("judge-m"), "price": PRICE, **extra})


def _run(server: JudgeServer, out: Path, **kwargs: Any) -> Any:
    kwargs.setdefault("evaluators", {"intent": _intent(server)})
    return evaluate(data=make_rows(ROWS), output_path=out, show_progress=False, **kwargs)








def test_a_call_cap_makes_exactly_that_many_calls_and_the_rest_are_not_run(tmp_path):
    with JudgeServer(priced_judge) as server:
        result = _run(server, tmp_path / "out", max_judge_calls=4, max_concurrency=3)
        sent = server.stats()["requests"]
    assert sent == 4
    results = cell_results(result)
    assert results.count("not_run") == ROWS - 4 and all(r in ("pass", "fail") for r in results if r != "not_run")
    for row in result.rows:
        if row[f"{KEY}_result"] == "not_run":
            assert row[KEY] is None and row[f"{KEY}_not_run"] == "budget"
            assert row["cell_status"] == {"intent": "not_run"} and f"{KEY}_error" not in row
            assert "max_judge_calls 4 reached" in row[f"{KEY}_reason"]
    m = result.metrics
    assert (m["intent.n"], m["intent.not_run_count"], m["intent.error_count"]) == (4, ROWS - 4, 0)
    scored = [r[KEY] for r in result.rows if r[f"{KEY}_result"] != "not_run"]
    assert m["intent.intent_resolution"] == pytest.approx(sum(scored) / 4)  # not_run cells are left out
    summary = read_summary(tmp_path / "out")
    assert summary["status"] == "stopped" and summary["error_count"] == 0
    budget = summary["budget"]
    assert (budget["judge_calls"], budget["max_judge_calls"], budget["not_run_cells"], budget["stopped"]) == (
        4, 4, ROWS - 4, True)
    assert budget["cost_usd"] == pytest.approx(4 * PER_CALL)
    stored = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert sum(r["cell_status"]["intent"] == "not_run" for r in stored) == ROWS - 4


@pytest.mark.parametrize("calls_worth", [3, 6])
def test_a_money_cap_of_n_calls_worth_plus_one_reservation_stops_after_n_calls(tmp_path, calls_worth):
    with JudgeServer(priced_judge) as server:
        _run(server, tmp_path / "sizes")  # what each row's request reserves (rows of about one size)
        reserve = max(reservations(server))
        assert PER_CALL < reserve and reserve - min(reservations(server)) < PER_CALL
        server.reset()
        result = _run(server, tmp_path / "out", max_cost=(calls_worth - 1) * PER_CALL + reserve, max_concurrency=4)
        sent = server.stats()["requests"]
    # a call is admitted only while spent + the reservations in flight + its own reservation fit, waiting for
    # calls in flight near the cap: each call costs less than it reserves, so the N-th fits and the next does not
    assert sent == calls_worth
    assert cell_results(result).count("not_run") == ROWS - calls_worth
    budget = read_summary(tmp_path / "out")["budget"]
    assert budget["cost_usd"] == pytest.approx(calls_worth * PER_CALL) and budget["cost_usd"] <= budget["max_cost"]
    assert "max_cost" in budget["reason"] and "would be passed" in budget["reason"]


def _sized_judge(req: Any) -> Reply:
    """A verdict whose reported usage is the request's own prompt (counted as the gate counts it) + 200 out."""
    return Reply(content=rule_judge(req), usage={"prompt_tokens": req.prompt_tokens(counter_for("judge-m")),
                                                 "completion_tokens": 200})


def test_a_money_cap_holds_when_rows_grow_during_the_run(tmp_path):
    # issue 36 item 13: the gate reserved the mean of earlier calls, so rows that grew passed max_cost by 84%
    rows = make_rows(16)
    for i, row in enumerate(rows):
        row["response"] = f"Done task {i}. " + ("It went well, step by step. " * (6 if i < 8 else 900))
    # the judge's transcript shortens each long value to its head and tail, so a large row's prompt is about
    # twice a small one's (0.0015 vs 0.0032 USD here): a cap of 0.025 stops among the large rows
    cap = 0.025
    with JudgeServer(_sized_judge) as server:
        result = evaluate(data=rows, evaluators={"intent": _intent(server)}, output_path=tmp_path / "out",
                          show_progress=False, max_cost=cap, max_concurrency=4)
        spent = sum((r.prompt_tokens(counter_for("judge-m")) * PRICE["input"] + 200 * PRICE["output"]) / 1e6
                    for r in server.requests)
    budget = result.summary["budget"]
    assert result.summary["status"] == "stopped" and budget["cost_usd"] == pytest.approx(spent)
    assert spent <= cap, f"{spent:.4f} USD sent for a cap of {cap}"
    assert 8 < len(server.requests) < 16  # the small rows all ran, some large ones too, then it stopped


def test_resume_with_a_higher_cap_goes_on_and_ends_with_the_uncapped_rows(tmp_path):
    with JudgeServer(priced_judge) as server:
        uncapped = _run(server, tmp_path / "full", max_concurrency=4)
        assert server.stats()["requests"] == ROWS
        _run(server, tmp_path / "out", max_judge_calls=3, max_concurrency=4)
        assert server.stats()["requests"] == ROWS + 3
        # the caps count the whole folder: 7 calls in all, 4 more now
        second = _run(server, tmp_path / "out", max_judge_calls=7, max_concurrency=4, resume=True)
        assert server.stats()["requests"] == ROWS + 7
        assert cell_results(second).count("not_run") == ROWS - 7
        assert read_summary(tmp_path / "out")["budget"]["judge_calls"] == 7
        last = _run(server, tmp_path / "out", max_cost=1.0, max_concurrency=4, resume=True)
        # no cell ran twice: every row was judged exactly once over the three runs
        assert server.stats()["requests"] == 2 * ROWS
    assert comparable_cells(last.rows) == comparable_cells(uncapped.rows)
    assert last.metrics["intent.not_run_count"] == 0
    assert {k: v for k, v in last.metrics.items() if k != "intent.not_run_count"} == uncapped.metrics
    summary = read_summary(tmp_path / "out")
    assert summary["status"] == "complete" and summary["budget"]["judge_calls"] == ROWS
    assert summary["budget"]["cost_usd"] == pytest.approx(ROWS * PER_CALL)


def test_deterministic_evaluators_still_run_once_the_budget_stopped(tmp_path):
    def length(*, response: str) -> Dict[str, Any]:
        return {"chars": len(response)}

    with JudgeServer(priced_judge) as server:
        result = _run(server, tmp_path / "out", evaluators={"intent": _intent(server), "length": length},
                      max_judge_calls=2, max_concurrency=1)
    assert cell_results(result).count("not_run") == ROWS - 2
    assert all(isinstance(row["outputs.length.chars"], int) for row in result.rows)
    assert result.metrics["length.n"] == ROWS and "length.not_run_count" in result.metrics


def test_samples_of_num_runs_and_panel_judges_each_count_as_a_call(tmp_path):
    with JudgeServer(priced_judge) as server:
        result = _run(server, tmp_path / "runs", num_runs=2, max_judge_calls=3, max_concurrency=1)
        assert server.stats()["requests"] == 3
    # one row got both its runs; another got one run sent and the second refused: that cell is not_run
    # and keeps the usage of the call that was paid for
    done = [r for r in result.rows if r[f"{KEY}_result"] in ("pass", "fail")]
    partial = [r for r in result.rows if (r.get(f"{KEY}_usage") or {}).get("judge_calls") == 1]
    assert len(done) == 1 and done[0][f"{KEY}_usage"]["judge_calls"] == 2
    assert len(partial) == 1 and partial[0][f"{KEY}_result"] == "not_run"
    assert cell_results(result).count("not_run") == ROWS - 1
    assert read_summary(tmp_path / "runs")["budget"]["cost_usd"] == pytest.approx(3 * PER_CALL)
    with JudgeServer(priced_judge) as a, JudgeServer(priced_judge) as b:
        panel = IntentResolutionEvaluator(model_config=[{**a.openai_config("judge-m"), "name": "a", "price": PRICE},
                                                        {**b.openai_config("judge-m"), "name": "b", "price": PRICE}])
        result = _run(a, tmp_path / "panel", evaluators={"intent": panel}, max_judge_calls=5, max_concurrency=1)
        assert a.stats()["requests"] + b.stats()["requests"] == 5
    assert cell_results(result)[:2] != ["not_run", "not_run"] and cell_results(result).count("not_run") == ROWS - 2


def test_an_unknown_price_stops_a_money_cap_before_any_call(tmp_path):
    with JudgeServer(priced_judge) as server:
        ev = IntentResolutionEvaluator(model_config=server.openai_config("my-own-deployment"))
        result = _run(server, tmp_path / "out", evaluators={"intent": ev}, max_cost=1.0)
        assert server.stats()["requests"] == 0
    assert set(cell_results(result)) == {"not_run"}
    reason = read_summary(tmp_path / "out")["budget"]["reason"]
    assert "'my-own-deployment' is unknown" in reason and "--price" in reason


def test_a_target_is_not_run_for_rows_left_to_a_stopped_budget_and_a_resume_runs_it(tmp_path):
    log = tmp_path / "target_calls.txt"  # a file, not a list: the resume's fingerprint reads the target's closure

    def target(*, query: str, row_id: int) -> Dict[str, Any]:
        with open(log, "a") as f:
            f.write(f"{row_id}\n")
        return {"answer": f"answer {row_id}"}

    def called() -> List[int]:
        return [int(line) for line in log.read_text().split()]

    mapping = {"default": {"column_mapping": {"response": "${target.answer}"}}}
    with JudgeServer(priced_judge) as server:
        first = _run(server, tmp_path / "out", target=target, evaluator_config=mapping, max_judge_calls=3,
                     max_concurrency=1)
        assert server.stats()["requests"] == 3
        skipped = [r for r in first.rows if r.get("target_not_run") == "budget"]
        # rows already in flight when the budget stopped ran their target; the rest did not
        assert skipped and all("outputs.answer" not in r for r in skipped)
        assert len(called()) == ROWS - len(skipped)
        second = _run(server, tmp_path / "out", target=target, evaluator_config=mapping, resume=True)
        assert server.stats()["requests"] == ROWS
    assert sorted(called()) == list(range(ROWS))  # each row's target ran once over both runs
    assert all(r["outputs.answer"] == f"answer {r['inputs.row_id']}" and "target_not_run" not in r
               for r in second.rows)
    assert "not_run" not in cell_results(second)


def test_a_new_run_over_a_stopped_one_is_refused_without_force(tmp_path):
    with JudgeServer(priced_judge) as server:
        _run(server, tmp_path / "out", max_judge_calls=1, max_concurrency=1)
        with pytest.raises(ConfigError, match="stopped by its judge budget.*resume=True"):
            _run(server, tmp_path / "out")
        assert server.stats()["requests"] == 1


@pytest.mark.parametrize("kwargs, words", [
    ({"max_cost": -1}, "max_cost must be an amount in USD >= 0"),
    ({"max_cost": "5"}, "max_cost must be"),
    ({"max_judge_calls": 2.5}, "max_judge_calls must be a whole number"),
    ({"max_judge_calls": True}, "max_judge_calls must be"),
])
def test_bad_caps_are_config_errors_naming_the_option(kwargs, words):
    with pytest.raises(ConfigError, match=words):
        evaluate(data=make_rows(1), evaluators={"x": lambda **kw: 1}, **kwargs)


def test_azure_evaluation_s_own_classes_are_refused_with_a_cap(tmp_path):
    from tests.conftest import optional_import

    azure = optional_import("azure.ai.evaluation")
    with JudgeServer(priced_judge) as server:
        config = {"azure_endpoint": server.url, "azure_deployment": "judge-m", "api_key": "k", "api_version": "2024-10-21"}
        theirs = azure.IntentResolutionEvaluator(model_config=config)
        with pytest.raises(ConfigError, match="azure-ai-evaluation's own class.*agent_evaluators.azure"):
            _run(server, tmp_path / "out", evaluators={"intent": theirs}, max_judge_calls=3)
        assert server.stats()["requests"] == 0
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------- the command line
def _cli_args(tmp_path: Path, server: JudgeServer, *more: Any) -> List[Any]:
    data = write_jsonl(tmp_path / "d.jsonl", make_rows(5))
    return ["run", "--data", data, "-e", "intent_resolution=intent", "--judge-model", "eval-judge",
            "--judge-base-url", server.url + "/v1", "--price", "eval-judge=1,5", "-o", tmp_path / "out",
            "--no-show-progress", *more]


def test_cli_cap_exits_2_says_how_to_finish_and_resume_completes(tmp_path):
    with JudgeServer(priced_judge) as server:
        r = agent_eval(*_cli_args(tmp_path, server, "--max-judge-calls", "2", "--threshold", "intent.pass_rate >= 0.5"))
        assert server.stats()["requests"] == 2
        assert r.rc == 2, r
        # the run's warning, in the CLI's words, then the command that finishes the run (the old cap left out)
        assert "stopped by the judge budget (--max-judge-calls 2 reached): 2 judge call(s), $0.0040 spent" in r.err, r
        assert "3 cell(s) not run, saved. Finish the run with a higher cap" in r.err, r
        command = r.err.strip().splitlines()[-1]
        assert command.endswith("--resume --max-judge-calls N") and command.count("--max-judge-calls") == 1, r
        assert "INCOMPLETE (stopped by the judge budget: 3 cell(s) not run), exit code 2" in r.out, r
        header = next(line for line in r.out.splitlines() if line.startswith("evaluator"))
        assert "not run" in header, r
        intent = next(line for line in r.out.splitlines() if line.startswith("intent "))
        # evaluator, metric, mean, pass rate, scored, failed, errors, n/a, not run, ...
        assert intent.split()[4] == "2" and intent.split()[8] == "3", r
        assert "3 of 5 cells not run (budget); the value leaves them out" in r.out, r
        checks = json.loads((tmp_path / "out" / "checks.json").read_text())
        assert checks["budget_stopped"] is True and checks["exit_code"] == 2
        rep = agent_eval("report", tmp_path / "out", "-o", tmp_path / "report.html")
        assert rep.rc == 0, rep
        html = (tmp_path / "report.html").read_text()
        assert "INCOMPLETE: stopped by the judge budget" in html and "not run (judge budget)" in html
        assert "incomplete: stopped by the judge budget (max_judge_calls 2 reached); 3 cell(s) not run" in html

        again = agent_eval(*_cli_args(tmp_path, server, "--resume", "--max-cost", "1"))
        assert again.rc in (0, 1), again
        assert server.stats()["requests"] == 5  # the 3 cells left, nothing twice
    summary = read_summary(tmp_path / "out")
    assert summary["status"] == "complete" and summary["metrics"]["intent.not_run_count"] == 0
    assert summary["config"]["max_cost"] == 1.0 and summary["budget"]["cost_usd"] == pytest.approx(5 * PER_CALL)


def test_cli_run_config_caps(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", make_rows(6))
    with JudgeServer(priced_judge) as server:
        (tmp_path / "run.yaml").write_text(
            f"data: {data.name}\noutput_path: out\nevaluators:\n  intent: {{type: intent_resolution}}\n"
            f"judge:\n  model: eval-judge\n  base_url: {server.url}/v1\n"
            f"prices:\n  eval-judge: {{input: 1, output: 5}}\nmax_cost: {4 * PER_CALL}\nmax_concurrency: 2\n")
        r = agent_eval("run", "--config", tmp_path / "run.yaml", "--no-show-progress", cwd=tmp_path)
        # each call reserves its own maximum (about 0.0055 USD), so after 2 calls (0.004 spent) the next does not fit
        assert server.stats()["requests"] == 2
    assert r.rc == 2 and "stopped by the judge budget (--max-cost $0.0080 would be passed" in r.err, r
    summary = read_summary(tmp_path / "out")
    assert summary["config"]["max_cost"] == pytest.approx(4 * PER_CALL) and summary["metrics"]["intent.not_run_count"] == 4
    bad = agent_eval("run", "--data", data, "-e", "response_match", "--max-judge-calls", "-1", "-o", tmp_path / "bad")
    assert bad.rc == 2 and "--max-judge-calls must be a whole number" in bad.err, bad


def test_a_simulated_user_s_turns_count_and_a_refused_conversation_is_run_again_on_resume(tmp_path):
    from agent_evaluators.agents.dialogue import simulated_conversation_target
    from agent_evaluators.testing import schema_reply

    def agent(messages: List[Dict[str, Any]]) -> str:
        return f"reply to: {messages[-1]['content']}"

    rows = [{"starting_prompt": f"Weather in city {i}?", "conversation_plan": "Ask the weather, then for tomorrow."}
            for i in range(4)]
    mapping = {"intent": {"column_mapping": {"conversation": "${target.conversation}"}}}

    def run(server: JudgeServer, out: Path, **kwargs: Any) -> Any:
        judge = {**server.openai_config("judge-m"), "price": PRICE}
        return evaluate(data=rows, target=simulated_conversation_target(agent, model_config=judge),
                        evaluators={"intent": IntentResolutionEvaluator(model_config=judge)},
                        evaluator_config=mapping, output_path=out, show_progress=False, max_concurrency=1, **kwargs)

    with JudgeServer(schema_reply) as server:
        uncapped = run(server, tmp_path / "full")
        all_calls = server.stats()["requests"]
    with JudgeServer(schema_reply) as server:
        capped = run(server, tmp_path / "out", max_judge_calls=all_calls // 2)
        assert server.stats()["requests"] == all_calls // 2  # simulated turns and verdicts, all counted
        assert "not_run" in [r[f"{KEY}_result"] for r in capped.rows]
        # a conversation or cell cut short by the cap runs again whole: the calls it made were paid for
        # but are not reused, so finishing takes a little more than the uncapped run's calls
        finished = run(server, tmp_path / "out", resume=True, max_cost=1.0)
        assert all_calls <= server.stats()["requests"] < all_calls + all_calls // 2
    assert comparable_cells(finished.rows) == comparable_cells(uncapped.rows)


def test_rerun_failed_runs_the_cells_a_budget_left_unrun(tmp_path):
    # issue 36 item 5: rerun_failed reran errors only, so the not_run cells of a stopped run stayed unrun
    with JudgeServer(priced_judge) as server:
        _run(server, tmp_path / "out", max_judge_calls=3, max_concurrency=1)
        again = _run(server, tmp_path / "out", rerun_failed=True)
        assert server.stats()["requests"] == ROWS  # the 7 cells left, none of the 3 scored ones twice
    assert cell_results(again).count("not_run") == 0 and again.metrics["intent.n"] == ROWS
    assert read_summary(tmp_path / "out")["status"] == "complete"


def test_cli_rerun_failed_after_a_budget_stop_is_never_pass_with_cells_left(tmp_path):
    from agent_evaluators.cli.run_outcome import RunOutcome, exit_code

    with JudgeServer(priced_judge) as server:
        first = agent_eval(*_cli_args(tmp_path, server, "--max-judge-calls", "2"))
        assert first.rc == 2 and server.stats()["requests"] == 2, first
        capped = agent_eval(*_cli_args(tmp_path, server, "--rerun-failed", "--max-judge-calls", "2"))
        assert capped.rc == 2 and "PASS" not in capped.out and "INCOMPLETE" in capped.out, capped
        assert server.stats()["requests"] == 2
        done = agent_eval(*_cli_args(tmp_path, server, "--rerun-failed"))
        assert done.rc in (0, 1) and "INCOMPLETE" not in done.out, done
        assert server.stats()["requests"] == 5 and "(2 kept from the earlier run, 3 evaluated now)" in done.out, done
    metrics = read_summary(tmp_path / "out")["metrics"]
    assert metrics.get("intent.not_run_count", 0) == 0 and metrics["intent.n"] == 5
    # a run whose rows still hold not-run cells, budget or not, is INCOMPLETE (exit 2), never PASS
    left = RunOutcome(metrics={"intent.not_run_count": 3, "intent.n": 2}, usage={}, aliases=["intent"],
                      result_keys={"intent": "intent_resolution"}, skipped={})
    assert exit_code(left) == 2


def test_azure_layer_rows_say_why_a_cell_was_not_run(tmp_path):
    from agent_evaluators import azure

    with JudgeServer(priced_judge) as server:
        ev = azure.IntentResolutionEvaluator(model_config={**server.openai_config("judge-m"), "price": PRICE})
        result = azure.evaluate(data=make_rows(4), evaluators={"intent": ev}, output_path=str(tmp_path / "r.json"),
                                max_judge_calls=2, max_concurrency=1)
        assert server.stats()["requests"] == 2
    errors = [row.get("outputs.intent.error") for row in result["rows"]]
    assert errors.count(None) == 2
    assert all("not run: the run's judge budget stopped (max_judge_calls 2 reached)" in e for e in errors if e)
