"""Conversations in the report as a chat transcript: who said what, which tools were called, what came back.

A row's conversation (``conversation``, a ``response`` message list, an ADK run's
``invocations``, ...) is read once with the package's own adapters
(:func:`agent_evaluators.conversation.to_messages`, every supported format) and drawn as
turns; the raw JSON stays one click away. A simulated user's turn records
(``outputs.simulated_user``: turn, source, text, stop status) are drawn as that user's side of the chat.
Anything that is not a conversation returns ``None`` and is shown as JSON.
"""

from typing import Any, List, Mapping, Optional

from ..conversation import to_messages
from ..conversation.models import Message
from ..errors import InputError
from .text import clip, esc, shown_json, to_json

#: The most entries (messages, invocations or simulator turns) of one conversation the page draws.
MAX_TRANSCRIPT_ITEMS = 200

#: keys that make a dict a chat message / ADK invocation / simulator turn rather than plain data
_MESSAGE_KEYS = ("role", "type", "user_content", "userContent", "invocation_id", "invocationId")


def _is_turn_record(item: Any) -> bool:
    return isinstance(item, Mapping) and "turn" in item and "source" in item and "status" in item


def is_conversation(value: Any) -> bool:
    """Whether ``value`` looks like a message list (or ``{"messages": [...]}``), judged by its shape only."""
    if isinstance(value, Mapping) and isinstance(value.get("messages"), list):
        value = value["messages"]
    if not isinstance(value, list) or not value:
        return False
    return all(isinstance(m, Mapping) and any(k in m for k in _MESSAGE_KEYS) for m in value) or all(
        _is_turn_record(m) for m in value)


def _messages(value: Any) -> Optional[List[Message]]:
    try:
        return to_messages(value, input_name="conversation")
    except (InputError, TypeError, ValueError):
        return None


def _message_html(m: Message, where: str, tool_names: Mapping[str, str]) -> str:
    role = m.role
    name = m.name or (tool_names.get(m.tool_call_id) if role == "tool" and m.tool_call_id else None)
    label = role if not name else f"{role} · {name}"
    parts = [f'<div class="msg {esc(role)}" data-role="{esc(role)}"><span class="who">{esc(label)}</span>']
    if m.content:
        parts.append(f'<div class="said">{esc(clip(m.content, where))}</div>')
    for call in m.tool_calls:
        args = "" if call.arguments is None else to_json(call.arguments, indent=None)
        parts.append(f'<div class="call" data-tool="{esc(call.name)}">→ <b>{esc(call.name)}</b>'
                     f'(<code>{esc(clip(args, where))}</code>)</div>')
    if role == "tool" and m.tool_result is not None and not m.content:
        parts.append(f'<pre class="result">{esc(shown_json(m.tool_result, where))}</pre>')
    parts.append("</div>")
    return "".join(parts)


def _turns_html(records: List[Mapping[str, Any]], where: str) -> str:
    out = []
    for r in records:
        text, status, source = r.get("text"), r.get("status"), r.get("source")
        if text and status == "message":  # a stop record's text is the stop signal, not a turn the agent saw
            out.append(f'<div class="msg user" data-role="simulated user"><span class="who">simulated user · turn '
                       f'{esc(r.get("turn"))} · {esc(source)}</span><div class="said">{esc(clip(text, where))}</div></div>')
        if status and status != "message":
            said = f"{status} (turn {r.get('turn')}, {source})" + (f": {clip(text, where)}" if text else "")
            out.append(f'<div class="msg stop" data-role="stop"><span class="who">stopped</span>'
                       f'<div class="said">{esc(said)}</div></div>')
    return "".join(out)


def transcript_html(name: str, value: Any, where: str) -> Optional[str]:
    """The transcript of column ``name`` with its raw JSON in a fold, or ``None`` when ``value`` is no
    conversation. ``where``: what the truncation notes name as the home of the whole value."""
    if not is_conversation(value):
        return None
    items = value["messages"] if isinstance(value, Mapping) else value
    shown = items[:MAX_TRANSCRIPT_ITEMS]  # a conversation of a million messages must not make a page of them
    if all(_is_turn_record(m) for m in shown):
        body = _turns_html(shown, where)
    else:
        messages = _messages(clip(shown, where))
        if not messages:
            return None
        tool_names = {c.id: c.name for m in messages for c in m.tool_calls if c.id}  # a result names its call's tool
        body = "".join(_message_html(m, where, tool_names) for m in messages)
    if len(items) > len(shown):
        body += (f'<p class="clipped">Showing the first {len(shown):,} of {len(items):,} entries; '
                 f'the whole conversation is in {esc(where)}.</p>')
    return (f'<div class="chat" data-column="{esc(name)}">{body}</div>'
            f'<details class="raw"><summary>raw JSON</summary><pre>{esc(shown_json(value, where))}</pre></details>')
