"""``mlflow=True`` / ``--mlflow`` / run config ``mlflow: true``: the run logged to a real MLflow (the
``mlflow`` extra) with a local SQLite store under ``tmp_path``, read back through MLflow's own client:
parameters, metrics with their intervals, the rows table, summary.json and the HTML report, and
feedback on the MLflow traces the rows came from."""

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from agent_evaluators import IntentResolutionEvaluator, ResponseMatchEvaluator, evaluate
from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import agent_eval, clean_env, write_jsonl
from tests.conftest import optional_import

from ..runner.distributed.helpers import make_rows, rule_judge

mlflow = optional_import("mlflow")

#: a trace id MLflow does not hold: its row gets no feedback, and the run does not fail
FOREIGN_TRACE = "0af7651916cd43dd8448eb211c80319c"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)  # MLflow puts a SQLite store's artifacts in ./mlruns
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    monkeypatch.setenv("MLFLOW_ENABLE_ASYNC_TRACE_LOGGING", "false")
    mlflow.set_tracking_uri(uri)
    yield uri
    mlflow.set_tracking_uri(None)


def _agent_traces(n: int) -> List[str]:
    """Traces the way an MLflow-instrumented agent leaves them; their OpenTelemetry hex ids."""
    ids = []
    for i in range(n):
        with mlflow.start_span(name="agent") as span:
            span.set_inputs({"turn": i})
        ids.append(span.trace_id.removeprefix("tr-"))
    return ids


def _flaky(response: str) -> Dict[str, float]:
    if response == "n/a":
        raise ValueError("no answer to check")
    return {"length": float(len(response))}


def _only_run(client: Any) -> Any:
    (run,) = client.search_runs(experiment_ids=["0"])
    return client.get_run(run.info.run_id)


def test_params_metrics_artifacts_and_feedback_read_back_through_mlflow(tmp_path, store):
    traces = _agent_traces(2)
    rows = make_rows(4)
    rows[0]["trace_id"], rows[1]["trace_id"], rows[2]["trace_id"] = traces[0], traces[1], FOREIGN_TRACE
    with JudgeServer(rule_judge) as server:
        result = evaluate(data=rows, output_path=tmp_path / "out", show_progress=False, mlflow=True,
                          evaluation_name="nightly", tags={"team": "agents"},
                          evaluators={"intent": IntentResolutionEvaluator(model_config=server.openai_config("fake-4o")),
                                      "match": ResponseMatchEvaluator(), "flaky": _flaky})
    client = mlflow.MlflowClient()
    run = _only_run(client)
    assert run.info.run_name == "nightly" and run.info.status == "FINISHED"
    params = run.data.params
    assert params["evaluator.intent"] == "IntentResolutionEvaluator"
    assert params["evaluators"] == "intent=IntentResolutionEvaluator, match=ResponseMatchEvaluator, flaky=_flaky"
    assert params["judge_model"] == "fake-4o" and params["num_runs"] == "1" and params["mlflow"] == "true"
    assert run.data.tags["team"] == "agents"
    metrics = run.data.metrics
    for name in ("intent.intent_resolution", "intent.pass_rate", "match.pass_rate", "flaky.error_count"):
        assert metrics[name] == pytest.approx(result.metrics[name])
    intervals = result.summary["intervals"]
    assert metrics["intent.pass_rate_ci_low"] == pytest.approx(intervals["intent.pass_rate"]["low"])
    assert metrics["intent.pass_rate_ci_high"] == pytest.approx(intervals["intent.pass_rate"]["high"])
    artifacts = {a.path for a in client.list_artifacts(run.info.run_id)}
    assert {"rows.json", "summary.json", "report.html"} <= artifacts
    table = json.loads(Path(client.download_artifacts(run.info.run_id, "rows.json", str(tmp_path))).read_text())
    columns = table["columns"]
    assert len(table["data"]) == 4
    score = columns.index("outputs.intent.intent_resolution")
    assert [r[score] for r in table["data"]] == [r["outputs.intent.intent_resolution"] for r in result.rows]
    summary = json.loads(Path(client.download_artifacts(run.info.run_id, "summary.json", str(tmp_path))).read_text())
    assert summary["metrics"] == json.loads((tmp_path / "out" / "summary.json").read_text())["metrics"]

    for line, trace_id in enumerate(traces):
        feedback = {a.name: a for a in mlflow.get_trace("tr-" + trace_id).info.assessments}
        assert set(feedback) == {"intent", "match", "flaky"}
        row = result.rows[line]
        assert feedback["intent"].value == row["outputs.intent.intent_resolution"]
        assert feedback["intent"].rationale == row["outputs.intent.intent_resolution_reason"]
        assert feedback["intent"].metadata["agent_eval.result"] == row["outputs.intent.intent_resolution_result"]
        assert feedback["intent"].metadata["agent_eval.run_id"] == run.info.run_id
        assert feedback["match"].value == row["outputs.match.response_match_score"]
    # row 0's flaky cell is an error: feedback with the error, no value
    error = {a.name: a for a in mlflow.get_trace("tr-" + traces[0]).info.assessments}["flaky"]
    assert error.value is None and error.error.error_code == "ValueError"
    assert "no answer to check" in error.error.error_message


@pytest.mark.heavy  # two CLI runs logging to MLflow (about 7 s)
def test_the_cli_flag_and_the_run_config_key_log_a_run(tmp_path, store):
    data = write_jsonl(tmp_path / "rows.jsonl", make_rows(3))
    env = clean_env(MLFLOW_TRACKING_URI=store)
    by_flag = agent_eval("run", "--data", data, "-e", "response_match=match", "--output", tmp_path / "a",
                         "--mlflow", env=env, cwd=tmp_path)
    assert by_flag.rc in (0, 1), by_flag
    (tmp_path / "run.yaml").write_text(
        f"data: {data}\nevaluators:\n  match:\n    type: response_match\nmlflow: true\noutput: {tmp_path / 'b'}\n")
    by_config = agent_eval("run", "--config", tmp_path / "run.yaml", env=env, cwd=tmp_path)
    assert by_config.rc in (0, 1), by_config
    client = mlflow.MlflowClient()
    runs = client.search_runs(experiment_ids=["0"])
    assert len(runs) == 2
    for run in runs:
        assert run.data.params["evaluators"] == "match=ResponseMatchEvaluator"
        assert "match.pass_rate" in run.data.metrics
        assert {"rows.json", "summary.json", "report.html"} <= {a.path for a in client.list_artifacts(run.info.run_id)}


PARTIAL = """
import sys, logging
sys.modules["pandas"] = None  # a machine without pandas: `import pandas` raises ImportError
from agent_evaluators import ResponseMatchEvaluator, evaluate
logging.basicConfig(level=logging.WARNING, format="%(message)s")
evaluate(data=[{"response": "a b", "ground_truth": "a b c"}, {"response": "x", "ground_truth": "x"}],
         evaluators={"match": ResponseMatchEvaluator()}, output_path=sys.argv[1], show_progress=False, mlflow=True)
"""


def test_a_part_mlflow_cannot_take_is_named_and_the_rest_is_sent(tmp_path, store):
    """Without pandas, MLflow's table cannot be built: the warning says rows.json was not sent and why, and
    says what was sent; the other parts still reach MLflow (before, the first failure stopped the rest and
    the warning said nothing had been sent)."""
    import subprocess
    import sys

    env = clean_env(MLFLOW_TRACKING_URI=store)
    proc = subprocess.run([sys.executable, "-c", PARTIAL, str(tmp_path / "out")], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    warning = [line for line in proc.stderr.splitlines() if line.startswith("mlflow:")]
    assert len(warning) == 1, proc.stderr
    assert "sent parameters, tags, metrics, summary.json, report.html, trace feedback" in warning[0], warning
    assert "not sent: rows.json (" in warning[0] and "could not be sent" not in warning[0], warning
    run = _only_run(mlflow.MlflowClient())
    assert run.data.metrics["match.response_match_score"] > 0
    artifacts = {a.path for a in mlflow.MlflowClient().list_artifacts(run.info.run_id)}
    assert {"summary.json", "report.html"} <= artifacts and "rows.json" not in artifacts


def test_the_mlflow_extra_installs_what_the_rows_table_needs():
    from importlib.metadata import requires

    needs = [r for r in requires("agent-evaluators") or [] if r.replace('"', "'").endswith("extra == 'mlflow'")]
    assert any(r.startswith("pandas") for r in needs), needs
