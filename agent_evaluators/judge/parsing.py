"""The tolerant but fail-closed parser for judge replies.

Judges (local models especially) wrap their JSON in code fences or prose; we accept
that. What we never do is guess: a reply with more than one top-level JSON object
(two verdicts, or an echoed example plus a verdict), or an object with a duplicated
key (``{"score": 1, "score": 5}``), is rejected instead of picking one. Taking "the
first object" would let content under evaluation smuggle in a verdict.

A number written as an integral float (``4.0``, ``4e0``: valid JSON that judges without
structured output often write) can be read as the integer it is
(``integral_floats=True``), so a strict integer scale accepts it; a fractional number
stays a float and is still rejected there.
"""

import json
from typing import Any, Dict, List, Tuple

from .._util.json_text import decode_with


class JudgeReplyParseError(ValueError):
    """The judge reply holds no usable JSON object (or more than one)."""


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _number(text: str) -> Any:
    """A JSON float literal; an integral one (``4.0``, ``4e0``) as an ``int``."""
    value = float(text)
    return int(value) if value.is_integer() else value


_decoder = json.JSONDecoder(object_pairs_hook=_no_duplicates)
_integral_decoder = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_float=_number)


def _matching_brace(text: str, start: int) -> int:
    """Index of the ``}`` closing the ``{`` at ``start`` (string-aware), or -1."""
    depth = 0
    in_string = False
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _decode(fragment: str, decoder: json.JSONDecoder = _decoder) -> Any:
    try:
        # decoder.decode(fragment), faster (scan_once: set by JSONDecoder.__init__, which typeshed omits)
        return decode_with(decoder.scan_once, fragment, decoder.decode)  # type: ignore[attr-defined]
    except _DuplicateKey as e:
        raise JudgeReplyParseError(
            f"the JSON object repeats the key {str(e)!r}; a verdict must state each field once"
        ) from None
    except RecursionError:
        raise JudgeReplyParseError("the JSON is nested too deeply to be a verdict") from None


def parse_json_reply(text: str, *, integral_floats: bool = False) -> Dict[str, Any]:
    """The single JSON object in a judge reply.

    Accepts raw JSON, JSON inside code fences and JSON surrounded by prose.
    ``integral_floats``: read ``4.0`` / ``4e0`` as ``4`` (see the module docstring). Raises
    :class:`JudgeReplyParseError` (a ``ValueError``) when there is no JSON object,
    more than one top-level object, a duplicated key, or the top level is not an object.
    """
    if not isinstance(text, str) or not text.strip():
        raise JudgeReplyParseError("the reply is empty; expected one JSON object")
    stripped = text.strip()
    decoder = _integral_decoder if integral_floats else _decoder
    try:
        value = _decode(stripped, decoder)
    except JudgeReplyParseError:
        raise
    except ValueError:
        pass
    else:
        if isinstance(value, dict):
            return value
        raise JudgeReplyParseError(f"the reply is JSON {type(value).__name__}, expected one JSON object")

    found: List[Dict[str, Any]] = []
    last_error = ""
    i = stripped.find("{")
    while i != -1:
        end = _matching_brace(stripped, i)
        if end == -1:
            if not found:
                last_error = "a JSON object is opened but never closed (truncated reply?)"
            break
        try:
            value = _decode(stripped[i : end + 1], decoder)
        except JudgeReplyParseError:
            raise
        except ValueError as e:
            # braces in prose, or broken JSON: skip the whole block, never its insides
            last_error = f"invalid JSON ({e.msg} at offset {e.pos})" if isinstance(e, json.JSONDecodeError) else str(e)
        else:
            found.append(value)
        i = stripped.find("{", end + 1)
    if len(found) > 1:
        raise JudgeReplyParseError(
            f"the reply contains {len(found)} JSON objects; expected exactly one verdict"
        )
    if not found:
        raise JudgeReplyParseError("no JSON object found in the reply" + (f": {last_error}" if last_error else ""))
    return found[0]


def describe_validation_error(err: Exception) -> str:
    """A pydantic validation error as one short line (its first three problems), for a repair request."""
    errors = getattr(err, "errors", None)
    if callable(errors):
        try:
            items = errors()
            parts = [f"{'.'.join(str(p) for p in e.get('loc', ())) or 'reply'}: {e.get('msg')}" for e in items[:3]]
            more = f" (+{len(items) - 3} more)" if len(items) > 3 else ""
            return "; ".join(parts) + more
        except Exception:  # noqa: BLE001 - fall back to str()
            pass
    return str(err)
