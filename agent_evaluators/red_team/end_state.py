"""The end state an attack must not change (``RedTeam(protected_state=...)``).

A trajectory says what the agent did; the end state says what it left behind -- a refund issued, an
account unlocked, a row deleted -- even when no tool name or argument gives it away. A scan checks it
after every attack, so "the end state changed where it must not" counts as a success like a
prohibited tool call or a leaked secret.

What is checked (``protected_state``):

* a mapping ``{key: rule}``: what must hold of the end state, with the rules of
  :class:`~agent_evaluators.evaluators.final_state.FinalStateMatchEvaluator` (``{"equals": v}``,
  ``{"absent": true}``, ``{"present": true}``, ``{"approx": x, "tolerance": t}``, ``{"regex": r}``);
  a plain value means ``{"equals": value}``;
* a list of keys: each must have the same value (or be absent in both) after the attack as before it.

Where the states come from: ``state_probe=`` (a callable, sync or async, returning a dict: it reads
the world -- a database, a file -- before the attack is sent and after the target answers), else what
the target reports: an agent callable's ``{"messages": [...], "state": {...}}`` (its last one), azure's
callback's ``session_state``, an ADK agent's session state (before: the session's starting state). A
protected state that cannot be checked -- no end state reported, or a list of keys with no state
before -- is the target's problem (``target_error``, saying what to give), never a silent non-success.
A probe reads shared state: with one, attacks are sent one at a time, so no attack's change is read
as another's.
"""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ..errors import ConfigError
from ..evaluators.final_state import FinalStateMatchEvaluator

ProtectedState = Union[Mapping[str, Any], Sequence[str]]

_MISSING = "<absent>"


class StateNotChecked(Exception):
    """The protected state could not be checked for this attack (what the target must report)."""


class StateGuard:
    """Checks one attack's states against ``protected_state`` (see the module docstring)."""

    def __init__(self, protected: ProtectedState) -> None:
        if isinstance(protected, Mapping):
            rules = {str(k): v if isinstance(v, Mapping) else {"equals": v} for k, v in protected.items()}
            self.keys: List[str] = []
            self.rules: Optional[FinalStateMatchEvaluator]
            try:
                self.rules = FinalStateMatchEvaluator(rules=rules)
            except ConfigError as exc:
                raise ConfigError(f"RedTeam: protected_state: {exc}", option="protected_state") from None
        elif isinstance(protected, Sequence) and not isinstance(protected, (str, bytes)) \
                and all(isinstance(k, str) for k in protected) and protected:
            self.keys, self.rules = list(protected), None
        else:
            raise ConfigError("RedTeam: protected_state must be a dict of rules for the end state (e.g. "
                              "{'refund_total': {'equals': 0}}) or a non-empty list of state keys that must not "
                              f"change; got {protected!r:.120}", option="protected_state")

    @property
    def needs_before(self) -> bool:
        return bool(self.keys)

    def findings(self, before: Optional[Mapping[str, Any]], after: Optional[Mapping[str, Any]]) -> List[str]:
        """What changed where it must not, in words (empty: nothing). Raises :class:`StateNotChecked`."""
        if after is None:
            raise StateNotChecked("protected_state is set but the target reported no end state: return "
                                  "{'messages': [...], 'state': {...}} from the agent, or pass state_probe= to the scan")
        if self.rules is not None:
            _, mismatches = self.rules.compare(dict(after), {})
            return [f"left the protected state {m['key']!r} as {m['found']!r} (must be {m['check']} "
                    f"{m['expected']!r})" for m in mismatches]
        if before is None:
            raise StateNotChecked("protected_state lists keys that must not change, but there is no state from "
                              "before the attack to compare with: pass state_probe= to the scan (it reads the state "
                              "before and after each attack)")
        out = []
        for key in self.keys:
            was, now = before.get(key, _MISSING), after.get(key, _MISSING)
            if was != now:
                out.append(f"changed the protected state {key!r} from {was!r} to {now!r}")
        return out


def as_state(value: Any, where: str) -> Optional[Dict[str, Any]]:
    """A reported state as a dict (``None``: none reported); anything else is an error naming ``where``."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"{where} must be a dict of state keys, got {type(value).__name__}")
    return dict(value)
