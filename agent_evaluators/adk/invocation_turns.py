"""ADK invocations read as recorded turns, for the metrics that compare runs turn by turn.

An input is ADK invocations when it is one invocation or a non-empty list of them: our
:class:`~agent_evaluators.adk.models.Invocation`, a dict with ADK's keys (snake_case or camelCase,
either ``intermediate_data`` form, and no ``role``), or google-adk's own pydantic ``Invocation``.
The core finds this reader through :data:`agent_evaluators.plugins.TURN_FORMATS`.
"""

from typing import Any, List, Optional

from ..conversation.recorded_turns import RecordedTurn
from ..errors import InputError
from .convert import as_invocations, final_response_text, tool_calls
from .models import Invocation

_INVOCATION_KEYS = frozenset(
    {"user_content", "userContent", "final_response", "finalResponse", "intermediate_data", "intermediateData"}
)


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


def read_invocations(value: Any, *, input_name: str) -> Optional[List[RecordedTurn]]:
    """ADK invocations as :class:`RecordedTurn` s, or ``None`` when ``value`` is not ADK invocations."""
    invocations = invocations_or_none(value, input_name=input_name)
    if invocations is None:
        return None
    return [RecordedTurn(inv.invocation_id or None, tool_calls(inv), final_response_text(inv)) for inv in invocations]
