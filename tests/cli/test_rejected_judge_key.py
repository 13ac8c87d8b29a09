"""Item 20.6: a rejected judge key stops the judge-backed evaluators after the first 401, as a user sees it.

``agent-eval run`` in a subprocess against the bundled fake judge started as a separate
process with ``--require-api-key``. The old run sent every judge cell (96 requests for 48
rows × 2 judge evaluators, each refused) and printed the same ~300-character error once per
cell with ``? (48 calls)`` in the token column. Now at most ``--max-concurrency`` requests
go out before the first 401 is known; the errors are one group naming
``--judge-api-key-env`` / ``OPENAI_API_KEY``; the token column says no call succeeded; exit 2.
"""

import subprocess
import sys
from pathlib import Path

from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import agent_eval, clean_env, sample_rows, write_jsonl

RIGHT_KEY = "sk-right-key-1234"


def _start_fake_judge() -> "tuple[subprocess.Popen, str]":
    proc = subprocess.Popen([sys.executable, "-m", "agent_evaluators.testing", "--require-api-key", RIGHT_KEY],
                            stdout=subprocess.PIPE, text=True, env=clean_env())
    line = proc.stdout.readline() if proc.stdout else ""
    assert line.startswith("listening on "), line
    return proc, line.split()[-1]


def _run(tmp_path: Path, url: str, key: str):
    data = write_jsonl(tmp_path / "rows.jsonl", sample_rows() * 4)  # 48 rows
    return agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "-e", "task_adherence=task",
                      "-e", "response_match", "--judge-base-url", url + "/v1", "--judge-model", "m",
                      "--judge-api-key-env", "MY_JUDGE_KEY", "--max-concurrency", "4", "-o", tmp_path / "out",
                      env=clean_env(MY_JUDGE_KEY=key))


def test_a_rejected_key_is_one_error_after_at_most_max_concurrency_requests(tmp_path):
    proc, url = _start_fake_judge()
    try:
        r = _run(tmp_path, url, "sk-wrong-key-9876")
    finally:
        proc.terminate()
        proc.wait(10)
    assert r.rc == 2, r
    assert "Errors (96 cell(s)):" in r.out, r
    assert "96 cells: intent, task, rows 0, 1, 2" in r.out, r  # one group, not 96 paragraphs
    assert r.out.count("HTTP 401") == 1, r
    assert "--judge-api-key-env" in r.out and "OPENAI_API_KEY" in r.out and "no more requests" in r.out
    assert "sk-wrong-key-9876" not in r.out + r.err
    for alias in ("intent ", "task "):
        line = next(line for line in r.out.splitlines() if line.startswith(alias))
        assert line.rstrip().endswith("0 tokens (no successful calls)"), line  # the old table: "? (48 calls)"
    assert "Result: ERROR" in r.out


def test_the_requests_stop_at_the_first_refusal(tmp_path):
    with JudgeServer(require_api_key=RIGHT_KEY) as server:
        r = _run(tmp_path, server.url, "sk-wrong-key-9876")
        stats = server.stats()
    assert r.rc == 2, r
    assert stats["faults"] == {"unauthorized": stats["requests"]}
    assert 1 <= stats["requests"] <= 4, stats  # --max-concurrency 4 in flight; the old run sent 96


def test_the_right_key_is_accepted(tmp_path):
    with JudgeServer(require_api_key=RIGHT_KEY) as server:
        r = _run(tmp_path, server.url, RIGHT_KEY)
        stats = server.stats()
    assert stats["requests"] == 96 and not stats["faults"], stats
    assert "Errors (" not in r.out, r


def test_a_dead_judge_is_a_couple_of_grouped_errors_not_one_per_cell(tmp_path):
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens: connections are refused
    r = _run(tmp_path, f"http://127.0.0.1:{port}", "any-key")
    assert r.rc == 2, r
    assert "Errors (96 cell(s)):" in r.out
    error_section = r.out.split("Errors (96 cell(s)):", 1)[1].split("\n\n", 1)[0]
    assert error_section.count(f"127.0.0.1:{port}") <= 3, error_section  # the old output: 15 shown, "81 more"
    assert "is the server running" in error_section or "server is running" in error_section
