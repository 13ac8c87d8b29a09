"""``otel=True`` / ``--otel`` / run config ``otel: true``: each cell of a run as an OpenTelemetry
``gen_ai.evaluation.result`` event, delivered by the SDK's OTLP/HTTP exporter to an endpoint this
test starts, which decodes the real protobuf payload (``ExportLogsServiceRequest``)."""

import json
import logging
import socket
from pathlib import Path
from typing import Any, Dict, List

import pytest

from agent_evaluators import IntentResolutionEvaluator, ResponseMatchEvaluator, evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import agent_eval, clean_env, write_jsonl
from tests.conftest import optional_import

from ..runner.distributed.helpers import make_rows, rule_judge
from .otlp_receiver import OtlpReceiver

optional_import("opentelemetry.exporter.otlp.proto.http")

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
SPANS = {0: "00f067aa0ba902b7", 2: "a3ce929d0e0e4736"}


def _rows(n: int = 4) -> List[Dict[str, Any]]:
    rows = make_rows(n)
    for line, span in SPANS.items():
        if line < n:
            rows[line].update(trace_id=TRACE, span_id=span)
    return rows


def _flaky(response: str) -> Dict[str, float]:
    """A plain callable that fails on one row: its cell is an error cell."""
    if response == "n/a":
        raise ValueError("no answer to check")
    return {"length": float(len(response))}


@pytest.fixture
def otlp(monkeypatch: pytest.MonkeyPatch) -> Any:
    with OtlpReceiver() as receiver:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
        monkeypatch.delenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", raising=False)
        yield receiver


def _by_cell(records: List[Dict[str, Any]]) -> Dict[Any, Dict[str, Any]]:
    return {(r["attributes"]["agent_eval.row.line_number"], r["attributes"]["agent_eval.evaluator.alias"]): r
            for r in records}


def test_every_cell_is_an_event_with_its_score_label_reason_and_trace_link(tmp_path, otlp):
    with JudgeServer(rule_judge) as server:
        result = evaluate(data=_rows(), output_path=tmp_path / "out", show_progress=False, otel=True,
                          evaluation_name="nightly",
                          evaluators={"intent": IntentResolutionEvaluator(model_config=server.openai_config("fake")),
                                      "match": ResponseMatchEvaluator(), "flaky": _flaky})
    assert otlp.paths and set(otlp.paths) == {"/v1/logs"}
    assert otlp.resources[0]["service.name"] == "agent-eval"
    cells = _by_cell(otlp.records)
    assert len(otlp.records) == len(cells) == 4 * 3
    stored = {r["line_number"]: r for r in map(json.loads, (tmp_path / "out" / "rows.jsonl").read_text().splitlines())}
    for row in stored.values():
        line = row["line_number"]
        for alias, key in (("intent", "intent_resolution"), ("match", "response_match_score")):
            event = cells[(line, alias)]
            assert event["event_name"] == "gen_ai.evaluation.result" and event["scope"] == "agent_evaluators"
            attrs = event["attributes"]
            assert attrs["gen_ai.evaluation.name"] == key
            assert attrs["gen_ai.evaluation.score.value"] == row[f"outputs.{alias}.{key}"]
            assert attrs["gen_ai.evaluation.score.label"] == row[f"outputs.{alias}.{key}_result"] in ("pass", "fail")
            assert attrs["gen_ai.evaluation.explanation"] == row[f"outputs.{alias}.{key}_reason"]
            assert attrs["agent_eval.threshold"] == row[f"outputs.{alias}.{key}_threshold"]
            assert attrs["agent_eval.run.name"] == "nightly" and "error.type" not in attrs
        assert cells[(line, "intent")]["attributes"]["agent_eval.evaluator.class"] == "IntentResolutionEvaluator"
        for event in (cells[(line, a)] for a in ("intent", "match", "flaky")):
            assert event["trace_id"] == (TRACE if line in SPANS else "")
            assert event["span_id"] == SPANS.get(line, "")
    # the error cell (row 0: response "n/a"): error.type and the message, no score
    error = cells[(0, "flaky")]
    assert error["attributes"]["error.type"] == "ValueError"
    assert "gen_ai.evaluation.score.value" not in error["attributes"]
    assert "no answer to check" in error["body"] == stored[0]["outputs.flaky.error"]
    assert cells[(1, "flaky")]["attributes"]["gen_ai.evaluation.score.value"] == len("Done task 1.")
    assert result.metrics["flaky.error_count"] == 1


def test_off_by_default_and_the_endpoint_variable_alone_sends_nothing(tmp_path, otlp):
    evaluate(data=_rows(2), evaluators={"match": ResponseMatchEvaluator()}, output_path=tmp_path / "out",
             show_progress=False)
    assert otlp.records == []


def test_a_resume_sends_only_the_rows_it_evaluated(tmp_path, otlp):
    data = write_jsonl(tmp_path / "rows.jsonl", _rows(5))
    common: Dict[str, Any] = dict(data=str(data), evaluators={"match": ResponseMatchEvaluator()},
                                  output_path=tmp_path / "out", show_progress=False, otel=True)
    evaluate(max_rows=3, **common)
    assert sorted(c[0] for c in _by_cell(otlp.records)) == [0, 1, 2]
    otlp.records.clear()
    result = evaluate(resume=True, **common)
    assert len(result.rows) == 5
    assert sorted(c[0] for c in _by_cell(otlp.records)) == [3, 4]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("collector", ["refuses", "unreachable"])
def test_a_failing_collector_is_a_warning_and_the_files_stay(tmp_path, monkeypatch, caplog, collector):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "1")
    with OtlpReceiver(status=400) as refusing:
        endpoint = refusing.endpoint if collector == "refuses" else f"http://127.0.0.1:{_closed_port()}"
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
        with caplog.at_level(logging.WARNING, logger="agent_evaluators.export"):
            result = evaluate(data=_rows(3), evaluators={"match": ResponseMatchEvaluator()},
                              output_path=tmp_path / "out", show_progress=False, otel=True)
    assert len(result.rows) == 3 and result.summary["status"] == "complete"
    assert len((tmp_path / "out" / "rows.jsonl").read_text().splitlines()) == 3
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["config"]["otel"] is True
    warning = [r.getMessage() for r in caplog.records if r.name == "agent_evaluators.export"]
    assert warning and "the run folder holds every result" in warning[0] and "/v1/logs" in warning[0]


def test_the_cli_flag_and_the_run_config_key_send_through_the_standard_variables(tmp_path):
    data = write_jsonl(tmp_path / "rows.jsonl", _rows(3))
    (tmp_path / "run.yaml").write_text(
        f"data: {data}\nevaluators:\n  match:\n    type: response_match\notel: true\noutput: {tmp_path / 'by-config'}\n")
    with OtlpReceiver() as receiver:
        env = clean_env(OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint, OTEL_SERVICE_NAME="nightly-evals")
        by_flag = agent_eval("run", "--data", data, "-e", "response_match=match", "--output", tmp_path / "by-flag",
                             "--otel", env=env)
        assert by_flag.rc in (0, 1), by_flag
        assert sorted(_by_cell(receiver.records)) == [(0, "match"), (1, "match"), (2, "match")]
        assert {r["trace_id"] for r in receiver.records} == {TRACE, ""}
        assert receiver.resources[0]["service.name"] == "nightly-evals"
        receiver.records.clear()
        by_config = agent_eval("run", "--config", tmp_path / "run.yaml", env=env)
        assert by_config.rc in (0, 1), by_config
        assert len(receiver.records) == 3
        receiver.records.clear()
        plain = agent_eval("run", "--data", data, "-e", "response_match=match", "--output", tmp_path / "plain",
                           env=env)
        assert plain.rc in (0, 1), plain
        assert receiver.records == []  # the endpoint variable alone turns nothing on


def test_a_missing_extra_is_refused_before_the_run(tmp_path):
    from agent_evaluators._util.validators import needs_extra
    from agent_evaluators.cli.messages import for_cli

    with pytest.raises(ConfigError, match=r"pip install 'agent-evaluators\[otel\]'") as caught:
        needs_extra("otel", "no_such_package_for_agent_eval.sub")("otel", True)
    assert str(caught.value).startswith("otel=True needs the 'otel' extra") and caught.value.option == "otel"
    assert for_cli(caught.value).startswith("--otel needs the 'otel' extra") and for_cli(caught.value).endswith(
        "(or leave --otel off)")
    assert needs_extra("otel", "no_such_package_for_agent_eval")("otel", False) is False
    assert not (Path(tmp_path) / "out").exists()


def test_evaluate_async_sends_too_and_fail_on_errors_sends_before_raising(tmp_path, otlp):
    import asyncio

    from agent_evaluators import evaluate_async
    from agent_evaluators.runner.ledger import EvaluatorErrors

    asyncio.run(evaluate_async(data=_rows(2), evaluators={"match": ResponseMatchEvaluator()},
                               output_path=tmp_path / "a", show_progress=False, otel=True))
    assert sorted(_by_cell(otlp.records)) == [(0, "match"), (1, "match")]
    otlp.records.clear()
    with pytest.raises(EvaluatorErrors):
        evaluate(data=_rows(2), evaluators={"flaky": _flaky}, output_path=tmp_path / "b", show_progress=False,
                 otel=True, fail_on_evaluator_errors=True)
    assert sorted(_by_cell(otlp.records)) == [(0, "flaky"), (1, "flaky")]


def test_a_run_without_the_switches_imports_neither_package(tmp_path):
    import subprocess
    import sys

    code = ("import sys\nfrom agent_evaluators import evaluate, ResponseMatchEvaluator\n"
            "evaluate(data=[{'response': 'a', 'ground_truth': 'a'}], evaluators={'m': ResponseMatchEvaluator()}, "
            "show_progress=False)\n"
            "print(sorted(m for m in sys.modules if m.startswith(('opentelemetry.sdk', 'opentelemetry.exporter', "
            "'mlflow'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean_env(), timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_rows_read_from_a_trace_file_link_their_events_to_that_trace(tmp_path, otlp):
    """Issue 28 end to end: an instrumented agent's spans as data, and each result sent back linked
    to the agent run it judged (the run's trace id and root span id, from the trace itself)."""
    fixture = Path(__file__).parent.parent / "traces" / "fixtures" / "openinference.spans.jsonl"
    result = evaluate(data=str(fixture), evaluators={"match": ResponseMatchEvaluator()},
                      evaluator_config={"match": {"column_mapping": {"ground_truth": "${data.response}"}}},
                      output_path=tmp_path / "out", show_progress=False, otel=True)
    rows = [r for r in result.rows if "inputs.trace_id" in r]
    assert rows and len(otlp.records) == len(result.rows)
    by_line = {r["attributes"]["agent_eval.row.line_number"]: r for r in otlp.records}
    for row in rows:
        event = by_line[row["line_number"]]
        assert (event["trace_id"], event["span_id"]) == (row["inputs.trace_id"], row["inputs.span_id"])


@pytest.mark.parametrize("collector", ["refuses", "unreachable"])
def test_a_failing_collector_is_one_line_on_the_command_line(tmp_path, collector):
    """Not the SDK's retry warning and export error beside ours: one warning, with the SDK's reason."""
    data = write_jsonl(tmp_path / "rows.jsonl", _rows(3))
    with OtlpReceiver(status=400) as refusing:
        endpoint = refusing.endpoint if collector == "refuses" else f"http://127.0.0.1:{_closed_port()}"
        r = agent_eval("run", "--data", data, "-e", "response_match=match", "--output", tmp_path / "out", "--otel",
                       env=clean_env(OTEL_EXPORTER_OTLP_ENDPOINT=endpoint, OTEL_EXPORTER_OTLP_TIMEOUT="1"))
    assert r.rc in (0, 1), r
    said = [line for line in r.err.splitlines() if "WARNING" in line or "ERROR" in line or "OpenTelemetry" in line]
    assert len(said) == 1 and "0 of 3 evaluation result(s) were delivered" in said[0], r.err


def test_a_delivery_is_confirmed_in_one_line_on_the_command_line(tmp_path):
    data = write_jsonl(tmp_path / "rows.jsonl", _rows(3))
    with OtlpReceiver() as receiver:
        r = agent_eval("run", "--data", data, "-e", "response_match=match", "--output", tmp_path / "out", "--otel",
                       env=clean_env(OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint))
    assert r.rc in (0, 1), r
    said = [line for line in r.err.splitlines() if "OpenTelemetry" in line]
    assert said == [f"agent-eval: INFO: OpenTelemetry: sent 3 evaluation result(s) to {receiver.endpoint}/v1/logs "
                    "(2 linked to their trace)"], r.err
