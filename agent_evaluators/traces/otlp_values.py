"""The values inside an OTLP/JSON span, decoded, or refused with a message naming the field.

Why strict: a trace file comes from an exporter we do not control, and one odd value used to end
the whole read in a traceback (``int("abc")``, ``int(float("inf"))``, a list where a dict was
expected, recursion on a 100,000-deep value). Each decoder here either returns the plain value or
raises :class:`TraceDataError` saying which field held what, so the reader can make that span's
trace an error row and go on with the other traces. Nesting is bounded (:data:`MAX_DEPTH`), so
nothing here or downstream (``json.dumps`` of a tool result) can run out of stack.

The forms accepted are the ones OTLP/JSON and protobuf's generic JSON mapping write: ``intValue``
as a decimal string or a JSON integer within int64, ``doubleValue`` as a number or ``"NaN"`` /
``"Infinity"`` / ``"-Infinity"``, ids as hex or base64 of the right length.
"""

import base64
import binascii
import math
import re
from typing import Any, Dict, List, Optional

#: how deep an attribute value (arrays and key-value lists) or a JSON text inside one may nest
MAX_DEPTH = 100
_INT64 = (-(2**63), 2**63 - 1)
_INT_TEXT = re.compile(r"-?[0-9]+")
#: digits beyond which a number is out of int64 range without converting it (int() refuses 4,300)
_MAX_DIGITS = 20
_DOUBLE_WORDS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_NUMBER_TEXT = re.compile(r"-?[0-9]{1,400}(\.[0-9]{1,400})?([eE][-+]?[0-9]{1,5})?")
_HEX = re.compile(r"[0-9a-fA-F]+")


class TraceDataError(ValueError):
    """A value in a trace file that cannot be read; the message names the field and what it held."""


def shown(value: Any, limit: int = 40) -> str:
    """A value as a message quotes it: ``repr``, cut to ``limit`` characters (a 20 MB string stays short).
    Containers are named by type, never walked (one may nest deeper than ``repr`` can go)."""
    if isinstance(value, (dict, list)):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + f"… ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _int(item: Any) -> int:
    if isinstance(item, bool):
        raise TraceDataError(f"intValue {shown(item)} is a boolean, not an integer")
    if isinstance(item, float):
        if not math.isfinite(item) or not item.is_integer():
            raise TraceDataError(f"intValue {shown(item)} is not an integer")
        item = int(item)
    elif isinstance(item, str):
        if not _INT_TEXT.fullmatch(item):
            raise TraceDataError(f"intValue {shown(item)} is not an integer")
        if len(item.lstrip("-")) > _MAX_DIGITS:
            raise TraceDataError(f"intValue {shown(item)} is outside OTLP's 64-bit integer range")
        item = int(item)
    elif not isinstance(item, int):
        raise TraceDataError(f"intValue is {shown(item)}, not an integer")
    if not _INT64[0] <= item <= _INT64[1]:
        raise TraceDataError(f"intValue {shown(item)} is outside OTLP's 64-bit integer range")
    return item


def _double(item: Any) -> float:
    if isinstance(item, str) and item in _DOUBLE_WORDS:
        return _DOUBLE_WORDS[item]
    if isinstance(item, str) and _NUMBER_TEXT.fullmatch(item):  # protobuf's JSON reads a quoted number too
        item = float(item)
    if isinstance(item, bool) or not isinstance(item, (int, float)):
        raise TraceDataError(f"doubleValue {shown(item)} is not a number")
    try:
        return float(item)
    except OverflowError:  # an integer with hundreds of digits
        raise TraceDataError(f"doubleValue {shown(item)} is beyond a double's range") from None


def token_count(value: Any, name: str) -> Optional[int]:
    """A token count attribute: a whole number of tokens, at least 0 (``None`` when absent).

    Why refuse the rest: the count is summed into the run's usage and the efficiency metrics
    score it; an ``Infinity`` or ``-5`` there would be reported as if the agent had spent it."""
    if value is None:
        return None
    if isinstance(value, str) and _INT_TEXT.fullmatch(value.strip()) and len(value.strip()) <= _MAX_DIGITS:
        value = int(value.strip())
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TraceDataError(f"attribute {name!r} is {shown(value)}, not a token count (a whole number, at least 0)")
    return value


def _typed(kind: str, item: Any, python: type) -> Any:
    if not isinstance(item, python) or (python is str and isinstance(item, bool)):
        raise TraceDataError(f"{kind} is {shown(item)}, not a {'string' if python is str else 'boolean'}")
    return item


def _bytes(item: Any) -> str:
    if not isinstance(item, str):
        raise TraceDataError(f"bytesValue is {shown(item)}, not base64 text")
    try:
        base64.b64decode(item, validate=True)
    except (binascii.Error, ValueError):
        raise TraceDataError(f"bytesValue {shown(item)} is not base64") from None
    return item


def _values(kind: str, item: Any) -> List[Any]:
    """The ``values`` list of an ``arrayValue`` / ``kvlistValue`` (``{}`` and a missing list are empty)."""
    if not isinstance(item, dict):
        raise TraceDataError(f"{kind} is {shown(item)}, not an object holding \"values\"")
    values = item.get("values")
    if values is None:
        return []
    if not isinstance(values, list):
        raise TraceDataError(f"{kind}.values is {shown(values)}, not a list")
    return values


def decode_value(value: Any, depth: int = 0) -> Any:
    """An OTLP ``AnyValue`` (``{"stringValue": ...}``, ``{"kvlistValue": ...}``, ...) as plain JSON.

    An empty or unknown value is ``None`` (as before: a newer kind of value is not an error);
    a known kind holding the wrong type raises :class:`TraceDataError`."""
    if depth > MAX_DEPTH:
        raise TraceDataError(f"the value is nested deeper than {MAX_DEPTH} levels")
    if not isinstance(value, dict) or not value:
        return None
    for key, item in value.items():
        if key in ("stringValue", "string_value"):
            return _typed("stringValue", item, str)
        if key in ("boolValue", "bool_value"):
            return _typed("boolValue", item, bool)
        if key in ("intValue", "int_value"):
            return _int(item)
        if key in ("doubleValue", "double_value"):
            return _double(item)
        if key in ("arrayValue", "array_value"):
            return [decode_value(v, depth + 1) for v in _values("arrayValue", item)]
        if key in ("kvlistValue", "kvlist_value"):
            return decode_attributes(_values("kvlistValue", item), depth + 1)
        if key in ("bytesValue", "bytes_value"):
            return _bytes(item)
    return None


def _key(kv: Any, index: int) -> str:
    if not isinstance(kv, dict):
        raise TraceDataError(f"attribute {index} is {shown(kv)}, not {{\"key\": ..., \"value\": ...}}")
    key = kv.get("key")
    if not isinstance(key, str):
        raise TraceDataError(f"attribute {index}'s key is {shown(key)}, not a string")
    return key


def decode_attributes(items: Any, depth: int = 0) -> Dict[str, Any]:
    """A ``[{"key", "value"}]`` list as a dict; ``None`` or a missing list is empty."""
    if items is None:
        return {}
    if not isinstance(items, list):
        raise TraceDataError(f"attributes are {shown(items)}, not a list of {{\"key\", \"value\"}}")
    out: Dict[str, Any] = {}
    for index, kv in enumerate(items):
        key = _key(kv, index)
        try:
            out[key] = decode_value(kv.get("value"), depth)
        except TraceDataError as e:
            raise TraceDataError(f"attribute {shown(key, 80)}: {e}") from None
    return out


def attribute_values(items: Any, keys: "tuple[str, ...]") -> Dict[str, Any]:
    """Only the attributes named in ``keys``, decoded (the first reading pass needs one or two of them)."""
    if not isinstance(items, list):
        return decode_attributes(items)
    wanted = [kv for kv in items if isinstance(kv, dict) and kv.get("key") in keys]
    return decode_attributes(wanted)


def hex_id(value: Any, size: int, field: str, required: bool = True) -> str:
    """A trace id (``size`` 16) or span id (8) as lower-case hex, from hex or base64 of that many bytes."""
    if value is None or value == "":
        if required:
            raise TraceDataError(f"it has no {field}")
        return ""
    if not isinstance(value, str):
        raise TraceDataError(f"{field} is {shown(value)}, not a string")
    if len(value) == 2 * size and _HEX.fullmatch(value):
        hex_value = value.lower()
    else:
        try:
            raw = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) != size:
            raise TraceDataError(f"{field} {shown(value)} is neither {2 * size} hex digits nor base64 of {size} bytes")
        hex_value = raw.hex()
    if hex_value.strip("0"):
        return hex_value
    if required:  # OTLP: an all-zero id is no id
        raise TraceDataError(f"{field} {shown(value)} is all zeros, which OTLP reserves for no id")
    return ""


def nanos(value: Any, field: str) -> int:
    """A ``*UnixNano`` time (a decimal string or a JSON integer; missing is 0, as protobuf omits a zero)."""
    if value is None:
        return 0
    try:
        return _int(value)
    except TraceDataError:
        raise TraceDataError(f"{field} {shown(value)} is not a time in nanoseconds") from None


def optional_text(value: Any, field: str) -> Optional[str]:
    """A field that must be text when present (a span's ``name``)."""
    if value is None or isinstance(value, str):
        return value
    raise TraceDataError(f"{field} is {shown(value)}, not a string")
