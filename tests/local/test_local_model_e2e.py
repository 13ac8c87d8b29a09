"""End to end through llama.cpp's real server (xllamacpp) on a real GGUF model.

Run by ci/local_model_e2e.sh with SmolLM2-135M (98 MB): these tests assert format
and plumbing, not judgement quality; that model's verdicts are meaningless.

* every judge-backed evaluator, once, through the local server: >= 90 % of the
  schema-constrained judge replies are complete JSON with in-range numbers; every
  evaluator call ends in an in-range score or a clear ``JudgeError``, never another
  exception;
* the response-format ladder against the real server behind a proxy that refuses
  ``json_schema`` (then ``json_object`` too), as some OpenAI-compatible servers do;
* ``evaluate()`` over a small sample file; ``calibrate()``; ``agent-eval judge serve``.

``AGENT_EVAL_E2E_REPORT=path.json`` writes the per-evaluator measurements.
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from agent_evaluators._util.concurrency import new_limiter, use_judge_limiter
from agent_evaluators._util.loop import run_sync
from agent_evaluators.calibration import calibrate, find_metric, judge_metrics
from agent_evaluators.errors import JudgeError
from agent_evaluators.evaluators.judge_base import LikertVerdict
from agent_evaluators.judge import get_judge_client
from agent_evaluators.local_judge import start_local_judge
from tests.ctrl_c import popen_for_ctrl_c

from ..conftest import REPO_ROOT
from .format_proxy import FormatProxy

pytestmark = pytest.mark.local_model

PARALLEL = 2
#: tighter verdict bounds than the defaults keep a tiny model's rambling, and the run, short
TEXT_LENGTH, LIST_ITEMS = 200, 6
CASES_PER_EVALUATOR = int(os.environ.get("AGENT_EVAL_E2E_CASES", "1"))
MIN_PARSED_IN_RANGE = 0.9
#: evaluator calls with a score: SmolLM2-135M fails the cross-references two evaluators
#: check (tool call indexes, ground-truth unit numbers), which ends as a clear JudgeError
MIN_SCORED = 0.75


@pytest.fixture(scope="module")
def judge(gguf_path):
    threads = os.environ.get("AGENT_EVAL_TEST_THREADS")
    started = time.perf_counter()
    with start_local_judge(gguf_path, n_parallel=PARALLEL, n_threads=int(threads) if threads else None,
                           max_text_length=TEXT_LENGTH, max_list_items=LIST_ITEMS) as j:
        j.load_s = time.perf_counter() - started
        yield j


def test_server_lists_the_model(judge):
    with urllib.request.urlopen(judge.base_url + "/models", timeout=10) as resp:
        listed = json.load(resp)
    assert judge.model in [m["id"] for m in listed["data"]]
    assert judge.load_s < 60


async def _one(metric, case, model_config):
    evaluator = metric.build(model_config, quick=True)
    started = time.perf_counter()
    row = {"evaluator": metric.name, "case": case.id}
    try:
        out = await evaluator.acall(**case.inputs)
    except JudgeError as exc:  # a clear judge error: allowed, counted
        usage = exc.usage or {}
        row.update(outcome="judge_error", message=str(exc)[:300], response_format=usage.get("response_format"))
    else:
        usage = out.get(f"{metric.name}_usage") or {}
        score = out.get(metric.name)
        row.update(outcome="in_range" if metric.in_range(score) else "out_of_range", score=score,
                   response_format=usage.get("response_format"), prompt_tokens=usage.get("prompt_tokens"),
                   completion_tokens=usage.get("completion_tokens"))
    row["latency_s"] = round(time.perf_counter() - started, 2)
    return row


def test_every_judge_evaluator_through_the_local_server(judge):
    """Two levels are measured. Judge replies (seen by a pass-through proxy): complete, one
    JSON object, numbers within the schema's bounds — the format, >= 90 %. Evaluator calls:
    an in-range score, or a clear JudgeError when the evaluator rejects a parsed verdict
    (e.g. SmolLM2 cites a tool call or ground-truth unit that does not exist) — never a crash."""
    async def run_all(config):
        with use_judge_limiter(new_limiter(PARALLEL)):
            return await asyncio.gather(*(
                _one(m, c, config) for m in judge_metrics() for c in m.cases()[:CASES_PER_EVALUATOR]))

    started = time.perf_counter()
    with FormatProxy(judge.url, refuse=()) as proxy:
        # any exception other than JudgeError fails the test here
        rows = run_sync(run_all({**judge.model_config, "base_url": proxy.url + "/v1"}))
        replies = list(proxy.replies)
    wall = time.perf_counter() - started
    good_replies = [r for r in replies if r["finish_reason"] == "stop" and r["json_object"] and r["in_range"]]
    per_evaluator = {}
    for r in rows:
        per_evaluator.setdefault(r["evaluator"], []).append(r["outcome"] == "in_range")
    report = {
        "model": judge.model, "load_s": round(judge.load_s, 2), "wall_s": round(wall, 1), "calls": len(rows),
        "judge_replies": len(replies), "replies_parsed_in_range": len(good_replies) / len(replies),
        "parsed_in_range": sum(r["outcome"] == "in_range" for r in rows) / len(rows),
        "per_evaluator": {k: sum(v) / len(v) for k, v in per_evaluator.items()}, "rows": rows,
    }
    if os.environ.get("AGENT_EVAL_E2E_REPORT"):
        with open(os.environ["AGENT_EVAL_E2E_REPORT"], "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=2))

    assert {r["evaluator"] for r in rows} == {m.name for m in judge_metrics()}
    assert not [r for r in rows if r["outcome"] == "out_of_range"], "a score outside its range was reported"
    assert all(r["response_format"] == "json_schema" for r in rows if r["outcome"] == "in_range")
    for r in rows:
        if r["outcome"] == "judge_error":
            assert r["evaluator"] in r["message"] or "Evaluator" in r["message"], r
    assert all(r["format"] == "json_schema" for r in replies)
    assert report["replies_parsed_in_range"] >= MIN_PARSED_IN_RANGE, json.dumps(replies, indent=1)
    assert report["parsed_in_range"] >= MIN_SCORED, json.dumps(rows, indent=1)


def _ask_directly(model_config):
    """One verdict straight through the judge client (small max_tokens: json_object and text
    modes have no schema bounds, and a tiny model may ramble)."""
    client = get_judge_client(model_config)
    messages = [{"role": "system", "content": 'Grade the answer. Reply with JSON only: {"reason": "<one sentence>", '
                                              '"score": <integer 1-5>}'},
                {"role": "user", "content": "Question: What is 2 + 2? Answer: 4"}]

    async def ask():
        try:
            reply = await client.complete(messages, output_model=LikertVerdict,
                                          params={"temperature": 0, "max_tokens": 120})
            return reply.usage["response_format"], reply.data
        except JudgeError as exc:
            return (exc.usage or {}).get("response_format"), exc

    return run_sync(ask())


@pytest.mark.parametrize("refuse,expected", [({"json_schema"}, "json_object"),
                                             ({"json_schema", "json_object"}, "text")])
def test_format_ladder_against_the_real_server(judge, refuse, expected):
    with FormatProxy(judge.url, refuse=refuse) as proxy:
        config = {**judge.model_config, "base_url": proxy.url + "/v1"}
        mode, first = _ask_directly(config)
        assert mode == expected
        assert isinstance(first, LikertVerdict) or (isinstance(first, JudgeError) and first.raw_text is not None)
        ladder = ["json_schema", "json_object", "text"]
        assert proxy.seen[: ladder.index(expected) + 1] == ladder[: ladder.index(expected) + 1]
        seen_before = len(proxy.seen)
        mode_again, _ = _ask_directly(config)
        # what the endpoint accepts is remembered: no refused format is tried again
        assert mode_again == expected and set(proxy.seen[seen_before:]) == {expected}


def test_evaluate_over_a_sample_file(judge, tmp_path):
    from agent_evaluators import ResponseCompletenessEvaluator, TaskAdherenceEvaluator, evaluate

    lines = (REPO_ROOT / "samples" / "data" / "agents.jsonl").read_text(encoding="utf-8").splitlines()[:3]
    data = tmp_path / "sample.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = evaluate(
        data=str(data),
        evaluators={"adherence": TaskAdherenceEvaluator(model_config=judge.model_config),
                    "completeness": ResponseCompletenessEvaluator(model_config=judge.model_config)},
        max_concurrency=PARALLEL, output_path=tmp_path / "run", show_progress=False,
    )
    assert len(result.rows) == 3
    for row in result.rows:
        for alias, key in (("adherence", "task_adherence"), ("completeness", "response_completeness")):
            status = row[f"outputs.{alias}.{key}_result"]
            if status == "error":
                assert row[f"outputs.{alias}.{key}_error"]
            else:
                assert 1 <= row[f"outputs.{alias}.{key}"] <= 5 and status in ("pass", "fail")
                assert row[f"outputs.{alias}.{key}_usage"]["response_format"] == "json_schema"
    assert (tmp_path / "run" / "summary.json").is_file()
    scored = sum(1 for row in result.rows for a, k in (("adherence", "task_adherence"),
                                                       ("completeness", "response_completeness"))
                 if row[f"outputs.{a}.{k}_result"] != "error")
    assert scored >= 5, result.errors


def test_calibrate_runs_through_the_local_server(judge):
    cases = find_metric("safety_v1").cases()[:4]
    report = calibrate("safety_v1", judge.model_config, cases=cases, max_concurrency=PARALLEL)
    assert report.total == 4 and report.scored + len(report.errors) + len(report.not_applicable) == 4
    assert sum(sum(row.values()) for row in report.confusion.values()) == report.scored
    assert set(report.response_formats) <= {"json_schema"}


def test_serve_cli_serves_until_interrupted(gguf_path):
    code = "import sys; from agent_evaluators.cli.judge_serve import serve_main; sys.exit(serve_main(sys.argv[1:]))"
    proc = popen_for_ctrl_c([sys.executable, "-c", code, "--model", str(gguf_path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert "listening on http://127.0.0.1:" in first, first + proc.stderr.read()
        url = first.rsplit(" ", 1)[-1].strip()
        banner = [first]
        while not banner[-1].startswith("Press Ctrl-C"):
            banner.append(proc.stdout.readline())
            assert banner[-1], "".join(banner)
        with urllib.request.urlopen(url + "/health", timeout=10) as resp:
            assert resp.status == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0, proc.stderr.read()
        printed = "".join(banner) + proc.stdout.read()
        assert "model_config = " in printed and "meaningless" in printed and "Local judge stopped." in printed
    finally:
        if proc.poll() is None:
            proc.kill()
