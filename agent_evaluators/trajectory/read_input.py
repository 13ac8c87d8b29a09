"""Turning an evaluator input into something the matching core compares.

Each of ``response`` / ``ground_truth`` may independently be:

* recorded turns (ADK invocations: a list of invocation dicts or models, or one invocation;
  read by :func:`~agent_evaluators.conversation.recorded_turns.read_recorded_turns`): kept per
  turn, so that two such inputs are scored turn by turn, as ADK does;
* a message list in any format the conversation adapters read (OpenAI, Responses,
  Azure agent, LangChain), or ``{"messages": [...]}``: kept as messages, because
  ``strict`` compares message structure;
* a list of bare tool calls (OpenAI, Azure, Responses, ``{"name", "args"}``,
  ``{"name", "arguments"}``, :class:`ToolCall`).

Normalization happens here once; the core never sees input formats.
"""

from dataclasses import dataclass
from typing import Any, List, Optional, Union

from ..conversation.adapters import to_messages, to_tool_calls
from ..conversation.models import Message, ToolCall
from ..conversation.recorded_turns import RecordedTurn, read_recorded_turns
from ..errors import InputError


@dataclass
class ReadInput:
    """One input, normalized. ``turns`` is set only for a run recorded turn by turn (ADK invocations)."""

    calls: List[ToolCall]
    messages: Optional[List[Message]] = None  # set when the input is a message list (strict needs roles)
    turns: Optional[List[RecordedTurn]] = None

    @property
    def trajectory(self) -> Union[List[ToolCall], List[Message]]:
        """What the core compares: messages where known (``strict`` uses them), else calls."""
        return self.messages if self.messages is not None else self.calls


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
    turns = read_recorded_turns(value, input_name=input_name)
    if turns is not None:
        return ReadInput(calls=[c for turn in turns for c in turn.tool_calls], turns=turns)
    calls = to_tool_calls(value, input_name=input_name)  # adapter errors name the input and the index
    try:
        messages: Optional[List[Message]] = to_messages(value, input_name=input_name)
    except InputError:
        messages = None  # bare tool calls: no message structure to compare
    return ReadInput(calls=calls, messages=messages)
