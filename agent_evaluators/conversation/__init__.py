"""Canonical conversation model and adapters from the formats users have."""

from .models import Conversation, Message, ToolCall, ToolDefinition, ToolResult

__all__ = ["Conversation", "Message", "ToolCall", "ToolDefinition", "ToolResult"]
