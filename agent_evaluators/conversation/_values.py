"""Small value helpers shared by the adapters: argument decoding, JSON text, error building.

Kept apart from the format parsers so each parser reads as "which keys mean what".
"""

import json
from typing import Any, Dict, Optional

from ..errors import InputError


def input_error(input_name: str, where: str, problem: str) -> InputError:
    """An InputError that points at ``where`` (e.g. ``response[3].tool_calls[0]``) inside ``input_name``."""
    return InputError(f"{where}: {problem}", input_name=input_name)


def parse_arguments(raw: Any, *, input_name: str, where: str, tool: str) -> Optional[Dict[str, Any]]:
    """Tool-call arguments as a dict, or ``None`` when none were given.

    ``None`` stays ``None`` (ADK compares it differently from ``{}``); a JSON string is
    decoded (OpenAI sends arguments that way); an empty string means "called with no
    arguments" and becomes ``{}``. Anything that is not an object is an error, because a
    silently wrong argument dict would make every argument comparison wrong.
    """
    if raw is None:
        return None
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        if not raw.strip():
            return {}
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise input_error(
                input_name,
                where,
                f"arguments of tool call {tool!r} are not valid JSON ({exc.msg} at position {exc.pos}); "
                "pass a JSON object or a JSON string of one",
            ) from None
        except RecursionError:  # json.loads gives up on nesting deeper than the recursion limit
            raise input_error(
                input_name, where, f"arguments of tool call {tool!r} are nested too deeply to read as JSON"
            ) from None
        if value is None:
            return None
        if not isinstance(value, dict):
            raise input_error(
                input_name, where, f"arguments of tool call {tool!r} must be a JSON object, got {type(value).__name__}"
            )
        return value
    if hasattr(raw, "items"):
        return dict(raw.items())
    raise input_error(
        input_name, where, f"arguments of tool call {tool!r} must be a dict or a JSON string, got {type(raw).__name__}"
    )


def json_default(value: Any) -> Any:
    """``json.dumps`` fallback: pydantic models, dataclasses, sets and bytes as JSON, never a Python repr
    except as the very last resort for exotic objects (then ``str``)."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_none=True)
    if hasattr(value, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, (bytes, bytearray)):
        return value.decode("utf-8", errors="replace")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def to_json_text(value: Any) -> Optional[str]:
    """Text form of a tool result: strings as they are, anything else as compact JSON."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=json_default)
