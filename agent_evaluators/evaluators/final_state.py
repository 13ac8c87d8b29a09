"""``FinalStateMatchEvaluator``: did the agent leave the world as it should?

A trajectory says what the agent *did*; the end state says what it *left behind*: the
final session state of an ADK run (compared with the eval case's ``final_session_state``),
a state dict a callable agent returns, or a ``final_state`` column in data (compared with
``expected_state``). Deterministic, no judge.

Modes:

* ``subset`` (default): every expected key is present with an equal value; other keys the
  agent wrote are fine (an ADK session also holds the state the case started with);
* ``exact``: the same keys and equal values; a key the agent wrote that is not expected is a
  mismatch too;
* per-key ``rules`` (with either mode) replace the plain equality for their keys:
  ``{"equals": v}``, ``{"present": true}``, ``{"absent": true}``,
  ``{"approx": 3.5, "tolerance": 0.01}`` (numbers within an absolute tolerance) or
  ``{"regex": "^Tok"}`` (a string value matching, ``re.search``). A rule's key need not be
  in the expected state.

The score is the share of checks that held (a check per expected key, per rule and, in
``exact`` mode, per unexpected key), so 1.0 is a perfect match; ``details["mismatches"]``
lists each key that failed with what was expected and what was found.
"""

import math
import re
from typing import Any, ClassVar, Dict, List, Mapping, Optional, Tuple

from ..errors import ConfigError, InputError
from .base import Evaluator, Outcome

STATE_MODES = ("subset", "exact")
RULE_KINDS = ("equals", "present", "absent", "approx", "regex")
_MISSING = object()


def _check_rule(key: str, rule: Any) -> Mapping[str, Any]:
    """A rule as given, checked now so a typo fails the run before anything is scored."""
    where = f"FinalStateMatchEvaluator: rule for key {key!r}"
    if not isinstance(rule, Mapping) or len([k for k in rule if k in RULE_KINDS]) != 1:
        raise ConfigError(f"{where}: write one of {', '.join(RULE_KINDS)} as an object, e.g. "
                          f'{{"equals": "Paris"}}, {{"present": true}} or {{"approx": 3.5, "tolerance": 0.01}}; got {rule!r}')
    unknown = [k for k in rule if k not in RULE_KINDS and k != "tolerance"]
    if unknown:
        raise ConfigError(f"{where}: unknown field {unknown[0]!r} (known: {', '.join(RULE_KINDS)}, tolerance)")
    if "approx" in rule:
        numbers = (rule["approx"], rule.get("tolerance", 0.0))
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in numbers) or numbers[1] < 0:
            raise ConfigError(f"{where}: approx and tolerance must be numbers (tolerance >= 0); got {dict(rule)!r}")
    if "regex" in rule:
        try:
            re.compile(str(rule["regex"]))
        except re.error as exc:
            raise ConfigError(f"{where}: invalid regex {rule['regex']!r}: {exc}") from None
    return rule


def _holds(rule: Mapping[str, Any], found: Any) -> bool:
    if "present" in rule:
        return (found is not _MISSING) == bool(rule["present"])
    if "absent" in rule:
        return (found is _MISSING) == bool(rule["absent"])
    if found is _MISSING:
        return False
    if "approx" in rule:
        if isinstance(found, bool) or not isinstance(found, (int, float)):
            return False
        return math.isclose(float(found), float(rule["approx"]), rel_tol=0.0, abs_tol=float(rule.get("tolerance", 0.0)))
    if "regex" in rule:
        return isinstance(found, str) and re.search(str(rule["regex"]), found) is not None
    return bool(found == rule["equals"])


def _shown(value: Any) -> Any:
    return "<absent>" if value is _MISSING else value


class FinalStateMatchEvaluator(Evaluator):
    """Compare the agent's final state with the expected one (``subset``/``exact``, per-key ``rules``).

    Inputs: ``final_state`` (what the agent left) and ``expected_state``. An empty or missing
    expected state with no rules is not applicable (nothing was asked of the end state).
    """

    result_key: ClassVar[str] = "final_state_match"
    default_threshold: ClassVar[float] = 1.0
    score_scale: ClassVar[Optional[Tuple[float, float]]] = (0.0, 1.0)

    def __init__(self, *, mode: str = "subset", rules: Optional[Mapping[str, Any]] = None,
                 threshold: Optional[float] = None) -> None:
        super().__init__(threshold=threshold)
        if mode not in STATE_MODES:
            raise ConfigError(f"FinalStateMatchEvaluator: mode must be one of {', '.join(STATE_MODES)}, got {mode!r}")
        if rules is not None and not isinstance(rules, Mapping):
            raise ConfigError(f"FinalStateMatchEvaluator: rules must map state keys to rules, got {type(rules).__name__}")
        self.mode = mode
        self.rules: Dict[str, Mapping[str, Any]] = {str(k): _check_rule(str(k), r) for k, r in (rules or {}).items()}

    def _repr_extra(self) -> Dict[str, Any]:
        return {"mode": self.mode, "rules": self.rules or None}

    def _evaluate(self, *, final_state: Optional[Dict[str, Any]] = None,
                  expected_state: Optional[Dict[str, Any]] = None) -> Outcome:
        expected = self._state(expected_state, "expected_state") or {}
        if not expected and not self.rules:
            return Outcome(None, reason="no expected state was given: nothing to compare", not_applicable=True)
        if final_state is None:
            raise InputError("FinalStateMatchEvaluator: final_state is missing: give the state the agent left "
                             "(an ADK run records its session state; a callable agent returns {'state': {...}})",
                             input_name="final_state")
        actual = self._state(final_state, "final_state") or {}
        checks, mismatches = self.compare(actual, expected)
        score = (checks - len(mismatches)) / checks if checks else 1.0
        reason = (f"all {checks} check(s) of the final state held ({self.mode})" if not mismatches else
                  f"{len(mismatches)} of {checks} check(s) of the final state failed ({self.mode}): "
                  + ", ".join(m["key"] for m in mismatches))
        return Outcome(score, reason=reason, details={"mode": self.mode, "checks": checks, "mismatches": mismatches})

    def compare(self, actual: Mapping[str, Any], expected: Mapping[str, Any]) -> Tuple[int, List[Dict[str, Any]]]:
        """(number of checks, the failed ones: ``key``, ``check``, ``expected``, ``found``)."""
        mismatches: List[Dict[str, Any]] = []
        checks = 0
        for key in list(expected) + [k for k in self.rules if k not in expected]:
            rule = self.rules.get(key) or {"equals": expected[key]}
            found = actual.get(key, _MISSING)
            checks += 1
            if not _holds(rule, found):
                (kind,) = [k for k in rule if k in RULE_KINDS]
                mismatches.append({"key": key, "check": kind, "expected": rule[kind], "found": _shown(found)})
        if self.mode == "exact":
            for key in actual:
                if key not in expected and key not in self.rules:
                    checks += 1
                    mismatches.append({"key": key, "check": "unexpected", "expected": "<absent>", "found": actual[key]})
        return checks, mismatches

    @staticmethod
    def _state(value: Any, name: str) -> Optional[Dict[str, Any]]:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise InputError(f"FinalStateMatchEvaluator: {name} must be a JSON object (a dict of state keys), "
                             f"got {type(value).__name__}", input_name=name)
        return dict(value)
