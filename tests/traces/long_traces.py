"""Long agent traces for the scaling test and ``bench/bench_traces.py``: one run of many model calls.

An agent loop of ``calls`` model calls, each asking for a tool the next call gets the result of,
with an ``execute_tool`` span per tool call. ``shape`` is how each call's input is recorded:

- ``"new"``: only the messages new to that call (the tool result), as a stateful API
  (OpenAI Responses with ``previous_response_id``) is traced;
- ``"window"``: the system prompt (with a timestamp that changes every call) and the last
  ``WINDOW`` messages of the conversation, as an agent that trims its history is traced.

Both keep the file linear in ``calls``, so the time to read one is a measure of the reader alone.
:func:`many_traces` writes a file of many small runs instead (for memory against file size).
"""

import json
from pathlib import Path
from typing import Any, Dict, List

WINDOW = 8
START = 1_700_000_000_000_000_000


def _attr(key: str, value: Any) -> Dict[str, Any]:
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": value if isinstance(value, str) else json.dumps(value)}}


def _text(role: str, text: str) -> Dict[str, Any]:
    return {"role": role, "parts": [{"type": "text", "content": text}]}


def _span(trace_id: str, span_id: str, parent: str, name: str, start: int, attrs: Dict[str, Any]) -> Dict[str, Any]:
    return {"traceId": trace_id, "spanId": span_id, "parentSpanId": parent, "name": name,
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500),
            "attributes": [_attr(k, v) for k, v in attrs.items()]}


def _line(spans: List[Dict[str, Any]]) -> str:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"scope": {"name": "long"}, "spans": spans}]}]})


def agent_loop(path: Path, calls: int, shape: str = "new", trace_index: int = 1, pad: int = 0) -> Path:
    """Write one trace of ``calls`` model calls (one span a line) to ``path``; each tool result
    carries ``pad`` more characters (to make a file of a given size)."""
    trace_id = f"{trace_index:032x}"
    root = f"{trace_index:08x}00000000"
    conversation: List[Dict[str, Any]] = [_text("user", "Check the status of every server, one at a time.")]
    lines = [_line([_span(trace_id, root, "", "invoke_agent ops", START, {"gen_ai.operation.name": "invoke_agent"})])]
    for i in range(calls):
        t = START + 1000 * (i + 1)
        call_id = f"call_{i}"
        if shape == "new":
            inputs = conversation[-1:] if i else conversation
        else:
            system = [{"role": "system", "parts": [{"type": "text", "content": f"You are an ops agent. Time: {t}"}]}]
            inputs = system + conversation[-WINDOW:]
        output = {"role": "assistant", "parts": [{"type": "tool_call", "id": call_id, "name": "status",
                                                  "arguments": {"server": f"srv-{i}"}}]}
        chat = _span(trace_id, f"{trace_index:08x}{2 * i + 1:08x}", root, "chat m", t, {
            "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 20 + i % 7, "gen_ai.usage.output_tokens": 9,
            "gen_ai.input.messages": inputs, "gen_ai.output.messages": [output]})
        tool = _span(trace_id, f"{trace_index:08x}{2 * i + 2:08x}", root, "execute_tool status", t + 600, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "status", "gen_ai.tool.call.id": call_id,
            "gen_ai.tool.call.result": f"srv-{i} is up" + " ." * (pad // 2)})
        lines.append(_line([chat, tool]))
        conversation.append(output)
        conversation.append({"role": "tool", "parts": [{"type": "tool_call_response", "id": call_id,
                                                        "response": f"srv-{i} is up" + " ." * (pad // 2)}]})
    path.write_text("\n".join(lines) + "\n")
    return path


def many_traces(path: Path, traces: int, calls: int = 4, shape: str = "new", pad: int = 0) -> Path:
    """Write ``traces`` runs of ``calls`` model calls each, one after another, to ``path``."""
    with open(path, "w") as out:
        for n in range(traces):
            part = agent_loop(path.with_suffix(".part"), calls, shape, n + 1, pad)
            out.write(part.read_text())
    path.with_suffix(".part").unlink()
    return path
