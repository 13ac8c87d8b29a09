"""What one span says about an agent run: a model call, a tool execution, or the run itself.

A span is read by the convention it follows: the GenAI semantic conventions (``gen_ai.*``;
messages as span attributes, in a ``gen_ai.client.inference.operation.details`` log event, or
as the older ``gen_ai.user.message`` ... ``gen_ai.choice`` events linked to the span by trace
and span id) or OpenInference (``openinference.span.kind``, ``llm.*``, ``tool.*``). Each
model call records which of these it was read from, so ``agent-eval traces`` can show it.
"""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, TypeVar

from .convention_messages import (
    OLD_EVENT_ROLES,
    as_json_text,
    from_event,
    from_openinference,
    from_parts,
    openinference_tools,
    parse_json,
    system_from_parts,
)
from .otlp_json import LogRecord, Span
from .otlp_values import TraceDataError, token_count

GENAI_ATTRIBUTES = "GenAI (message attributes)"
GENAI_DETAILS_EVENT = "GenAI (operation details events)"
GENAI_EVENTS = "GenAI (gen_ai.*.message events)"
OPENINFERENCE = "OpenInference"

_LLM_OPERATIONS = ("chat", "generate_content", "text_completion", "completion")
_DETAILS = "gen_ai.client.inference.operation.details"


@dataclass
class LlmCall:
    """One model call: what it was sent and what it answered, its usage and where that was read."""

    span: Span
    inputs: List[Dict[str, Any]]
    outputs: List[Dict[str, Any]]
    usage: Dict[str, int]
    model: Optional[str]
    tool_definitions: List[Any] = field(default_factory=list)
    convention: Optional[str] = None  # None: a model call whose content was not recorded


@dataclass
class ToolRun:
    """One tool execution span."""

    span: Span
    name: str
    call_id: str
    arguments: Any
    result: Any


_T = TypeVar("_T")


def _read(name: str, read: Callable[[Any], _T], value: Any) -> _T:
    """``read(value)``, a :class:`TraceDataError` naming the attribute ``name`` it came from."""
    try:
        return read(value)
    except TraceDataError as e:
        raise TraceDataError(f"attribute {name!r}: {e}") from None


def _usage(attrs: Dict[str, Any], prompt: "tuple[str, ...]", completion: "tuple[str, ...]") -> Dict[str, int]:
    """The call's token counts: the first attribute of ``prompt`` / ``completion`` present."""
    usage = {}
    for column, names in (("prompt_tokens", prompt), ("completion_tokens", completion)):
        name = next((n for n in names if n in attrs), names[0])
        count = token_count(attrs.get(name), name)
        if count is not None:
            usage[column] = count
    return usage


def _genai_tools(attrs: Dict[str, Any]) -> List[Any]:
    name = "gen_ai.tool.definitions" if attrs.get("gen_ai.tool.definitions") else "gen_ai.request.tools"
    tools = _read(name, parse_json, attrs.get(name))
    return tools if isinstance(tools, list) else []


def _with_system(system: Any, inputs: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    message = _read("gen_ai.system_instructions", system_from_parts, system) if system else None
    if message and not any(m.get("role") in ("system", "developer") for m in inputs[:1]):
        return [message] + inputs
    return inputs


def _genai_content(span: Span, logs: List[LogRecord]) -> Optional[tuple]:
    """(inputs, outputs, convention) from the span's attributes, else from its linked log events."""
    attrs = span.attributes
    if "gen_ai.input.messages" in attrs or "gen_ai.output.messages" in attrs:
        return (_with_system(attrs.get("gen_ai.system_instructions"),
                             _read("gen_ai.input.messages", from_parts, attrs.get("gen_ai.input.messages"))),
                _read("gen_ai.output.messages", from_parts, attrs.get("gen_ai.output.messages")), GENAI_ATTRIBUTES)
    for record in logs:
        details = record.attributes
        if record.event_name == _DETAILS and ("gen_ai.input.messages" in details or "gen_ai.output.messages" in details):
            return (_with_system(details.get("gen_ai.system_instructions"),
                                 _read("gen_ai.input.messages", from_parts, details.get("gen_ai.input.messages"))),
                    _read("gen_ai.output.messages", from_parts, details.get("gen_ai.output.messages")),
                    GENAI_DETAILS_EVENT)
    inputs: List[Dict[str, Any]] = []
    outputs: List[Dict[str, Any]] = []
    events = [(r.event_name, r.body) for r in logs] + [(name, a) for name, a in span.events]
    for name, body in events:
        if name not in OLD_EVENT_ROLES:
            continue
        try:
            message = from_event(name, body)
        except TraceDataError as e:
            raise TraceDataError(f"event {name!r}: {e}") from None
        if message is not None:
            (outputs if name == "gen_ai.choice" else inputs).append(message)
    if inputs or outputs:
        return inputs, outputs, GENAI_EVENTS
    return None


def llm_call(span: Span, logs: List[LogRecord]) -> Optional[LlmCall]:
    """The model call ``span`` records (``logs``: the log records linked to it), or ``None``."""
    attrs = span.attributes
    if attrs.get("openinference.span.kind") == "LLM":
        inputs = _read("llm.input_messages", lambda a: from_openinference(a, "llm.input_messages."), attrs)
        outputs = _read("llm.output_messages", lambda a: from_openinference(a, "llm.output_messages."), attrs)
        return LlmCall(span, inputs, outputs,
                       _usage(attrs, ("llm.token_count.prompt",), ("llm.token_count.completion",)),
                       attrs.get("llm.model_name"), _read("llm.tools", openinference_tools, attrs),
                       OPENINFERENCE if inputs or outputs else None)
    if attrs.get("gen_ai.operation.name") not in _LLM_OPERATIONS:
        return None
    content = _genai_content(span, logs)
    usage = _usage(attrs, ("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"),
                   ("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"))
    model = attrs.get("gen_ai.response.model") or attrs.get("gen_ai.request.model")
    inputs, outputs, convention = content if content else ([], [], None)
    return LlmCall(span, inputs, outputs, usage, model, _genai_tools(attrs), convention)


def tool_run(span: Span) -> Optional[ToolRun]:
    """The tool execution ``span`` records, or ``None``."""
    attrs = span.attributes
    if attrs.get("gen_ai.operation.name") == "execute_tool":
        return ToolRun(span, str(attrs.get("gen_ai.tool.name") or span.name.removeprefix("execute_tool ")),
                       str(attrs.get("gen_ai.tool.call.id") or ""),
                       _read("gen_ai.tool.call.arguments", parse_json, attrs.get("gen_ai.tool.call.arguments")),
                       attrs.get("gen_ai.tool.call.result"))
    if attrs.get("openinference.span.kind") == "TOOL":
        return ToolRun(span, str(attrs.get("tool.name") or span.name),
                       str(attrs.get("tool_call.id") or attrs.get("tool.id") or ""),
                       _read("input.value", parse_json, attrs.get("input.value", attrs.get("tool.parameters"))),
                       attrs.get("output.value"))
    return None


def conversation_id(span: Span) -> Optional[str]:
    value = span.attributes.get("gen_ai.conversation.id") or span.attributes.get("session.id")
    return str(value) if value else None


def is_agent_span(span: Span) -> bool:
    attrs = span.attributes
    return attrs.get("gen_ai.operation.name") == "invoke_agent" or attrs.get("openinference.span.kind") == "AGENT"


def agent_io(span: Span) -> tuple:
    """An agent span's own input and output text (OpenInference ``input.value`` / ``output.value``)."""
    attrs = span.attributes
    return (as_json_text(attrs["input.value"]) if attrs.get("input.value") is not None else None,
            as_json_text(attrs["output.value"]) if attrs.get("output.value") is not None else None)
