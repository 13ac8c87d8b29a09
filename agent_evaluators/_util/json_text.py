"""JSON text of the small shapes a judge call writes on every request, without ``json.dumps``' setup.

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
from typing import Any, Optional

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
