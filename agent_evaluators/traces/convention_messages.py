"""The message forms of the tracing conventions, as OpenAI Chat Completions messages.

Three forms reach us, one per convention generation:

- GenAI "parts" messages (``gen_ai.input.messages`` / ``gen_ai.output.messages`` /
  ``gen_ai.system_instructions``, on the span or in a ``gen_ai.client.inference.operation.details``
  event): ``{"role", "parts": [{"type": "text" | "tool_call" | "tool_call_response", ...}]}``;
- the older GenAI events (``gen_ai.system.message`` ... ``gen_ai.choice``), whose bodies are
  nearly OpenAI messages already;
- OpenInference's flattened attributes (``llm.input_messages.0.message.role`` ...).

Everything becomes the OpenAI form the rest of the package reads (:mod:`..conversation`
normalises it from there), with empty assistant text dropped so that a message recorded as a
model's output and replayed as the next request's input compares equal.
"""

import json
import re
from typing import Any, Dict, List, Optional

from .otlp_values import MAX_DEPTH, TraceDataError, shown

#: the older GenAI event names and the role each one stands for
OLD_EVENT_ROLES = {"gen_ai.system.message": "system", "gen_ai.user.message": "user",
                   "gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool",
                   "gen_ai.choice": "assistant"}


def _too_deep(value: Any) -> bool:
    """Whether ``value`` nests deeper than :data:`MAX_DEPTH` (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth >= MAX_DEPTH:
                return True
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return False


def parse_json(value: Any) -> Any:
    """Attribute values holding JSON are often strings; decode them, keep anything else as it is.

    JSON nested deeper than :data:`MAX_DEPTH` raises :class:`TraceDataError`: rebuilding messages
    from it (and ``json.dumps`` of it later) would run out of stack."""
    if isinstance(value, str) and value[:1] in "[{":
        try:
            parsed = json.loads(value)
        except RecursionError:
            raise TraceDataError(f"it holds JSON nested deeper than {MAX_DEPTH} levels") from None
        except ValueError:
            return value
        if _too_deep(parsed):
            raise TraceDataError(f"it holds JSON nested deeper than {MAX_DEPTH} levels")
        return parsed
    return value


def _list_of(value: Any, what: str) -> List[Any]:
    """``value`` as a list (``None``: empty), or :class:`TraceDataError` saying what it was instead."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise TraceDataError(f"{what} is {shown(value)}, not a list")
    return value


def as_json_text(value: Any) -> str:
    """A tool's arguments or result as the text an OpenAI message carries."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _call(call_id: Any, name: Any, arguments: Any) -> Dict[str, Any]:
    return {"id": str(call_id or ""), "type": "function",
            "function": {"name": str(name or ""), "arguments": as_json_text({} if arguments is None else arguments)}}


def _assistant(text: Optional[str], calls: List[Dict[str, Any]]) -> Dict[str, Any]:
    message: Dict[str, Any] = {"role": "assistant"}
    if text:
        message["content"] = text
    if calls:
        message["tool_calls"] = calls
    if "content" not in message and not calls:
        message["content"] = ""
    return message


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(p.get("content", p.get("text")) if isinstance(p, dict) else p) for p in content)
    return "" if content is None else as_json_text(content)


# ---------------------------------------------------------------------------- GenAI parts
def from_parts(value: Any) -> List[Dict[str, Any]]:
    """``gen_ai.input.messages`` / ``gen_ai.output.messages`` (a JSON string or a list) as OpenAI messages."""
    out: List[Dict[str, Any]] = []
    for message in _list_of(parse_json(value), "the message list"):
        if not isinstance(message, dict):
            continue
        role = str(message.get("role") or "user")
        texts: List[str] = []
        calls: List[Dict[str, Any]] = []
        results: List[Dict[str, Any]] = []
        for part in _list_of(message.get("parts"), "a message's parts"):
            if not isinstance(part, dict):
                continue
            kind = part.get("type")
            if kind == "text":
                texts.append(_text_of(part.get("content")))
            elif kind == "tool_call":
                calls.append(_call(part.get("id"), part.get("name"), parse_json(part.get("arguments"))))
            elif kind == "tool_call_response":
                result = part.get("response", part.get("result"))
                results.append({"role": "tool", "tool_call_id": str(part.get("id") or ""), "content": as_json_text(result)})
        out.extend(results)
        text = "\n".join(t for t in texts if t)
        if role == "assistant" or calls:
            if text or calls or not results:
                out.append(_assistant(text, calls))
        elif text or not results:
            out.append({"role": role, "content": text})
    return out


def system_from_parts(value: Any) -> Optional[Dict[str, Any]]:
    """``gen_ai.system_instructions`` (a list of parts) as one system message."""
    parts = parse_json(value)
    if isinstance(parts, str):
        return {"role": "system", "content": parts} if parts else None
    texts = [_text_of(p.get("content")) for p in _list_of(parts, "the system instructions")
             if isinstance(p, dict) and p.get("type", "text") == "text"]
    text = "\n".join(t for t in texts if t)
    return {"role": "system", "content": text} if text else None


# ---------------------------------------------------------------------------- older GenAI events
def _event_calls(raw: Any) -> List[Dict[str, Any]]:
    calls = []
    for call in _list_of(raw, "tool_calls"):
        if isinstance(call, dict):
            function = call.get("function") or {}
            if not isinstance(function, dict):
                raise TraceDataError(f"a tool call's function is {shown(function)}, not {{\"name\", \"arguments\"}}")
            calls.append(_call(call.get("id"), function.get("name"), parse_json(function.get("arguments"))))
    return calls


def from_event(name: str, body: Any) -> Optional[Dict[str, Any]]:
    """One older GenAI event (``gen_ai.user.message`` ... ``gen_ai.choice``) as an OpenAI message."""
    role = OLD_EVENT_ROLES.get(name)
    if role is None or not isinstance(body, dict):
        return None
    if name == "gen_ai.choice":
        body = body.get("message") if isinstance(body.get("message"), dict) else body
    if role == "assistant":
        return _assistant(_text_of(body.get("content")), _event_calls(body.get("tool_calls")))
    if role == "tool":
        return {"role": "tool", "tool_call_id": str(body.get("id") or body.get("tool_call_id") or ""),
                "content": _text_of(body.get("content"))}
    return {"role": role, "content": _text_of(body.get("content"))}


# ---------------------------------------------------------------------------- OpenInference
_INDEXED = re.compile(r"^(\d{1,18})\.(.*)$")


def _nest(flat: Dict[str, Any]) -> Dict[str, Any]:
    """``{"0.message.role": "user"}`` -> ``{0: {"message.role": "user"}}``, one level at a time."""
    grouped: Dict[Any, Dict[str, Any]] = {}
    for key, value in flat.items():
        m = _INDEXED.match(key)
        if m:
            grouped.setdefault(int(m.group(1)), {})[m.group(2)] = value
    return dict(sorted(grouped.items()))


def _under(attributes: Dict[str, Any], prefix: str) -> Dict[str, Any]:
    return {k[len(prefix):]: v for k, v in attributes.items() if k.startswith(prefix)}


def from_openinference(attributes: Dict[str, Any], prefix: str) -> List[Dict[str, Any]]:
    """``llm.input_messages.*`` / ``llm.output_messages.*`` (``prefix`` with its dot) as OpenAI messages."""
    out = []
    for fields in _nest(_under(attributes, prefix)).values():
        role = str(fields.get("message.role") or "user")
        text = fields.get("message.content")
        if text is None:
            contents = _nest(_under(fields, "message.contents."))
            text = "\n".join(str(c.get("message_content.text") or "") for c in contents.values()
                             if c.get("message_content.type", "text") == "text")
        calls = [_call(c.get("tool_call.id"), c.get("tool_call.function.name"),
                       parse_json(c.get("tool_call.function.arguments")))
                 for c in _nest(_under(fields, "message.tool_calls.")).values()]
        if role == "assistant":
            out.append(_assistant(str(text or ""), calls))
        elif role == "tool":
            out.append({"role": "tool", "tool_call_id": str(fields.get("message.tool_call_id") or ""),
                        "content": str(text or "")})
        else:
            out.append({"role": role, "content": str(text or "")})
    return out


def openinference_tools(attributes: Dict[str, Any]) -> List[Any]:
    """``llm.tools.{i}.tool.json_schema`` as a list of tool definitions (decoded JSON)."""
    return [parse_json(t.get("tool.json_schema")) for t in _nest(_under(attributes, "llm.tools.")).values()
            if t.get("tool.json_schema")]
