"""Issue 20.2: an error message keeps its own line breaks (no literal ``\\x0a``), on a pipe and on a terminal,
while control characters that come from data stay escaped."""

import os
import pty
import subprocess
import sys
from pathlib import Path

from .helpers import AGENTS, agent_eval, clean_env


def _lines_of_error(text: str) -> list:
    assert "\\x0a" not in text, text
    return text.splitlines()


def test_mapping_error_prints_one_problem_per_line(tmp_path: Path) -> None:
    r = agent_eval("run", "--data", AGENTS, "--evaluator", "response_match", "--map", "response_match.response=respnse",
                   "-o", tmp_path / "out")
    assert r.rc == 2, r
    lines = _lines_of_error(r.err)
    assert lines[0].startswith("agent-eval: error: Some evaluators cannot get their inputs"), r
    assert any(line.startswith("  - evaluator 'response_match'") and "respnse" in line for line in lines), r
    assert any(line.startswith("  Available columns: ") for line in lines), r


def test_yaml_syntax_error_shows_the_caret_on_its_own_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("data: [\n  x: : y\n", encoding="utf-8")
    r = agent_eval("run", "--config", bad)
    assert r.rc == 2, r
    lines = _lines_of_error(r.err)
    assert "not valid YAML" in lines[0] and any(line.strip() == "^" for line in lines), r


def test_on_a_terminal_too(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("data: [\n  x: : y\n", encoding="utf-8")
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "agent_evaluators.cli", "run", "--config", str(bad)],
                            stdin=child, stdout=child, stderr=child, env=clean_env(), close_fds=True)
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    assert proc.wait(60) == 2
    shown = b"".join(chunks).decode("utf-8", "replace")
    lines = _lines_of_error(shown)
    assert "not valid YAML" in lines[0] and any(line.strip() == "^" for line in lines), shown


def test_data_in_an_error_stays_escaped(tmp_path: Path) -> None:
    data = tmp_path / "d\x1b[2J.jsonl"
    data.write_text('{"response": "a", "ground_truth": "b"}\n', encoding="utf-8")
    r = agent_eval("run", "--data", data, "--evaluator", "response_match", "--map", "response_match.response=x\ty",
                   "-o", tmp_path / "out")
    assert r.rc == 2, r
    assert "\x1b" not in r.err and "\t" not in r.err and "x\\x09y" in r.err, r
