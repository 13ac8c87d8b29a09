"""Entra ID tokens handed out to judge requests, remembered so that error texts can be scrubbed of them.

An endpoint or proxy may echo the bare token (without the ``Bearer`` prefix a pattern could find).
"""

import collections
from typing import Any, List

from .._scrub import remember

__all__ = ["issued_tokens", "remember_token"]

_issued_tokens: "collections.deque[str]" = collections.deque(maxlen=32)


def issued_tokens() -> List[str]:
    """Tokens recently obtained from credentials (secrets to scrub from any text we keep)."""
    return list(_issued_tokens)


def remember_token(token: Any) -> Any:
    """Record ``token`` (when it is a plausible secret) and return it unchanged."""
    if isinstance(token, str) and len(token) >= 8 and token not in _issued_tokens:
        _issued_tokens.append(token)
        remember([token])
    return token
