"""Misspelled message keys: ``{"role": "assistant", "contnt": "..."}`` is a typo, not an empty reply.

Without this check such a message reads as one with no content, and the evaluator reports
"response is empty" with nothing pointing at the key; here it is an :class:`InputError`
naming the key and the one it most likely meant.
"""

import difflib
from typing import Any, Mapping

from ._values import input_error

#: the keys that carry a chat message's substance; a near miss of one of them is a typo
_SUBSTANCE_KEYS = ("content", "tool_calls", "function_call", "tool_call_id", "role")


def check_message_keys(d: Mapping[str, Any], *, input_name: str, where: str) -> None:
    """Raise when a message has no content and no calls but a key close to one of those names."""
    if d.get("content") is not None or d.get("tool_calls") or d.get("function_call"):
        return
    for key in d:
        if not isinstance(key, str) or key in _SUBSTANCE_KEYS:
            continue
        close = difflib.get_close_matches(key.lower(), _SUBSTANCE_KEYS, n=1, cutoff=0.75)
        if close:
            raise input_error(
                input_name, where,
                f"unknown message key {key!r} (did you mean {close[0]!r}?); the message has no content, so it "
                f"would be read as empty. Message keys: {', '.join(_SUBSTANCE_KEYS)}, name",
            )
