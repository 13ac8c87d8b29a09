"""Comparing the arguments of two calls to the same tool.

One global :class:`~agent_evaluators.trajectory.modes.ArgsMode` plus optional
per-tool overrides, as agentevals/openevals 0.2.2 define them. Each override is

* a mode string (``"exact"``, ``"ignore"``, ``"subset"``, ``"superset"``);
* a list of dotted key paths (``["to", "filters.stars"]``): only those paths are
  compared, and a path missing on *either* side is a mismatch (openevals 0.2.2;
  agentevals 0.0.9 counted missing-on-both as equal);
* a callable ``(actual_args, expected_args) -> bool``.

A falsy override (``""``, ``[]``, ``None``) is ignored, as in openevals. An
invalid override is refused when the evaluator is built (openevals fails at call
time, and reads an unknown mode string as ``ignore``).

Values compare by value with one deliberate difference from Python's ``==``:
``1 == 1.0`` holds, but a bool is not a number, so ``True != 1``. The comparison
is deep (nested dicts and lists); list order matters.

``None`` arguments versus ``{}``: ADK compares ``FunctionCall.args`` with ``==``,
so in the ADK modes (exact / in_order / any_order) ``None`` and ``{}`` differ
under ``exact`` argument matching. In the openevals modes there is no ``None``:
openevals parses OpenAI ``arguments`` JSON into a dict and LangChain tool calls
always carry an ``args`` dict, so we read ``None`` as ``{}`` there. ``subset`` and
``superset`` read ``None`` as ``{}`` in every mode (no arguments given).
"""

from numbers import Number
from typing import Any, Callable, Dict, List, Mapping, Optional, Union

from ..errors import ConfigError
from .modes import ArgsMode, parse_args_mode

Args = Optional[Mapping[str, Any]]
ArgsMatcher = Callable[[Args, Args], bool]
ArgsOverride = Union[str, ArgsMode, List[str], ArgsMatcher]

_MISSING = object()


def _is_number(value: Any) -> bool:
    return isinstance(value, Number) and not isinstance(value, bool)


def values_equal(a: Any, b: Any) -> bool:
    """Deep equality where numbers compare by value and bools are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (Mapping, list, tuple)) or isinstance(b, (Mapping, list, tuple)):
        return False
    return bool(a == b)


def _contained(small: Args, big: Args) -> bool:
    """Every (key, value) of ``small`` is in ``big``; ``None`` reads as ``{}``."""
    small = small or {}
    big = big or {}
    return all(k in big and values_equal(v, big[k]) for k, v in small.items())


def _exact(actual: Args, expected: Args) -> bool:
    if actual is None or expected is None:
        return actual is None and expected is None
    return values_equal(actual, expected)


def _ignore(actual: Args, expected: Args) -> bool:
    return True


def _subset(actual: Args, expected: Args) -> bool:
    return _contained(actual, expected)


def _superset(actual: Args, expected: Args) -> bool:
    return _contained(expected, actual)


_MODE_MATCHERS: Dict[ArgsMode, ArgsMatcher] = {
    ArgsMode.EXACT: _exact,
    ArgsMode.IGNORE: _ignore,
    ArgsMode.SUBSET: _subset,
    ArgsMode.SUPERSET: _superset,
}


def _nested(args: Args, path: str) -> Any:
    current: Any = args
    for part in path.split("."):
        if not isinstance(current, Mapping) or part not in current:
            return _MISSING
        current = current[part]
    return current


def _key_path_matcher(paths: List[str]) -> ArgsMatcher:
    def match(actual: Args, expected: Args) -> bool:
        for path in paths:
            a, e = _nested(actual, path), _nested(expected, path)
            if a is _MISSING or e is _MISSING or not values_equal(a, e):
                return False
        return True

    match.__qualname__ = f"key_paths{paths!r}"
    return match


def _user_matcher(tool: str, fn: ArgsMatcher) -> ArgsMatcher:
    def match(actual: Args, expected: Args) -> bool:
        try:
            return bool(fn(actual, expected))
        except Exception as exc:  # a user's matcher bug should name the tool it broke on
            raise ConfigError(
                f"args_match_overrides[{tool!r}]: the matcher raised {type(exc).__name__}: {exc} "
                f"(called with actual_args={actual!r}, expected_args={expected!r})"
            ) from exc

    return match


class ArgsPolicy:
    """The global argument mode plus per-tool overrides, resolved to one matcher per tool name."""

    def __init__(self, mode: Union[str, ArgsMode] = ArgsMode.EXACT, overrides: Optional[Mapping[str, ArgsOverride]] = None):
        self.mode = parse_args_mode(mode)
        self._default = _MODE_MATCHERS[self.mode]
        self._matchers: Dict[str, ArgsMatcher] = {}
        self.overrides: Dict[str, Any] = {}
        if overrides is None:
            return
        if not isinstance(overrides, Mapping):
            raise ConfigError(f"args_match_overrides must map tool names to overrides, got {type(overrides).__name__}")
        for tool, override in overrides.items():
            if not isinstance(tool, str):
                raise ConfigError(f"args_match_overrides: tool names must be strings, got {tool!r}")
            if not override:
                continue  # openevals ignores falsy overrides and uses the global mode
            self._matchers[tool] = self._resolve(tool, override)
            self.overrides[tool] = override

    @staticmethod
    def _resolve(tool: str, override: Any) -> ArgsMatcher:
        if isinstance(override, (str, ArgsMode)):
            return _MODE_MATCHERS[parse_args_mode(override, what=f"args_match_overrides[{tool!r}] mode")]
        if isinstance(override, (list, tuple)):
            if not all(isinstance(p, str) and p for p in override):
                raise ConfigError(
                    f"args_match_overrides[{tool!r}]: a key-path list must hold non-empty strings, got {override!r}"
                )
            return _key_path_matcher(list(override))
        if callable(override):
            return _user_matcher(tool, override)
        raise ConfigError(
            f"args_match_overrides[{tool!r}] must be a mode string, a list of dotted key paths or a "
            f"callable (actual_args, expected_args) -> bool; got {type(override).__name__}"
        )

    def matcher_for(self, tool_name: str) -> ArgsMatcher:
        """The matcher for calls named ``tool_name`` (looked up by the expected call's name)."""
        return self._matchers.get(tool_name, self._default)

    def describe(self) -> Dict[str, Any]:
        """A JSON-friendly summary for result details."""
        return {"mode": self.mode.value, "overrides": {k: _describe_override(v) for k, v in self.overrides.items()}}


def _describe_override(value: Any) -> Any:
    if isinstance(value, ArgsMode):
        return value.value
    if isinstance(value, (str, list, tuple)):
        return value
    return getattr(value, "__name__", "callable")
