"""The OTLP/JSON format: the OpenTelemetry collector's ``file`` exporter, one export request a line.

Each line (or a whole file) is one export request, ``{"resourceSpans": [...]}`` or
``{"resourceLogs": [...]}``; a trace may be split over many lines and over a span file and a
log file (:mod:`.otlp_lines` reads them, :mod:`.trace_index` and :mod:`.run_reader` put each
trace together). Pure JSON: reading traces needs no OpenTelemetry package. This module walks one
request into its raw span and log records (:func:`raw_records`) and reads one record into a
:class:`Span` or :class:`LogRecord` (:func:`read_span`, :func:`read_log`); attribute values are
decoded by :mod:`.otlp_values`, which refuses a value of the wrong kind instead of crashing.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple, Union

from .._util.otlp_sniff import candidates as _candidates
from .._util.otlp_sniff import sniff as _sniff
from .otlp_values import (
    TraceDataError,
    decode_attributes,
    decode_value,
    hex_id,
    nanos,
    optional_text,
    shown,
)

_REQUEST_KEYS = ("resourceSpans", "resourceLogs", "resource_spans", "resource_logs")


@dataclass
class Span:
    """One span, with its attributes decoded and its events as ``(name, attributes)``.

    ``where`` (the line it was read from) is for messages only: two copies of a span on
    different lines are the same span."""

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start_ns: int
    end_ns: int
    attributes: Dict[str, Any]
    events: List[Tuple[str, Dict[str, Any]]] = field(default_factory=list)
    scope: str = ""
    where: str = field(default="", compare=False)

    @property
    def duration_s(self) -> float:
        return max(self.end_ns - self.start_ns, 0) / 1e9

    def named(self) -> str:
        """How a message names this span: its name and line."""
        return f"span {shown(self.name, 60)} ({self.where})"


@dataclass
class LogRecord:
    """One log record; GenAI events carry their name in ``eventName`` or the ``event.name`` attribute."""

    trace_id: str
    span_id: str
    event_name: str
    time_ns: int
    attributes: Dict[str, Any]
    body: Any


@dataclass
class RawRecord:
    """A span or log record of a request as written (``kind``: ``"span"`` / ``"log"``), not yet read."""

    kind: str
    raw: Dict[str, Any]
    scope: str
    number: int  # 1-based among the request's records of its kind, for messages


def _get(d: Dict[str, Any], camel: str) -> Any:
    """OTLP/JSON is camelCase; accept the protobuf field names too."""
    if camel in d:
        return d[camel]
    return d.get(re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), camel))


def _items(value: Any, what: str) -> List[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TraceDataError(f"{what} is {shown(value)}, not a list")
    return value


def _object(value: Any, what: str) -> Dict[str, Any]:
    if not isinstance(value, dict):
        raise TraceDataError(f"{what} is {shown(value)}, not an object")
    return value


def _scope_name(scoped: Dict[str, Any]) -> str:
    scope = scoped.get("scope") or scoped.get("instrumentationLibrary") or {}
    name = scope.get("name", "") if isinstance(scope, dict) else ""
    return name if isinstance(name, str) else ""


def raw_records(request: Dict[str, Any]) -> Iterator[Union[RawRecord, TraceDataError]]:
    """The spans and log records of one export request, in order; a part of the request that is not
    the shape OTLP/JSON gives (a string where the list of spans goes) is yielded as the error saying so."""
    counts = {"span": 0, "log": 0}
    layout = (("span", "resourceSpans", ("scopeSpans", "instrumentationLibrarySpans"), "spans"),
              ("log", "resourceLogs", ("scopeLogs",), "logRecords"))
    for kind, top, scopes, leaf in layout:
        try:
            resources = _items(_get(request, top), top)
        except TraceDataError as e:
            yield e
            continue
        for r, resource in enumerate(resources, 1):
            try:
                resource = _object(resource, f"{top}[{r}]")
                scoped_list = _items(_get(resource, scopes[0]) or (_get(resource, scopes[1]) if len(scopes) > 1 else None),
                                     f"{top}[{r}].{scopes[0]}")
            except TraceDataError as e:
                yield e
                continue
            for s, scoped in enumerate(scoped_list, 1):
                try:
                    scoped = _object(scoped, f"{top}[{r}].{scopes[0]}[{s}]")
                    records = _items(_get(scoped, leaf), f"{top}[{r}].{scopes[0]}[{s}].{leaf}")
                except TraceDataError as e:
                    yield e
                    continue
                name = _scope_name(scoped)
                for raw in records:
                    counts[kind] += 1
                    if isinstance(raw, dict):
                        yield RawRecord(kind, raw, name, counts[kind])
                    else:
                        yield TraceDataError(f"{'span' if kind == 'span' else 'log record'} {counts[kind]} is "
                                             f"{shown(raw)}, not an object")


def record_label(record: RawRecord) -> str:
    """How a message names a record not read yet: ``span 'chat m'``, or ``span 3`` (its number in the request)."""
    name = record.raw.get("name")
    what = "span" if record.kind == "span" else "log record"
    return f"{what} {shown(name, 60) if isinstance(name, str) else record.number}"


def record_named(record: RawRecord, where: str) -> str:
    """The same with its line: ``span 'chat m' (line 2 of f.jsonl)``."""
    return f"{record_label(record)} ({where})"


def record_trace_id(record: RawRecord) -> str:
    """The record's trace id as hex (:class:`TraceDataError` if missing or malformed; a log record may have none)."""
    return hex_id(_get(record.raw, "traceId"), 16, "traceId", required=record.kind == "span")


def _events(raw: Any) -> List[Tuple[str, Dict[str, Any]]]:
    out = []
    for i, event in enumerate(_items(raw, "events"), 1):
        event = _object(event, f"event {i}")
        try:
            name = optional_text(event.get("name"), "its name") or ""
            out.append((name, decode_attributes(event.get("attributes"))))
        except TraceDataError as e:
            raise TraceDataError(f"event {i}: {e}") from None
    return out


def read_span(record: RawRecord, where: str) -> Span:
    """The span ``record`` holds, every field decoded (:class:`TraceDataError` names the one that is not)."""
    raw = record.raw
    return Span(
        trace_id=record_trace_id(record), span_id=hex_id(_get(raw, "spanId"), 8, "spanId"),
        parent_id=hex_id(_get(raw, "parentSpanId"), 8, "parentSpanId", required=False),
        name=optional_text(raw.get("name"), "name") or "",
        start_ns=nanos(_get(raw, "startTimeUnixNano"), "startTimeUnixNano"),
        end_ns=nanos(_get(raw, "endTimeUnixNano"), "endTimeUnixNano"),
        attributes=decode_attributes(raw.get("attributes")), events=_events(raw.get("events")),
        scope=record.scope, where=where)


def read_log(record: RawRecord) -> LogRecord:
    """The log record ``record`` holds, decoded."""
    raw = record.raw
    attributes = decode_attributes(raw.get("attributes"))
    name = optional_text(_get(raw, "eventName"), "eventName") or attributes.get("event.name") or ""
    time = _get(raw, "timeUnixNano") or _get(raw, "observedTimeUnixNano")
    try:
        body = decode_value(raw.get("body"))
    except TraceDataError as e:
        raise TraceDataError(f"body: {e}") from None
    return LogRecord(trace_id=record_trace_id(record), span_id=hex_id(_get(raw, "spanId"), 8, "spanId", required=False),
                     event_name=name if isinstance(name, str) else str(name), time_ns=nanos(time, "timeUnixNano"),
                     attributes=attributes, body=body)


def otlp_files(path: Path) -> List[Path]:
    """The OTLP/JSON files of ``path``: itself, or a folder's files (recursively, by name) that hold OTLP."""
    if path.is_dir():
        return [p for p in _candidates(path) if _sniff(p)]
    return [path]


def is_request(value: Any) -> bool:
    return isinstance(value, dict) and any(k in value for k in _REQUEST_KEYS)


def not_a_request(value: Any) -> str:
    got = f"an object with keys {sorted(value)[:5]}" if isinstance(value, dict) else type(value).__name__
    return f"expected an OTLP/JSON export object ({{\"resourceSpans\": [...]}} or {{\"resourceLogs\": [...]}}), got {got}"


def span_header(record: RawRecord) -> "tuple[str, str, int]":
    """What the first reading pass keeps of a span: ``(span id, parent id, start)``."""
    raw = record.raw
    return (hex_id(_get(raw, "spanId"), 8, "spanId"), hex_id(_get(raw, "parentSpanId"), 8, "parentSpanId", required=False),
            nanos(_get(raw, "startTimeUnixNano"), "startTimeUnixNano"))
