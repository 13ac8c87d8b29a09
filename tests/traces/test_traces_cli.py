"""Trace files from the command line, as a user runs them: ``agent-eval run --data`` and ``agent-eval traces``."""

import json
import shutil
from pathlib import Path

import pytest

from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import agent_eval

from .conversations import FIXTURES, PRODUCER_FILES, runs_of

#: the judge evaluators of samples/eval.yaml whose inputs a trace gives (the others need a ground truth)
SAMPLE_EVALUATORS = ["intent_resolution=intent", "task_adherence", "tool_call_accuracy=tool_calls"]


@pytest.fixture(scope="module")
def judge():
    with JudgeServer() as server:
        yield server


def data_of(tmp_path: Path, producer: str) -> Path:
    """A producer's single span file as it is, or its span + log files in a folder."""
    files = PRODUCER_FILES[producer]
    if len(files) == 1:
        return FIXTURES / files[0]
    folder = tmp_path / producer
    folder.mkdir()
    for name in files:
        shutil.copy(FIXTURES / name, folder / name)
    return folder


@pytest.mark.parametrize("producer", list(PRODUCER_FILES))
def test_a_producers_trace_evaluates_end_to_end(producer, tmp_path, judge):
    data = data_of(tmp_path, producer)
    judge.reset()
    flags = [a for e in SAMPLE_EVALUATORS for a in ("-e", e)]
    r = agent_eval("run", "--data", data, *flags, "--judge-base-url", judge.url + "/v1", "--judge-model", "fake",
                   "-o", tmp_path / "out", "--no-show-progress")
    assert r.rc == 0, r
    runs = runs_of(producer)
    assert f"{len(runs)} row(s) evaluated" in r.out, r
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert len(rows) == len(runs)
    for row in rows:
        assert len(row["inputs.trace_id"]) == 32 and len(row["inputs.span_id"]) == 16
        assert row["outputs.intent.intent_resolution_result"] == "pass"
        assert row["outputs.task_adherence.task_adherence_result"] == "pass"
    asked = "\n".join(req.text for req in judge.requests)
    for run in runs:
        for message in run["messages"]:
            if message["role"] == "user":
                assert message["content"] in asked  # every user turn reached the judge


def test_traces_prints_runs_turns_tool_calls_and_convention(tmp_path):
    r = agent_eval("traces", data_of(tmp_path, "openai_v2_legacy"))
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0].split() == ["run", "traces", "turns", "llm", "calls", "tool", "calls", "tokens", "seconds",
                                "read", "from"]
    conv = next(line for line in lines if line.startswith("conv-trip"))
    assert conv.split()[:6] == ["conv-trip", "2", "2", "4", "2", "261"]
    assert conv.endswith("GenAI (gen_ai.*.message events)")
    assert "3 agent run(s) read from" in r.out


def test_traces_json_gives_each_run_and_its_row():
    r = agent_eval("traces", FIXTURES / "adk.spans.jsonl", "--json", "--rows")
    assert r.rc == 0, r
    runs = [json.loads(line) for line in r.out.splitlines()]
    assert [(x["id"], x["turns"], x["tool_calls"], x["conventions"]) for x in runs] == [
        ("s0", 1, 1, ["GenAI (message attributes)"]), ("s1", 2, 2, ["GenAI (message attributes)"])]
    assert runs[1]["row"]["response"][-1]["content"] == "It is cloudy and 15 degrees in London."


def test_traces_names_what_is_missing_and_exits_1(tmp_path):
    folder = tmp_path / "spans_only"
    folder.mkdir()
    shutil.copy(FIXTURES / "openai_v2_legacy.spans.jsonl", folder)
    r = agent_eval("traces", folder)
    assert r.rc == 1, r
    assert "0 agent run(s) read" in r.out and "3 not readable" in r.out
    assert "carry no message content" in r.out


def test_traces_refuses_a_file_without_traces(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"query": "hi", "response": "hello"}\n')
    r = agent_eval("traces", path)
    assert r.rc == 2 and "holds no OTLP/JSON trace data" in r.err, r


def test_data_format_otlp_forces_trace_reading(tmp_path, judge):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"query": "hi", "response": "hello", "ground_truth": "hello"}\n')
    r = agent_eval("run", "--data", path, "-e", "response_match", "-o", tmp_path / "plain", "--no-show-progress")
    assert r.rc == 0, r  # auto: an ordinary JSONL row
    r = agent_eval("run", "--data", path, "-e", "response_match", "--data-format", "otlp", "-o", tmp_path / "forced",
                   "--no-show-progress")
    assert r.rc == 2 and "line 1 of rows.jsonl: expected an OTLP/JSON export object" in r.out + r.err, r
    trace = tmp_path / "export.txt"  # any name: a trace file is known by its content
    shutil.copy(FIXTURES / "openinference.spans.jsonl", trace)
    r = agent_eval("run", "--data", trace, "-e", "intent_resolution", "--data-format", "otlp",
                   "--judge-base-url", judge.url + "/v1", "--judge-model", "fake", "-o", tmp_path / "t",
                   "--no-show-progress")
    assert r.rc == 0, r
    assert json.loads((tmp_path / "t" / "summary.json").read_text())["config"]["data_format"] == "otlp"


def test_traces_quotes_escape_sequences_and_newlines_from_file_names(tmp_path, capsys):
    """Issue "Reliability, round four" item 23: a file name (and a run id, a span name in a problem)
    comes from the data; printed raw, ``ESC ]0;...BEL`` retitles the terminal and a newline forges a line."""
    from agent_evaluators.cli.main import main

    name = "evil\x1b]0;pwned\x07\nname.jsonl"
    path = tmp_path / name
    path.write_text((FIXTURES / "openinference.spans.jsonl").read_text()
                    + '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "' + "ab" * 16
                    + '", "spanId": "' + "cd" * 8 + '", "name": "GET /\\u001b[2J\\nfake line"}]}]}]}\n')
    assert main(["traces", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "evil\\x1b]0;pwned\\x07\\x0aname.jsonl" in out
    lines = out.splitlines()
    assert all(not line.startswith("fake line") for line in lines), out
    assert "GET /\\x1b[2J\\x0afake line" in out
    assert main(["traces", str(tmp_path / "gone\x1b[31m\nx.jsonl")]) == 2
    out, err = capsys.readouterr()
    assert "\x1b" not in err and "gone\\x1b[31m\\x0ax.jsonl not found" in err, err
