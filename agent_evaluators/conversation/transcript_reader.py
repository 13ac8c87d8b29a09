"""Reading a judge transcript back: the inverse of :mod:`.transcript`, for rule-based test judges.

A fake judge that decides its reply from what reached it (``agent_evaluators.testing``) reads
the blocks of a prompt with :func:`read_transcript`: a conversation becomes message dicts
(``{"role", "content"}``, tool calls as ``{"name", "arguments"}``, results as
``{"role": "tool", "name", "content"}``), a call list becomes ``{"call_index", "name",
"arguments"[, "result"]}`` dicts, tool definitions become ``{"name", "description",
"parameters"}`` dicts. Values shortened by the renderer stay shortened.
"""

import json
import re
from typing import Any, Dict, List, Optional, Tuple

_DECODER = json.JSONDecoder()
_USER = re.compile(r"^User turn \d+: ?(.*)$", re.S)
_AGENT = re.compile(r"^Agent turn \d+:$")
_CALL_N = re.compile(r"^call (\d+): (.*)$", re.S)
_PASSAGE = re.compile(r"^\[\d+\] (?:\((.*?)\) )?(.*)$", re.S)
_MARK = re.compile(r"^(#\d+) ")
_PARAM = re.compile(r"^  (\S+) \((.*?)(, required)?\)(?:: (.*))?$", re.S)


def undo_value(text: str) -> str:
    """A row value as it was before :func:`.transcript.data_value` encoded it."""
    return text.replace("\n    ", "\n").replace("\\u003c", "<").replace("\\u003e", ">")


def _maybe_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _call(text: str) -> Tuple[str, Any]:
    """``name(k=v, ...)`` -> (name, arguments); ``name`` alone -> (name, None)."""
    paren = text.find("(")
    if paren < 0 or not text.endswith(")"):
        return text, None
    name, body = text[:paren], text[paren + 1:-1]
    args: Dict[str, Any] = {}
    i = 0
    while i < len(body):
        eq = body.index("=", i)
        key = body[i:eq]
        try:
            value, end = _DECODER.raw_decode(body, eq + 1)
        except ValueError:  # a shortened value: the rest up to the next ", key=" is its text
            nxt = re.search(r", \w+=", body[eq + 1:])
            end = eq + 1 + nxt.start() if nxt else len(body)
            value = body[eq + 1:end]
        args[key] = value
        i = end + 2 if body[end:end + 2] == ", " else len(body)
    return name, args


def _lines(text: str) -> List[str]:
    """The transcript's lines, each with its continuation lines (four spaces deeper) folded in, still encoded."""
    out: List[str] = []
    for line in text.split("\n"):
        if line.startswith("    ") and out:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def read_transcript(text: str) -> Any:
    """A block of a judge prompt as data: a JSON value as itself, else the transcript read back
    (messages, a call list or tool definitions, by what its first line is; other text as it was)."""
    stripped = text.strip()
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    lines = _lines(stripped)
    if not lines or not lines[0]:
        return []
    first = lines[0]
    if first.startswith(("System instructions:", "User turn ", "Agent turn ")):
        return _messages(lines)
    if _CALL_N.match(first):
        return _calls(lines)
    if re.match(r"^[\w.\-]+: ", first):
        return _definitions(lines)
    if all(_PASSAGE.match(line) for line in lines):
        return _passages(lines)
    return undo_value(stripped)  # text given in place of calls


def _messages(lines: List[str]) -> List[Dict[str, Any]]:
    messages: List[Dict[str, Any]] = []
    for line in lines:
        if line.startswith("System instructions: "):
            messages.append({"role": "system", "content": undo_value(line[len("System instructions: "):])})
        elif _USER.match(line):
            messages.append({"role": "user", "content": undo_value(_USER.match(line).group(1))})  # type: ignore[union-attr]
        elif _AGENT.match(line) or not line.strip():
            continue
        elif line.startswith("  call "):
            author, text = _author(line[len("  call "):], " ")
            mark, text = _mark(text)
            name, args = _call(text)
            call: Dict[str, Any] = {"name": undo_value(name), "arguments": args}
            if mark:
                call["id"] = mark
            messages.append({"role": "assistant", "tool_calls": [call], **author})
        elif line.startswith("  result "):
            mark, text = _mark(line[len("  result "):])
            name, _, value = text.partition(": ")
            result: Dict[str, Any] = {"role": "tool", "name": undo_value(name), "content": _maybe_json(undo_value(value))}
            if mark:
                result["tool_call_id"] = mark
            messages.append(result)
        elif line.startswith("  reply: "):
            messages.append({"role": "assistant", "content": undo_value(line[len("  reply: "):])})
        elif line.startswith("  reply ("):
            author, text = _author(line[len("  reply "):], ": ")
            messages.append({"role": "assistant", "content": undo_value(text), **author})
    return messages


def _mark(text: str) -> Tuple[Optional[str], str]:
    """``("#2", rest)`` for a parallel call's number (``#2 name(...)``: :func:`.transcript._parallel_calls`),
    else ``(None, text)``."""
    m = _MARK.match(text)
    return (m.group(1), text[m.end():]) if m else (None, text)


def _author(text: str, after: str) -> Tuple[Dict[str, str], str]:
    """``({"name": agent}, rest)`` for a line naming its agent (``(agent)`` then ``after``), else ``({}, text)``."""
    if text.startswith("("):
        author, sep, rest = text[1:].partition(")" + after)
        if sep:
            return {"name": undo_value(author)}, rest
    return {}, text


def _calls(lines: List[str]) -> List[Dict[str, Any]]:
    calls: List[Dict[str, Any]] = []
    for line in lines:
        m = _CALL_N.match(line)
        if m:
            name, args = _call(m.group(2))
            call: Dict[str, Any] = {"call_index": int(m.group(1)), "name": undo_value(name)}
            if args is not None:
                call["arguments"] = args
            calls.append(call)
        elif line.startswith("  result: ") and calls:
            calls[-1]["result"] = _maybe_json(undo_value(line[len("  result: "):]))
    return calls


def _definitions(lines: List[str]) -> List[Dict[str, Any]]:
    definitions: List[Dict[str, Any]] = []
    current: Optional[Dict[str, Any]] = None
    for line in lines:
        m = _PARAM.match(line)
        if line.startswith("  ") and m and current is not None:
            params = current.setdefault("parameters", {"type": "object", "properties": {}, "required": []})
            schema: Dict[str, Any] = {"type": m.group(2)}
            if m.group(4):
                schema["description"] = undo_value(m.group(4))
            params["properties"][m.group(1)] = schema
            if m.group(3):
                params["required"].append(m.group(1))
        elif not line.startswith("  "):
            name, _, description = line.partition(": ")
            current = {"name": undo_value(name), "description": undo_value(description)}
            definitions.append(current)
    return definitions


def _passages(lines: List[str]) -> List[Any]:
    """Context passages (``[N] (source) text``, ``[N] text``): ``{"source", "text"}`` dicts, and texts
    (a passage object of a text alone reads back as its text; a JSON value as itself)."""
    out: List[Any] = []
    for line in lines:
        m = _PASSAGE.match(line)
        assert m is not None
        source, text = m.group(1), undo_value(m.group(2))
        out.append({"source": undo_value(source), "text": text} if source is not None else _maybe_json(text))
    return out
