"""``otel=True``: each cell as an OpenTelemetry ``gen_ai.evaluation.result`` event, over OTLP/HTTP.

The event follows the GenAI semantic conventions: a log record named ``gen_ai.evaluation.result``
with ``gen_ai.evaluation.name`` (the metric: the evaluator's result key), ``gen_ai.evaluation.score.value``,
``gen_ai.evaluation.score.label`` (``pass`` / ``fail``, or the evaluator's own label),
``gen_ai.evaluation.explanation`` (its reason) and, for an error cell, ``error.type`` with no score
(the error text is the record's body). Ours, under ``agent_eval.*``: the evaluator alias and class,
the row's ``line_number``, the threshold and the run's name.

Linking: a row carrying ``trace_id`` / ``span_id`` (a row read from a trace) gets them as the
record's trace context, so a trace viewer shows the result on the span it judged; a row without
them is sent unlinked: no span is made up for it (a made-up span would sit in no trace anyone has).
``gen_ai.response.id`` is set from a ``response_id`` column where the data has one.

Delivery is the SDK's own OTLP/HTTP log exporter, configured by the standard variables
(``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_LOGS_ENDPOINT``, ``..._HEADERS``,
``..._TIMEOUT``; ``OTEL_SERVICE_NAME`` / ``OTEL_RESOURCE_ATTRIBUTES`` for the resource). A private
logger provider is used, so an application's own OpenTelemetry set-up is left as it was. The
records are flushed every :data:`_FLUSH_EVERY` cells (the batch queue never drops one) and at the
end; the first failed export stops the sending with one warning, whose reason is the SDK's own
first complaint (its retry warning and export error are not printed beside it), and a delivery
says so in one line.
"""

import contextlib
import logging
import os
import time
from typing import Any, Dict, Iterator, Optional, Tuple

from .records import Cell, run_cells

logger = logging.getLogger("agent_evaluators.export")

EVENT_NAME = "gen_ai.evaluation.result"
#: cells handed to the batch processor between two synchronous flushes
_FLUSH_EVERY = 512
_FLUSH_TIMEOUT_MS = 60_000


def event_attributes(cell: Cell, run_name: Optional[str] = None) -> Dict[str, Any]:
    """The attributes of one cell's event (without ``None`` values, which OTLP cannot carry)."""
    attributes: Dict[str, Any] = {
        "gen_ai.evaluation.name": cell.name,
        "gen_ai.evaluation.score.value": cell.score,
        "gen_ai.evaluation.score.label": cell.label,
        "gen_ai.evaluation.explanation": cell.reason,
        "gen_ai.response.id": cell.response_id,
        "error.type": cell.error_type,
        "agent_eval.evaluator.alias": cell.alias,
        "agent_eval.evaluator.class": cell.evaluator,
        "agent_eval.row.line_number": cell.line,
        "agent_eval.threshold": cell.threshold,
        "agent_eval.run.name": run_name,
    }
    return {k: v for k, v in attributes.items() if v is not None}


def _endpoint() -> str:
    """Where the exporter sends logs (the standard variables' precedence), for messages."""
    own = os.environ.get("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
    if own:
        return own
    base = os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318")
    return base.rstrip("/") + "/v1/logs"


class _Counted:
    """The OTLP exporter, counting what it delivered and what it could not (duck-typed: the SDK's
    batch processor calls ``export``, ``force_flush`` and ``shutdown``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.sent = 0
        self.failed = 0
        self.reason = ""

    def export(self, batch: Any) -> Any:
        try:
            outcome = self.inner.export(batch)
        except Exception as exc:
            self.failed += len(batch)
            self.reason = f"{type(exc).__name__}: {exc}"
            raise
        if getattr(outcome, "name", "") == "SUCCESS":
            self.sent += len(batch)
        else:
            self.failed += len(batch)
            self.reason = self.reason or "the endpoint did not accept them"
        return outcome

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        flush = getattr(self.inner, "force_flush", None)
        return bool(flush(timeout_millis)) if callable(flush) else True

    def shutdown(self) -> None:
        self.inner.shutdown()


class _SdkComplaint(logging.Handler):
    """The OpenTelemetry SDK's own log lines while we send (its exporter's "Transient error ...
    retrying", its processor's "Failed to export logs batch"): the first is kept as the reason of
    our one warning instead of being printed beside it."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.first = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.first = self.first or record.getMessage()


@contextlib.contextmanager
def _sdk_complaints() -> Iterator[_SdkComplaint]:
    sdk = logging.getLogger("opentelemetry")
    handler, propagate = _SdkComplaint(), sdk.propagate
    sdk.addHandler(handler)
    sdk.propagate = False
    try:
        yield handler
    finally:
        sdk.removeHandler(handler)
        sdk.propagate = propagate


def _context(cell: Cell) -> Any:
    """The trace context that links the event to the judged span, or ``None``."""
    if cell.trace_id is None:
        return None
    from opentelemetry import trace
    from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

    span = SpanContext(int(cell.trace_id, 16), int(cell.span_id, 16) if cell.span_id else 0,
                       is_remote=True, trace_flags=TraceFlags(TraceFlags.SAMPLED))
    return trace.set_span_in_context(NonRecordingSpan(span))


def send_cells(result: Any) -> None:
    """Send every cell of ``result.evaluated_rows`` and flush; warn once if delivery fails."""
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
    from opentelemetry.sdk.resources import Resource

    from .. import __version__

    resource = Resource.create({} if os.environ.get("OTEL_SERVICE_NAME") else {"service.name": "agent-eval"})
    provider = LoggerProvider(resource=resource)
    exporter = _Counted(OTLPLogExporter())
    provider.add_log_record_processor(BatchLogRecordProcessor(exporter, max_export_batch_size=_FLUSH_EVERY))  # type: ignore[arg-type]
    emitter = provider.get_logger("agent_evaluators", __version__)
    run_name = (result.summary.get("config") or {}).get("evaluation_name")
    with _sdk_complaints() as complaint:
        emitted, linked = _emit_all(result, provider, emitter, exporter, run_name)
    if exporter.failed or exporter.sent < emitted:
        logger.warning("OpenTelemetry: %d of %d evaluation result(s) were delivered to %s (%s; sending stops at the "
                       "first failure); the run folder holds every result", exporter.sent, emitted, _endpoint(),
                       complaint.first.rstrip(".") or exporter.reason or "not flushed in time")
        return
    logger.info("OpenTelemetry: sent %d evaluation result(s) to %s (%d linked to their trace)",
                   emitted, _endpoint(), linked)


def _emit_all(result: Any, provider: Any, emitter: Any, exporter: _Counted, run_name: Optional[str]) -> Tuple[int, int]:
    """Emit every cell's event (flushing every :data:`_FLUSH_EVERY`) until an export fails; (emitted, linked)."""
    from opentelemetry._logs import SeverityNumber

    emitted = linked = pending = 0
    try:
        for cell in run_cells(result.evaluated_rows, result.summary):
            if exporter.failed:
                break
            emitter.emit(timestamp=time.time_ns(), context=_context(cell), severity_number=SeverityNumber.INFO,
                         event_name=EVENT_NAME, body=cell.error, attributes=event_attributes(cell, run_name))
            emitted += 1
            linked += cell.trace_id is not None
            pending += 1
            if pending >= _FLUSH_EVERY:
                provider.force_flush(_FLUSH_TIMEOUT_MS)
                pending = 0
        provider.force_flush(_FLUSH_TIMEOUT_MS)
    finally:
        provider.shutdown()
    return emitted, linked
