"""Split a multi-turn conversation into per-user-turn (query, response) pairs.

Evaluators that judge one turn at a time (``conversation=``) score each user turn with the
whole history up to it as the query, as azure-ai-evaluation does.
"""

from dataclasses import dataclass
from typing import Any, List

from .adapters import to_messages
from .models import Message

__all__ = ["Turn", "split_turns"]


@dataclass(frozen=True)
class Turn:
    """One user turn.

    ``query``: every message up to and including this turn's user message (system/developer
    messages and earlier turns included). ``response``: the assistant and tool messages after
    it, up to the next user message.
    """

    query: List[Message]
    response: List[Message]


def split_turns(conversation: Any) -> List[Turn]:
    """The user turns of ``conversation`` that got a response, in order.

    Accepts whatever :func:`to_messages` accepts, including ``{"messages": [...], "context": ...}``.
    A user message followed directly by another user message has no response and is not a turn
    of its own (it stays in the later turns' query).
    """
    messages = to_messages(conversation, input_name="conversation", default_role="user")
    turns: List[Turn] = []
    user_indexes = [i for i, m in enumerate(messages) if m.role == "user"]
    for k, u in enumerate(user_indexes):
        end = user_indexes[k + 1] if k + 1 < len(user_indexes) else len(messages)
        response = [m for m in messages[u + 1 : end] if m.role in ("assistant", "tool")]
        if response:
            turns.append(Turn(query=messages[: u + 1], response=response))
    return turns
