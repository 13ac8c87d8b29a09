"""Canonical conversation model and adapters from the formats users have.

Normalize once at the edge (:func:`to_messages`, :func:`to_tool_calls`,
:func:`to_tool_definitions`, :func:`split_turns`), then every evaluator reads the same
:class:`Message` / :class:`ToolCall` / :class:`ToolDefinition` objects; judges get
:func:`messages_to_json`, never Python reprs.
"""

from .adapters import to_messages, to_tool_calls
from .models import Conversation, Message, ToolCall, ToolDefinition, ToolResult
from .render import final_text, last_user_text, messages_to_json, system_text
from .tool_definitions import BUILTIN_TOOLS, builtin_tool_definition, to_tool_definitions
from .turn_pairs import Turn, split_turns

__all__ = [
    "BUILTIN_TOOLS",
    "Conversation",
    "Message",
    "ToolCall",
    "ToolDefinition",
    "ToolResult",
    "Turn",
    "builtin_tool_definition",
    "final_text",
    "last_user_text",
    "messages_to_json",
    "split_turns",
    "system_text",
    "to_messages",
    "to_tool_calls",
    "to_tool_definitions",
]
