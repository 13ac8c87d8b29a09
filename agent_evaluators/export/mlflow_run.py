"""``mlflow=True``: the run logged to MLflow's active tracking URI.

What one MLflow run holds (read back with ``MlflowClient().get_run`` / ``list_artifacts``):

- parameters: ``evaluators`` (``alias=Class`` list), ``evaluator.<alias>``, ``judge_model`` (the
  judge models of the run's evaluators), and the run options ``summary.json`` records;
- tags: the run's ``tags``;
- metrics: every numeric aggregate of ``result.metrics`` under its own name
  (``intent.pass_rate``), its confidence interval as ``<name>_ci_low`` / ``<name>_ci_high``;
- artifacts: ``rows.json`` (``mlflow.log_table``: the rows as the UI's table, nested values as
  JSON text; built in memory, as MLflow's table needs, unlike the run itself), and, for a run
  with a folder, ``summary.json`` and ``report.html``;
- feedback on traces: a row carrying a ``trace_id`` whose trace MLflow holds (an MLflow trace id is
  ``tr-`` + the OpenTelemetry hex id) gets each of its cells as ``mlflow.log_feedback`` (name: the
  alias; value: the score; rationale: the reason; an error cell as the feedback's error). Rows whose
  trace MLflow does not hold are counted in one log line, not an error.

The tracking URI and experiment are MLflow's own (``MLFLOW_TRACKING_URI``, ``MLFLOW_EXPERIMENT_NAME``;
MLflow 3's default URI is ``sqlite:///mlflow.db`` in the working directory). Inside an active MLflow
run (``with mlflow.start_run():`` around ``evaluate``) the results go into that run. A resume logs
a new MLflow run with every row, but feedback only for the rows it evaluated (no feedback twice).

The export has a deadline (60 s, ``AGENT_EVAL_MLFLOW_TIMEOUT=SECONDS`` to change it): a tracking
server that hangs costs a warning after that long, never a process held for minutes; the run folder
is written before the export starts and holds every result either way.
"""

import json
import logging
import os
import re
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Set, Tuple

from ..runner.publishing import PartlySent
from ..wording import Option, Text
from .records import Cell, run_cells

logger = logging.getLogger("agent_evaluators.export")

#: how long the export may take before the run goes on without it, in seconds (``AGENT_EVAL_MLFLOW_TIMEOUT``)
EXPORT_TIMEOUT_S = 60.0
TIMEOUT_ENV = "AGENT_EVAL_MLFLOW_TIMEOUT"
#: MLflow's longest parameter value
_PARAM_MAX = 6000
#: characters MLflow accepts in a metric or parameter name (others become "_")
_NAME_BAD = re.compile(r"[^\w\-. /:]")


def _name(text: str) -> str:
    return _NAME_BAD.sub("_", text)


def _judge_models(evaluators: Mapping[str, Any]) -> List[str]:
    """The ``model`` values anywhere in the evaluators' described configs."""
    found: Set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                if key in ("model", "azure_deployment") and isinstance(item, str) and item:
                    found.add(item)
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for described in evaluators.values():
        walk(described.get("config") if isinstance(described, Mapping) else None)
    return sorted(found)


def run_params(summary: Mapping[str, Any]) -> Dict[str, str]:
    """The MLflow parameters of a run, from its ``summary.json`` ``config``."""
    config = summary.get("config") or {}
    evaluators = config.get("evaluators") or {}
    params: Dict[str, str] = {"evaluators": ", ".join(f"{a}={d.get('class', a)}" for a, d in evaluators.items())}
    params.update({f"evaluator.{_name(a)}": str(d.get("class", a)) for a, d in evaluators.items()})
    models = _judge_models(evaluators)
    if models:
        params["judge_model"] = ", ".join(models)
    for key, value in config.items():
        if key in ("evaluators", "tags") or value is None or value == {} or value == []:
            continue
        params[_name(key)] = value if isinstance(value, str) else json.dumps(value, default=str, sort_keys=True)
    return {k: v[:_PARAM_MAX] for k, v in params.items()}


def run_metrics(metrics: Mapping[str, Any], intervals: Mapping[str, Any]) -> Dict[str, float]:
    """Numeric aggregates, and each interval as ``<name>_ci_low`` / ``<name>_ci_high``."""
    out: Dict[str, float] = {}
    for key, value in metrics.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value:
            out[_name(key)] = float(value)
    for key, interval in intervals.items():
        if isinstance(interval, Mapping):
            for end in ("low", "high"):
                bound = interval.get(end)
                if isinstance(bound, (int, float)) and not isinstance(bound, bool) and bound == bound:
                    out[_name(f"{key}_ci_{end}")] = float(bound)
    return out


def rows_table(rows: Iterable[Mapping[str, Any]]) -> Dict[str, List[Any]]:
    """The rows as columns for ``mlflow.log_table``: scalars as they are, anything nested as JSON text."""
    records = [{k: (v if v is None or isinstance(v, (str, int, float, bool)) else json.dumps(v, default=str))
                for k, v in row.items()} for row in rows]
    columns: Dict[str, None] = {}
    for record in records:
        columns.update(dict.fromkeys(record))
    return {column: [record.get(column) for record in records] for column in columns}


def export_timeout_s() -> float:
    """How long the export may take: ``AGENT_EVAL_MLFLOW_TIMEOUT`` seconds, else :data:`EXPORT_TIMEOUT_S`."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return EXPORT_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        logger.warning("%s=%r is not a number of seconds above 0; the export waits %g s", TIMEOUT_ENV, raw,
                       EXPORT_TIMEOUT_S)
        return EXPORT_TIMEOUT_S
    return value


def log_run(result: Any) -> None:
    """Log ``result`` to MLflow (see the module docstring); the active run if there is one.

    The export runs in a thread of its own and is given :func:`export_timeout_s` (60 s by default):
    a tracking server that accepts connections and never answers (MLflow's own client retries for
    minutes) cannot hold the process after the run. Past the deadline this raises ``TimeoutError``
    (a warning of the run's; the run folder holds every result) and the export is abandoned."""
    import mlflow

    active = mlflow.active_run()  # MLflow keeps the active run per thread: handed over below
    timeout = export_timeout_s()
    outcome: Dict[str, Any] = {}
    done = threading.Event()

    def export() -> None:
        try:
            outcome["run_id"] = _log_run(mlflow, result, active)
        except BaseException as exc:  # handed back to the caller's thread
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=export, name="agent-eval-mlflow-export", daemon=True).start()
    if not done.wait(timeout):
        raise TimeoutError(f"MLflow at {mlflow.get_tracking_uri()} did not take the run within {timeout:g} s "
                           f"(a tracking server that does not answer?); the export was abandoned. Wait longer "
                           f"with {TIMEOUT_ENV}=SECONDS")
    if "error" in outcome:
        raise outcome["error"]
    logger.info("MLflow: logged run %s to %s", outcome["run_id"], mlflow.get_tracking_uri())


def _log_run(mlflow: Any, result: Any, active: Any) -> str:
    """The export itself, in its own thread: into ``active`` (the caller's active run), else a new run."""
    summary = result.summary
    if active is not None:
        _enter(active)
    run = active or mlflow.start_run(run_name=(summary.get("config") or {}).get("evaluation_name"))
    run_id: str = run.info.run_id
    try:
        _log_into(mlflow, result, run_id)
    finally:
        if active is None:
            mlflow.end_run()
        else:
            _leave(active)
    return run_id


def _stack() -> Any:
    """This thread's stack of active MLflow runs (MLflow's own, kept per thread)."""
    from mlflow.tracking import fluent

    return fluent._active_run_stack.get()


def _enter(run: Any) -> None:
    """Make the caller's active ``run`` this thread's too, as MLflow has no call to share one."""
    _stack().append(run)


def _leave(run: Any) -> None:
    stack = _stack()
    if stack and stack[-1] is run:
        stack.pop()


def _log_into(mlflow: Any, result: Any, run_id: str) -> None:
    """Each part of the run in its own step: one that fails (a missing optional package, a full disk)
    leaves the others sent, and :class:`PartlySent` then names what went and what did not."""
    summary = result.summary
    folder: Optional[Path] = result.output_path
    steps: List[Tuple[str, Callable[[], None]]] = [
        ("parameters", lambda: mlflow.log_params(run_params(summary))),
        ("tags", lambda: _log_tags(mlflow, summary)),
        ("metrics", lambda: mlflow.log_metrics(run_metrics(result.metrics, summary.get("intervals") or {}))),
        ("rows.json", lambda: _log_rows(mlflow, result.rows)),
    ]
    if folder is None:
        logger.info(Text("MLflow: no run folder ({output}), so no summary.json or report.html artifact",
                         output=Option("output_path")))
    else:
        steps += [("summary.json", lambda: mlflow.log_artifact(str(Path(folder) / "summary.json"))),
                  ("report.html", lambda: _log_report(mlflow, folder))]
    steps.append(("trace feedback", lambda: _log_feedback(mlflow, run_cells(result.evaluated_rows, summary), run_id)))
    sent: List[str] = []
    missing: Dict[str, str] = {}
    for part, step in steps:
        try:
            step()
        except Exception as exc:  # this part is lost, not the others
            missing[part] = f"{type(exc).__name__}: {exc}"
        else:
            sent.append(part)
    if missing:
        raise PartlySent(sent, missing)


def _log_tags(mlflow: Any, summary: Mapping[str, Any]) -> None:
    tags = (summary.get("config") or {}).get("tags") or {}
    if tags:
        mlflow.set_tags({_name(str(k)): str(v) for k, v in tags.items()})


def _log_rows(mlflow: Any, rows: Any) -> None:
    table = rows_table(rows)
    if table:
        mlflow.log_table(data=table, artifact_file="rows.json")  # MLflow builds it with pandas


def _log_report(mlflow: Any, folder: Path) -> None:
    from ..report import write_report

    with tempfile.TemporaryDirectory() as tmp:
        mlflow.log_artifact(str(write_report(folder, path=Path(tmp) / "report.html")))


def _mlflow_trace_id(trace_id: str) -> str:
    return trace_id if trace_id.startswith("tr-") else "tr-" + trace_id


def _log_feedback(mlflow: Any, cells: Iterable[Cell], run_id: str) -> None:
    """Each linked cell as feedback on its MLflow trace, where MLflow holds that trace."""
    from mlflow.entities import AssessmentError, AssessmentSource

    held: Dict[str, bool] = {}
    client = mlflow.MlflowClient()
    logged = 0
    for cell in cells:
        if cell.trace_id is None:
            continue
        trace_id = _mlflow_trace_id(cell.trace_id)
        if trace_id not in held:
            held[trace_id] = _holds(client, trace_id)
        if not held[trace_id]:
            continue
        source = AssessmentSource(source_type="CODE", source_id=f"agent-eval:{cell.evaluator}")
        metadata = {"agent_eval.line_number": str(cell.line), "agent_eval.run_id": run_id}
        if cell.label is not None:
            metadata["agent_eval.result"] = cell.label
        error = AssessmentError(error_code=cell.error_type or "_OTHER", error_message=cell.error) if cell.error else None
        mlflow.log_feedback(trace_id=trace_id, name=cell.alias, value=None if error else cell.score, source=source,
                            error=error, rationale=cell.reason, metadata=metadata,
                            span_id=None)
        logged += 1
    missing = sorted(t for t, ok in held.items() if not ok)
    if missing:
        logger.info("MLflow: %d trace(s) of the data are not in MLflow, so their rows got no feedback (e.g. %s)",
                    len(missing), missing[0])
    if logged:
        logger.info("MLflow: %d feedback assessment(s) attached to %d trace(s)", logged, len(held) - len(missing))


def _holds(client: Any, trace_id: str) -> bool:
    try:
        return client.get_trace(trace_id) is not None
    except Exception:  # MlflowException: not found (a store without traces says the same)
        return False
