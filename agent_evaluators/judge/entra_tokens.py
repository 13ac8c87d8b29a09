"""Entra ID tokens handed out to judge requests, remembered per credential so that the judge
clients using that credential mask them in every text they keep.

An endpoint or proxy may echo the bare token (without the ``Bearer`` prefix a pattern could find).
"""

import collections
import threading
import weakref
from typing import Any, Dict, List

from .._util.scrub import SecretSet

_issued_tokens: "collections.deque[str]" = collections.deque(maxlen=32)
_by_credential: "weakref.WeakKeyDictionary[Any, SecretSet]" = weakref.WeakKeyDictionary()
_by_id: Dict[int, SecretSet] = {}  # credentials that cannot be weakly referenced
_lock = threading.Lock()


def issued_tokens() -> List[str]:
    """Tokens recently obtained from credentials (secrets to scrub from any text we keep)."""
    return list(_issued_tokens)


def token_secrets(credential: Any) -> SecretSet:
    """The tokens issued to ``credential`` so far and later (one set per credential object)."""
    with _lock:
        try:
            found = _by_credential.get(credential)
            if found is None:
                found = _by_credential[credential] = SecretSet()
        except TypeError:  # not weakly referenceable (or not hashable)
            found = _by_id.setdefault(id(credential), SecretSet())
        return found


def remember_token(token: Any, credential: Any = None) -> Any:
    """Record ``token`` (issued to ``credential``) and return it unchanged."""
    if isinstance(token, str) and len(token) >= 8 and token not in _issued_tokens:
        _issued_tokens.append(token)
    if credential is not None:
        token_secrets(credential).add([token])
    return token
