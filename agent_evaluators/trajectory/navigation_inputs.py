"""Reading the inputs of task navigation efficiency: the calls made, and the steps expected.

azure-ai-evaluation 1.18's ``_TaskNavigationEfficiencyEvaluator`` takes ``response`` (alias
``actions``) and ``ground_truth`` (alias ``expected_actions``); the canonical name wins when
both are given, and a string is read as JSON first (a CSV cell, an azureml-assets column).

* The calls come from any trajectory input our adapters read (message lists in every
  supported format, bare tool-call lists, ADK invocations), through
  :func:`~agent_evaluators.trajectory.read_input.read_trajectory_input`.
* The expected steps are a non-empty list of tool names, or a pair ``(names, parameters)``
  where ``parameters`` maps a tool name to the arguments its call must have. JSON has no
  tuples, so a two-item list ``[names, parameters]`` is read as that pair too (azure refuses
  it, which leaves a JSONL data file no way to give parameters).

Every refusal is an :class:`~agent_evaluators.errors.InputError` naming the input and
saying what to pass; azure raises on the same inputs.
"""

import json
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..conversation.models import ToolCall
from ..errors import InputError
from .read_input import read_trajectory_input

_EXPECTED_FORMS = (
    "a non-empty list of tool names, or a pair (names, parameters) where parameters maps a tool "
    'name to its expected arguments, e.g. [["search", "book"], {"search": {"city": "Paris"}}]'
)


@dataclass(frozen=True)
class ExpectedSteps:
    """The expected path: tool names (surrounding blanks stripped, as azure strips them) and,
    when given, the arguments each named tool's call must have (``None``: names only)."""

    names: List[str]
    parameters: Optional[Dict[str, Dict[str, Any]]] = None


def _pick(canonical: Any, alias: Any, canonical_name: str, alias_name: str) -> Tuple[Any, str]:
    """The canonical input unless it is missing and the alias is given (azure's rule)."""
    if canonical is None and alias is not None:
        return alias, alias_name
    return canonical, canonical_name


def _json_or_text(value: Any) -> Any:
    """A string holding JSON becomes its value; other strings stay as they are (azure's rule)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _error(evaluator: str, input_name: str, problem: str) -> InputError:
    return InputError(f"{evaluator}: {input_name}: {problem}", evaluator=evaluator, input_name=input_name)


def read_calls(value: Any, *, input_name: str, evaluator: str) -> List[ToolCall]:
    """The tool calls of ``value`` (messages, tool calls or ADK invocations; JSON text of them)."""
    value = _json_or_text(value)
    if value is None:
        raise _error(evaluator, input_name, "missing; pass the agent's messages (or its tool calls)")
    if isinstance(value, str):
        raise _error(evaluator, input_name, "is text that is not JSON; pass the agent's messages as a list "
                                            "(or JSON text of one)")
    return read_trajectory_input(value, input_name=input_name, evaluator=evaluator).calls


def _names(value: Any, *, input_name: str, evaluator: str) -> List[str]:
    if not isinstance(value, list) or not value:
        raise _error(evaluator, input_name, f"the tool names must be a non-empty list; pass {_EXPECTED_FORMS}")
    for i, name in enumerate(value):
        if not isinstance(name, str):
            raise _error(evaluator, input_name,
                         f"tool name {i} must be a string, got {type(name).__name__}; pass {_EXPECTED_FORMS}")
    return [name.strip() for name in value]


def _parameters(value: Any, *, input_name: str, evaluator: str) -> Dict[str, Dict[str, Any]]:
    if not isinstance(value, Mapping):
        raise _error(evaluator, input_name,
                     f"the parameters must map tool names to argument dicts, got {type(value).__name__}")
    for tool, params in value.items():
        if not isinstance(tool, str):
            raise _error(evaluator, input_name, f"the parameters' tool names must be strings, got {tool!r}")
        if not isinstance(params, Mapping):
            raise _error(evaluator, input_name,
                         f"the parameters of {tool!r} must be a dict of argument values, got {type(params).__name__}")
        for key, item in params.items():
            if not isinstance(key, str):
                raise _error(evaluator, input_name, f"the parameters of {tool!r} need string names, got {key!r}")
            try:
                json.dumps(item)
            except (TypeError, ValueError):
                raise _error(evaluator, input_name,
                             f"parameter {key!r} of {tool!r} is not a JSON value ({type(item).__name__})") from None
    return {tool: dict(params) for tool, params in value.items()}


def _is_pair(value: Any) -> bool:
    if isinstance(value, tuple):
        return True
    return isinstance(value, list) and len(value) == 2 and isinstance(value[0], list) and isinstance(value[1], dict)


def read_expected_steps(value: Any, *, input_name: str, evaluator: str) -> ExpectedSteps:
    """The expected steps of ``value``: tool names, or ``(names, parameters)``."""
    value = _json_or_text(value)
    if not value:
        raise _error(evaluator, input_name, f"missing or empty; pass {_EXPECTED_FORMS}")
    if _is_pair(value):
        if len(value) != 2:
            raise _error(evaluator, input_name,
                         f"a tuple must hold exactly two items (names, parameters), got {len(value)}")
        names = _names(value[0], input_name=input_name, evaluator=evaluator)
        return ExpectedSteps(names, _parameters(value[1], input_name=input_name, evaluator=evaluator))
    if isinstance(value, list):
        return ExpectedSteps(_names(value, input_name=input_name, evaluator=evaluator))
    raise _error(evaluator, input_name, f"got {type(value).__name__}; pass {_EXPECTED_FORMS}")


def read_navigation_inputs(
    *, response: Any, ground_truth: Any, actions: Any, expected_actions: Any, evaluator: str
) -> Tuple[List[ToolCall], ExpectedSteps]:
    """The calls made and the steps expected, from azure's inputs or their azureml-assets aliases."""
    made, made_name = _pick(response, actions, "response", "actions")
    wanted, wanted_name = _pick(ground_truth, expected_actions, "ground_truth", "expected_actions")
    calls = read_calls(made, input_name=made_name, evaluator=evaluator)
    return calls, read_expected_steps(wanted, input_name=wanted_name, evaluator=evaluator)
