"""The canonical conversation model every adapter produces and every evaluator reads.

Adapters (``agent_evaluators.conversation.adapters``) turn OpenAI, Responses-API,
Azure-agent, LangChain and ADK shapes into these models once, at the edge, so
evaluators never branch on input formats.
"""

from typing import Any, Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["system", "developer", "user", "assistant", "tool"]


class ToolCall(BaseModel):
    """One call the agent made. ``arguments=None`` (no args given) stays distinct from ``{}``."""

    model_config = ConfigDict(frozen=False)

    name: str
    arguments: Optional[Dict[str, Any]] = None
    id: Optional[str] = None


class ToolResult(BaseModel):
    """What a tool returned, tied to its call by ``call_id`` when the source format has one."""

    call_id: Optional[str] = None
    name: Optional[str] = None
    content: Any = None


class ToolDefinition(BaseModel):
    """A tool the agent could call: name, description and a JSON-schema ``parameters`` object."""

    name: str
    description: Optional[str] = None
    parameters: Optional[Dict[str, Any]] = None
    type: str = "function"


class Message(BaseModel):
    """One message. ``content`` is the text (``None`` when the message only carries tool calls).

    A ``tool`` message carries its result in ``tool_result`` and the call it answers in
    ``tool_call_id``; an ``assistant`` message may carry ``tool_calls``.
    """

    role: Role
    content: Optional[str] = None
    tool_calls: List[ToolCall] = Field(default_factory=list)
    tool_call_id: Optional[str] = None
    tool_result: Any = None
    name: Optional[str] = None


class Conversation(BaseModel):
    """An ordered list of messages, optionally with the tools that were available."""

    messages: List[Message] = Field(default_factory=list)
    tool_definitions: List[ToolDefinition] = Field(default_factory=list)
