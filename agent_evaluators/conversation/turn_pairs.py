"""Split a multi-turn conversation into per-user-turn (query, response) pairs.

Evaluators that judge one turn at a time (``conversation=``) score each user turn with the
whole history up to it as the query, as azure-ai-evaluation does.
"""

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from .adapters import to_messages
from .models import Message


@dataclass(frozen=True)
class Turn:
    """One user turn.

    ``query``: every message up to and including this turn's user message (system/developer
    messages and earlier turns included). ``response``: the assistant and tool messages after
    it, up to the next user message. ``context``: the grounding text this turn was given, if any
    (the conversation's ``"context"``, then the turn's user and assistant messages' ``"context"``
    keys, as azure-ai-evaluation's conversations carry it), one paragraph each.
    """

    query: List[Message]
    response: List[Message]
    context: Optional[str] = None


def split_turns(conversation: Any) -> List[Turn]:
    """The user turns of ``conversation`` that got a response, in order.

    Accepts whatever :func:`to_messages` accepts, including ``{"messages": [...], "context": ...}``.
    A user message followed directly by another user message has no response and is not a turn
    of its own (it stays in the later turns' query).
    """
    messages = to_messages(conversation, input_name="conversation", default_role="user")
    contexts = _turn_contexts(conversation)
    turns: List[Turn] = []
    user_indexes = [i for i, m in enumerate(messages) if m.role == "user"]
    for k, u in enumerate(user_indexes):
        end = user_indexes[k + 1] if k + 1 < len(user_indexes) else len(messages)
        response = [m for m in messages[u + 1 : end] if m.role in ("assistant", "tool")]
        if response:
            turns.append(Turn(query=messages[: u + 1], response=response, context=contexts.get(k)))
    return turns


def _turn_contexts(conversation: Any) -> Dict[int, str]:
    """The context of each user turn (by the user message's ordinal), read from the raw
    conversation: the adapters keep only what a message says, not the grounding it was given."""
    raw = conversation.get("messages") if isinstance(conversation, dict) else conversation
    shared = conversation.get("context") if isinstance(conversation, dict) else None
    if not isinstance(raw, (list, tuple)):
        return {}
    parts: Dict[int, List[str]] = {}
    ordinal = -1
    for item in raw:
        if not isinstance(item, dict):
            continue
        if item.get("role") == "user":
            ordinal += 1
        if ordinal >= 0 and item.get("context") not in (None, ""):
            parts.setdefault(ordinal, []).append(_context_text(item["context"]))
    out: Dict[int, str] = {}
    for k in range(ordinal + 1):
        texts = ([_context_text(shared)] if shared not in (None, "") else []) + parts.get(k, [])
        if texts:
            out[k] = "\n\n".join(texts)
    return out


def _context_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    from ._values import to_json_text

    return to_json_text(value) or ""
