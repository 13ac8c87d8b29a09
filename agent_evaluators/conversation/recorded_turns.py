"""Agent runs recorded turn by turn: the form in which two runs are compared one turn at a time.

Some formats record a run as a list of per-turn records rather than one message list (Google
ADK's invocations: each holds the user's message, the tool calls the agent made in that turn and
its final answer). When *both* sides of a comparison come in such a format, the trajectory and
response-match metrics compare them turn by turn and average, as ADK does; otherwise they compare
whole runs. The formats are read by the wings that know them
(:data:`agent_evaluators.plugins.TURN_FORMATS`); the metrics see only :class:`RecordedTurn`.
"""

from dataclasses import dataclass
from typing import Any, List, Optional

from .. import plugins
from .models import ToolCall


@dataclass(frozen=True)
class RecordedTurn:
    """One turn of a recorded run: the calls the agent made in it and its final answer."""

    turn_id: Optional[str]
    tool_calls: List[ToolCall]
    final_text: str


def read_recorded_turns(value: Any, *, input_name: str) -> Optional[List[RecordedTurn]]:
    """``value`` as recorded turns when a turn format recognises it (one record or a list of them),
    else ``None``; a recognised but invalid record raises :class:`~agent_evaluators.errors.InputError`
    naming ``input_name``."""
    for target in plugins.TURN_FORMATS:
        turns: Optional[List[RecordedTurn]] = plugins.load(target)(value, input_name=input_name)
        if turns is not None:
            return turns
    return None
