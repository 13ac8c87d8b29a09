"""Callable argument matchers used by the override cases of the trajectory reference table.

JSON cannot hold a function, so a table case names its callable override as
``{"callable": "<name>"}``. The generator (run in the openevals venv) and our tests
both resolve the name here, so the two sides run the very same function.
"""

from typing import Any, Callable, Dict, Optional


def same_city_ignoring_case(actual: Optional[Dict[str, Any]], expected: Optional[Dict[str, Any]]) -> bool:
    return str((actual or {}).get("city", "")).lower() == str((expected or {}).get("city", "")).lower()


def destination_only(actual: Optional[Dict[str, Any]], expected: Optional[Dict[str, Any]]) -> bool:
    return (actual or {}).get("to") == (expected or {}).get("to")


def actual_has_no_more_keys(actual: Optional[Dict[str, Any]], expected: Optional[Dict[str, Any]]) -> bool:
    """Asymmetric on purpose: shows which side each argument comes from."""
    return len(actual or {}) <= len(expected or {})


CALLABLES: Dict[str, Callable[[Any, Any], bool]] = {
    "same_city_ignoring_case": same_city_ignoring_case,
    "destination_only": destination_only,
    "actual_has_no_more_keys": actual_has_no_more_keys,
}


def resolve_overrides(encoded: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """Turn a table's encoded overrides into real ones (``{"callable": name}`` → the function)."""
    if encoded is None:
        return None
    return {
        tool: CALLABLES[value["callable"]] if isinstance(value, dict) else value for tool, value in encoded.items()
    }
