"""Every span and log record of some trace files in memory at once: the reading API before the two passes.

Why it is still here: ``otlp_json.Telemetry`` / ``read_telemetry`` and ``runs.group_runs`` were
public names, and old module paths keep their public names for one more release
(``tests/golden/public_paths.json``). The package itself reads traces one run at a time
(:func:`agent_evaluators.traces.runs_of`); this holds the whole input, as the old reader did, but
reads it with the same strict decoders: a record that cannot be read is a problem, not a crash.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List

from .otlp_json import LogRecord, Span, raw_records, read_log, read_span, record_named
from .otlp_lines import Unreadable, file_lines
from .otlp_values import TraceDataError
from .runs import AgentRun, build_run
from .trace_index import CONVERSATION_KEYS

__all__ = ["Telemetry", "read_telemetry", "group_runs"]


@dataclass
class Telemetry:
    """Everything read from a file or folder, and the lines (or records) that could not be read."""

    spans: List[Span] = field(default_factory=list)
    logs: List[LogRecord] = field(default_factory=list)
    problems: List[str] = field(default_factory=list)


def read_telemetry(paths: Iterable[Path]) -> Telemetry:
    """Every span and log record of ``paths`` (files as ``otlp_files`` lists them)."""
    out = Telemetry()
    lines = file_lines(list(paths))
    try:
        for ref, got in lines.scan():
            if isinstance(got, Unreadable):
                out.problems.append(got.message())
                continue
            where = lines.where(ref)
            for record in raw_records(got):
                try:
                    if isinstance(record, TraceDataError):
                        raise record
                    if record.kind == "span":
                        out.spans.append(read_span(record, where))
                    else:
                        out.logs.append(read_log(record))
                except TraceDataError as e:
                    named = record_named(record, where) if not isinstance(record, TraceDataError) else where
                    out.problems.append(f"{named}: {e}")
    finally:
        lines.close()
    return out


def group_runs(telemetry: Telemetry) -> List[AgentRun]:
    """The agent runs of ``telemetry``, in the order they started."""
    by_trace: Dict[str, List[Span]] = defaultdict(list)
    for span in telemetry.spans:
        by_trace[span.trace_id].append(span)
    logs_by_span: Dict[str, List[LogRecord]] = defaultdict(list)
    for record in sorted(telemetry.logs, key=lambda r: r.time_ns):
        if record.span_id:
            logs_by_span[record.span_id].append(record)
    groups: Dict[str, List[List[Span]]] = {}
    for trace_id, spans in by_trace.items():
        values = (s.attributes.get(CONVERSATION_KEYS[0]) or s.attributes.get(CONVERSATION_KEYS[1]) for s in spans)
        conversation = next((str(v) for v in values if v), None)
        groups.setdefault(conversation or trace_id, []).append(spans)
    runs = [build_run(key, sorted(traces, key=lambda t: min(s.start_ns for s in t)), logs_by_span)
            for key, traces in groups.items()]
    return sorted(runs, key=lambda r: r.start_ns)
