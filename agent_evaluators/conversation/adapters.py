"""Turn the message and tool-call formats users have into the canonical model, once, at the edge.

Accepted message formats (mixed freely within one list):

* OpenAI Chat Completions dicts: ``tool_calls`` with JSON-string ``arguments``, ``role: tool``
  results with ``tool_call_id``, content as a string or a list of parts, legacy ``function_call``;
* OpenAI Responses API items: ``{"type": "message"}``, ``function_call`` (consecutive calls become
  one assistant message, as a parallel call), ``function_call_output``, ``mcp_call``, built-in
  ``*_call`` items; ``reasoning`` items and MCP approval / tool-list items are dropped;
* the Azure agent format: content items ``{"type": "tool_call", "tool_call_id", "name", "arguments"}``
  (and the older nested ``{"type": "tool_call", "tool_call": {"id", "function": {...}}}``), tool
  messages with ``[{"type": "tool_result", "tool_result": ...}]``, text items typed ``text`` /
  ``input_text`` / ``output_text``;
* LangChain / LangGraph dicts (``{"type": "human"|"ai"|"tool"|"system", ...}``, ``messages_to_dict``
  output, ``dumpd`` output) and message objects (duck-typed, langchain is never imported);
* google-genai ``Content`` dicts (``{"role": "model", "parts": [...]}``) and ADK ``Invocation`` dicts
  (snake_case or camelCase), expanded into user, tool-call, tool-result and final messages;
* our own :class:`Message` objects, and pydantic objects of other SDKs (through ``model_dump``).

Anything else is an :class:`InputError` naming the input, the index and what was expected.
Media parts (images, audio, files) carry no text and are left out of ``content``.
"""

from typing import Any, Dict, Iterable, List, Optional, Tuple

from ..errors import InputError
from ._values import input_error, parse_arguments, to_json_text
from .message_keys import check_message_keys
from .models import Conversation, Message, ToolCall

_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})
_ROLE_ALIASES = {
    "system": "system",
    "developer": "developer",
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "model": "assistant",
    "tool": "tool",
    "function": "tool",
}
# LangChain message ``type`` values (and their chunk class names) -> role; "chat" reads its own ``role``.
_LANGCHAIN_TYPES = {
    "human": "user",
    "ai": "assistant",
    "system": "system",
    "developer": "developer",
    "tool": "tool",
    "function": "tool",
    "chat": None,
    "HumanMessageChunk": "user",
    "AIMessageChunk": "assistant",
    "SystemMessageChunk": "system",
    "ToolMessageChunk": "tool",
    "FunctionMessageChunk": "tool",
    "ChatMessageChunk": None,
}
_LANGCHAIN_CLASSES = {
    "HumanMessage": "human",
    "AIMessage": "ai",
    "SystemMessage": "system",
    "ToolMessage": "tool",
    "FunctionMessage": "function",
    "ChatMessage": "chat",
    "HumanMessageChunk": "human",
    "AIMessageChunk": "ai",
    "SystemMessageChunk": "system",
    "ToolMessageChunk": "tool",
    "FunctionMessageChunk": "function",
    "ChatMessageChunk": "chat",
}
# Responses-API items that are not conversation content.
_DROPPED_ITEMS = frozenset(
    {"reasoning", "mcp_approval_request", "mcp_approval_response", "mcp_list_tools", "item_reference"}
)
_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})
_CALL_PARTS = frozenset({"tool_call", "function_call", "openapi_call", "tool_use", "custom_tool_call"})
_RESULT_PARTS = frozenset({"tool_result", "function_call_output", "openapi_call_output", "custom_tool_call_output"})
_MEDIA_PARTS = frozenset(
    {"image_url", "input_image", "image", "image_file", "input_audio", "audio", "input_file", "file", "video_url"}
)
_DROPPED_PARTS = frozenset({"mcp_approval_request", "mcp_approval_response", "reasoning", "thinking"})
# Keys of a built-in Responses ``*_call`` item that are bookkeeping or output, not arguments.
_BUILTIN_NON_ARGS = frozenset(
    {"type", "id", "call_id", "status", "results", "outputs", "output", "result", "error", "pending_safety_checks"}
)

_EXPECTED_MESSAGE = (
    "expected a message: a dict with 'role' (OpenAI / Azure agent format), a Responses API item "
    "('type': message, function_call, function_call_output), a LangChain message ('type': human/ai/tool/system), "
    "an ADK invocation (with 'user_content'), a genai Content ('role' + 'parts') or a Message"
)
_EXPECTED_CALL = (
    "expected a tool call: OpenAI {'id', 'type': 'function', 'function': {'name', 'arguments'}}, "
    "Azure {'type': 'tool_call', 'name', 'arguments'}, Responses {'type': 'function_call', 'name', 'arguments'}, "
    "{'name', 'args'} (LangChain / ADK) or {'name', 'arguments'}"
)

_Result = Tuple[Optional[str], Optional[str], Any]  # (call id, tool name, value)


# ---------------------------------------------------------------------------- message construction
def _message(
    role: str,
    content: Optional[str] = None,
    tool_calls: Optional[List[ToolCall]] = None,
    tool_call_id: Optional[str] = None,
    tool_result: Any = None,
    name: Optional[str] = None,
) -> Message:
    # Inputs are checked by the parsers below; model_construct skips re-validation in the hot path.
    return Message.model_construct(
        role=role,
        content=content,
        tool_calls=tool_calls if tool_calls is not None else [],
        tool_call_id=tool_call_id,
        tool_result=tool_result,
        name=name,
    )


def _tool_message(call_id: Optional[str], name: Optional[str], value: Any) -> Message:
    return _message("tool", to_json_text(value), tool_call_id=call_id, tool_result=value, name=name)


def _get(d: Dict[str, Any], snake: str, camel: str) -> Any:
    value = d.get(snake)
    return d.get(camel) if value is None else value


def _as_dict(obj: Any) -> Optional[Dict[str, Any]]:
    """A plain dict view of a dict, a Mapping or a pydantic object of another SDK; None otherwise."""
    if isinstance(obj, dict):
        return obj
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        return dump(exclude_none=True)
    if hasattr(obj, "keys") and hasattr(obj, "__getitem__"):
        return {k: obj[k] for k in obj.keys()}
    return None


# ---------------------------------------------------------------------------- tool calls
def _is_tool_call(item: Any) -> bool:
    """Whether a list item is a bare tool call (as opposed to a message holding calls)."""
    if isinstance(item, ToolCall):
        return True
    if isinstance(item, Message) or not isinstance(item, dict):
        return False
    if "role" in item or "user_content" in item or "userContent" in item or "messages" in item:
        return False
    typ = item.get("type")
    if not isinstance(typ, (str, type(None))):
        return False  # an unhashable or odd "type" is no tool call (and must not crash the set lookup)
    if typ in _CALL_PARTS or typ == "function":
        return True
    if typ is None or typ == "tool_call":
        return (
            "name" in item
            or isinstance(item.get("function"), dict)
            or "function_call" in item
            or "functionCall" in item
        )
    return False


def _tool_call(raw: Any, *, input_name: str, where: str) -> ToolCall:
    """One tool call in any supported shape."""
    if isinstance(raw, ToolCall):
        return raw
    d = _as_dict(raw)
    if d is None:
        raise input_error(input_name, where, f"{_EXPECTED_CALL}; got {type(raw).__name__}")
    nested = d.get("tool_call")
    if isinstance(nested, dict):  # older Azure form {"type": "tool_call", "tool_call": {OpenAI call}}
        return _tool_call(nested, input_name=input_name, where=f"{where}.tool_call")
    part_call = _get(d, "function_call", "functionCall")
    if isinstance(part_call, dict) and "name" not in d:  # genai Part {"function_call": {...}}
        return _tool_call(part_call, input_name=input_name, where=f"{where}.function_call")
    fn = d.get("function")
    call_id = d.get("tool_call_id") or d.get("call_id") or d.get("id")
    if isinstance(fn, dict):  # OpenAI Chat Completions
        name, raw_args = fn.get("name"), fn.get("arguments")
    else:
        name = d.get("name")
        if "arguments" in d:
            raw_args = d["arguments"]
        elif "args" in d:
            raw_args = d["args"]
        elif d.get("type") == "custom_tool_call":
            raw_args = {"input": d.get("input")}
        else:
            raw_args = d.get("input")
    if not isinstance(name, str) or not name:
        raise input_error(input_name, where, f"tool call has no 'name'; {_EXPECTED_CALL}")
    arguments = parse_arguments(raw_args, input_name=input_name, where=where, tool=name)
    return ToolCall.model_construct(name=name, arguments=arguments, id=call_id if call_id else None)


def _tool_calls(raw: Any, *, input_name: str, where: str) -> List[ToolCall]:
    if raw is None:
        return []
    if not isinstance(raw, (list, tuple)):
        raise input_error(input_name, where, f"'tool_calls' must be a list, got {type(raw).__name__}")
    return [_tool_call(c, input_name=input_name, where=f"{where}[{j}]") for j, c in enumerate(raw)]


def _builtin_call(d: Dict[str, Any], typ: str, *, input_name: str, where: str) -> List[Message]:
    """A Responses built-in ``*_call`` (web_search_call, file_search_call, mcp_call, ...)."""
    if typ == "mcp_call":
        call = _tool_call(d, input_name=input_name, where=where)
    else:
        args = {k: v for k, v in d.items() if k not in _BUILTIN_NON_ARGS}
        call = ToolCall.model_construct(name=typ[: -len("_call")], arguments=args, id=d.get("call_id") or d.get("id"))
    out = [_message("assistant", tool_calls=[call])]
    for key in ("output", "outputs", "results", "result", "error"):
        if d.get(key) is not None:
            out.append(_tool_message(call.id, call.name, d[key]))
            break
    return out


# ---------------------------------------------------------------------------- content
def _content(
    content: Any, *, input_name: str, where: str, skip_call_ids: Iterable[str] = ()
) -> Tuple[Optional[str], List[ToolCall], List[_Result]]:
    """(text, tool calls, tool results) from a string or a list of content parts."""
    if content is None:
        return None, [], []
    if isinstance(content, str):
        return content, [], []
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, (list, tuple)):
        raise input_error(
            input_name, f"{where}.content", f"content must be a string or a list of parts, got {type(content).__name__}"
        )
    texts: List[str] = []
    calls: List[ToolCall] = []
    results: List[_Result] = []
    skip = set(skip_call_ids)
    for j, part in enumerate(content):
        pwhere = f"{where}.content[{j}]"
        if isinstance(part, str):
            texts.append(part)
            continue
        p = _as_dict(part)
        if p is None:
            raise input_error(input_name, pwhere, f"content part must be a dict or a string, got {type(part).__name__}")
        typ = p.get("type")
        if typ is not None and not isinstance(typ, str):
            raise input_error(input_name, pwhere, f"content part 'type' must be a string, got {type(typ).__name__}")
        if typ in _TEXT_PARTS or (typ is None and "text" in p):
            text = p.get("text")
            if isinstance(text, dict):  # Assistants API: {"text": {"value": ..., "annotations": [...]}}
                text = text.get("value")
            if text is not None:
                texts.append(str(text))
        elif typ == "refusal":
            texts.append(str(p.get("refusal", "")))
        elif typ in _CALL_PARTS:
            if typ == "tool_use" and isinstance(p.get("id"), str) and p.get("id") in skip:
                continue  # LangChain repeats Anthropic tool_use parts in ``tool_calls``
            calls.append(_tool_call(p, input_name=input_name, where=pwhere))
        elif typ in _RESULT_PARTS:
            if "tool_result" in p:
                value = p["tool_result"]
            elif "output" in p:
                value = p["output"]
            else:
                value = p.get("content")
            call_id = p.get("tool_call_id") or p.get("call_id") or p.get("tool_use_id")
            results.append((call_id, p.get("name"), value))
        elif typ in _MEDIA_PARTS or typ in _DROPPED_PARTS:
            continue
        else:
            raise input_error(
                input_name,
                pwhere,
                f"unknown content part type {typ!r}; expected text/input_text/output_text, tool_call, "
                "function_call, tool_result or function_call_output (or an image/file part)",
            )
    return ("\n".join(texts) if texts else None), calls, results


def _with_results(message: Message, results: List[_Result], call_id: Optional[str] = None) -> List[Message]:
    """A message followed by the tool results its content carried (Anthropic-style user parts)."""
    out = []
    if message.content is not None or message.tool_calls:
        out.append(message)
    out.extend(_tool_message(rid or call_id, name, value) for rid, name, value in results)
    return out


# ---------------------------------------------------------------------------- one message per format
def _chat_message(d: Dict[str, Any], role_raw: Any, *, input_name: str, where: str) -> List[Message]:
    """OpenAI Chat Completions, Azure agent format, Responses ``message`` items, role-keyed LangChain dicts."""
    role = _ROLE_ALIASES.get(role_raw) if isinstance(role_raw, str) else None
    if role is None:
        raise input_error(
            input_name, where, f"unknown role {role_raw!r}; expected one of system, developer, user, assistant, tool"
        )
    check_message_keys(d, input_name=input_name, where=where)
    raw_calls = d.get("tool_calls")
    calls = _tool_calls(raw_calls, input_name=input_name, where=f"{where}.tool_calls")
    legacy = d.get("function_call")
    if isinstance(legacy, dict):  # OpenAI's pre-tools function calling
        calls.append(_tool_call(legacy, input_name=input_name, where=f"{where}.function_call"))
    text, part_calls, results = _content(
        d.get("content"), input_name=input_name, where=where, skip_call_ids=[c.id for c in calls if c.id]
    )
    calls.extend(part_calls)
    name = d.get("name") if isinstance(d.get("name"), str) else None
    if role == "tool":
        call_id = d.get("tool_call_id") or d.get("call_id")
        if results:
            return [_tool_message(rid or call_id, rname or name, value) for rid, rname, value in results]
        return [_message("tool", text, tool_call_id=call_id, tool_result=text, name=name)]
    if calls and text == "":
        text = None
    msg = _message(role, text, calls, name=name)
    if results:
        return _with_results(msg, results)
    return [msg]


def _langchain_message(d: Dict[str, Any], typ: str, *, input_name: str, where: str) -> List[Message]:
    """A LangChain message dict (``type`` key, optionally ``messages_to_dict``'s ``data`` wrapper)."""
    wrapped = d.get("data")
    data: Dict[str, Any] = wrapped if isinstance(wrapped, dict) and "content" not in d else d
    role = _LANGCHAIN_TYPES[typ]
    if role is None:  # ChatMessage carries its own role
        role = data.get("role")
    fields = dict(data)
    calls = data.get("tool_calls")
    if not calls:  # older LangChain kept OpenAI-format calls in additional_kwargs only
        extra = data.get("additional_kwargs")
        if isinstance(extra, dict) and extra.get("tool_calls"):
            fields["tool_calls"] = extra["tool_calls"]
    fields.pop("type", None)
    return _chat_message(fields, role, input_name=input_name, where=where)


def _langchain_object(obj: Any, *, input_name: str, where: str) -> List[Message]:
    """A LangChain message object, read by attribute so langchain is never imported."""
    fields = {
        "content": getattr(obj, "content", None),
        "tool_calls": getattr(obj, "tool_calls", None),
        "tool_call_id": getattr(obj, "tool_call_id", None),
        "name": getattr(obj, "name", None),
        "role": getattr(obj, "role", None),
        "additional_kwargs": getattr(obj, "additional_kwargs", None),
    }
    return _langchain_message(fields, obj.type, input_name=input_name, where=where)


def _genai_parts(
    parts: Any, *, input_name: str, where: str
) -> Tuple[Optional[str], List[ToolCall], List[_Result]]:
    """(text, calls, results) from google-genai ``parts`` (text, function_call, function_response)."""
    if parts is None:
        return None, [], []
    if not isinstance(parts, (list, tuple)):
        raise input_error(input_name, f"{where}.parts", f"'parts' must be a list, got {type(parts).__name__}")
    texts: List[str] = []
    calls: List[ToolCall] = []
    results: List[_Result] = []
    for j, part in enumerate(parts):
        p = _as_dict(part)
        if p is None:
            raise input_error(input_name, f"{where}.parts[{j}]", f"a part must be a dict, got {type(part).__name__}")
        call = _get(p, "function_call", "functionCall")
        response = _get(p, "function_response", "functionResponse")
        if call is not None:
            calls.append(_tool_call(call, input_name=input_name, where=f"{where}.parts[{j}].function_call"))
        if response is not None:
            r = _as_dict(response) or {}
            results.append((r.get("id"), r.get("name"), r.get("response")))
        if p.get("text") is not None:
            texts.append(str(p["text"]))
    return ("\n".join(texts) if texts else None), calls, results


def _genai_content(
    content: Any, role: str, *, input_name: str, where: str, author: Optional[str] = None
) -> List[Message]:
    """A genai ``Content`` as messages: the text and calls in one message, then one per function response."""
    c = _as_dict(content)
    if c is None:
        raise input_error(input_name, where, f"expected a genai Content dict with 'parts', got {type(content).__name__}")
    text, calls, results = _genai_parts(c.get("parts"), input_name=input_name, where=where)
    msg = _message(role, text, calls, name=author)
    return _with_results(msg, results)


def _adk_invocation(d: Dict[str, Any], *, input_name: str, where: str) -> List[Message]:
    """An ADK ``Invocation``: user message, intermediate tool calls / results / texts, final response."""
    out = _genai_content(_get(d, "user_content", "userContent"), "user", input_name=input_name, where=f"{where}.user_content")
    if not out:  # keep the turn boundary even when the user text is empty
        out = [_message("user", "")]
    inter = _as_dict(_get(d, "intermediate_data", "intermediateData")) or {}
    events = _get(inter, "invocation_events", "invocationEvents")
    if events is not None:
        for k, event in enumerate(events):
            ev = _as_dict(event) or {}
            if ev.get("content") is None:
                continue
            out.extend(
                _genai_content(
                    ev["content"],
                    "assistant",
                    input_name=input_name,
                    where=f"{where}.intermediate_data.invocation_events[{k}].content",
                    author=ev.get("author"),
                )
            )
    else:
        iwhere = f"{where}.intermediate_data"
        uses = _get(inter, "tool_uses", "toolUses") or []
        calls = [_tool_call(c, input_name=input_name, where=f"{iwhere}.tool_uses[{k}]") for k, c in enumerate(uses)]
        if calls:
            out.append(_message("assistant", None, calls))
        for response in _get(inter, "tool_responses", "toolResponses") or []:
            r = _as_dict(response) or {}
            out.append(_tool_message(r.get("id"), r.get("name"), r.get("response")))
        for k, entry in enumerate(_get(inter, "intermediate_responses", "intermediateResponses") or []):
            if not isinstance(entry, (list, tuple)) or len(entry) != 2:
                raise input_error(
                    input_name, f"{iwhere}.intermediate_responses[{k}]", "expected an [author, parts] pair"
                )
            text, _, _ = _genai_parts(entry[1], input_name=input_name, where=f"{iwhere}.intermediate_responses[{k}]")
            if text is not None:
                out.append(_message("assistant", text, name=entry[0]))
    final = _get(d, "final_response", "finalResponse")
    if final is not None:
        text, _, _ = _genai_parts(
            (_as_dict(final) or {}).get("parts"), input_name=input_name, where=f"{where}.final_response"
        )
        if text is not None:
            out.append(_message("assistant", text))
    return out


def _is_wrapper(d: Dict[str, Any]) -> bool:
    return isinstance(d.get("messages"), (list, tuple)) and "role" not in d and "type" not in d


def _dict_messages(d: Dict[str, Any], *, input_name: str, where: str) -> List[Message]:
    """Dispatch one dict on the keys that identify its format."""
    if "user_content" in d or "userContent" in d:
        return _adk_invocation(d, input_name=input_name, where=where)
    if _is_wrapper(d):
        return _items(d["messages"], input_name=input_name, where=f"{where}.messages")
    typ = d.get("type")
    role = d.get("role")
    if typ == "constructor" and d.get("lc") == 1:  # langchain_core.load.dumpd output
        cls = (d.get("id") or [""])[-1]
        lc_type = _LANGCHAIN_CLASSES.get(cls)
        if lc_type is None:
            raise input_error(input_name, where, f"unsupported LangChain class {cls!r}; {_EXPECTED_MESSAGE}")
        return _langchain_message(dict(d.get("kwargs") or {}), lc_type, input_name=input_name, where=where)
    if isinstance(typ, str):
        if typ == "message":
            return _chat_message(d, role, input_name=input_name, where=where)
        # {"type": "function", "function": {...}} is an OpenAI tool call, not LangChain's FunctionMessage
        if typ in _LANGCHAIN_TYPES and not (typ == "function" and "function" in d):
            return _langchain_message(d, typ, input_name=input_name, where=where)
        if typ in ("function_call", "custom_tool_call"):
            return [_message("assistant", None, [_tool_call(d, input_name=input_name, where=where)])]
        if typ in _RESULT_PARTS:
            value = d.get("output") if "output" in d else d.get("tool_result", d.get("content"))
            return [_tool_message(d.get("call_id") or d.get("tool_call_id"), d.get("name"), value)]
        if typ in _DROPPED_ITEMS:
            return []
        if typ == "openapi_call":
            return [_message("assistant", None, [_tool_call(d, input_name=input_name, where=where)])]
        if typ.endswith("_call") and typ not in _CALL_PARTS:
            return _builtin_call(d, typ, input_name=input_name, where=where)
        if role is None:
            hint = " (this looks like a bare tool call: put it in an assistant message)" if _is_tool_call(d) else ""
            raise input_error(input_name, where, f"unknown item type {typ!r}{hint}; {_EXPECTED_MESSAGE}")
    if role is not None:
        if "parts" in d and "content" not in d:
            return _genai_content(
                d, "user" if role == "user" else "assistant", input_name=input_name, where=where
            )
        return _chat_message(d, role, input_name=input_name, where=where)
    if "parts" in d:
        return _genai_content(d, "assistant", input_name=input_name, where=where)
    hint = " (this looks like a bare tool call: put it in an assistant message)" if _is_tool_call(d) else ""
    raise input_error(input_name, where, f"unrecognised item with keys {sorted(d)[:8]}{hint}; {_EXPECTED_MESSAGE}")


def _is_langchain_object(item: Any) -> bool:
    typ = getattr(item, "type", None)
    return isinstance(typ, str) and typ in _LANGCHAIN_TYPES and hasattr(item, "content")


def _item_messages(item: Any, *, input_name: str, where: str) -> List[Message]:
    if isinstance(item, Message):
        return [item]
    if isinstance(item, dict):
        return _dict_messages(item, input_name=input_name, where=where)
    if _is_langchain_object(item):
        return _langchain_object(item, input_name=input_name, where=where)
    d = _as_dict(item)
    if d is not None:
        return _dict_messages(d, input_name=input_name, where=where)
    raise input_error(input_name, where, f"{_EXPECTED_MESSAGE}; got {type(item).__name__}")


def _items(items: Iterable[Any], *, input_name: str, where: str) -> List[Message]:
    out: List[Message] = []
    open_call_message: Optional[Message] = None  # assistant message collecting consecutive function_call items
    for i, item in enumerate(items):
        iwhere = f"{where}[{i}]"
        if not isinstance(item, (dict, Message)) and not _is_langchain_object(item):
            item = _as_dict(item) or item  # other SDKs' pydantic items, so function_call objects merge too
        if isinstance(item, dict) and item.get("type") in ("function_call", "custom_tool_call") and "role" not in item:
            call = _tool_call(item, input_name=input_name, where=iwhere)
            if open_call_message is not None:
                open_call_message.tool_calls.append(call)
            else:
                open_call_message = _message("assistant", None, [call])
                out.append(open_call_message)
            continue
        open_call_message = None
        out.extend(_item_messages(item, input_name=input_name, where=iwhere))
    return out


# ---------------------------------------------------------------------------- public entry points
def to_messages(value: Any, *, input_name: str = "messages", default_role: str = "assistant") -> List[Message]:
    """Normalize ``value`` into a list of :class:`Message`.

    ``value`` may be a string (one message of ``default_role``), a message list in any supported
    format (see the module docstring; formats may be mixed), one message, a ``{"messages": [...]}``
    wrapper, a :class:`Conversation`, or ADK invocation dicts. Raises :class:`InputError` naming
    ``input_name`` and the offending index for anything it cannot read.
    """
    if default_role not in _ROLES:
        raise ValueError(f"default_role must be one of {sorted(_ROLES)}, got {default_role!r}")
    if value is None:
        raise InputError(f"{input_name} is None; {_EXPECTED_MESSAGE}, a list of them, or a string", input_name=input_name)
    if isinstance(value, str):
        return [_message(default_role, value)]
    if isinstance(value, Message):
        return [value]
    if isinstance(value, Conversation):
        return list(value.messages)
    if isinstance(value, (list, tuple)):
        return _items(value, input_name=input_name, where=input_name)
    return _item_messages(value, input_name=input_name, where=input_name)


def to_tool_calls(value: Any, *, input_name: str = "tool_calls") -> List[ToolCall]:
    """The tool calls in ``value``, in order.

    ``value`` may be a message list in any format :func:`to_messages` reads (calls are collected
    from assistant messages), a single tool call, or a bare list of tool calls in any supported
    shape (OpenAI, Azure ``tool_call``, Responses ``function_call``, ``{"name", "args"}``,
    ``{"name", "arguments"}``); messages and bare calls may be mixed.
    """
    if value is None:
        raise InputError(f"{input_name} is None; {_EXPECTED_CALL}, a list of them, or messages", input_name=input_name)
    if isinstance(value, str):
        raise InputError(
            f"{input_name} is a string; {_EXPECTED_CALL}, a list of them, or messages holding them",
            input_name=input_name,
        )
    if _is_tool_call(value):
        return [_tool_call(value, input_name=input_name, where=input_name)]
    if isinstance(value, (list, tuple)):
        items: List[Any] = list(value)
        where = input_name
    else:
        items, where = [value], None
    calls: List[ToolCall] = []
    for i, item in enumerate(items):
        iwhere = f"{input_name}[{i}]" if where else input_name
        if not isinstance(item, (dict, Message, ToolCall)):
            d = _as_dict(item)
            if d is not None and not _is_langchain_object(item):
                item = d
        if _is_tool_call(item):
            calls.append(_tool_call(item, input_name=input_name, where=iwhere))
            continue
        for message in _item_messages(item, input_name=input_name, where=iwhere):
            if message.role == "assistant":
                calls.extend(message.tool_calls)
    return calls
