"""A tracking server that accepts connections and never answers holds nothing up: the MLflow export
has a deadline (60 s by default, ``AGENT_EVAL_MLFLOW_TIMEOUT`` here 2 s), then the run warns and ends
as its results say; the run folder is complete. (It blocked the process for at least 420 s.)"""

import json
import socket
import threading
import time
from typing import Iterator, List

import pytest

from agent_evaluators.export import mlflow_run
from tests.cli.helpers import agent_eval, clean_env, write_jsonl
from tests.conftest import optional_import

optional_import("mlflow")


@pytest.fixture
def hanging_server() -> Iterator[str]:
    """An HTTP "server" on 127.0.0.1 that accepts every connection, reads, and never replies."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held: List[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)  # kept open, never answered

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        listener.close()


def test_a_hanging_tracking_server_costs_a_warning_after_the_deadline(hanging_server, tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", [{"id": f"r{i}", "response": f"a {i}", "ground_truth": "a 1"}
                                                 for i in range(3)])
    env = clean_env(MLFLOW_TRACKING_URI=hanging_server, AGENT_EVAL_MLFLOW_TIMEOUT="2",
                    MLFLOW_HTTP_REQUEST_TIMEOUT="600", MLFLOW_HTTP_REQUEST_MAX_RETRIES="0")
    started = time.monotonic()
    r = agent_eval("run", "--data", data, "-e", "f1_score=f1", "-o", tmp_path / "out", "--mlflow", env=env)
    took = time.monotonic() - started
    assert r.rc in (0, 1), r
    assert took < 60, (took, r)  # the deadline, plus starting Python and importing MLflow
    assert "did not take the run within 2 s" in r.err and "AGENT_EVAL_MLFLOW_TIMEOUT" in r.err, r
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["status"] == "complete" and summary["metrics"]["f1.n"] == 3


@pytest.mark.parametrize("raw, seconds", [("", 60.0), ("5", 5.0), ("0.5", 0.5), ("0", 60.0), ("-1", 60.0),
                                          ("soon", 60.0), ("inf", 60.0), ("nan", 60.0)])
def test_the_deadline_is_60_s_unless_the_environment_gives_a_positive_number(raw, seconds, monkeypatch):
    monkeypatch.setenv("AGENT_EVAL_MLFLOW_TIMEOUT", raw)
    assert mlflow_run.export_timeout_s() == seconds
