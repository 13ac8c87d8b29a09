"""Reading a run folder's ``summary.json`` back, checked: a file that was edited or damaged is a clear
error naming it (a :class:`~agent_evaluators.errors.ConfigError`, exit 2 in the CLI), never a traceback
from deep inside whatever reads it next (resume, report, compare, the dry-run estimate)."""

import json
from pathlib import Path
from typing import Any, Dict, Mapping, Optional

from ..errors import ConfigError

#: the top-level keys whose type the readers rely on (each may also be null, read as absent)
_TOP_LEVEL: Mapping[str, type] = {
    "status": str, "started_at": str, "finished_at": str, "config": dict, "versions": dict, "fingerprint": dict,
    "metrics": dict, "intervals": dict, "errors": list, "usage": dict, "estimate": dict, "noise": dict,
}
#: top-level objects whose values must each be an object (or null), as ``config.evaluators``' are
_OBJECTS_OF = ("usage", "intervals")


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__)


def summary_problem(data: Any) -> Optional[str]:
    """What about ``data`` (a parsed ``summary.json``) the readers cannot use, or ``None`` when nothing."""
    if not isinstance(data, dict):
        return f"it holds {_kind(data)}, not an object"
    for key, kind in _TOP_LEVEL.items():
        value = data.get(key)
        if value is not None and not isinstance(value, kind):
            return f"{key!r} is {_kind(value)}, not {_kind(kind())}"
    config = data.get("config") or {}
    for key in ("evaluators", "tags"):
        if config.get(key) is not None and not isinstance(config[key], dict):
            return f"'config.{key}' is {_kind(config[key])}, not an object"
    nested = {f"config.evaluators.{a}": v for a, v in (config.get("evaluators") or {}).items()}
    for key in _OBJECTS_OF:
        nested.update({f"{key}.{name}": v for name, v in (data.get(key) or {}).items()})
    fingerprint = data.get("fingerprint") or {}
    if fingerprint.get("evaluators") is not None and not isinstance(fingerprint["evaluators"], dict):
        return f"'fingerprint.evaluators' is {_kind(fingerprint['evaluators'])}, not an object"
    for where, value in nested.items():
        if value is not None and not isinstance(value, dict):
            return f"{where!r} is {_kind(value)}, not an object"
    for i, error in enumerate(data.get("errors") or []):
        if not isinstance(error, dict):
            return f"'errors[{i}]' is {_kind(error)}, not an object"
    return None


def read_summary(path: Path) -> Optional[Dict[str, Any]]:
    """``path`` (a ``summary.json``) parsed and checked; ``None`` when it does not exist.

    Raises:
        ConfigError: the file is not valid JSON, or not shaped as a run summary, naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: the run summary cannot be read ({type(exc).__name__}: {exc})") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc}); the run summary was damaged or edited. Restore it "
                          "from a copy, or move the run folder aside and run again") from None
    problem = summary_problem(data)
    if problem is not None:
        raise ConfigError(f"{path}: not a run summary agent-evaluators wrote ({problem}); it was damaged or edited. "
                          "Restore it from a copy, or move the run folder aside and run again")
    return dict(data)
