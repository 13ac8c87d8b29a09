"""Turning an evaluator input into something the matching core compares.

Each of ``response`` / ``ground_truth`` may independently be:

* ADK invocations (a list of invocation dicts or models, snake_case or camelCase,
  either ``intermediate_data`` form; or one invocation): kept per invocation, so that
  two such inputs are scored invocation by invocation, as ADK does;
* a message list in any format the conversation adapters read (OpenAI, Responses,
  Azure agent, LangChain), or ``{"messages": [...]}``: kept as messages, because
  ``strict`` compares message structure;
* a list of bare tool calls (OpenAI, Azure, Responses, ``{"name", "args"}``,
  ``{"name", "arguments"}``, :class:`ToolCall`).

Normalization happens here once; the core never sees input formats.
"""

from dataclasses import dataclass
from typing import Any, List, Optional, Union

from ..adk.convert import as_invocations, tool_calls
from ..adk.models import Invocation
from ..conversation.adapters import to_messages, to_tool_calls
from ..conversation.models import Message, ToolCall
from ..errors import InputError

__all__ = ["ReadInput", "invocations_or_none", "read_trajectory_input"]

_INVOCATION_KEYS = frozenset(
    {"user_content", "userContent", "final_response", "finalResponse", "intermediate_data", "intermediateData"}
)


@dataclass
class ReadInput:
    """One input, normalized. ``invocations`` is set only for ADK invocations."""

    calls: List[ToolCall]
    messages: Optional[List[Message]] = None  # set when the input is a message list (strict needs roles)
    invocations: Optional[List[Invocation]] = None

    @property
    def trajectory(self) -> Union[List[ToolCall], List[Message]]:
        """What the core compares: messages where known (``strict`` uses them), else calls."""
        return self.messages if self.messages is not None else self.calls


def _is_invocation(item: Any) -> bool:
    if isinstance(item, Invocation):
        return True
    if isinstance(item, dict):
        return bool(_INVOCATION_KEYS.intersection(item)) and "role" not in item
    # google.adk's own pydantic Invocation (or any object shaped like one)
    return hasattr(item, "user_content") and hasattr(item, "intermediate_data") and hasattr(item, "model_dump")


def invocations_or_none(value: Any, *, input_name: str) -> Optional[List[Invocation]]:
    """The value as validated ADK invocations when it is one or a list of them, else ``None``."""
    if _is_invocation(value):
        value = [value]
    elif not (isinstance(value, (list, tuple)) and value and all(_is_invocation(v) for v in value)):
        return None
    items = [v if isinstance(v, (dict, Invocation)) else v.model_dump(mode="json", exclude_none=True) for v in value]
    try:
        return as_invocations(items, name=input_name)
    except InputError as exc:  # keep the column name as input_name; the message says which item
        raise InputError(str(exc), input_name=input_name) from None


def read_trajectory_input(value: Any, *, input_name: str, evaluator: Optional[str] = None) -> ReadInput:
    """Normalize one trajectory input; an unreadable one raises :class:`InputError` naming ``input_name``."""
    prefix = f"{evaluator}: " if evaluator else ""
    if value is None:
        raise InputError(f"{prefix}{input_name} is missing", evaluator=evaluator, input_name=input_name)
    if isinstance(value, str):
        raise InputError(
            f"{prefix}{input_name} is a string; a trajectory is a message list, {{'messages': [...]}}, "
            "a list of tool calls or a list of ADK invocations",
            evaluator=evaluator,
            input_name=input_name,
        )
    invocations = invocations_or_none(value, input_name=input_name)
    if invocations is not None:
        return ReadInput(calls=[c for inv in invocations for c in tool_calls(inv)], invocations=invocations)
    calls = to_tool_calls(value, input_name=input_name)  # adapter errors name the input and the index
    try:
        messages: Optional[List[Message]] = to_messages(value, input_name=input_name)
    except InputError:
        messages = None  # bare tool calls: no message structure to compare
    return ReadInput(calls=calls, messages=messages)
