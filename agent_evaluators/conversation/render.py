"""What judges see: compact JSON of messages, and the few texts templates ask for.

Never Python reprs: a judge reading ``{'role': 'user'}`` sees a different format from the one
the agent produced and the one the template describes.
"""

from typing import Any, Dict, List, Optional, Sequence

from .adapters import to_messages
from .models import Message


def _messages(messages: Any) -> Sequence[Message]:
    if isinstance(messages, list) and all(isinstance(m, Message) for m in messages):
        return messages
    return to_messages(messages)


def messages_to_json(messages: Any) -> List[Dict[str, Any]]:
    """Messages as compact JSON-ready dicts: ``None`` fields dropped, tool calls as
    ``{"id", "name", "arguments"}``, tool results as ``{"role": "tool", "tool_call_id", "content"}``
    with the structured result (not its text) as content."""
    out: List[Dict[str, Any]] = []
    for m in _messages(messages):
        if m.role == "tool":
            d: Dict[str, Any] = {"role": "tool"}
            if m.tool_call_id is not None:
                d["tool_call_id"] = m.tool_call_id
            if m.name is not None:
                d["name"] = m.name
            d["content"] = m.tool_result if m.tool_result is not None else m.content
            out.append(d)
            continue
        d = {"role": m.role}
        if m.name is not None:
            d["name"] = m.name
        if m.content is not None:
            d["content"] = m.content
        if m.tool_calls:
            d["tool_calls"] = [
                {k: v for k, v in (("id", c.id), ("name", c.name), ("arguments", c.arguments)) if v is not None}
                for c in m.tool_calls
            ]
        out.append(d)
    return out


def last_user_text(messages: Any) -> Optional[str]:
    """The text of the last user message, or ``None`` when there is none."""
    for m in reversed(_messages(messages)):
        if m.role == "user" and m.content is not None:
            return m.content
    return None


def final_text(messages: Any) -> Optional[str]:
    """The last non-empty assistant text (the agent's answer), or ``None``."""
    for m in reversed(_messages(messages)):
        if m.role == "assistant" and m.content and m.content.strip():
            return m.content
    return None


def system_text(messages: Any) -> Optional[str]:
    """The system and developer instructions, joined by blank lines, or ``None``."""
    parts = [m.content for m in _messages(messages) if m.role in ("system", "developer") and m.content]
    return "\n\n".join(parts) if parts else None
