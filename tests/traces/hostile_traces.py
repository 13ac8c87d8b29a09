"""Hostile OTLP/JSON trace files: one bad thing each, between two good traces.

Every file holds the good trace ``aaaa…`` on its first line, the hostile one (``bbbb…`` unless the
kind is about the trace id itself) on its second, and the good trace ``cccc…`` on its third; the
reader must give the two good runs as rows and the bad one as an error naming it (or, where no
trace can be named, its line) and what is wrong. :data:`KINDS` maps each kind to the fragments
that message must hold, or to ``None`` where the odd file is still a valid trace that must read.

``python -m tests.traces.hostile_traces DIR`` writes them all to ``DIR`` (to try them by hand).
"""

import copy
import json
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

GOOD_A = "aa" * 16
BAD = "bb" * 16
GOOD_C = "cc" * 16
START = 1_700_000_000_000_000_000


def value(v: Any) -> Dict[str, Any]:
    """A Python value as an OTLP ``AnyValue``."""
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, list):
        return {"arrayValue": {"values": [value(x) for x in v]}}
    if isinstance(v, dict):
        return {"kvlistValue": {"values": [{"key": k, "value": value(x)} for k, x in v.items()]}}
    return {"stringValue": str(v)}


def attributes(**attrs: Any) -> List[Dict[str, Any]]:
    return [{"key": k.replace("__", "."), "value": value(v)} for k, v in attrs.items()]


def chat_attributes(question: str, answer: str) -> Dict[str, Any]:
    return {"gen_ai.operation.name": "chat", "gen_ai.request.model": "m",
            "gen_ai.usage.input_tokens": 11, "gen_ai.usage.output_tokens": 7,
            "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [{"type": "text", "content": question}]}]),
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": answer}]}])}


def trace_spans(trace_id: str, offset: int = 0) -> List[Dict[str, Any]]:
    """An agent span and its one model call."""
    root, call = trace_id[:14] + "01", trace_id[:14] + "02"
    t = START + offset * 1_000_000_000
    return [
        {"traceId": trace_id, "spanId": root, "name": "invoke_agent helper", "startTimeUnixNano": str(t),
         "endTimeUnixNano": str(t + 900), "attributes": [{"key": k, "value": value(v)} for k, v in
                                                         {"gen_ai.operation.name": "invoke_agent"}.items()]},
        {"traceId": trace_id, "spanId": call, "parentSpanId": root, "name": "chat m", "startTimeUnixNano": str(t + 100),
         "endTimeUnixNano": str(t + 800),
         "attributes": [{"key": k, "value": value(v)} for k, v in chat_attributes(f"question {trace_id[:2]}",
                                                                                   f"answer {trace_id[:2]}").items()]},
    ]


def request(spans: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {"name": "hostile"}, "spans": spans}]}]}


def line(spans: List[Dict[str, Any]]) -> bytes:
    return json.dumps(request(spans), allow_nan=True).encode()


def _set(spans: List[Dict[str, Any]], key: str, new: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The model call's attribute ``key`` given the raw AnyValue ``new`` (added if absent)."""
    call = spans[1]
    call["attributes"] = [a for a in call["attributes"] if a["key"] != key] + [{"key": key, "value": new}]
    return spans


def _nested_line(spans: List[Dict[str, Any]], depth: int) -> bytes:
    """The spans' line with an attribute whose AnyValue nests ``depth`` arrays deep (written as text:
    ``json.dumps`` itself would refuse the depth)."""
    text = line(_set(spans, "gen_ai.request.nested", {"stringValue": "x"}))
    deep = b'{"arrayValue": {"values": [' * depth + b'{"stringValue": "bottom"}' + b']}}' * depth
    return text.replace(b'{"stringValue": "x"}', deep)


def _span_chain(depth: int) -> List[Dict[str, Any]]:
    """A valid trace whose spans nest ``depth`` deep, its model call at the bottom."""
    spans = trace_spans(BAD, 1)
    chain = []
    parent = spans[0]["spanId"]
    for i in range(depth):
        span_id = f"{i + 0x100:016x}"
        chain.append({"traceId": BAD, "spanId": span_id, "parentSpanId": parent, "name": "step",
                      "startTimeUnixNano": str(START + 1_000_000_000 + 1 + i), "endTimeUnixNano": str(START + 2_000_000_000)})
        parent = span_id
    spans[1]["parentSpanId"] = parent
    spans[1]["startTimeUnixNano"] = str(START + 1_000_000_000 + depth + 10)
    return [spans[0]] + chain + [spans[1]]


def _choice_event_line(spans: List[Dict[str, Any]]) -> bytes:
    """The model call's messages as older GenAI log events, its ``gen_ai.choice`` naming a tool call
    whose ``function`` is a string (not ``{"name", "arguments"}``)."""
    call = spans[1]
    call["attributes"] = [a for a in call["attributes"]
                          if a["key"] not in ("gen_ai.input.messages", "gen_ai.output.messages")]
    events = [("gen_ai.user.message", {"content": "question bb"}),
              ("gen_ai.choice", {"message": {"tool_calls": [{"id": "c1", "function": "get_weather"}]}})]
    logs = [{"traceId": BAD, "spanId": call["spanId"], "eventName": name, "timeUnixNano": str(START + i),
             "body": value(body)} for i, (name, body) in enumerate(events)]
    both = dict(request(spans), resourceLogs=[{"scopeLogs": [{"logRecords": logs}]}])
    return json.dumps(both).encode()


Mutation = Callable[[List[Dict[str, Any]]], Any]

#: kind -> (what it does to the bad trace's spans; returns spans, or the line's bytes itself)
MUTATIONS: Dict[str, Mutation] = {
    "int_value_not_a_number": lambda s: _set(s, "gen_ai.usage.input_tokens", {"intValue": "abc"}),
    "int_value_a_fraction": lambda s: _set(s, "gen_ai.usage.input_tokens", {"intValue": 2.5}),
    "int_value_a_bool": lambda s: _set(s, "gen_ai.usage.input_tokens", {"intValue": True}),
    "double_value_not_a_number": lambda s: _set(s, "gen_ai.request.temperature", {"doubleValue": "warm"}),
    "string_value_an_object": lambda s: _set(s, "gen_ai.input.messages", {"stringValue": {"role": "user"}}),
    "bool_value_a_string": lambda s: _set(s, "gen_ai.request.stream", {"boolValue": "yes"}),
    "array_value_a_string": lambda s: _set(s, "gen_ai.response.finish_reasons", {"arrayValue": "stop"}),
    "kvlist_value_a_list": lambda s: _set(s, "gen_ai.request.extra", {"kvlistValue": [1, 2]}),
    "bytes_value_not_base64": lambda s: _set(s, "gen_ai.request.seed_bytes", {"bytesValue": "!!not base64!!"}),
    "attribute_key_not_a_string": lambda s: s[1]["attributes"].append({"key": 7, "value": {"stringValue": "x"}}) or s,
    "token_count_infinity": lambda s: _set(s, "gen_ai.usage.input_tokens", {"intValue": float("inf")}),
    "token_count_nan": lambda s: _set(s, "gen_ai.usage.output_tokens", {"doubleValue": float("nan")}),
    "token_count_negative": lambda s: _set(s, "gen_ai.usage.input_tokens", {"intValue": "-5"}),
    "huge_int_value": lambda s: _set(s, "gen_ai.usage.input_tokens", {"intValue": "9" * 5000}),
    "huge_number_literal": lambda s: line(_set(s, "gen_ai.usage.output_tokens", {"intValue": 0})).replace(
        b'{"intValue": 0}', b'{"intValue": 1e400}'),
    "time_not_a_number": lambda s: s[1].update(startTimeUnixNano="yesterday") or s,
    "time_infinite": lambda s: line(s).replace(f'"startTimeUnixNano": "{START + 1_000_000_100}"'.encode(),
                                               b'"startTimeUnixNano": 1e400'),
    "parent_cycle": lambda s: s[0].update(parentSpanId=s[1]["spanId"]) or s,
    "self_parent": lambda s: s[1].update(parentSpanId=s[1]["spanId"]) or (s[0].update(parentSpanId=s[1]["spanId"]) or s),
    "deep_any_value": lambda s: _nested_line(s, 200),
    "deep_json_line": lambda s: line(_set(s, "gen_ai.request.nested", {"stringValue": "x"})).replace(
        b'{"stringValue": "x"}', b'[' * 100_000 + b']' * 100_000),
    "deep_json_in_a_string": lambda s: _set(s, "gen_ai.input.messages", {"stringValue": "[" * 100_000 + "]" * 100_000}),
    "deep_json_content": lambda s: _set(s, "gen_ai.input.messages", {"stringValue": json.dumps(
        [{"role": "user", "parts": [{"type": "text", "content": json.loads("[" * 600 + "]" * 600)}]}])}),
    "missing_trace_id": lambda s: [dict((k, v) for k, v in x.items() if k != "traceId") for x in s],
    "missing_span_id": lambda s: s[1].pop("spanId") and s,
    "duplicate_span_id": lambda s: s + [dict(s[1], name="another span", attributes=[])],
    "trace_id_not_hex_or_base64": lambda s: [dict(x, traceId="not-a-trace-id!") for x in s],
    "span_id_wrong_length": lambda s: s[1].update(spanId="abcd") or s,
    "span_not_an_object": lambda s: s + [42],
    "spans_not_a_list": lambda s: json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": "spans"}]}]}).encode(),
    "resource_spans_a_string": lambda s: json.dumps({"resourceSpans": "everything"}).encode(),
    "name_an_object": lambda s: s[1].update(name={"n": 1}) or s,
    "events_not_a_list": lambda s: s[1].update(events="boom") or s,
    "event_tool_call_function_a_string": lambda s: _choice_event_line(s),
    "truncated_line": lambda s: line(s)[:700],
    "not_utf8": lambda s: line(s).replace(b"question bb", b"question \xff\xfe bb"),
    "enormous_attribute_string": lambda s: _set(s, "gen_ai.request.blob", {"stringValue": "x" * 20_000_000}),
    "deep_span_nesting": lambda s: _span_chain(10_000),
}

#: kind -> what the error message must hold (besides the trace or line), or None: the trace is valid and reads
EXPECTED: Dict[str, Optional[Tuple[str, ...]]] = {
    "int_value_not_a_number": (BAD, "gen_ai.usage.input_tokens", "intValue"),
    "int_value_a_fraction": (BAD, "gen_ai.usage.input_tokens", "intValue"),
    "int_value_a_bool": (BAD, "gen_ai.usage.input_tokens", "intValue"),
    "double_value_not_a_number": (BAD, "gen_ai.request.temperature", "doubleValue"),
    "string_value_an_object": (BAD, "gen_ai.input.messages", "stringValue"),
    "bool_value_a_string": (BAD, "gen_ai.request.stream", "boolValue"),
    "array_value_a_string": (BAD, "gen_ai.response.finish_reasons", "arrayValue"),
    "kvlist_value_a_list": (BAD, "gen_ai.request.extra", "kvlistValue"),
    "bytes_value_not_base64": (BAD, "gen_ai.request.seed_bytes", "bytesValue"),
    "attribute_key_not_a_string": (BAD, "key"),
    "token_count_infinity": (BAD, "gen_ai.usage.input_tokens"),
    "token_count_nan": (BAD, "gen_ai.usage.output_tokens"),
    "token_count_negative": (BAD, "gen_ai.usage.input_tokens"),
    "huge_int_value": (BAD, "gen_ai.usage.input_tokens", "64-bit"),
    "huge_number_literal": (BAD, "gen_ai.usage.output_tokens"),
    "time_not_a_number": (BAD, "startTimeUnixNano"),
    "time_infinite": (BAD, "startTimeUnixNano"),
    "parent_cycle": (BAD, "cycle"),
    "self_parent": (BAD, "its own parent"),
    "deep_any_value": (BAD, "gen_ai.request.nested", "nested deeper"),
    "deep_json_line": (BAD, "line 2", "nested deeper"),
    "deep_json_in_a_string": (BAD, "gen_ai.input.messages", "nested deeper"),
    "deep_json_content": (BAD, "gen_ai.input.messages", "nested deeper"),
    "missing_trace_id": ("line 2", "traceId"),
    "missing_span_id": (BAD, "spanId"),
    "duplicate_span_id": (BAD, "spanId", "2 different spans"),
    "trace_id_not_hex_or_base64": ("line 2", "traceId", "not-a-trace-id!"),
    "span_id_wrong_length": (BAD, "spanId", "'abcd'"),
    "span_not_an_object": (BAD, "line 2", "span 3"),
    "spans_not_a_list": ("line 2", "spans"),
    "resource_spans_a_string": ("line 2", "resourceSpans"),
    "name_an_object": (BAD, "name"),
    "events_not_a_list": (BAD, "events"),
    "event_tool_call_function_a_string": (BAD, "function"),
    "truncated_line": (BAD, "line 2", "invalid JSON"),
    "not_utf8": (BAD, "line 2", "UTF-8"),
    "enormous_attribute_string": None,
    "deep_span_nesting": None,
}

KINDS = sorted(MUTATIONS)


def hostile_bytes(kind: str) -> bytes:
    """The whole file of ``kind``: good trace, hostile trace, good trace, one line each."""
    bad = MUTATIONS[kind](copy.deepcopy(trace_spans(BAD, 1)))
    middle = bad if isinstance(bad, bytes) else line(bad)
    return b"\n".join([line(trace_spans(GOOD_A, 0)), middle, line(trace_spans(GOOD_C, 2))]) + b"\n"


def write_hostile(folder: Path, kind: str) -> Path:
    path = folder / f"{kind}.spans.jsonl"
    path.write_bytes(hostile_bytes(kind))
    return path


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name in KINDS:
        print(write_hostile(out, name))
