"""Spans grouped into agent runs, and each run's transcript.

A run is one trace, or every trace carrying the same conversation id (``gen_ai.conversation.id``,
OpenInference's ``session.id``): a multi-turn chat whose turns were traced separately. Its
transcript is rebuilt from the model calls in start order: a call's input replays the
conversation so far, so only what the transcript does not hold yet is appended, then the call's
output (with the call's token usage on the assistant message, as OpenAI reports ``usage``).
Tool results that no later model call saw (the last call's tools, or frameworks that do not
replay them) are filled in from the tool execution spans. A run that cannot be read this way
keeps a ``problem`` naming the trace and what is missing; it becomes an error row.
"""

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set

from .convention_messages import as_json_text, parse_json
from .otlp_json import LogRecord, Span, Telemetry
from .steps import LlmCall, ToolRun, agent_io, conversation_id, is_agent_span, llm_call, tool_run

_CAPTURE_HINT = ("turn on message content capture in the instrumentation "
                 "(OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, or its span_only / event_only modes)")


@dataclass
class AgentRun:
    """One agent run as read from its spans."""

    key: str
    trace_ids: List[str]
    root_span_id: str
    messages: List[Dict[str, Any]] = field(default_factory=list)
    tool_definitions: List[Any] = field(default_factory=list)
    conventions: List[str] = field(default_factory=list)
    llm_calls: int = 0
    tool_calls: int = 0
    llm_duration_s: float = 0.0
    tool_duration_s: float = 0.0
    usage: Dict[str, int] = field(default_factory=dict)
    duration_s: float = 0.0
    start_ns: int = 0
    problem: Optional[str] = None

    @property
    def turns(self) -> int:
        return sum(1 for m in self.messages if m.get("role") == "user")


def _same(message: Dict[str, Any]) -> str:
    """A message compared without what only our transcript adds (usage)."""
    return json.dumps({k: v for k, v in message.items() if k != "usage"}, sort_keys=True)


def _append_new(transcript: List[Dict[str, Any]], inputs: List[Dict[str, Any]]) -> None:
    """Append what ``inputs`` holds beyond the transcript: a replayed history is skipped, and
    an input that is not a replay (a framework sending only new messages) adds what is not there."""
    seen = [_same(m) for m in transcript]
    given = [_same(m) for m in inputs]
    if given[: len(seen)] == seen:
        transcript.extend(inputs[len(seen):])
        return
    present = set(seen)
    transcript.extend(m for m, key in zip(inputs, given) if key not in present)


def _fill_tool_results(transcript: List[Dict[str, Any]], tools: List[ToolRun]) -> None:
    """Add a tool message for each executed call whose result no message carries yet."""
    answered: Set[str] = {str(m.get("tool_call_id")) for m in transcript if m.get("role") == "tool"}
    for run in tools:
        if run.result is None:
            continue
        for index, message in enumerate(transcript):
            calls = [c for c in message.get("tool_calls") or [] if c["id"] not in answered]
            match = next((c for c in calls if run.call_id and c["id"] == run.call_id), None)
            match = match or next((c for c in calls if c["function"]["name"] == run.name), None)
            if match is None:
                continue
            at = index + 1
            while at < len(transcript) and transcript[at].get("role") == "tool":
                at += 1
            transcript.insert(at, {"role": "tool", "tool_call_id": match["id"], "content": as_json_text(run.result)})
            answered.add(match["id"])
            break


def _from_agent_spans(agents: List[Span], tools: List[ToolRun]) -> List[Dict[str, Any]]:
    """Without model content: the agent spans' own input/output text and the tool spans between."""
    transcript: List[Dict[str, Any]] = []
    for agent in agents:
        text_in, text_out = agent_io(agent)
        if text_in is None or text_out is None:
            return []
        transcript.append({"role": "user", "content": text_in})
        inside = [t for t in tools if t.span.trace_id == agent.trace_id and agent.start_ns <= t.span.start_ns <= agent.end_ns]
        for i, run in enumerate(inside):
            call_id = run.call_id or f"call_{i}"
            transcript.append({"role": "assistant", "tool_calls": [{"id": call_id, "type": "function", "function": {
                "name": run.name, "arguments": as_json_text({} if run.arguments is None else run.arguments)}}]})
            transcript.append({"role": "tool", "tool_call_id": call_id, "content": as_json_text(run.result)})
        transcript.append({"role": "assistant", "content": text_out})
    return transcript


def _roots(spans: List[Span]) -> List[Span]:
    ids = {s.span_id for s in spans}
    return sorted((s for s in spans if not s.parent_id or s.parent_id not in ids), key=lambda s: s.start_ns)


def _build(key: str, traces: List[List[Span]], logs_by_span: Dict[str, List[LogRecord]]) -> AgentRun:
    spans = sorted((s for t in traces for s in t), key=lambda s: (s.start_ns, s.end_ns))
    roots = [_roots(t)[0] for t in traces]
    run = AgentRun(key=key, trace_ids=[t[0].trace_id for t in traces], root_span_id=roots[0].span_id,
                   start_ns=roots[0].start_ns, duration_s=round(sum(r.duration_s for r in roots), 6))
    calls = [c for c in (llm_call(s, logs_by_span.get(s.span_id, [])) for s in spans) if c is not None]
    tools = [t for t in (tool_run(s) for s in spans) if t is not None]
    run.llm_calls, run.tool_calls = len(calls), len(tools)
    run.llm_duration_s = round(sum(c.span.duration_s for c in calls), 6)
    run.tool_duration_s = round(sum(t.span.duration_s for t in tools), 6)
    for call in calls:
        for name, count in call.usage.items():
            run.usage[name] = run.usage.get(name, 0) + count
        if not run.tool_definitions and call.tool_definitions:
            run.tool_definitions = call.tool_definitions
        if call.convention and call.convention not in run.conventions:
            run.conventions.append(call.convention)
    if not run.tool_definitions:
        run.tool_definitions = next((d for d in (_agent_tools(s) for s in spans) if d), [])
    read = [c for c in calls if c.convention]
    if read:
        run.messages = _transcript(read)
        _fill_tool_results(run.messages, tools)
    else:
        run.messages = _from_agent_spans([s for s in spans if is_agent_span(s)], tools)
        if run.messages:
            run.conventions.append("agent spans (input.value / output.value)")
    run.problem = _problem(run, calls, spans)
    return run


def _agent_tools(span: Span) -> List[Any]:
    tools = parse_json(span.attributes.get("gen_ai.tool.definitions"))
    return tools if isinstance(tools, list) else []


def _transcript(calls: List[LlmCall]) -> List[Dict[str, Any]]:
    transcript: List[Dict[str, Any]] = []
    for call in calls:
        _append_new(transcript, call.inputs)
        for message in call.outputs:
            message = dict(message)
            if message.get("role") == "assistant" and call.usage:
                message["usage"] = dict(call.usage)
            transcript.append(message)
    return transcript


def _problem(run: AgentRun, calls: List[LlmCall], spans: List[Span]) -> Optional[str]:
    where = f"trace {run.trace_ids[0]}" + (f" (conversation {run.key})" if run.key != run.trace_ids[0] else "")
    if run.messages and any(m.get("role") == "user" for m in run.messages):
        return None
    if run.messages:
        return f"{where}: the model calls hold no user message, so there is no query to evaluate"
    if calls:
        return (f"{where}: its {len(calls)} model call span(s) ({calls[0].span.name!r}) carry no message content "
                f"(no gen_ai.input.messages / gen_ai.output.messages, no linked gen_ai.*.message events, no "
                f"llm.input_messages); {_CAPTURE_HINT}")
    names = ", ".join(sorted({s.name for s in spans})[:5])
    return (f"{where}: no model call span (GenAI gen_ai.operation.name chat / generate_content, or OpenInference "
            f"span kind LLM) among its {len(spans)} span(s) ({names}); is this an agent's trace?")


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
        conv = next((c for c in (conversation_id(s) for s in spans) if c), None)
        groups.setdefault(conv or trace_id, []).append(spans)
    runs = [_build(key, sorted(traces, key=lambda t: min(s.start_ns for s in t)), logs_by_span)
            for key, traces in groups.items()]
    return sorted(runs, key=lambda r: r.start_ns)
