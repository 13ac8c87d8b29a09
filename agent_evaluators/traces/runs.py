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

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .convention_messages import as_json_text, parse_json
from .otlp_json import LogRecord, Span
from .otlp_values import TraceDataError
from .steps import LlmCall, ToolRun, agent_io, is_agent_span, llm_call, tool_run
from .transcript import Transcript, fill_tool_results, tools_inside

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


def _from_agent_spans(agents: List[Span], tools: List[ToolRun]) -> List[Dict[str, Any]]:
    """Without model content: the agent spans' own input/output text and the tool spans between."""
    transcript: List[Dict[str, Any]] = []
    by_trace: Dict[str, Any] = {}
    for agent in agents:
        text_in, text_out = agent_io(agent)
        if text_in is None or text_out is None:
            return []
        transcript.append({"role": "user", "content": text_in})
        inside = tools_inside(tools, agent.trace_id, agent.start_ns, agent.end_ns, by_trace)
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


def where_in_run(key: str, trace_id: str) -> str:
    """How a message names a trace of the run ``key``: ``trace X``, with its conversation when it has one."""
    return f"trace {trace_id}" + (f" (conversation {key})" if key != trace_id else "")


class _SpanError(Exception):
    """A span whose content cannot be read, and why."""

    def __init__(self, span: Span, error: TraceDataError) -> None:
        super().__init__(f"{span.named()}: {error}")
        self.span = span


def _read_spans(spans: List[Span], logs_by_span: Dict[str, List[LogRecord]]) -> "tuple[List[LlmCall], List[ToolRun]]":
    """The model calls and tool runs of ``spans`` (:class:`_SpanError` names a span that cannot be read)."""
    calls: List[LlmCall] = []
    tools: List[ToolRun] = []
    for span in spans:
        try:
            call = llm_call(span, logs_by_span.get(span.span_id, []))
            tool = tool_run(span)
        except TraceDataError as e:
            raise _SpanError(span, e) from None
        if call is not None:
            calls.append(call)
        if tool is not None:
            tools.append(tool)
    return calls, tools


def _declared_tools(calls: List[LlmCall], spans: List[Span]) -> List[Any]:
    """The first model call's tool definitions, else the first agent span's (``gen_ai.tool.definitions``)."""
    for call in calls:
        if call.tool_definitions:
            return call.tool_definitions
    for span in spans:
        try:
            tools = parse_json(span.attributes.get("gen_ai.tool.definitions"))
        except TraceDataError as e:
            raise _SpanError(span, TraceDataError(f"attribute 'gen_ai.tool.definitions': {e}")) from None
        if isinstance(tools, list) and tools:
            return tools
    return []


def build_run(key: str, traces: List[List[Span]], logs_by_span: Dict[str, List[LogRecord]]) -> AgentRun:
    """The run of ``traces`` (each a trace's spans in file order, earliest trace first), or an
    error run naming the span whose content cannot be read."""
    spans = sorted((s for t in traces for s in t), key=lambda s: (s.start_ns, s.end_ns))
    roots = [(_roots(t) or t)[0] for t in traces]  # no root: a parent cycle, refused by the first pass
    run = AgentRun(key=key, trace_ids=[t[0].trace_id for t in traces], root_span_id=roots[0].span_id,
                   start_ns=roots[0].start_ns, duration_s=round(sum(r.duration_s for r in roots), 6))
    try:
        calls, tools = _read_spans(spans, logs_by_span)
        run.tool_definitions = _declared_tools(calls, spans)
    except _SpanError as e:
        run.problem = f"{where_in_run(key, e.span.trace_id)}: {e}; fix or remove that span to evaluate this run"
        return run
    run.llm_calls, run.tool_calls = len(calls), len(tools)
    run.llm_duration_s = round(sum(c.span.duration_s for c in calls), 6)
    run.tool_duration_s = round(sum(t.span.duration_s for t in tools), 6)
    for call in calls:
        for name, count in call.usage.items():
            run.usage[name] = run.usage.get(name, 0) + count
        if call.convention and call.convention not in run.conventions:
            run.conventions.append(call.convention)
    read = [c for c in calls if c.convention]
    if read:
        transcript = Transcript()
        for call in read:
            transcript.add_call(call.inputs, call.outputs, call.usage)
        run.messages = fill_tool_results(transcript.result(), tools)
    else:
        run.messages = _from_agent_spans([s for s in spans if is_agent_span(s)], tools)
        if run.messages:
            run.conventions.append("agent spans (input.value / output.value)")
    run.problem = _problem(run, calls, spans)
    return run


def _problem(run: AgentRun, calls: List[LlmCall], spans: List[Span]) -> Optional[str]:
    where = where_in_run(run.key, run.trace_ids[0])
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
