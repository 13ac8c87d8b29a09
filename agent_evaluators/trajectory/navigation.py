"""Task navigation efficiency: azure-ai-evaluation 1.18's three matching modes on our matching core.

azure's ``_TaskNavigationEfficiencyEvaluator`` compares the agent's tool calls, read as *steps*,
with the expected steps. A step is a tool name; when expected parameters are given it is a
tool name with its whole argument dict. The three matching modes are our ADK matchers
(:func:`~agent_evaluators.trajectory.matching.match_trajectory`) on those steps:

================  ===========  ==============================================================
azure mode        our mode     passes when
================  ===========  ==============================================================
exact_match       exact        the steps equal the expected ones: same order, nothing extra
in_order_match    in_order     the expected steps are a subsequence of the steps made
any_order_match   any_order    the expected steps are a sub-multiset of the steps made
================  ===========  ==============================================================

Precision, recall and F1 ignore the mode and the order: each call counts for at most one
expected step (the maximum matching of the ``any_order`` matcher, which under step equality
is azure's per-step minimum of the two counts), and no calls at all gives 0.0 for all three,
as azure gives.

Steps compare as azure compares them, so the numbers are azure's: names with surrounding
blanks stripped; with parameters, a call's *whole* argument dict must equal the tool's
expected parameters (a tool named without parameters expects a call without arguments, and
an extra argument is a mismatch), each value compared as text: strings as they are, dicts and
lists as JSON with sorted keys, anything else as ``str()`` (so ``1`` equals ``"1"`` and
``1.0`` does not equal ``1``).
"""

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any, Dict, List, Mapping, Optional

from ..conversation.models import ToolCall
from ..errors import ConfigError
from .args import ArgsPolicy
from .matching import TrajectoryMatch, match_trajectory
from .modes import ArgsMode, TrajectoryMode
from .navigation_inputs import ExpectedSteps


class TaskNavigationEfficiencyMatchingMode(str, Enum):
    """azure-ai-evaluation's matching modes (its ``_TaskNavigationEfficiencyMatchingMode``, same names and values)."""

    EXACT_MATCH = "exact_match"  # same steps, same order, no extra steps
    IN_ORDER_MATCH = "in_order_match"  # expected steps in order, extra steps allowed
    ANY_ORDER_MATCH = "any_order_match"  # expected steps as often as expected, any order, extras allowed


Mode = TaskNavigationEfficiencyMatchingMode

_CORE_MODE: Dict[Mode, TrajectoryMode] = {
    Mode.EXACT_MATCH: TrajectoryMode.EXACT,
    Mode.IN_ORDER_MATCH: TrajectoryMode.IN_ORDER,
    Mode.ANY_ORDER_MATCH: TrajectoryMode.ANY_ORDER,
}
# Our trajectory evaluator's spellings, accepted where the caller allows them.
_SHORT_NAMES = {"exact": Mode.EXACT_MATCH, "in_order": Mode.IN_ORDER_MATCH, "any_order": Mode.ANY_ORDER_MATCH}

_NAMES_ONLY = ArgsPolicy(ArgsMode.IGNORE)
_WHOLE_ARGUMENTS = ArgsPolicy(ArgsMode.EXACT)


def parse_matching_mode(value: Any, *, evaluator: str, azure_spellings_only: bool = False) -> Mode:
    """The matching mode ``value`` names (the enum, azure's enum, or its value).

    ``azure_spellings_only`` accepts exactly what azure accepts (the enum or its exact value);
    otherwise case, ``-`` and blanks are forgiven and our ``exact`` / ``in_order`` /
    ``any_order`` are accepted too. Anything else is a :class:`ConfigError`.
    """
    if isinstance(value, Mode):
        return value
    if isinstance(value, str):
        text = str(value.value) if isinstance(value, Enum) else value  # azure's enum members are strs too
        try:
            return Mode(text)
        except ValueError:
            pass
        if not azure_spellings_only:
            key = text.strip().lower().replace("-", "_").replace(" ", "_")
            if key in _SHORT_NAMES:
                return _SHORT_NAMES[key]
            try:
                return Mode(key)
            except ValueError:
                pass
    allowed = ", ".join(repr(m.value) for m in Mode)
    raise ConfigError(f"{evaluator}: matching_mode must be one of {allowed} "
                      f"(or TaskNavigationEfficiencyMatchingMode), got {value!r}")


def _as_text(value: Any) -> str:
    """One argument value as azure compares it (its ``_normalize_param_value``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (dict, list)):
        try:
            return json.dumps(value, sort_keys=True)
        except (TypeError, ValueError):
            return str(value)
    return str(value)


def _step(name: str, arguments: Optional[Mapping[str, Any]], with_arguments: bool) -> ToolCall:
    args = {str(k): _as_text(v) for k, v in (arguments or {}).items()} if with_arguments else None
    return ToolCall.model_construct(name=name.strip(), arguments=args, id=None)


@dataclass
class NavigationResult:
    """The verdict of one comparison, with azure's precision / recall / F1 and the evidence."""

    mode: Mode
    passed: bool
    precision: float
    recall: float
    f1: float
    counted: TrajectoryMatch  # the order-free matching that precision and recall count
    calls: List[ToolCall]  # the calls as made (arguments as given, for the evidence)
    expected: ExpectedSteps

    @property
    def score(self) -> float:
        return 1.0 if self.passed else 0.0

    def _expected_args(self, index: int) -> Optional[Dict[str, Any]]:
        if self.expected.parameters is None:
            return None
        return self.expected.parameters.get(self.expected.names[index], {})

    def details(self) -> Dict[str, Any]:
        """JSON-friendly evidence for ``<key>_details``: matched, missing and extra steps (order-free)."""
        with_args = self.expected.parameters is not None
        return {
            "matching_mode": self.mode.value,
            "parameters_compared": with_args,
            "passed": self.passed,
            "actual_steps": len(self.calls),
            "expected_steps": len(self.expected.names),
            "matched": [{"actual_index": a, "expected_index": e, "name": self.expected.names[e]}
                        for a, e in self.counted.pairs],
            "missing": [{"expected_index": j, "name": self.expected.names[j], "arguments": self._expected_args(j)}
                        for j in self.counted.missing],
            "extra": [{"actual_index": i, "name": self.calls[i].name.strip(),
                       "arguments": self.calls[i].arguments if with_args else None}
                      for i in self.counted.extra],
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }

    def reason(self) -> str:
        """One sentence: the verdict, how many expected steps were made, and what went wrong."""
        n_expected = len(self.expected.names)
        head = f"{self.mode.value}: {'pass' if self.passed else 'fail'}; " \
               f"{len(self.counted.pairs)} of {n_expected} expected step(s) made"
        parts = [head]
        if self.counted.missing:
            parts.append("missing " + ", ".join(_show(self.expected.names[j], self._expected_args(j))
                                                for j in self.counted.missing))
        if self.counted.extra:
            with_args = self.expected.parameters is not None
            parts.append(f"{len(self.counted.extra)} extra call(s): " + ", ".join(
                _show(self.calls[i].name.strip(), self.calls[i].arguments if with_args else None)
                for i in self.counted.extra))
        if not self.passed and not self.counted.missing:
            if self.mode is Mode.EXACT_MATCH and self.counted.extra:
                parts.append("exact_match allows no extra calls")
            else:
                parts.append("every expected step was made, but not in the expected order")
        return "; ".join(parts)


def _show(name: str, arguments: Optional[Mapping[str, Any]]) -> str:
    if not arguments:
        return f"{name}()"
    return f"{name}(" + ", ".join(f"{k}={v!r}" for k, v in arguments.items()) + ")"


def navigate(calls: List[ToolCall], expected: ExpectedSteps, mode: Mode) -> NavigationResult:
    """Compare the calls made with the expected steps under ``mode`` (see the module docstring)."""
    with_args = expected.parameters is not None
    params = expected.parameters or {}
    made = [_step(c.name, c.arguments, with_args) for c in calls]
    wanted = [_step(n, params.get(n, {}), with_args) for n in expected.names]
    policy = _WHOLE_ARGUMENTS if with_args else _NAMES_ONLY
    core_mode = _CORE_MODE[mode]
    counted = match_trajectory(made, wanted, mode=TrajectoryMode.ANY_ORDER, args=policy)
    verdict = counted if core_mode is TrajectoryMode.ANY_ORDER else match_trajectory(
        made, wanted, mode=core_mode, args=policy)
    hits = len(counted.pairs)
    precision = hits / len(made) if made else 0.0
    recall = hits / len(wanted) if made and wanted else 0.0
    f1 = (2 * precision * recall) / (precision + recall) if precision + recall > 0 else 0.0
    return NavigationResult(mode, verdict.passed, precision, recall, f1, counted, list(calls), expected)
