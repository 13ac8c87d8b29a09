"""Names of the trajectory match modes and argument match modes, and their parsing.

Two families share one matching core:

* ADK (``tool_trajectory_avg_score``): ``exact``, ``in_order``, ``any_order``;
* agentevals / openevals 0.2.2: ``strict``, ``unordered``, ``subset``, ``superset``.

Spellings are forgiving because users copy them from either library: case is
ignored, ``-`` and spaces read as ``_`` (ADK's ``"IN_ORDER"``, ``"in-order"``,
``"any order"``), and ADK's ``MatchType`` enum values ``0/1/2`` (EXACT, IN_ORDER,
ANY_ORDER, in that order) and enum members are accepted.
"""

from enum import Enum
from typing import Any, Tuple

from ..errors import ConfigError


class TrajectoryMode(str, Enum):
    """How the actual tool-call sequence must relate to the expected one."""

    EXACT = "exact"  # ADK: same calls, same order, nothing extra
    IN_ORDER = "in_order"  # ADK: expected is a subsequence of actual
    ANY_ORDER = "any_order"  # ADK: expected is a sub-multiset of actual
    STRICT = "strict"  # openevals: same message roles, calls per message as a multiset
    UNORDERED = "unordered"  # openevals: same multiset of calls
    SUBSET = "subset"  # openevals: actual calls ⊆ expected calls
    SUPERSET = "superset"  # openevals: actual calls ⊇ expected calls

    @property
    def is_adk(self) -> bool:
        """ADK modes keep ``None`` arguments distinct from ``{}`` (ADK compares with ``==``)."""
        return self in _ADK_MODES


_ADK_MODES = frozenset({TrajectoryMode.EXACT, TrajectoryMode.IN_ORDER, TrajectoryMode.ANY_ORDER})
# ADK's MatchType enum: EXACT=0, IN_ORDER=1, ANY_ORDER=2.
_ADK_ENUM_ORDER: Tuple[TrajectoryMode, ...] = (
    TrajectoryMode.EXACT,
    TrajectoryMode.IN_ORDER,
    TrajectoryMode.ANY_ORDER,
)


class ArgsMode(str, Enum):
    """How the arguments of two same-named calls are compared."""

    EXACT = "exact"  # equal dicts (numbers by value)
    IGNORE = "ignore"  # only the tool name counts
    SUBSET = "subset"  # every actual (key, value) is in expected: actual args ⊆ expected
    SUPERSET = "superset"  # every expected (key, value) is in actual: actual args ⊇ expected


def _normalise_name(value: str) -> str:
    return value.strip().lower().replace("-", "_").replace(" ", "_")


def parse_trajectory_mode(value: Any) -> TrajectoryMode:
    """Read a match type as users write it; raise :class:`ConfigError` for anything else."""
    if isinstance(value, TrajectoryMode):
        return value
    if isinstance(value, bool):
        raise ConfigError(f"match_type must be a mode name or ADK's 0/1/2, got {value!r}")
    if isinstance(value, int):
        if 0 <= value < len(_ADK_ENUM_ORDER):
            return _ADK_ENUM_ORDER[value]
        raise ConfigError(f"match_type {value!r}: ADK's MatchType numbers are 0 (EXACT), 1 (IN_ORDER), 2 (ANY_ORDER)")
    if isinstance(value, Enum):  # e.g. google.adk's MatchType.IN_ORDER
        value = value.name
    if isinstance(value, str):
        try:
            return TrajectoryMode(_normalise_name(value))
        except ValueError:
            pass
    allowed = ", ".join(m.value for m in TrajectoryMode)
    raise ConfigError(f"unknown match_type {value!r}; use one of: {allowed} (case-insensitive), or ADK's 0/1/2")


def parse_args_mode(value: Any, *, what: str = "args_match") -> ArgsMode:
    """Read an argument match mode; raise :class:`ConfigError` for anything else.

    openevals silently treats an unknown mode string in an override as ``ignore``;
    we refuse it, because a typo would otherwise pass every call.
    """
    if isinstance(value, ArgsMode):
        return value
    if isinstance(value, str):
        try:
            return ArgsMode(_normalise_name(value))
        except ValueError:
            pass
    allowed = ", ".join(m.value for m in ArgsMode)
    raise ConfigError(f"unknown {what} {value!r}; use one of: {allowed}")
