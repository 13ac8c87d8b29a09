"""Reading OTLP/JSON trace files: the OpenTelemetry collector's ``file`` exporter format.

Each line (or a whole file) is one export request, ``{"resourceSpans": [...]}`` or
``{"resourceLogs": [...]}``; a trace may be split over many lines and over a span file and a
log file, so a folder is read as one body of telemetry. Pure JSON: reading traces needs no
OpenTelemetry package. Attribute values are decoded from OTLP's ``AnyValue`` form, and ids
are kept as lower-case hex whether written as hex (the OTLP/JSON rule) or base64 (protobuf's
generic JSON mapping, which some exporters use).
"""

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Tuple

_OTLP_START = re.compile(rb'^\s*\{\s*"(resourceSpans|resourceLogs|resource_spans|resource_logs)"')
#: how much of a file is read to recognise it
_SNIFF_BYTES = 4096


@dataclass
class Span:
    """One span, with its attributes decoded and its events as ``(name, attributes)``."""

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start_ns: int
    end_ns: int
    attributes: Dict[str, Any]
    events: List[Tuple[str, Dict[str, Any]]] = field(default_factory=list)
    scope: str = ""

    @property
    def duration_s(self) -> float:
        return max(self.end_ns - self.start_ns, 0) / 1e9


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
class Telemetry:
    """Everything read from a file or folder, and the lines that could not be read."""

    spans: List[Span] = field(default_factory=list)
    logs: List[LogRecord] = field(default_factory=list)
    problems: List[str] = field(default_factory=list)


def decode_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` (``{"stringValue": ...}``, ``{"kvlistValue": ...}``, ...) as plain JSON."""
    if not isinstance(value, dict) or not value:
        return None
    for key, item in value.items():
        if key in ("stringValue", "string_value", "boolValue", "bool_value"):
            return item
        if key in ("intValue", "int_value"):
            return int(item)
        if key in ("doubleValue", "double_value"):
            return float(item)
        if key in ("arrayValue", "array_value"):
            return [decode_value(v) for v in (item or {}).get("values", [])]
        if key in ("kvlistValue", "kvlist_value"):
            return decode_attributes((item or {}).get("values", []))
        if key in ("bytesValue", "bytes_value"):
            return item
    return None


def decode_attributes(items: Any) -> Dict[str, Any]:
    if not isinstance(items, list):
        return {}
    return {kv["key"]: decode_value(kv.get("value")) for kv in items if isinstance(kv, dict) and "key" in kv}


def _hex_id(value: Any) -> str:
    if not isinstance(value, str) or not value:
        return ""
    if re.fullmatch(r"[0-9a-fA-F]{16}|[0-9a-fA-F]{32}", value):
        return value.lower()
    try:
        return base64.b64decode(value, validate=True).hex()
    except (binascii.Error, ValueError):
        return value


def _get(d: Dict[str, Any], camel: str) -> Any:
    """OTLP/JSON is camelCase; accept the protobuf field names too."""
    if camel in d:
        return d[camel]
    return d.get(re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), camel))


def _nanos(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _spans(request: Dict[str, Any]) -> Iterator[Span]:
    for resource in _get(request, "resourceSpans") or []:
        for scoped in _get(resource, "scopeSpans") or _get(resource, "instrumentationLibrarySpans") or []:
            scope = (scoped.get("scope") or scoped.get("instrumentationLibrary") or {}).get("name", "")
            for raw in scoped.get("spans") or []:
                yield Span(
                    trace_id=_hex_id(_get(raw, "traceId")), span_id=_hex_id(_get(raw, "spanId")),
                    parent_id=_hex_id(_get(raw, "parentSpanId")), name=str(raw.get("name", "")),
                    start_ns=_nanos(_get(raw, "startTimeUnixNano")), end_ns=_nanos(_get(raw, "endTimeUnixNano")),
                    attributes=decode_attributes(raw.get("attributes")),
                    events=[(str(e.get("name", "")), decode_attributes(e.get("attributes")))
                            for e in raw.get("events") or [] if isinstance(e, dict)],
                    scope=str(scope))


def _logs(request: Dict[str, Any]) -> Iterator[LogRecord]:
    for resource in _get(request, "resourceLogs") or []:
        for scoped in _get(resource, "scopeLogs") or []:
            for raw in _get(scoped, "logRecords") or []:
                attributes = decode_attributes(raw.get("attributes"))
                name = _get(raw, "eventName") or attributes.get("event.name") or ""
                yield LogRecord(
                    trace_id=_hex_id(_get(raw, "traceId")), span_id=_hex_id(_get(raw, "spanId")),
                    event_name=str(name), time_ns=_nanos(_get(raw, "timeUnixNano") or _get(raw, "observedTimeUnixNano")),
                    attributes=attributes, body=decode_value(raw.get("body")))


def looks_like_otlp(path: Path) -> bool:
    """Whether ``path`` is an OTLP/JSON file, or a folder holding one (recognised by content)."""
    if path.is_dir():
        return any(_sniff(p) for p in _candidates(path))
    return _sniff(path)


def _sniff(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(_SNIFF_BYTES)
    except OSError:
        return False
    return bool(_OTLP_START.match(head.lstrip(b"\xef\xbb\xbf")))


def _candidates(folder: Path) -> List[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))


def otlp_files(path: Path) -> List[Path]:
    """The OTLP/JSON files of ``path``: itself, or a folder's files (recursively, by name) that hold OTLP."""
    if path.is_dir():
        return [p for p in _candidates(path) if _sniff(p)]
    return [path]


def _requests(path: Path, problems: List[str]) -> Iterator[Dict[str, Any]]:
    """The export requests of one file: one per line, or the whole file as one (pretty-printed) object."""
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if _is_request(whole):
        yield whole
        return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as e:
            problems.append(f"line {number} of {path.name}: invalid JSON ({e}); the spans on it are missing")
            continue
        if _is_request(value):
            yield value
        else:
            problems.append(f"line {number} of {path.name}: {_not_a_request(value)}")


_REQUEST_KEYS = ("resourceSpans", "resourceLogs", "resource_spans", "resource_logs")


def _is_request(value: Any) -> bool:
    return isinstance(value, dict) and any(k in value for k in _REQUEST_KEYS)


def _not_a_request(value: Any) -> str:
    got = f"an object with keys {sorted(value)[:5]}" if isinstance(value, dict) else type(value).__name__
    return f"expected an OTLP/JSON export object ({{\"resourceSpans\": [...]}} or {{\"resourceLogs\": [...]}}), got {got}"


def read_telemetry(paths: Iterable[Path]) -> Telemetry:
    """Every span and log record of ``paths`` (files as :func:`otlp_files` lists them)."""
    out = Telemetry()
    for path in paths:
        for request in _requests(path, out.problems):
            out.spans.extend(_spans(request))
            out.logs.extend(_logs(request))
    return out


def request_objects(items: Iterable[Any]) -> Telemetry:
    """The same from export objects already in memory (``evaluate(data=[...], data_format="otlp")``)."""
    out = Telemetry()
    for i, item in enumerate(items):
        if not _is_request(item):
            out.problems.append(f"item {i} of the data: {_not_a_request(item)}")
            continue
        out.spans.extend(_spans(item))
        out.logs.extend(_logs(item))
    return out

