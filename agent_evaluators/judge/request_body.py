"""A chat request body as JSON bytes, reusing the JSON of the parts that repeat from call to call.

Every request of a judge metric carries the same system message (the template's
instructions, often several KB) and the same ``response_format`` schema; only the row's
own text changes. Encoding the whole body anew was the largest single share of a judge
call's client CPU (about a quarter of a bare aiohttp client's, measured with
``bench/bench_evaluate.py``), so :func:`encode_body` keeps:

* the JSON of large ``{"role", "content"}`` messages, by value, in a small bounded table
  (a row's own text misses and is encoded as before; the table is cleared when full);
  small ones are two escaped strings, without ``json.dumps``' per-call setup;
* the JSON of the plain keys (``model``, the template's parameters), by value and type;
* the JSON of the ``response_format`` dicts :mod:`.schema` builds, by identity: they are
  cached there and never mutated (its documented contract), so one object is one text.

The bytes are exactly ``json.dumps(body, ensure_ascii=False).encode()`` (same separators,
same key order), which ``tests/judge/test_body.py`` checks over varied bodies.

A lone surrogate (``"\\ud800"``: valid in JSON and JSONL, so it reaches us in inputs) has no
UTF-8 form; such a body is sent with those characters as their JSON escapes, which is what
the input file held, instead of failing with a ``UnicodeEncodeError``.
"""

import json
import threading
from typing import Any, Dict, List, Tuple

from .._util.json_text import escape, message_json, utf8_json
from .schema import format_json

#: a message content shorter than this is cheaper to escape than to look up
MIN_CACHED_CHARS = 512
#: distinct large messages kept (a template's system message, and the last few rows' texts)
MAX_CACHED_MESSAGES = 64
#: distinct runs of plain keys kept (``model`` and the template's parameters: a handful)
MAX_CACHED_PARAMS = 64

_dumps = json.JSONEncoder(ensure_ascii=False).encode
_messages: Dict[Tuple[str, str], str] = {}
_params: Dict[Tuple[Any, ...], str] = {}
_lock = threading.Lock()


def _remember(table: Dict[Any, str], limit: int, key: Any, text: str) -> None:
    with _lock:
        if len(table) >= limit:
            table.clear()
        table[key] = text


def _message_json(message: Any) -> str:
    text = message_json(message)  # None unless exactly {"role": str, "content": str}
    if text is None:
        return _dumps(message)
    if len(message["content"]) >= MIN_CACHED_CHARS:
        _remember(_messages, MAX_CACHED_MESSAGES, (message["role"], message["content"]), text)
    return text


def _cached_message_json(message: Any) -> str:
    """:func:`_message_json`, looked up first when the message is large and of the cached shape."""
    if type(message) is dict and len(message) == 2 and next(iter(message)) == "role":
        role, content = message["role"], message.get("content")
        if type(content) is str and len(content) >= MIN_CACHED_CHARS and type(role) is str:
            cached = _messages.get((role, content))
            if cached is not None:
                return cached
    return _message_json(message)


_ATOMIC = (str, int, bool, type(None))


def _params_json(params: Dict[str, Any]) -> str:
    """The JSON of a run of plain keys, without its braces. Kept only for plain scalar values,
    keyed with each value's type (``1``, ``1.0`` and ``True`` are equal but written differently)
    and floats by their text (``0.0 == -0.0``)."""
    key = []
    for k, v in params.items():
        t = type(v)
        if t is float:
            v = repr(v)
        elif t not in _ATOMIC:  # a list of stop words, a nested dict: encoded each time
            return _dumps(params)[1:-1]
        key.append((k, t, v))
    frozen = tuple(key)
    text = _params.get(frozen)
    if text is None:
        text = _dumps(params)[1:-1]
        _remember(_params, MAX_CACHED_PARAMS, frozen, text)
    return text


def encode_body(body: Dict[str, Any]) -> bytes:
    """``json.dumps(body, ensure_ascii=False).encode()``, with the repeating parts reused."""
    parts: List[str] = []
    plain: Dict[str, Any] = {}
    for key, value in body.items():
        if key == "messages" and type(value) is list:
            text = "[" + ", ".join([_cached_message_json(m) for m in value]) + "]"
        elif key == "response_format":
            text = format_json(value) or _dumps(value)
        else:
            plain[key] = value
            continue
        if plain:
            parts.append(_params_json(plain))
            plain = {}
        parts.append(escape(key) + ": " + text)
    if plain:
        parts.append(_params_json(plain))
    return utf8_json("{" + ", ".join(parts) + "}")

