"""Batch mode (issue 25, item 4): judge requests through the Batch API, over real HTTP.

The fake judge (``JudgeServer``) serves the OpenAI files and batches endpoints and Azure
OpenAI's global-batch routes, answering each batch line with the same responder as a normal
request (a batch line's request carries ``x-batch-custom-id``; a direct one does not) and
counting how often each ``custom_id`` was answered. Every test compares batch mode with the
normal (direct) mode on the same rows: the same cells and scores.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.testing import BatchFaults, JudgeServer, Reply
from tests.cli.helpers import SAMPLES, agent_eval, clean_env

from .distributed.helpers import comparable, make_rows, rule_judge

ROWS = 12
SCORE = "outputs.intent.intent_resolution"


def _direct_requests(server: JudgeServer) -> int:
    return sum(1 for r in server.requests if "x-batch-custom-id" not in r.headers)


def _batch_lines(server: JudgeServer) -> int:
    return sum(1 for r in server.requests if "x-batch-custom-id" in r.headers)


def _scores(rows: Any) -> Dict[int, Any]:
    return {r["line_number"]: (r.get(SCORE), r.get(f"{SCORE}_result"), r.get(f"{SCORE}_reason")) for r in rows}


def _intent(config: Dict[str, Any], tmp_path: Path, name: str, **options: Any) -> Any:
    return evaluate(data=make_rows(ROWS), evaluators={"intent": IntentResolutionEvaluator(model_config=config)},
                    output_path=tmp_path / name, show_progress=False, **options)


def _read_rows(folder: Path) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in (folder / "rows.jsonl").read_text().splitlines() if line.strip()]


def test_batch_mode_gives_the_direct_rows_and_scores_on_the_samples(tmp_path):
    """samples/eval.yaml (four judge metrics, 12 agent runs) through ``agent-eval run``, both modes."""
    with JudgeServer(batch=BatchFaults(complete_after_s=0.3)) as server:
        judge = ["--judge-model", "fake", "--judge-base-url", server.openai_config()["base_url"], "--no-show-progress"]
        direct = agent_eval("run", "--config", SAMPLES / "eval.yaml", "-o", tmp_path / "direct", *judge)
        calls = server.stats()["requests"]
        server.reset()
        batch = agent_eval("run", "--config", SAMPLES / "eval.yaml", "-o", tmp_path / "batch", *judge,
                           "--judge-mode", "batch", "--batch-poll-s", "0.05")
        assert direct.rc == batch.rc == 0, (direct, batch)
        assert calls == 48 and _direct_requests(server) == 0 and _batch_lines(server) == calls
        assert len(server.batches.batches) == 1  # one round: every row's requests in one batch
        assert set(server.batches.custom_ids.values()) == {1}
    assert comparable(_read_rows(tmp_path / "batch")) == comparable(_read_rows(tmp_path / "direct"))
    summary = json.loads((tmp_path / "batch" / "summary.json").read_text())
    assert summary["config"]["judge_mode"] == "batch" and summary["status"] == "complete"
    journal = [json.loads(t) for t in (tmp_path / "batch" / "batches.jsonl").read_text().splitlines()]
    assert [e["event"] for e in journal] == ["intended", "submitted", "finished"] and journal[2]["status"] == "completed"
    assert journal[0]["input_file_id"] == journal[1]["input_file_id"] and journal[0]["requests"] == journal[1]["requests"]
    assert sorted(journal[1]["requests"].values())[0].startswith("row 0 ")  # custom_id -> row and evaluator


def test_sigkill_while_polling_then_resume_sends_no_request_twice(tmp_path):
    """A CLI run killed (-9) while its batch is in progress; ``--resume`` polls the same batch."""
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in make_rows(ROWS)))
    with JudgeServer(rule_judge, batch=BatchFaults(complete_after_s=4.0)) as server:
        cmd = [sys.executable, "-m", "agent_evaluators.cli", "run", "--data", str(data), "-e", "intent_resolution=intent",
               "--judge-model", "fake", "--judge-base-url", server.openai_config()["base_url"], "--no-show-progress",
               "-o", str(tmp_path / "out"), "--batch", "--batch-poll-s", "0.1"]
        proc = subprocess.Popen(cmd, env=clean_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while len(server.batches.batches) == 0 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        time.sleep(0.5)  # polling now
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
        assert server.batches.custom_ids == {} and server.stats()["requests"] == 0  # nothing answered yet
        assert "submitted" in (tmp_path / "out" / "batches.jsonl").read_text()
        resumed = agent_eval(*cmd[3:], "--resume")
        assert resumed.rc == 1 and "FAIL (threshold)" in resumed.out, resumed  # scores 1-5: low ones fail
        assert len(server.batches.batches) == 1  # the same batch, polled again: no new one
        assert sorted(server.batches.custom_ids.values()) == [1] * ROWS  # each request answered exactly once
        assert _direct_requests(server) == 0
    rows = _read_rows(tmp_path / "out")
    assert sorted(r["line_number"] for r in rows) == list(range(ROWS))
    assert {r["line_number"]: r[SCORE] for r in rows} == {i: float(i % 5 + 1) for i in range(ROWS)}


def test_failed_lines_are_sent_again_directly_with_the_same_results(tmp_path):
    with JudgeServer(rule_judge, batch=BatchFaults(line_error_rate=0.4, seed=3)) as server:
        direct = _intent(server.openai_config(), tmp_path, "direct")
        server.reset()
        batch = _intent(server.openai_config(), tmp_path, "batch", judge_mode="batch", batch_poll_s=0.05)
        failed = len(_file_lines(server, "error_file_id"))
        assert 0 < failed < ROWS and len(_file_lines(server, "output_file_id")) == ROWS - failed
        assert _direct_requests(server) == failed  # each failed line once more, as a normal request
    assert _scores(batch.rows) == _scores(direct.rows)
    assert batch.metrics["intent.error_count"] == 0


def _file_lines(server: JudgeServer, which: str) -> List[Dict[str, Any]]:
    """The lines of every batch's output (or error) file."""
    out = []
    for batch in server.batches.batches.values():
        if batch.get(which):
            out += [json.loads(t) for t in server.batches.files[batch[which]].splitlines()]
    return out


def test_an_expired_batch_keeps_its_answers_and_sends_the_rest_directly(tmp_path):
    with JudgeServer(rule_judge, batch=BatchFaults(expire=True, expire_answered=0.5)) as server:
        direct = _intent(server.openai_config(), tmp_path, "direct")
        server.reset()
        batch = _intent(server.openai_config(), tmp_path, "batch", judge_mode="batch", batch_poll_s=0.05)
        [record] = server.batches.batches.values()
        assert record["status"] == "expired"
        assert _batch_lines(server) == ROWS // 2 and _direct_requests(server) == ROWS - ROWS // 2
    assert _scores(batch.rows) == _scores(direct.rows)


@pytest.mark.parametrize("limit", [{"batch_max_requests": 5}, {"batch_max_bytes": 12_000}])
def test_a_round_is_split_into_batches_under_the_limits(tmp_path, limit):
    with JudgeServer(rule_judge) as server:
        direct = _intent(server.openai_config(), tmp_path, "direct")
        server.reset()
        batch = _intent(server.openai_config(), tmp_path, "batch", judge_mode="batch", batch_poll_s=0.05, **limit)
        sizes = [b["request_counts"]["total"] for b in server.batches.batches.values()]
        files = [len(server.batches.files[b["input_file_id"]]) for b in server.batches.batches.values()]
    assert sum(sizes) == ROWS and len(sizes) >= 3
    assert max(sizes) <= limit.get("batch_max_requests", ROWS) and max(files) <= limit.get("batch_max_bytes", 1 << 30)
    assert _scores(batch.rows) == _scores(direct.rows)


def test_azure_global_batch_route(tmp_path):
    with JudgeServer(rule_judge, require_api_key="test-key") as server:
        config = server.azure_config(deployment="gpt-4o-batch", api_version="2024-10-21")
        direct = _intent(config, tmp_path, "direct")
        server.reset()
        batch = _intent(config, tmp_path, "batch", judge_mode="batch", batch_poll_s=0.05)
        [record] = server.batches.batches.values()
        lines = [r for r in server.requests if "x-batch-custom-id" in r.headers]
    assert record["endpoint"] == "/chat/completions" and record["_azure"] and record["_query"]["api-version"] == "2024-10-21"
    assert len(lines) == ROWS and {r.deployment for r in lines} == {"gpt-4o-batch"}  # the deployment as the model
    assert server.stats()["faults"] == {}  # the api-key header reached every files / batches call
    assert _scores(batch.rows) == _scores(direct.rows)


def test_a_multi_step_metric_goes_round_by_round(tmp_path):
    """Hallucinations (segment the answer, then validate the sentences): one batch per step."""
    from agent_evaluators.adk.judges.hallucinations import HallucinationEvaluator

    rows = [{"query": f"Where is office {i}?", "response": f"Office {i} is in Paris. It opens at nine.",
             "context": f"Office {i} is in Paris and opens at 9am."} for i in range(4)]
    with JudgeServer() as server:
        def run(name: str, **options: Any) -> Any:
            ev = HallucinationEvaluator(model_config=server.openai_config())
            return evaluate(data=rows, evaluators={"h": ev}, output_path=tmp_path / name, show_progress=False,
                            **options)
        direct = run("direct")
        calls = server.stats()["requests"]
        server.reset()
        batch = run("batch", judge_mode="batch", batch_poll_s=0.05)
        assert len(server.batches.batches) >= 2 and _direct_requests(server) == 0 and _batch_lines(server) == calls
    assert batch.metrics["h.error_count"] == 0
    assert comparable(batch.rows) == comparable(direct.rows)


def test_the_run_config_key_and_refusals(tmp_path):
    with JudgeServer(rule_judge) as server:
        data = tmp_path / "d.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in make_rows(3)))
        (tmp_path / "run.yaml").write_text(
            f"data: d.jsonl\njudge:\n  model: fake\n  base_url: {server.openai_config()['base_url']}\n"
            "judge_mode: batch\nbatch_poll_s: 0.05\nevaluators:\n  intent:\n    type: intent_resolution\n")
        r = agent_eval("run", "--config", tmp_path / "run.yaml", "-o", tmp_path / "out", "--no-show-progress",
                       cwd=tmp_path)
        assert r.rc == 1 and "FAIL (threshold)" in r.out, r
        assert len(server.batches.batches) == 1 and _direct_requests(server) == 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["config"]["judge_mode"] == "batch"
    with pytest.raises(ConfigError, match="judge_mode must be 'direct' or 'batch'"):
        evaluate(data=make_rows(1), evaluators={"x": len}, judge_mode="bulk")
    with pytest.raises(ConfigError, match="local engine only"):
        evaluate(data=make_rows(1), evaluators={"x": len}, judge_mode="batch", engine="ray")


def test_an_endpoint_without_a_batch_api_fails_the_cells_with_advice(tmp_path):
    with JudgeServer(rule_judge) as server:
        config = {**server.openai_config(), "base_url": server.url + "/no-batches/v1"}
        result = _intent(config, tmp_path, "batch", judge_mode="batch", batch_poll_s=0.05)
    assert result.metrics["intent.error_count"] == ROWS
    message = result.rows[0]["outputs.intent.intent_resolution_error"]
    assert "did not take the batch" in message and "judge_mode='direct'" in message, message


def test_poll_interval_grows_and_is_capped(tmp_path):
    """A slow batch is polled at poll_s, then half as long again each time, never beyond 8 x poll_s."""
    with JudgeServer(rule_judge, batch=BatchFaults(complete_after_s=2.0)) as server:
        polls: List[float] = []
        original = server.batches._status

        async def counting(batch: Dict[str, Any]) -> Dict[str, Any]:
            polls.append(time.monotonic())
            return await original(batch)

        server.batches._status = counting  # type: ignore[method-assign]
        _intent(server.openai_config(), tmp_path, "batch", judge_mode="batch", batch_poll_s=0.1)
    gaps = [b - a for a, b in zip(polls, polls[1:])]
    assert len(polls) >= 4 and min(gaps) >= 0.09  # never sooner than poll_s
    assert gaps[-1] >= 0.3  # grown: 0.1, 0.15, 0.225, 0.34, ...
    assert max(gaps) <= 0.8 + 0.5  # capped at 8 x poll_s (plus a loaded machine's slack)


def test_a_batch_answer_costs_half_and_a_retried_line_the_full_price(tmp_path):
    usage = {"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200}

    def judge(req: Any) -> Reply:
        return Reply(content=rule_judge(req), usage=usage)

    full = (1000 * 2.50 + 200 * 10.00) / 1e6  # gpt-4o's shipped price: 2.50 in, 10.00 out per million
    with JudgeServer(judge, batch=BatchFaults(line_error_rate=0.4, seed=3)) as server:
        config = server.openai_config("gpt-4o")
        direct = _intent(config, tmp_path, "direct")
        server.reset()
        batch = _intent(config, tmp_path, "batch", judge_mode="batch", batch_poll_s=0.05)
        retried = _direct_requests(server)
    costs = sorted(r[f"{SCORE}_usage"]["cost_usd"] for r in batch.rows)
    n_full = len(_file_lines(server, "error_file_id"))
    assert retried == n_full > 0
    assert [r[f"{SCORE}_usage"]["cost_usd"] for r in direct.rows] == pytest.approx([full] * ROWS)
    assert costs == pytest.approx([full / 2] * (ROWS - n_full) + [full] * n_full)
    assert json.loads((tmp_path / "batch" / "summary.json").read_text())["cost_usd"] == pytest.approx(
        full / 2 * (ROWS - n_full) + full * n_full)


def test_the_simulated_user_goes_round_by_round(tmp_path):
    """A simulated conversation: each simulated user turn is a round of its own, then the metric's."""
    from agent_evaluators.agents import simulated_conversation_target

    def agent(messages: List[Dict[str, Any]]) -> str:
        return f"Reply {len(messages)}: {messages[-1]['content'][:30]}"

    rows = [{"starting_prompt": f"I want to book table {i}", "conversation_plan": "Table for 2 at 7pm."}
            for i in range(3)]
    with JudgeServer() as server:
        def run(name: str, **options: Any) -> Any:
            judge = server.openai_config()
            return evaluate(data=rows, target=simulated_conversation_target(agent, model_config=judge, max_turns=3),
                            evaluators={"intent": IntentResolutionEvaluator(model_config=judge)},
                            evaluator_config={"default": {"column_mapping": {"conversation": "${target.conversation}"}}},
                            output_path=tmp_path / name, show_progress=False, **options)
        direct = run("direct")
        calls = server.stats()["requests"]
        server.reset()
        batch = run("batch", judge_mode="batch", batch_poll_s=0.05)
        assert _batch_lines(server) == calls and _direct_requests(server) == 0
        assert len(server.batches.batches) >= 3  # two simulated turns, then the metric
    assert batch.metrics["intent.error_count"] == 0
    assert comparable(batch.rows) == comparable(direct.rows)
