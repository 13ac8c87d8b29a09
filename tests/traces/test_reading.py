"""Reading OTLP/JSON traces into rows: what each real producer's file gives, and what cannot be read."""

import base64
import io
import json
import shutil
from pathlib import Path

import pytest

from agent_evaluators import ConfigError, evaluate
from agent_evaluators.runner.readers import RowError, iter_input
from agent_evaluators.traces import read_runs

from .conversations import FIXTURES, PRODUCER_FILES, runs_of

CONVENTION = {"adk": "GenAI (message attributes)", "openai_v2_attributes": "GenAI (message attributes)",
              "openai_v2_events": "GenAI (operation details events)",
              "openai_v2_legacy": "GenAI (gen_ai.*.message events)", "openinference": "OpenInference"}


def folder_of(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "traces"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(FIXTURES / name, folder / name)
    return folder


def strip_usage(messages):
    return [{k: v for k, v in m.items() if k != "usage"} for m in messages]


@pytest.mark.parametrize("producer", list(PRODUCER_FILES))
def test_each_producer_gives_one_row_per_agent_run(producer, tmp_path):
    rows = list(iter_input(folder_of(tmp_path, *PRODUCER_FILES[producer])))
    expected = runs_of(producer)
    assert [strip_usage(r["query"] + r["response"]) for r in rows] == [run["messages"] for run in expected]
    for row, run in zip(rows, expected):
        assert row["trace_source"] == CONVENTION[producer]
        assert len(row["trace_id"]) == 32 and len(row["span_id"]) == 16
        assert row["id"] == (run["key"] or row["trace_id"])
        if sum(m["role"] == "user" for m in run["messages"]) > 1:
            assert len(row["trace_ids"]) == 2  # two turns, two traces, one conversation id
            assert row["conversation"] == {"messages": row["query"] + row["response"]}
        else:
            assert "trace_ids" not in row and "conversation" not in row
        assert row["tool_calls"] == [{"type": "tool_call", "tool_call_id": c["id"], "name": c["function"]["name"],
                                      "arguments": json.loads(c["function"]["arguments"])}
                                     for m in row["response"] for c in m.get("tool_calls") or []]
        assert {d["name"] for d in row["tool_definitions"]} >= {"get_weather"}
        assert row["duration_s"] > 0
        assistant = [m for m in row["query"] + row["response"] if m["role"] == "assistant"]
        assert all(set(m["usage"]) == {"prompt_tokens", "completion_tokens"} for m in assistant)
        assert row["agent_usage"]["llm_calls"] == len(assistant)
        assert row["agent_usage"]["prompt_tokens"] == sum(m["usage"]["prompt_tokens"] for m in assistant)
        agent = row["agent_usage"]
        assert agent["tool_calls"] == sum(len(m.get("tool_calls") or []) for m in row["query"] + row["response"])
        assert 0 < agent["llm_duration_s"] <= row["duration_s"] and 0 <= agent["tool_duration_s"] <= row["duration_s"]


def test_loop_usage_is_the_model_calls_own():
    (run, *_), problems = read_runs(FIXTURES / "openinference.spans.jsonl")
    assert not problems
    assert [m.get("usage") for m in run.messages if m["role"] == "assistant"] == [
        {"prompt_tokens": 27, "completion_tokens": 43}, {"prompt_tokens": 30, "completion_tokens": 17}]
    assert run.usage == {"prompt_tokens": 57, "completion_tokens": 60}


def test_a_trace_is_split_over_lines_and_files_and_read_whole(tmp_path):
    spans = (FIXTURES / "openai_v2_legacy.spans.jsonl").read_text().splitlines()
    assert len(spans) > 3 * 4  # one span per line: every trace is split
    rows = list(iter_input(folder_of(tmp_path, "openai_v2_legacy.spans.jsonl", "openai_v2_legacy.logs.jsonl")))
    assert [len(r["query"]) + len(r["response"]) for r in rows] == [5, 9, 3]


def test_spans_without_their_log_file_are_error_rows_naming_the_trace(tmp_path):
    rows = list(iter_input(folder_of(tmp_path, "openai_v2_legacy.spans.jsonl")))
    assert len(rows) == 3 and all(isinstance(r, RowError) for r in rows)
    assert "carry no message content" in rows[0].message and "OTEL_INSTRUMENTATION_GENAI_CAPTURE" in rows[0].message
    assert rows[1].message.startswith("trace ") and "(conversation conv-trip)" in rows[1].message


def test_one_pretty_printed_object_per_file_and_base64_ids(tmp_path):
    objects = [json.loads(line) for line in (FIXTURES / "openinference.spans.jsonl").read_text().splitlines()]
    merged = {"resourceSpans": [rs for o in objects for rs in o["resourceSpans"]]}
    for rs in merged["resourceSpans"]:
        for scope in rs["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(merged, indent=2))
    expected = list(iter_input(FIXTURES / "openinference.spans.jsonl"))
    assert list(iter_input(path)) == expected


def test_data_format_otlp_reads_an_open_file_and_objects_in_memory():
    text = (FIXTURES / "openinference.spans.jsonl").read_text()
    expected = list(iter_input(FIXTURES / "openinference.spans.jsonl"))
    assert list(iter_input(io.StringIO(text), "otlp")) == expected
    assert list(iter_input([json.loads(line) for line in text.splitlines()], "otlp")) == expected


def test_unreadable_lines_and_foreign_traces_are_error_rows(tmp_path):
    http_span = {"resourceSpans": [{"scopeSpans": [{"spans": [{
        "traceId": "ab" * 16, "spanId": "cd" * 8, "name": "GET /health", "startTimeUnixNano": "1", "endTimeUnixNano": "2"}]}]}]}
    path = tmp_path / "mixed.jsonl"
    good = (FIXTURES / "openinference.spans.jsonl").read_text()
    n = len(good.splitlines())
    path.write_text(good + "{not json\n" + json.dumps(http_span) + "\n"
                    + json.dumps({"query": "a row, not a trace"}) + "\n")
    rows = list(iter_input(path))
    errors = [r.message for r in rows if isinstance(r, RowError)]
    assert len(rows) - len(errors) == 3
    assert errors[0].startswith(f"line {n + 1} of mixed.jsonl: invalid JSON")
    assert errors[1].startswith(f"line {n + 3} of mixed.jsonl: expected an OTLP/JSON export object")
    assert errors[2].startswith(f"trace {'ab' * 16}: no model call span") and "GET /health" in errors[2]


def test_a_folder_without_traces_and_a_bad_data_format_are_refused(tmp_path):
    (tmp_path / "rows.jsonl").write_text('{"query": "q"}\n')
    with pytest.raises(ConfigError, match="folder without OTLP/JSON trace files"):
        list(iter_input(tmp_path))
    with pytest.raises(ConfigError, match="data_format must be one of auto, otlp"):
        evaluate(data=tmp_path / "rows.jsonl", evaluators={"f": lambda query: 1}, data_format="jsonl")


def test_evaluate_keeps_the_trace_ids_on_each_row(tmp_path):
    folder = folder_of(tmp_path, *PRODUCER_FILES["openai_v2_events"])
    result = evaluate(data=folder, evaluators={"turns": lambda query: {"user_turns": sum(
        m["role"] == "user" for m in query)}}, output_path=tmp_path / "out", show_progress=False)
    rows = list(result.rows)
    assert [r["outputs.turns.user_turns"] for r in rows] == [1, 2, 1]
    assert all(len(r["inputs.trace_id"]) == 32 and len(r["inputs.span_id"]) == 16 for r in rows)
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["config"]["data_format"] == "auto"
    assert summary["fingerprint"]["data"] is not None  # a folder of traces is fingerprinted too


def test_a_run_inside_its_trace_folder_resumes(tmp_path):
    folder = folder_of(tmp_path, *PRODUCER_FILES["openinference"])
    first = evaluate(data=folder, evaluators={"n": lambda query: len(query)}, output_path=folder / "out",
                     show_progress=False)
    again = evaluate(data=folder, evaluators={"n": lambda query: len(query)}, output_path=folder / "out",
                     resume=True, show_progress=False)  # its own rows.jsonl is not new trace data
    assert [r["outputs.n.output"] for r in again.rows] == [r["outputs.n.output"] for r in first.rows] == [2, 6, 2]


def test_a_trace_rows_messages_feed_the_efficiency_metrics():
    """The agent's usage a trace records reaches ADK's efficiency metrics (issue 27 x 28): a
    row's ``response`` (its last turn, without the user message) counts as one turn; mapped to
    the row's ``conversation``, the per-turn averages are the trace's totals over its turns."""
    from agent_evaluators import InferenceCallCountEvaluator, TokenUsageEvaluator, ToolCallCountEvaluator, evaluate

    fixture = Path(__file__).parent / "fixtures" / "openai_v2_attributes.spans.jsonl"
    evaluators = {"tok": TokenUsageEvaluator(), "tools": ToolCallCountEvaluator(), "calls": InferenceCallCountEvaluator()}
    single = evaluate(data=str(fixture), evaluators=evaluators, show_progress=False).rows
    multi = [r for r in single if "inputs.conversation" in r]  # the trace's whole dialogue as the response
    whole = iter(evaluate(data=[{"response": r["inputs.conversation"]} for r in multi], evaluators=evaluators,
                          show_progress=False).rows)
    checked = {"single": 0, "multi": 0}
    for row in single:
        usage = row["inputs.agent_usage"]
        if "inputs.conversation" not in row:
            got = row
            turns = 1
            checked["single"] += 1
        else:
            got = next(whole)
            turns = sum(m.get("role") == "user" for m in row["inputs.conversation"]["messages"])
            checked["multi"] += 1
        assert got["outputs.tools.tool_call_count_v1"] == pytest.approx(usage["tool_calls"] / turns)
        assert got["outputs.calls.inference_call_count_v1"] == pytest.approx(usage["llm_calls"] / turns)
        assert got["outputs.tok.token_usage_v1"] == pytest.approx(usage["total_tokens"] / turns)
    assert checked["single"] and checked["multi"]


def test_log_records_without_a_trace_id_join_the_span_they_name(tmp_path):
    """Some exporters write a log record's spanId only (or in base64): it still reaches its span's trace."""
    folder = folder_of(tmp_path, "openai_v2_legacy.spans.jsonl", "openai_v2_legacy.logs.jsonl")
    expected = list(iter_input(folder))
    logs = folder / "openai_v2_legacy.logs.jsonl"
    lines = []
    for n, line in enumerate(logs.read_text().splitlines()):
        request = json.loads(line)
        for resource in request["resourceLogs"]:
            for scope in resource["scopeLogs"]:
                for record in scope["logRecords"]:
                    record.pop("traceId", None)
                    if n % 2:
                        record["spanId"] = base64.b64encode(bytes.fromhex(record["spanId"])).decode()
        lines.append(json.dumps(request))
    logs.write_text("\n".join(lines) + "\n")
    assert list(iter_input(folder)) == expected
