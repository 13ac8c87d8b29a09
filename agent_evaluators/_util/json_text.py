"""JSON text of the small shapes a judge call writes on every request, without ``json.dumps``' setup;
and JSON read back (:func:`loads`) without ``json.loads``' per-call layers.

``json.dumps`` builds a new encoder for each call, which costs more than encoding a short
chat message. The two writers on a judge call's path (template values, :mod:`.templates`;
request bodies, :mod:`.judge.body`) therefore write the commonest shapes themselves: a
string, and a list of ``{"role": str, "content": str}`` messages (keys in that order). The
text is exactly what ``json.dumps(value, ensure_ascii=False)`` writes (same separators);
anything else returns ``None`` and the caller encodes it as before.
``tests/test_json_text.py`` compares the two over awkward values.

:func:`utf8_json` turns such a text into bytes even when it holds a lone surrogate
(``"\\ud800"`` is valid JSON, so inputs carry them): as its JSON escape, the text the input had.
"""

import json
import re
from typing import Any, Optional, Union

#: the text ``json.dumps(s, ensure_ascii=False)`` writes for a str ``s``
escape = json.encoder.encode_basestring


def message_json(message: Any) -> Optional[str]:
    """``{"role": "...", "content": "..."}`` for exactly that dict (str values, that key order), else ``None``."""
    if type(message) is dict and len(message) == 2:
        role, content = message.get("role"), message.get("content")
        if type(content) is str and type(role) is str and next(iter(message)) == "role":
            return '{"role": ' + escape(role) + ', "content": ' + escape(content) + "}"
    return None


def messages_json(value: Any) -> Optional[str]:
    """A list of such messages (or an empty list), else ``None``."""
    if type(value) is not list:
        return None
    parts = []
    for message in value:
        text = message_json(message)
        if text is None:
            return None
        parts.append(text)
    return "[" + ", ".join(parts) + "]"


_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8_json(text: str) -> bytes:
    """JSON text as UTF-8; lone surrogates (in JSON text only ever inside strings) as ``\\udXXX`` escapes."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode()


_scan_plain = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # set by __init__ (typeshed omits it)


def loads(data: Union[str, bytes]) -> Any:
    """``json.loads(data)``, at about half its cost for the usual input.

    A judge call reads JSON three times (its row's line, the HTTP reply, the verdict in it), each
    small, and ``json.loads`` spends more on its Python layers (encoding detection, whitespace
    matching, the decoder's wrappers: 0.7 µs of a 1 µs row line) than on the text. Here UTF-8
    bytes or text holding one value from its first character, ended by nothing or a line break,
    go straight to the C scanner; anything else (leading whitespace, a BOM, another encoding,
    invalid JSON) goes to ``json.loads`` itself, so every result and every error is its own.
    ``tests/test_json_text.py`` compares the two over awkward inputs.
    """
    return decode_with(_scan_plain, data, json.loads)


def decode_with(scan: Any, data: Union[str, bytes], slow: Any) -> Any:
    """``slow(data)`` through ``scan`` (a decoder's ``scan_once``, with its hooks), as :func:`loads` does."""
    try:
        kind = type(data)
        text = data if kind is str else data.decode() if kind is bytes else None  # type: ignore[union-attr]
        if text is not None:
            value, end = scan(text, 0)
            if end == len(text) or (end == len(text) - 1 and text[end] == "\n"):
                return value
    except (StopIteration, ValueError):  # not a value at the first character, invalid UTF-8 or JSON
        pass
    return slow(data)
