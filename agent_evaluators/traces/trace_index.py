"""The first reading pass: which lines hold each trace, how traces form runs, and in which order.

Why a pass of its own: a run can only be built once all its spans are read, and they may be on
any line of any file. This pass reads every line once but keeps only three numbers a span (its
id, its parent's and its start, in arrays: 24 bytes) and the lines of each trace, so the second
pass (:mod:`.run_reader`) can read back one run's lines at a time. It also finds what makes a
trace unreadable before anything is built: a line that is not JSON naming it, a malformed id, a
parentSpanId cycle or a span that is its own parent (walked without recursion, so a trace
100,000 spans deep is only a long walk). A trace with a problem becomes an error row naming it;
a problem no trace can be named for is an error row naming its line.
"""

from array import array
from collections import defaultdict
from typing import Any, Dict, List, Optional, Set, Tuple

from .otlp_json import RawRecord, raw_records, record_label, record_named, record_trace_id, span_header
from .otlp_lines import LineRef, LineTable, RequestLines, Unreadable
from .otlp_values import TraceDataError, attribute_values, hex_id

#: the attributes that put traces of one conversation into one run (GenAI, OpenInference)
CONVERSATION_KEYS = ("gen_ai.conversation.id", "session.id")
#: what a message says to do about a span that cannot be read
SPAN_ADVICE = "fix or remove that span to evaluate this run"
#: at most this many problems of one trace, or unreadable parts of one line, are spelled out
_SHOWN = 3


def _listed(problems: List[str]) -> str:
    distinct = list(dict.fromkeys(problems))
    more = len(distinct) - _SHOWN
    return "; ".join(distinct[:_SHOWN]) + (f" (and {more} more)" if more > 0 else "")


class TraceInfo:
    """What the first pass keeps of one trace: its lines, and each span's id, parent id (0: none) and start."""

    __slots__ = ("trace_id", "lines", "ids", "parents", "starts", "conversation", "problems")

    def __init__(self, trace_id: str) -> None:
        self.trace_id = trace_id
        self.lines = array("q")
        self.ids = array("Q")
        self.parents = array("Q")
        self.starts = array("q")
        self.conversation: Optional[str] = None
        self.problems: List[str] = []

    def add_line(self, line: int) -> None:
        if not self.lines or self.lines[-1] != line:
            self.lines.append(line)

    def add_span(self, span_id: str, parent_id: str, start: int) -> None:
        self.ids.append(int(span_id, 16))
        self.parents.append(int(parent_id, 16) if parent_id else 0)
        self.starts.append(start)

    @property
    def min_start(self) -> int:
        return min(self.starts, default=0)

    def root(self) -> Optional[Tuple[str, int]]:
        """``(span id, start)`` of the earliest span whose parent is not in the trace, as ``runs._roots`` picks it."""
        ids = set(self.ids)
        best: Optional[Tuple[str, int]] = None
        for span_id, parent, start in zip(self.ids, self.parents, self.starts):
            if (not parent or parent not in ids) and (best is None or start < best[1]):
                best = (f"{span_id:016x}", start)
        return best


class RunPlan:
    """One run to build: its key (conversation or trace id) and its traces, earliest first."""

    def __init__(self, key: str, traces: List[TraceInfo]) -> None:
        self.key = key
        self.traces = traces
        root = traces[0].root()
        self.start_ns = root[1] if root else traces[0].min_start

    def problem(self) -> Optional[str]:
        """Why the run cannot be built, naming the trace (and conversation), or ``None``."""
        for info in self.traces:
            if info.problems:
                where = f"trace {info.trace_id}" + (f" (conversation {self.key})" if self.key != info.trace_id else "")
                return f"{where}: {_listed(info.problems)}"
        return None


class TraceIndex:
    """Every line with a request, every trace, and the problems that name only a line."""

    def __init__(self, lines: RequestLines) -> None:
        self.source = lines
        self.lines = LineTable()
        self.traces: Dict[str, TraceInfo] = {}
        self.problems: List[str] = []
        #: span id -> trace id, for log records that name a span but no trace
        self.span_traces: Dict[str, str] = {}

    def where(self, line: int) -> str:
        return self.source.where(self.lines[line])

    def trace(self, trace_id: str) -> TraceInfo:
        info = self.traces.get(trace_id)
        if info is None:
            info = self.traces[trace_id] = TraceInfo(trace_id)
        return info

    def runs(self) -> List[RunPlan]:
        """The runs in the order they started (ties: the order their traces first appear)."""
        groups: Dict[str, List[TraceInfo]] = {}
        for info in self.traces.values():
            groups.setdefault(info.conversation or info.trace_id, []).append(info)
        plans = [RunPlan(key, sorted(traces, key=lambda t: t.min_start)) for key, traces in groups.items()]
        return sorted(plans, key=lambda p: p.start_ns)


class _Pass:
    """One first pass; :attr:`index` is the result."""

    def __init__(self, lines: RequestLines) -> None:
        self.index = TraceIndex(lines)
        self.log_lines: Dict[str, List[int]] = defaultdict(list)
        self.orphan_logs: Dict[int, List[int]] = defaultdict(list)  # span id -> lines of logs without a trace id

    def line(self, ref: LineRef, request: Dict[str, Any]) -> None:
        number = self.index.lines.add(ref)
        where = self.index.source.where(ref)
        touched: Dict[str, None] = {}
        unattributed: List[str] = []
        for record in raw_records(request):
            if isinstance(record, TraceDataError):
                unattributed.append(str(record))
            elif record.kind == "span":
                self._span(record, number, where, touched, unattributed)
            else:
                self._log(record, number, touched, unattributed)
        if not unattributed:
            return
        detail = _listed(unattributed)
        named = [t for t in touched if t in self.index.traces]
        for trace_id in named:
            self.index.traces[trace_id].problems.append(
                f"{where}, which holds some of its spans, also holds what cannot be read ({detail}), so the "
                "trace may be incomplete; fix or remove that part of the line")
        if not named:
            self.index.problems.append(f"{where}: {detail}; no trace can be named for it, so it is left out "
                                       "(fix or remove it to read it)")

    def _span(self, record: RawRecord, number: int, where: str, touched: Dict[str, None],
              unattributed: List[str]) -> None:
        try:
            trace_id = record_trace_id(record)
        except TraceDataError as e:
            unattributed.append(f"{record_label(record)}: {e}")
            return
        info = self.index.trace(trace_id)
        info.add_line(number)
        touched[trace_id] = None
        try:
            span_id, parent_id, start = span_header(record)
            conversation = attribute_values(record.raw.get("attributes"), CONVERSATION_KEYS)
        except TraceDataError as e:
            info.problems.append(f"{record_named(record, where)}: {e}; {SPAN_ADVICE}")
            return
        info.add_span(span_id, parent_id, start)
        value = conversation.get(CONVERSATION_KEYS[0]) or conversation.get(CONVERSATION_KEYS[1])
        if value and info.conversation is None:
            info.conversation = str(value)

    def _log(self, record: RawRecord, number: int, touched: Dict[str, None], unattributed: List[str]) -> None:
        try:
            trace_id = record_trace_id(record)
            span_id = hex_id(record.raw.get("spanId", record.raw.get("span_id")), 8, "spanId", required=False)
        except TraceDataError as e:
            unattributed.append(f"{record_label(record)}: {e}")
            return
        if trace_id:
            self.log_lines[trace_id].append(number)
            touched[trace_id] = None
        elif span_id:
            self.orphan_logs[int(span_id, 16)].append(number)

    def unreadable(self, bad: Unreadable) -> None:
        if not bad.trace_ids:
            self.index.problems.append(bad.message())
            return
        for trace_id in bad.trace_ids:
            self.index.trace(trace_id).problems.append(
                f"{bad.where}, which holds some of its spans, cannot be read: {bad.problem.split(';')[0]}; "
                f"fix or remove {'that line' if bad.where.startswith('line ') else 'it'}")

    def finish(self) -> TraceIndex:
        traces = self.index.traces
        for trace_id, numbers in self.log_lines.items():
            if trace_id in traces:
                _merge(traces[trace_id], numbers)
        if self.orphan_logs:
            for info in traces.values():
                for span_id in info.ids:
                    if span_id in self.orphan_logs:
                        self.index.span_traces[f"{span_id:016x}"] = info.trace_id
                        _merge(info, self.orphan_logs[span_id])
        for info in traces.values():
            info.problems.extend(tree_problems(info.ids, info.parents))
        return self.index


def _merge(info: TraceInfo, numbers: List[int]) -> None:
    info.lines = array("q", sorted(set(info.lines).union(numbers)))


def tree_problems(ids: "array[int]", parents: "array[int]") -> List[str]:
    """A span that is its own parent, and parentSpanId cycles, found by walking parents without recursion."""
    parent: Dict[int, int] = {}
    for span_id, parent_id in zip(ids, parents):
        parent.setdefault(span_id, parent_id)
    problems = [f"span {s:016x} names itself as its own parent (parentSpanId = spanId); a trace's spans form a "
                "tree: fix that parentSpanId to evaluate this run" for s, p in parent.items() if s == p]
    done: Set[int] = {s for s, p in parent.items() if s == p}
    for start in parent:
        path: Dict[int, None] = {}
        node = start
        while node and node in parent and node not in done and node not in path:
            path[node] = None
            node = parent[node]
        if node and node in path:
            walk = list(path)
            cycle = walk[walk.index(node):]
            loop = " -> ".join(f"span {s:016x}" for s in cycle[:4]) + (" -> …" if len(cycle) > 4 else "")
            problems.append(f"its spans' parentSpanIds form a cycle ({loop} -> back to the first); a trace's "
                            "spans form a tree: fix those parentSpanIds to evaluate this run")
        done.update(path)
    return problems


def index_traces(lines: RequestLines) -> TraceIndex:
    """The first pass over every request of ``lines``."""
    run = _Pass(lines)
    for ref, got in lines.scan():
        if isinstance(got, Unreadable):
            run.unreadable(got)
        else:
            run.line(ref, got)
    return run.finish()
