"""The second reading pass: each run built from its own lines, one run at a time, in start order.

Why: holding every span of a file until the end took about six times the file in memory. Here
the lines of one run are read back (:meth:`.otlp_lines.RequestLines.load`), its spans and log
records decoded and the run built, then everything of it dropped. A line shared by several runs
(an exporter's batch) is parsed once and split by trace; the other runs' share waits in a cache
of at most :data:`CACHE_BYTES` of line text (beyond it the oldest share is dropped and its line
parsed again when its run comes), so memory follows the largest run, not the file.

Two copies of one span (same trace and span id, same content: an exporter that retried) are one
span; two different spans under one id make their trace an error row, as does any span whose
fields cannot be read (:class:`.otlp_values.TraceDataError` names the field).
"""

from collections import OrderedDict
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from .otlp_json import LogRecord, RawRecord, Span, raw_records, read_log, read_span, record_named, record_trace_id
from .otlp_lines import RequestLines
from .otlp_values import TraceDataError, hex_id, shown
from .runs import AgentRun, build_run, where_in_run
from .trace_index import SPAN_ADVICE, RunPlan, TraceIndex, TraceInfo

#: how much line text (bytes) of runs not built yet may wait, parsed, for its run
CACHE_BYTES = 16 * 1024 * 1024

_Share = Tuple[List[RawRecord], int]  # a trace's records on one line, and their share of the line's bytes


class _LineCache:
    """Lines parsed and split by trace, until each trace's run takes its share."""

    def __init__(self, lines: RequestLines, index: TraceIndex, wanted: Dict[str, None]) -> None:
        self.lines = lines
        self.index = index
        self.wanted = wanted  # traces whose runs are not built yet
        self.parts: "OrderedDict[int, Dict[str, _Share]]" = OrderedDict()
        self.size = 0

    def take(self, line: int, trace_id: str) -> List[RawRecord]:
        part = self.parts.get(line)
        if part is None:
            part = self._split(line)
        else:
            self.parts.move_to_end(line)
        records, size = part.pop(trace_id, ([], 0))
        self.size -= size
        if not part:
            self.parts.pop(line, None)
        return records

    def _split(self, line: int) -> Dict[str, _Share]:
        ref = self.index.lines[line]
        split: Dict[str, List[RawRecord]] = {}
        total = 0
        for record in raw_records(self.lines.load(ref)):
            if isinstance(record, TraceDataError):
                continue  # named by the first pass
            total += 1
            try:
                trace_id = record_trace_id(record)
            except TraceDataError:
                continue
            if not trace_id and record.kind == "log":
                trace_id = self.index.span_traces.get(_span_id(record), "")
            if trace_id in self.wanted:
                split.setdefault(trace_id, []).append(record)
        part = {t: (records, ref.length * len(records) // max(total, 1)) for t, records in split.items()}
        self.parts[line] = part
        self.size += sum(size for _, size in part.values())
        while self.size > CACHE_BYTES and len(self.parts) > 1:
            _, dropped = self.parts.popitem(last=False)
            self.size -= sum(size for _, size in dropped.values())
        return part


    def discard(self, trace_id: str, lines: Iterable[int]) -> None:
        """Drop what is left of a trace (its run was not built: a span of it could not be read)."""
        for line in lines:
            part = self.parts.get(line)
            if part is not None and trace_id in part:
                self.size -= part.pop(trace_id)[1]
                if not part:
                    self.parts.pop(line, None)


def _span_id(record: RawRecord) -> str:
    """A log record's span id as hex, ``""`` when it has none (or one the first pass already refused)."""
    try:
        return hex_id(record.raw.get("spanId", record.raw.get("span_id")), 8, "spanId", required=False)
    except TraceDataError:
        return ""


class _TraceError(Exception):
    def __init__(self, trace_id: str, error: TraceDataError) -> None:
        super().__init__(str(error))
        self.trace_id = trace_id


def _spans_and_logs(plan: RunPlan, cache: _LineCache) -> Tuple[List[List[Span]], Dict[str, List[LogRecord]]]:
    """Each trace's spans (file order, copies dropped) and the run's log records by span id (time order)."""
    traces: List[List[Span]] = []
    logs: List[LogRecord] = []
    for info in plan.traces:
        try:
            traces.append(_trace_spans(info, cache, logs))
        except TraceDataError as e:
            raise _TraceError(info.trace_id, e) from None
    by_span: Dict[str, List[LogRecord]] = {}
    for record in sorted(logs, key=lambda r: r.time_ns):
        if record.span_id:
            by_span.setdefault(record.span_id, []).append(record)
    return traces, by_span


def _trace_spans(info: TraceInfo, cache: _LineCache, logs: List[LogRecord]) -> List[Span]:
    """One trace's spans in file order, a second copy of a span dropped; its log records go to ``logs``."""
    spans: Dict[str, Span] = {}
    order: List[Span] = []
    for line in info.lines:
        where = cache.index.where(line)
        for record in cache.take(line, info.trace_id):
            try:
                if record.kind == "log":
                    logs.append(read_log(record))
                    continue
                span = read_span(record, where)
            except TraceDataError as e:
                raise TraceDataError(f"{record_named(record, where)}: {e}; {SPAN_ADVICE}") from None
            seen = spans.get(span.span_id)
            if seen is None:
                spans[span.span_id] = span
                order.append(span)
            elif seen != span:
                raise TraceDataError(
                    f"spanId {span.span_id} is used by 2 different spans ({shown(seen.name, 60)} on {seen.where}, "
                    f"{shown(span.name, 60)} on {span.where}); each span needs its own id: fix or remove one of them to "
                    "evaluate this run")
    return order


def _error_run(plan: RunPlan, problem: str) -> AgentRun:
    root = plan.traces[0].root()
    return AgentRun(key=plan.key, trace_ids=[t.trace_id for t in plan.traces], root_span_id=root[0] if root else "",
                    start_ns=plan.start_ns, problem=problem)


def iter_runs(lines: RequestLines, index: TraceIndex) -> Iterator[AgentRun]:
    """Every run of ``index``, in start order, each built from its lines of ``lines``."""
    plans = index.runs()
    wanted: Dict[str, None] = {t.trace_id: None for p in plans if p.problem() is None for t in p.traces}
    cache = _LineCache(lines, index, wanted)
    try:
        for plan in plans:
            problem: Optional[str] = plan.problem()
            if problem is not None:
                yield _error_run(plan, problem)
                continue
            try:
                traces, logs = _spans_and_logs(plan, cache)
            except _TraceError as e:
                yield _error_run(plan, f"{where_in_run(plan.key, e.trace_id)}: {e}")
            else:
                yield build_run(plan.key, traces, logs)
            finally:
                for info in plan.traces:
                    wanted.pop(info.trace_id, None)
                    cache.discard(info.trace_id, info.lines)
    finally:
        lines.close()
