"""Input helpers for metric authors: what a judge metric does with its inputs before the template.

Every judge metric reads the same few kinds of input, and reads them the same way, so a
user's evaluator and a built-in one fail with the same words on the same bad row:

* text or messages (``query``, ``response``): :func:`judge_messages` gives what the template
  renders (JSON messages), :func:`require_messages` the canonical :class:`Message` objects,
  :func:`text_input` the user's last text or the agent's final text;
* tool definitions, in any supported format: :func:`tool_definitions_json`;
* conversations: :func:`ends_in_tool_call` (has the agent answered yet?),
  :func:`message_tool_steps` (calls paired with their results);
* sampled verdicts: :func:`majority_vote` (ADK's rule, ties fail) and :func:`mean_or_none`.

Each takes the evaluator (for its name in the error) where it can fail; a failure is an
:class:`~agent_evaluators.errors.InputError` naming the evaluator and the input. Formats are
normalized by :mod:`agent_evaluators.conversation`; these helpers only decide what a judge sees.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ..conversation import Message
from ..errors import InputError

__all__ = [
    "MessagesOrText",
    "ToolDefinitions",
    "require_messages",
    "messages_json",
    "judge_messages",
    "text_input",
    "tool_definitions_json",
    "ends_in_tool_call",
    "message_tool_steps",
    "majority_vote",
    "mean_or_none",
]

#: a text-or-messages input: a string, a message list (any supported format) or a ``{"messages": [...]}`` wrapper
MessagesOrText = Union[str, List[Any], Dict[str, Any]]
#: tool definitions in any supported format (OpenAI, Azure agent, ADK declarations, ...)
ToolDefinitions = Union[List[Any], Dict[str, Any]]


def require_messages(evaluator: Any, value: Any, name: str, default_role: str) -> List[Message]:
    """``value`` as canonical messages (plain text becomes one message of ``default_role``);
    an input with no text, tool call or tool result in it is an ``InputError``."""
    from ..conversation import to_messages

    messages = to_messages(value, input_name=name, default_role=default_role)
    if not messages or not any((m.content or "").strip() or m.tool_calls or m.tool_result is not None for m in messages):
        raise InputError(
            f"{evaluator.name}: input {name!r} is empty; pass the {name} text or its messages",
            evaluator=evaluator.name,
            input_name=name,
        )
    return messages


def messages_json(messages: List[Message]) -> List[Dict[str, Any]]:
    """Messages as a template renders them (plain JSON dicts, the one form every judge sees)."""
    from ..conversation import messages_to_json

    return messages_to_json(messages)


def judge_messages(evaluator: Any, value: Any, name: str,
                   default_role: str) -> Tuple[List[Dict[str, Any]], Optional[List[Message]]]:
    """A text-or-messages input as the template gets it (JSON messages), and as :class:`Message`
    objects, ``None`` for plain text: the usual batch input is one message of ``default_role``
    whose JSON is known without building (and validating) a message model."""
    if type(value) is str:
        if not value.strip():
            require_messages(evaluator, value, name, default_role)  # raises the one "is empty" error
        return [{"role": default_role, "content": value}], None
    messages = require_messages(evaluator, value, name, default_role)
    return messages_json(messages), messages


def text_input(evaluator: Any, value: Any, name: str, role: str) -> str:
    """The user text of ``query`` (``role="user"``) / the final assistant text of a response,
    from text or messages; no text is an ``InputError``."""
    if isinstance(value, str):
        text = value
    else:
        from ..conversation import final_text, last_user_text, to_messages

        messages = to_messages(value, input_name=name, default_role=role)
        text = (last_user_text(messages) if role == "user" else final_text(messages)) or ""
    if not text.strip():
        raise InputError(
            f"{evaluator.name}: input {name!r} has no text to judge", evaluator=evaluator.name, input_name=name
        )
    return text


def tool_definitions_json(value: Any) -> List[Dict[str, Any]]:
    """Tool definitions in any supported format as the template renders them; ``None`` is ``[]``."""
    if value is None:  # the usual row: no import statement run (this is on every judge call)
        return []
    from ..conversation import to_tool_definitions

    return [d.model_dump(exclude_none=True) for d in to_tool_definitions(value, input_name="tool_definitions")]


def ends_in_tool_call(messages: List[Message]) -> bool:
    """True when the agent has not answered yet: its last message is a tool call or a tool result."""
    for m in reversed(messages):
        if m.role in ("assistant", "tool"):
            return m.role == "tool" or (bool(m.tool_calls) and not (m.content or "").strip())
    return False


def message_tool_steps(messages: Sequence[Any]) -> List[Dict[str, Any]]:
    """The tool steps of a conversation: calls paired with their results by call id, in order."""
    results: Dict[str, Any] = {}
    for m in messages:
        if m.role == "tool" and m.tool_call_id:
            results[m.tool_call_id] = m.tool_result if m.tool_result is not None else m.content
    steps: List[Dict[str, Any]] = []
    for m in messages:
        if m.role != "assistant":
            continue
        for call in m.tool_calls:
            steps.append(
                {
                    "step": len(steps),
                    "tool_call": {"name": call.name, "arguments": call.arguments},
                    "tool_response": results.get(call.id) if call.id else None,
                }
            )
    return steps


def mean_or_none(values: Sequence[Optional[float]]) -> Optional[float]:
    """Mean of the values that are not ``None`` (ADK's ``get_average_rubric_score``); ``None`` if none."""
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def majority_vote(scores: Sequence[Optional[float]]) -> Tuple[Optional[float], int]:
    """ADK's majority vote over per-sample 1.0 / 0.0 / ``None`` scores.

    Only 1.0 and 0.0 count. Nothing counted → ``None``; more positives than
    negatives → 1.0; otherwise, **ties included**, 0.0. Returns (score, index of
    the sample ADK would report: the first positive, first negative, or first one).
    """
    positives = [i for i, s in enumerate(scores) if s == 1.0]
    negatives = [i for i, s in enumerate(scores) if s is not None and s != 1.0]
    if not positives and not negatives:
        return None, 0
    if len(positives) > len(negatives):
        return 1.0, positives[0]
    return 0.0, negatives[0]
