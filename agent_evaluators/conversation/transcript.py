"""What a judge reads of a conversation: compact text, only the parts its metric needs.

One renderer for every judge template. A conversation becomes numbered turns with plain roles::

    System instructions: You are the airline's agent ...
    User turn 1: Where is my order NO-48213?
    Agent turn 1:
      call lookup_order(order_id="NO-48213")
      result lookup_order: {"status":"shipped","tracking_id":"DHL-88412"}
      reply: It has shipped.

Tool calls are ``name(arg=value, ...)`` with each value as minified JSON; tool results are text
(JSON minified once, a string holding JSON read and minified, never escaped twice); a value
longer than its limit keeps its head and tail around a marker saying how much was left out.

Each metric declares what it reads (:class:`Reads`): system instructions, earlier turns (none,
their words, their words and tool calls, or everything), tool calls and results (with a limit
per result), and tool definitions (all, the called ones, none). The rest is never rendered.

The data rule holds: the text is :class:`DataText`, which a template writes as is, and every
value from the row in it is encoded by :func:`data_value`: ``<``/``>`` escaped (a value cannot
close the block around it) and each line break followed by four spaces (a value cannot start a
line of its own, so it cannot pose as a turn, a call, a role line or the grader's words).
"""

import json
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from ._values import json_default

#: the details key a cell records an elided conversation under
ELIDED_KEY = "prompt_elided"
#: ``max_prompt_tokens``' default: under the context window of the common judge models (32k and up), with room
#: for the reply
DEFAULT_MAX_PROMPT_TOKENS = 30_000
#: a tool whose name holds one of these hands the conversation over: calling it ends the agent's part
TERMINAL_NAME_PARTS = ("transfer", "handoff", "hand_off", "escalat")
_CONTINUATION = "\n    "
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=json_default)


class DataText(str):
    """Text made of row content encoded by :func:`data_value` (and our own layout): a template
    writes it as is, not as a JSON string. Made only by this module's renderers."""

    __slots__ = ()


class Reads(NamedTuple):
    """The parts of a conversation a metric reads; ``why`` says why, in a line."""

    why: str
    system: bool = False
    #: earlier turns (before the user's last message): "none", "text" (the words), "calls" (and tool calls), "all"
    earlier: str = "text"
    tool_calls: bool = True
    #: characters kept of each tool result (head and tail); 0: no results
    tool_results: int = 0
    #: "all" (called ones in full, the others by name and description), "called", "none"
    tool_definitions: str = "none"
    #: characters kept of a message's text, an argument value or a plain text input (a reference answer, a policy)
    text_limit: int = 6000
    #: characters kept of each context passage (given context, retrieved passages; head and tail); 0: in full
    context: int = 0


def shorten(text: str, limit: int) -> str:
    """``text``, or its head and tail around a marker naming how much was left out."""
    if limit <= 0 or len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = limit - head
    return f"{text[:head]} …[{len(text) - limit:,} of {len(text):,} characters left out]… {text[len(text) - tail:]}"


def data_value(text: str) -> str:
    """Row text as it may stand in a data block: ``<``/``>`` escaped, line breaks indented."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("\n", _CONTINUATION)


def _json(value: Any) -> str:
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
            try:
                return _ENCODER.encode(json.loads(stripped))  # a JSON document held in a string: once, minified
            except ValueError:
                pass
        return value
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError):
        return str(value)


def _value(value: Any, limit: int) -> str:
    return data_value(shorten(_json(value), limit))


def render_value(value: Any, limit: int = 0) -> DataText:
    """A value from the row as data text: a string as it is (one holding a JSON document read and
    minified once), any other value as minified JSON, shortened to ``limit`` characters (0: no limit)
    with the marker, and encoded by :func:`data_value`. Never JSON in a JSON string, never a repr."""
    return DataText(_value(value, limit))


def render_context(value: Any, limit: int = 0) -> DataText:
    """Grounding material as data text: a text as it is; a list of passages one a line, in order
    (``[N] (source) text`` for a passage object of a text and a source, ``[N] text`` for a text,
    ``[N] value`` for anything else, as :func:`render_value`), so a passage's text is never a JSON
    string inside JSON; any other value as :func:`render_value`. Each passage is shortened to
    ``limit`` characters (0: in full)."""
    if not isinstance(value, list):
        return render_value(value, limit)
    lines = []
    for i, item in enumerate(value, 1):
        if isinstance(item, Mapping) and isinstance(item.get("text"), str) and set(item) <= {"text", "source"}:
            source = f"({data_value(str(item['source']))}) " if item.get("source") else ""
            lines.append(f"[{i}] {source}{_value(item['text'], limit)}")
        else:
            lines.append(f"[{i}] {_value(item, limit)}")
    return DataText("\n".join(lines))


def render_messages(messages: Sequence[Mapping[str, Any]], reads: Reads, *,
                    budget_chars: Optional[int] = None) -> Tuple[DataText, Optional[str]]:
    """A whole conversation (message dicts) as one transcript, as ``reads`` says (turns before the
    user's last message are the earlier ones), and a note naming the turns left out to fit
    ``budget_chars`` (or ``None``)."""
    out = _Turns()
    marks = _parallel_calls(messages) if reads.tool_results else None  # no result shown: nothing to tell apart
    _walk(messages, reads, 0, _last_user(messages), out, {}, _many_authors(messages), marks)
    text, note = _join(out, budget_chars)
    return DataText(text), note


def _many_authors(*conversations: Any) -> bool:
    """Whether more than one agent speaks (assistant messages carry two or more ``name`` values):
    then each call and reply names its agent, as a multi-agent judge needs to know who did what."""
    seen: Set[Any] = set()
    for messages in conversations:
        if isinstance(messages, list):
            seen.update(m.get("name") for m in messages if m.get("role") == "assistant" and m.get("name"))
    return len(seen) > 1


def _call(name: Any, arguments: Any, limit: int) -> str:
    if isinstance(arguments, str) and arguments.strip()[:1] == "{":
        try:
            arguments = json.loads(arguments)  # arguments sent as a JSON string: read once, never escaped twice
        except ValueError:
            pass
    if isinstance(arguments, Mapping):
        args = ", ".join(f"{data_value(str(k))}={_arg(v, limit)}" for k, v in arguments.items())
    elif arguments is None:
        args = ""
    else:
        args = _value(arguments, limit)
    return f"{data_value(str(name))}({args})"


def _arg(value: Any, limit: int) -> str:
    """An argument value: minified JSON (a string quoted), shortened where long."""
    try:
        text = _ENCODER.encode(value)
    except (TypeError, ValueError):
        text = _ENCODER.encode(str(value))
    return data_value(shorten(text, limit))


class _Turns:
    """Lines of a transcript, by turn, so a budget can drop whole turns from the middle."""

    def __init__(self) -> None:
        self.system: List[str] = []
        self.turns: List[List[str]] = []  # turn 0 holds agent lines before any user message

    def add(self, turn: int, line: str) -> None:
        while len(self.turns) <= turn:
            self.turns.append([])
        self.turns[turn].append(line)


def _walk(messages: Sequence[Mapping[str, Any]], reads: Reads, first_turn: int, last_user: int,
          out: _Turns, names: Dict[str, str], authors: bool = False, marks: Optional[Mapping[str, int]] = None) -> int:
    """Render ``messages`` into ``out``; returns the turn number reached. ``last_user``: the index
    of the user's last message (messages before it are earlier turns), -1 when there is none here.
    ``authors``: several agents speak, so each call and reply names its agent (the message's ``name``).
    ``marks``: the numbers of parallel calls of one tool (:func:`_parallel_calls`), shown on each such
    call and on its result."""
    turn = first_turn
    agent_open = False
    marks = marks or {}
    for i, m in enumerate(messages):
        role = m.get("role")
        earlier = i < last_user
        mode = reads.earlier if earlier else "all"
        if role in ("system", "developer"):
            if reads.system and m.get("content"):
                out.system.append(_value(m["content"], 0))
            continue
        if role == "user":
            turn += 1
            agent_open = False
            if mode != "none":
                out.add(turn, f"User turn {turn}: {_value(m.get('content') or '', reads.text_limit)}")
            continue
        if mode == "none":
            for c in m.get("tool_calls") or ():
                names[str(c.get("id"))] = str(c.get("name"))
            continue
        lines: List[str] = []
        if role == "assistant":
            by = f"({data_value(str(m['name']))})" if authors and m.get("name") else ""
            for c in m.get("tool_calls") or ():
                cid = str(c.get("id"))
                names[cid] = str(c.get("name"))
                if reads.tool_calls and mode in ("calls", "all"):
                    call = _call(c.get("name"), c.get("arguments"), reads.text_limit)
                    if cid in marks:
                        call = f"#{marks[cid]} {call}"
                    lines.append(f"  call {by} {call}" if by else f"  call {call}")
            if m.get("content"):
                lines.append(f"  reply {by}: {_value(m['content'], reads.text_limit)}" if by
                             else f"  reply: {_value(m['content'], reads.text_limit)}")
        elif role == "tool":
            if reads.tool_results and mode == "all":
                cid = str(m.get("tool_call_id"))
                name = m.get("name") or names.get(cid, "tool")
                mark = f"#{marks[cid]} " if cid in marks else ""
                lines.append(f"  result {mark}{data_value(str(name))}: {_value(m.get('content'), reads.tool_results)}")
        if lines:
            if not agent_open:
                out.add(turn, f"Agent turn {max(turn, 1)}:")
                agent_open = True
            for line in lines:
                out.add(turn, line)
    return turn


def _parallel_calls(*conversations: Any) -> Dict[str, int]:
    """Numbers for the calls a result's tool name alone would not tell apart: a call made while
    another call of the same tool is still unanswered (parallel calls: ``lookup(id=1)`` and
    ``lookup(id=2)`` in one message), by call id, counted from 1 over the conversation. Results come
    back in any order, so each such call and its result carry the number (``call #2 lookup(id=2)``,
    ``result #2 lookup: …``); a call answered before the next one of its tool needs none (the usual
    case, which costs no token)."""
    marks: Dict[str, int] = {}
    waiting: Dict[str, List[str]] = {}  # tool name -> ids of its calls not answered yet
    for messages in conversations:
        if not isinstance(messages, list):
            continue
        for m in messages:
            role = m.get("role") if isinstance(m, Mapping) else None
            if role == "assistant":
                for c in m.get("tool_calls") or ():
                    if not isinstance(c, Mapping) or c.get("id") is None:
                        continue
                    cid, same = str(c["id"]), waiting.setdefault(str(c.get("name")), [])
                    if same:
                        for other in same + [cid]:
                            marks.setdefault(other, len(marks) + 1)
                    same.append(cid)
            elif role == "tool" and m.get("tool_call_id") is not None:
                cid = str(m["tool_call_id"])
                for same in waiting.values():
                    if cid in same:
                        same.remove(cid)
                        break
    return marks


def _last_user(messages: Sequence[Mapping[str, Any]]) -> int:
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("role") == "user":
            return i
    return -1


def _join(out: _Turns, budget_chars: Optional[int]) -> Tuple[str, Optional[str]]:
    """The transcript text, and a note naming the turns left out to fit ``budget_chars`` (or ``None``).

    Over the budget, the system instructions, the first user turn (and any agent lines before it) and
    as many of the latest turns as fit are kept; the turns between give way to one marker naming them."""
    head = ["System instructions: " + "\n\n".join(out.system)] if out.system else []
    texts = ["\n".join(t) for t in out.turns]
    total = sum(len(t) + 1 for t in texts + head)
    if budget_chars is None or total <= budget_chars or len(texts) <= 3:
        return "\n".join(head + [t for t in texts if t]), None
    first = [t for t in texts[:2] if t]  # turn 0 (agent lines before any user message) and turn 1
    room = budget_chars - sum(len(t) + 1 for t in head + first) - 100
    kept = len(texts)
    while kept > 2 and (room - len(texts[kept - 1]) - 1 >= 0 or kept == len(texts)):
        kept -= 1
        room -= len(texts[kept]) + 1
    left_out = [n for n in range(2, kept) if texts[n]]
    if not left_out:
        return "\n".join(head + [t for t in texts if t]), None
    span = f"{left_out[0]}" if len(left_out) == 1 else f"{left_out[0]}-{left_out[-1]}"
    note = f"turns {span} ({len(left_out)} turns) left out to fit the prompt budget"
    return "\n".join(head + first + [f"[… {note} …]"] + [t for t in texts[kept:] if t]), note


def _one_message_each(query: Any, response: Any) -> Optional[Tuple[str, str]]:
    """The texts of the usual batch row, one user message and one agent reply with text and no
    tool call (what a text query and response become), else ``None``: rendered without the
    general walk (the same text: one turn each, nothing to elide), once per judge call."""
    if type(query) is not list or type(response) is not list or len(query) != 1 or len(response) != 1:
        return None
    q, r = query[0], response[0]
    if type(q) is not dict or type(r) is not dict or q.get("role") != "user" or r.get("role") != "assistant":
        return None
    q_text, r_text = q.get("content") or "", r.get("content")
    if type(q_text) is not str or type(r_text) is not str or not r_text or r.get("tool_calls"):
        return None
    return q_text, r_text


def render_exchange(query: Any, response: Any, reads: Reads, *,
                    budget_chars: Optional[int] = None) -> Tuple[Optional[DataText], Optional[DataText], Optional[str]]:
    """The query's transcript (system instructions and turns up to the user's last message) and the
    response's (the agent's last turn), as ``reads`` says; either may be ``None`` when not given.
    The third value names the turns left out to fit ``budget_chars`` (the query's middle turns),
    or is ``None``."""
    quick = _one_message_each(query, response)
    if quick is not None:
        q, r = quick
        return (DataText("User turn 1: " + _value(q, reads.text_limit)),
                DataText("Agent turn 1:\n  reply: " + _value(r, reads.text_limit)), None)
    names: Dict[str, str] = {}
    authors = _many_authors(query, response)
    marks = _parallel_calls(query, response) if reads.tool_results else None  # no result shown: no number needed
    note = None
    q_text = r_text = None
    q_turns = None
    turn = 0
    if isinstance(query, list):
        q_turns = _Turns()
        turn = _walk(query, reads, 0, _last_user(query), q_turns, names, authors, marks)
    elif isinstance(query, str):
        q_text = DataText(f"User turn 1: {_value(query, reads.text_limit)}")
        turn = 1
    if isinstance(response, list):
        if (isinstance(query, list) and response and response[0].get("role") == "user" and query
                and _last_user(query) >= 0 and response[0].get("content") == query[_last_user(query)].get("content")):
            response = response[1:]  # the user's message, given again at the head of the response: shown once
        out = _Turns()
        # the response is the agent's last turn: read in full (its own tool results under the limit)
        _walk(response, reads._replace(earlier="all"), turn, -1, out, names, authors, marks)
        text, _ = _join(out, None)
        r_text = DataText(text)
    elif isinstance(response, str):
        r_text = DataText(f"Agent turn {max(turn, 1)}:\n  reply: {_value(response, reads.text_limit)}")
    if q_turns is not None:  # the earlier turns get what the last turn leaves of the budget
        room = None if budget_chars is None else max(budget_chars - len(r_text or ""), 1000)
        text, note = _join(q_turns, room)
        q_text = DataText(text)
    return q_text, r_text, note


def render_calls_text(calls: Any, reads: Reads) -> DataText:
    """Tool calls as the judge sees them: ``call N: name(arg=value, ...)`` and, where given and
    read, ``result: ...``; text given in place of calls is written as it is (encoded)."""
    if isinstance(calls, str):
        return DataText(data_value(calls))
    lines = []
    for i, c in enumerate(calls or ()):
        index = c.get("call_index", i)
        shown = _call(c.get("name"), c.get("arguments"), reads.text_limit) if "arguments" in c else data_value(
            str(c.get("name")))
        lines.append(f"call {index}: {shown}")
        if reads.tool_results and "result" in c:
            lines.append(f"  result: {_value(c['result'], reads.tool_results)}")
    return DataText("\n".join(lines))


def _schema_type(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = "|".join(str(k) for k in kind)
    text = str(kind) if kind else _json(schema)
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        text = f"array of {_schema_type(schema['items'])}"
    elif kind == "object" and isinstance(schema.get("properties"), Mapping):
        text = "object " + _json({k: v.get("type", "any") if isinstance(v, Mapping) else v
                                  for k, v in schema["properties"].items()})
    if "enum" in schema:
        text += " one of " + _json(schema["enum"])
    return text


def render_definitions_text(definitions: Any, reads: Reads, called: Set[str]) -> DataText:
    """Tool definitions: the called tools (or all, for ``"all"``, with the rest by name and
    description only) with each parameter's type, whether required, and description."""
    if reads.tool_definitions == "none" or not definitions:
        return DataText("")
    if isinstance(definitions, str):
        return DataText(data_value(definitions))
    lines = []
    for d in definitions:
        if not isinstance(d, Mapping):
            lines.append(_value(d, 0))
            continue
        name = str(d.get("name"))
        full = name in called or not called and reads.tool_definitions == "called"
        if not full and reads.tool_definitions == "called":
            continue
        lines.append(f"{data_value(name)}: {_value(d.get('description') or '', 0)}")
        if not full:
            continue
        params = d.get("parameters") or {}
        props = params.get("properties") if isinstance(params, Mapping) else None
        if not isinstance(props, Mapping):
            if params:
                lines.append(f"  parameters: {_value(params, 0)}")
            continue
        required = set(params.get("required") or ())
        for p, schema in props.items():
            schema = schema if isinstance(schema, Mapping) else {}
            extra = ", required" if p in required else ""
            desc = schema.get("description")
            lines.append(f"  {data_value(str(p))} ({data_value(_schema_type(schema))}{extra})"
                         + (f": {_value(desc, 0)}" if desc else ""))
    return DataText("\n".join(lines))


def called_names(*values: Any) -> Set[str]:
    """The names of the tools called in rendered messages or call lists."""
    names: Set[str] = set()
    for value in values:
        for item in value if isinstance(value, list) else ():
            if not isinstance(item, Mapping):
                continue
            if "name" in item and "role" not in item:
                names.add(str(item["name"]))
            for c in item.get("tool_calls") or ():
                names.add(str(c.get("name")))
    return names


def is_terminal_tool(name: Any, more: Sequence[str] = ()) -> bool:
    """Whether calling the tool ``name`` ends the conversation: its name holds ``transfer``,
    ``handoff``/``hand_off`` or ``escalat`` (any case), or it is one of ``more`` (any case)."""
    low = str(name).lower()
    return any(part in low for part in TERMINAL_NAME_PARTS) or low in {m.lower() for m in more}


def ends_in_terminal_call(messages: Sequence[Any], more: Sequence[str] = ()) -> bool:
    """Whether the agent's last action is a call of a terminal tool (a hand-off to a human, a transfer,
    an escalation), followed by nothing but tool results: the conversation is over, not mid-run."""
    for m in reversed(messages):
        if m.role == "tool":
            continue
        if m.role != "assistant" or not m.tool_calls or (m.content or "").strip():
            return False
        return any(is_terminal_tool(c.name, more) for c in m.tool_calls)
    return False
