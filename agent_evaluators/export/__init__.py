"""Sending a finished run's results where teams already look: OpenTelemetry (:mod:`.otel`) and MLflow
(:mod:`.mlflow_run`).

Both run after the run folder is complete, so a collector or tracking server that is down costs a
warning, never the results on disk or the run's exit status. Neither package is imported unless its
option (``otel=True`` / ``mlflow=True``) is on; the option's check refuses the run up front when the
extra is missing.
"""

import logging
from typing import Any, Mapping

__all__ = ["publish"]

logger = logging.getLogger("agent_evaluators.export")


def publish(result: Any, values: Mapping[str, Any]) -> None:
    """Send ``result`` (an :class:`~agent_evaluators.runner.result.EvaluationResult`) to every
    destination switched on in the run options ``values``; a failure is logged, not raised."""
    if values.get("otel"):
        from .otel import send_cells

        _guarded("OpenTelemetry", send_cells, result)
    if values.get("mlflow"):
        from .mlflow_run import log_run

        _guarded("MLflow", log_run, result)


def _guarded(where: str, send: Any, result: Any) -> None:
    try:
        send(result)
    except Exception as exc:  # a destination failing must not fail a run whose files are written
        logger.warning("%s: the results could not be sent (%s: %s); the run folder holds them all",
                       where, type(exc).__name__, exc)
