"""Batch mode against a hostile or failing Batch API (issue 36): it never hangs, never sends a request
twice, and says what happened.

The fake judge scripts each route's failures (``BatchFaults.fail``), edits the batch objects and
output files it serves (``edit``, ``edit_output``), gzips its output files and answers a create late
or not at all (``create_delay_s``, ``create_reset``), all over real HTTP. A run that would hang is
bounded by :func:`_bounded`, so a regression fails instead of blocking the suite.
"""

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate, evaluate_async
from agent_evaluators.testing import BatchFaults, JudgeServer
from tests.cli.helpers import agent_eval, clean_env
from tests.reliability.figures import record

from .distributed.helpers import make_rows, rule_judge

ROWS = 6
SCORE = "outputs.intent.intent_resolution"


def _direct_requests(server: JudgeServer) -> int:
    return sum(1 for r in server.requests if "x-batch-custom-id" not in r.headers)


def _scores(rows: Any) -> Dict[int, Any]:
    return {r["line_number"]: (r.get(SCORE), r.get(f"{SCORE}_result")) for r in rows}


def _expected() -> Dict[int, Any]:
    return {i: (float(i % 5 + 1), "pass" if i % 5 + 1 >= 3 else "fail") for i in range(ROWS)}


def _bounded(config: Dict[str, Any], folder: Path, limit_s: float = 40.0, rows: int = ROWS, **options: Any) -> Any:
    """A batch-mode run of the intent metric that must end within ``limit_s`` (a hang fails the test)."""
    async def run() -> Any:
        return await asyncio.wait_for(evaluate_async(
            data=make_rows(rows), evaluators={"intent": IntentResolutionEvaluator(model_config=config)},
            output_path=folder, show_progress=False, judge_mode="batch", batch_poll_s=0.05, **options), limit_s)

    return asyncio.run(run())


def _errors(result: Any) -> List[str]:
    return [r.get(f"{SCORE}_error") or "" for r in result.rows]


# ------------------------------------------------------------------ item 2: replies of the wrong shape, a deadline
@pytest.mark.heavy  # waits out real retry and poll delays (4-7 s)
def test_a_create_reply_without_an_id_finds_its_batch_instead_of_hanging(tmp_path):
    def no_id(route: str, obj: Dict[str, Any]) -> Any:
        return {k: v for k, v in obj.items() if k != "id"} if route == "create" else obj

    with JudgeServer(rule_judge, batch=BatchFaults(edit=no_id)) as server:
        result = _bounded(server.openai_config(), tmp_path / "out")
        assert len(server.batches.batches) == 1 and set(server.batches.custom_ids.values()) == {1}
    assert _scores(result.rows) == _expected()


def test_a_batch_reply_without_an_id_anywhere_fails_the_cells_with_the_reason(tmp_path):
    def no_id(route: str, obj: Dict[str, Any]) -> Any:
        if route == "create":
            return {k: v for k, v in obj.items() if k != "id"}
        if route == "list":
            return {**obj, "data": [{k: v for k, v in b.items() if k != "id"} for b in obj["data"]]}
        return obj

    with JudgeServer(rule_judge, batch=BatchFaults(edit=no_id)) as server:
        result = _bounded(server.openai_config(), tmp_path / "out")
        assert len(server.batches.batches) == 1  # not created again
    assert result.metrics["intent.error_count"] == ROWS
    assert all("no batch id" in e for e in _errors(result)), _errors(result)


def test_request_counts_of_the_wrong_type_fail_the_cells_instead_of_hanging(tmp_path):
    def counts_as_text(route: str, obj: Dict[str, Any]) -> Any:
        return {**obj, "request_counts": "12 of 12"} if route == "retrieve" else obj

    with JudgeServer(rule_judge, batch=BatchFaults(edit=counts_as_text)) as server:
        result = _bounded(server.openai_config(), tmp_path / "out")
    assert result.metrics["intent.error_count"] == ROWS
    assert all("request_counts of the wrong shape" in e and "batches.jsonl" in e for e in _errors(result)), _errors(result)


@pytest.mark.heavy  # waits out real retry and poll delays (4-7 s)
def test_a_batch_not_done_within_batch_timeout_s_fails_its_cells_and_resume_polls_it_again(tmp_path):
    with JudgeServer(rule_judge, batch=BatchFaults(complete_after_s=3.0)) as server:
        started = time.monotonic()
        result = _bounded(server.openai_config(), tmp_path / "out", batch_timeout_s=0.5)
        assert time.monotonic() - started < 3.0
        assert result.metrics["intent.error_count"] == ROWS
        assert all("batch_timeout_s" in e and "in_progress" in e for e in _errors(result)), _errors(result)
        time.sleep(3.0)
        resumed = _bounded(server.openai_config(), tmp_path / "out", resume=True)
        assert len(server.batches.batches) == 1 and set(server.batches.custom_ids.values()) == {1}  # polled again
    assert _scores(resumed.rows) == _expected()


def test_batch_timeout_s_is_a_run_option_everywhere(tmp_path):
    from agent_evaluators.errors import ConfigError
    from agent_evaluators.runner.option_table import RUN_OPTIONS

    [option] = [o for o in RUN_OPTIONS if o.name == "batch_timeout_s"]
    assert option.default == 86_400.0 and option.flag == "--batch-timeout-s"
    with pytest.raises(ConfigError, match="batch_timeout_s"):
        evaluate(data=make_rows(1), evaluators={"x": len}, batch_timeout_s=0)


# ------------------------------------------------------------------ item 8: a judge restarting during the upload
@pytest.mark.heavy  # waits out real retry and poll delays (4-7 s)
def test_a_transient_upload_failure_is_retried_as_a_chat_call_is(tmp_path):
    """Four failed uploads in a row (a restart: reset connections, 503s): the fifth attempt goes through."""
    with JudgeServer(rule_judge, batch=BatchFaults(fail={"upload": [503, 0, 503, 0]})) as server:
        result = _bounded(server.openai_config(), tmp_path / "out")
        assert len(server.batches.batches) == 1 and _direct_requests(server) == 0
    assert _scores(result.rows) == _expected()


@pytest.mark.heavy  # waits out real retry and poll delays (4-7 s)
def test_an_upload_that_keeps_failing_says_what_happened(tmp_path):
    with JudgeServer(rule_judge, batch=BatchFaults(fail={"upload": [503] * 5})) as server:
        result = _bounded(server.openai_config(), tmp_path / "out")
        assert server.batches.batches == {}
    message = _errors(result)[0]
    assert result.metrics["intent.error_count"] == ROWS
    assert "tried 5 times" in message and "HTTP 503" in message and "resume=True" in message, message
    assert "offers the batch API" not in message  # it does: it was down


# ------------------------------------------------------------------ item 9: polling gives up as a chat call does
@pytest.mark.heavy  # waits out real retry and poll delays (4-7 s)
@pytest.mark.parametrize("fault", ["401", "500", "no status"])
def test_polling_follows_the_chat_retry_rules(tmp_path, fault):
    if fault == "no status":
        faults = BatchFaults(edit=lambda route, obj: {k: v for k, v in obj.items() if k != "status"}
                             if route == "retrieve" else obj)
    else:
        faults = BatchFaults(fail={"retrieve": [int(fault)] * 1000})
    with JudgeServer(rule_judge, batch=faults) as server:
        result = _bounded(server.openai_config(), tmp_path / "out")
        polls = 1000 - len(faults.fail.get("retrieve", [0] * 1000))
    message = _errors(result)[0]
    assert result.metrics["intent.error_count"] == ROWS
    if fault == "401":
        assert polls == 1 and "HTTP 401" in message and "tried once" in message, message
    elif fault == "500":
        assert polls == 5 and "HTTP 500" in message and "tried 5 times" in message, message
    else:
        assert "no known status" in message and "tried 5 times" in message, message


# ------------------------------------------------------------------ item 10: --rerun-failed asks again
def test_rerun_failed_in_batch_mode_sends_the_failed_cells_again(tmp_path):
    broken = {"row": 2}

    def judge(req: Any) -> Any:
        if broken["row"] is not None and f"task {broken['row']} " in req.text:
            return "I would rather not say."  # no verdict (the repair is answered the same): an error cell
        return rule_judge(req)

    with JudgeServer(judge) as server:
        first = _bounded(server.openai_config(), tmp_path / "out")
        assert first.metrics["intent.error_count"] == 1
        batches = len(server.batches.batches)
        broken["row"] = None  # the judge is fixed
        server.reset()
        again = _bounded(server.openai_config(), tmp_path / "out", rerun_failed=True)
        assert len(server.batches.batches) > batches and server.stats()["requests"] == 1  # the failed cell, asked again
    assert again.metrics["intent.error_count"] == 0
    assert _scores(again.rows) == _expected()


# ------------------------------------------------------------------ item 11: output files streamed
def test_an_output_line_over_the_reply_limit_is_skipped_and_its_request_sent_directly(tmp_path):
    def bloated(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        first = dict(records[0])
        first["padding"] = "x" * (6 << 20)  # over the 4 MiB reply limit
        return [first, *records[1:]]

    for gzipped in (False, True):
        with JudgeServer(rule_judge, batch=BatchFaults(edit_output=bloated, gzip_output=gzipped)) as server:
            result = _bounded(server.openai_config(), tmp_path / f"out-{gzipped}")
            assert _direct_requests(server) == 1, gzipped
        assert _scores(result.rows) == _expected()


def test_a_gzip_output_file_gives_the_same_scores(tmp_path):
    with JudgeServer(rule_judge, batch=BatchFaults(gzip_output=True)) as server:
        result = _bounded(server.openai_config(), tmp_path / "out")
        assert _direct_requests(server) == 0
    assert _scores(result.rows) == _expected()


_MEMORY_CHILD = """
import json, sys
sys.path.insert(0, {root!r})
from agent_evaluators import IntentResolutionEvaluator, evaluate
from tests.peak_memory import peak_mb
from tests.runner.distributed.helpers import make_rows
config = json.loads(sys.argv[1])
result = evaluate(data=make_rows(6), evaluators={{"intent": IntentResolutionEvaluator(model_config=config)}},
                  show_progress=False, judge_mode="batch", batch_poll_s=0.05)
print(json.dumps({{"peak_mb": peak_mb(), "errors": result.metrics["intent.error_count"]}}))
"""


@pytest.mark.heavy
def test_a_huge_gzip_output_file_is_read_in_bounded_memory(tmp_path):
    """A 300 MB output line, about 300 KB gzipped: the reading process stays near its usual size."""
    root = str(Path(__file__).resolve().parents[2])

    def child(server: JudgeServer) -> Dict[str, Any]:
        proc = subprocess.run([sys.executable, "-c", _MEMORY_CHILD.format(root=root), json.dumps(server.openai_config())],
                              capture_output=True, text=True, env=clean_env(), timeout=300)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    def bloated(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        return [{**records[0], "padding": " " * (300 << 20)}, *records[1:]]

    with JudgeServer(rule_judge, batch=BatchFaults(gzip_output=True)) as server:
        plain = child(server)
    with JudgeServer(rule_judge, batch=BatchFaults(gzip_output=True, edit_output=bloated)) as server:
        huge = child(server)
    record("batch_huge_output", {"output_line_mb": 300, "plain_peak_rss_mb": round(plain["peak_mb"], 1),
                                 "huge_peak_rss_mb": round(huge["peak_mb"], 1), "errors": huge["errors"]})
    assert plain["errors"] == huge["errors"] == 0
    assert huge["peak_mb"] < plain["peak_mb"] + 60, (plain, huge)


# ------------------------------------------------------------------ item 12: a custom id answered twice
def test_a_duplicate_custom_id_in_the_output_is_an_error_logged_once(tmp_path, caplog):
    def doubled(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        copy = json.loads(json.dumps(records[0]))
        copy["response"]["body"]["choices"][0]["message"]["content"] = json.dumps(
            {"user_intent": "x", "reason": "the other answer", "score": 1})
        return [*records, copy, copy]

    with caplog.at_level(logging.WARNING, logger="agent_evaluators"):
        with JudgeServer(rule_judge, batch=BatchFaults(edit_output=doubled)) as server:
            result = _bounded(server.openai_config(), tmp_path / "out")
    errors = [e for e in _errors(result) if e]
    assert result.metrics["intent.error_count"] == 1 and len(errors) == 1
    assert "more than once" in errors[0], errors
    assert len([r for r in caplog.records if "more than once" in r.getMessage()]) == 1


# ------------------------------------------------------------------ item 21: a create whose answer is lost
def test_a_create_whose_answer_is_lost_is_looked_up_not_sent_again(tmp_path):
    with JudgeServer(rule_judge, batch=BatchFaults(create_reset=True)) as server:
        result = _bounded(server.openai_config(), tmp_path / "out")
        assert len(server.batches.batches) == 1 and set(server.batches.custom_ids.values()) == {1}
    assert _scores(result.rows) == _expected()


def _killed_during_the_create(tmp_path: Path, server: JudgeServer) -> List[Any]:
    """An ``agent-eval run`` SIGKILLed while its create call waits for its answer; its command."""
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in make_rows(ROWS)))
    cmd = [sys.executable, "-m", "agent_evaluators.cli", "run", "--data", str(data), "-e", "intent_resolution=intent",
           "--judge-model", "fake", "--judge-base-url", server.openai_config()["base_url"], "--no-show-progress",
           "-o", str(tmp_path / "out"), "--batch", "--batch-poll-s", "0.05"]
    proc = subprocess.Popen(cmd, env=clean_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not server.batches.batches and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    time.sleep(0.3)  # the create is waiting for its answer
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    assert "intended" in (tmp_path / "out" / "batches.jsonl").read_text()
    server.batches.faults.create_delay_s = 0.0
    return cmd


def test_sigkill_during_the_create_then_resume_sends_nothing_twice(tmp_path):
    with JudgeServer(rule_judge, batch=BatchFaults(create_delay_s=30.0)) as server:
        cmd = _killed_during_the_create(tmp_path, server)
        resumed = agent_eval(*cmd[3:], "--resume")
        assert resumed.rc == 1 and "FAIL (threshold)" in resumed.out, resumed
        assert len(server.batches.batches) == 1  # found, not created again
        assert sorted(server.batches.custom_ids.values()) == [1] * ROWS and _direct_requests(server) == 0
    rows = [json.loads(t) for t in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert {r["line_number"]: r[SCORE] for r in rows} == {i: float(i % 5 + 1) for i in range(ROWS)}


@pytest.mark.heavy  # a batch run, a kill and a resume in subprocesses (about 6 s)
def test_a_resume_that_cannot_look_the_batch_up_sends_nothing(tmp_path):
    with JudgeServer(rule_judge, batch=BatchFaults(create_delay_s=30.0)) as server:
        cmd = _killed_during_the_create(tmp_path, server)
        server.batches.faults.fail["list"] = [500] * 100
        resumed = agent_eval(*cmd[3:], "--resume")
        assert len(server.batches.batches) == 1 and server.stats()["requests"] == 0  # nothing sent again
        rows = [json.loads(t) for t in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
        assert len(rows) == ROWS and all("cannot tell whether" in r[f"{SCORE}_error"] for r in rows), resumed
        server.batches.faults.fail["list"] = []
        again = agent_eval(*cmd[3:], "--resume")  # the error cells look the batch up again, and find it
        assert again.rc == 1 and len(server.batches.batches) == 1, again
        assert sorted(server.batches.custom_ids.values()) == [1] * ROWS and _direct_requests(server) == 0


# ------------------------------------------------------------------ item 22: a damaged batches.jsonl
@pytest.mark.parametrize("line", ["[1, 2]", '{"event": "submitted", "batch_id": "b1", "requests": 7}', '"text"'])
def test_a_tampered_batch_record_is_a_clear_error_exit_2(tmp_path, line):
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in make_rows(2)))
    with JudgeServer(rule_judge) as server:
        args = ["run", "--data", data, "-e", "intent_resolution=intent", "--judge-model", "fake", "--judge-base-url",
                server.openai_config()["base_url"], "--no-show-progress", "-o", tmp_path / "out", "--batch",
                "--batch-poll-s", "0.05"]
        first = agent_eval(*args)
        assert first.rc == 1, first
        with open(tmp_path / "out" / "batches.jsonl", "a") as f:
            f.write(line + "\n")
        (tmp_path / "out" / "rows.jsonl").write_text("")  # every row is missing: the resume reads the record
        resumed = agent_eval(*args, "--resume")
    assert resumed.rc == 2, resumed
    assert "batches.jsonl" in resumed.err and "damaged" in resumed.err and "Traceback" not in resumed.err, resumed.err


# ------------------------------------------------------------------ item 25: max_cost fills a batch up to the cap
def test_max_cost_in_batch_mode_fills_the_batch_up_to_the_cap(tmp_path):
    """Each request costs what the gate expects of it before any answer (its characters / 3 in, 1,000 out),
    at the batch price: a cap of 12 such answers sends all 12 in the first batch."""
    from agent_evaluators.testing import Reply

    def judge(req: Any) -> Reply:
        chars = sum(len(m["content"]) for m in req.body["messages"])
        tokens = {"prompt_tokens": -(-chars // 3), "completion_tokens": 1000}
        return Reply(content=rule_judge(req), usage={**tokens, "total_tokens": sum(tokens.values())})

    with JudgeServer(judge) as server:
        config = server.openai_config("gpt-4o")
        probe = _bounded(config, tmp_path / "probe", rows=12)  # what 12 batch answers cost
        cost = json.loads((tmp_path / "probe" / "summary.json").read_text())["cost_usd"]
        server.batches.batches.clear()
        result = _bounded(config, tmp_path / "out", rows=12, max_cost=cost * 1.000001)
        sizes = [b["request_counts"]["total"] for b in server.batches.batches.values()]
    assert probe.metrics["intent.n"] == 12 and result.metrics["intent.n"] == 12
    assert sizes == [12], sizes


# ------------------------------------------------------------------ items 2 and 21 together: SIGKILL anywhere
@pytest.mark.heavy
@pytest.mark.parametrize("seed", range(3))
def test_sigkill_loop_in_batch_mode_loses_no_row_and_sends_nothing_twice(tmp_path, seed):
    """Runs killed (-9) at random moments (uploading, creating, polling, reading) and resumed, five
    times per seed, then resumed to the end: every request is sent in one batch and answered once,
    every row kept."""
    import random

    rng = random.Random(seed)
    rows = 24
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in make_rows(rows)))
    faults = BatchFaults(complete_after_s=3.0, create_delay_s=1.0)  # a first run takes over 4 s: the first kill (by 2.4 s) lands
    with JudgeServer(rule_judge, batch=faults) as server:
        cmd = [sys.executable, "-m", "agent_evaluators.cli", "run", "--data", str(data), "-e", "intent_resolution=intent",
               "--judge-model", "fake", "--judge-base-url", server.openai_config()["base_url"], "--no-show-progress",
               "-o", str(tmp_path / "out"), "--batch", "--batch-poll-s", "0.05", "--batch-max-requests", "7"]
        kills = 0
        for attempt in range(5):
            proc = subprocess.Popen(cmd + (["--resume"] if attempt else []), env=clean_env(),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.6, 2.4))  # the interpreter's start takes half a second or more
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                kills += 1
            proc.wait(30)
        final = agent_eval(*cmd[3:], "--resume")
        assert final.rc == 1 and "FAIL (threshold)" in final.out, final
        assert kills >= 1
        sent = [line["custom_id"] for b in server.batches.batches.values() for line in b["_lines"]]
        journal = (tmp_path / "out" / "batches.jsonl").read_text()
        assert len(sent) == len(set(sent)) == rows, journal  # each request in one batch (the fake runs a batch when polled)
        assert sorted(server.batches.custom_ids.values()) == [1] * rows, server.batches.custom_ids
        assert _direct_requests(server) == 0
    records = [json.loads(t) for t in (tmp_path / "out" / "rows.jsonl").read_text().splitlines() if t.strip()]
    latest = {r["line_number"]: r for r in records}
    assert {i: r[SCORE] for i, r in latest.items()} == {i: float(i % 5 + 1) for i in range(rows)}


def test_an_event_after_a_line_cut_short_by_a_kill_is_kept(tmp_path):
    from agent_evaluators.judge.batch_journal import BatchJournal

    (tmp_path / "batches.jsonl").write_text('{"event": "intended", "input_file_id": "f1", "endpoint": "e", "requests": {"a-0":')
    BatchJournal(tmp_path, keep=True).intended("f2", "e", [("b-0", "row 1 intent")])
    assert BatchJournal(tmp_path, keep=True).file_of("b-0") == "f2"
