"""``agent-eval run`` on a terminal: the progress line shows the file's row total and an ETA."""

import os
import pty
import subprocess
import sys

from tests.cli.helpers import clean_env, write_jsonl


def test_progress_line_on_a_terminal_has_total_and_eta(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"response": f"answer {i}", "ground_truth": "answer"} for i in range(200)])
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "agent_evaluators.cli", "run", "--data", str(data),
                                 "-e", "response_match", "-o", str(tmp_path / "run")],
                                stdout=subprocess.DEVNULL, stderr=slave, env=clean_env(), cwd=tmp_path)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert proc.wait(120) in (0, 1)
    finally:
        os.close(master)
    text = b"".join(chunks).decode("utf-8", "replace")
    assert "evaluate: 200/200 rows" in text, text
    assert "ETA " in text or "done" in text, text


def test_count_rows_counts_jsonl_and_csv_without_parsing(tmp_path):
    from agent_evaluators.runner.progress import count_rows

    (tmp_path / "a.jsonl").write_text('{"a": 1}\n{"a": 2}\n{"a": 3}')
    (tmp_path / "b.csv").write_text("x,y\n1,2\n3,4\n")
    assert count_rows(str(tmp_path / "a.jsonl")) == 3
    assert count_rows(tmp_path / "b.csv") == 2
    assert count_rows([{"a": 1}]) is None and count_rows(str(tmp_path / "missing.jsonl")) is None
