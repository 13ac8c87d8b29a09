"""``row_hash``: a short, stable hash of an input row's content, stored in its record.

On resume the hash tells whether the row at a position is still the row evaluated there
before (data reordered or edited: the row is evaluated again instead of carrying another
row's result). It must therefore be the same for the same content in every process, and
exist for every row a user can pass:

* plain JSON rows (string keys, JSON values) hash through ``json.dumps`` in C, as before,
  so the hashes of runs made by earlier versions still match;
* anything else is first turned into a canonical JSON value: keys of any type (a
  DataFrame's integer column labels, numpy integers) become strings, sets are sorted,
  numpy values, dates, dataclasses and pydantic models become their data, and an object
  is represented by its ``repr`` only when that holds no memory address;
* a row that still cannot be rendered stably (an object whose ``repr`` is its address, a
  cycle) has no hash: :func:`row_hash` says why, and the run warns that a resume cannot
  tell whether that row changed.
"""

import dataclasses
import enum
import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any, Optional, Tuple

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+|0x[0-9a-fA-F]{6,}")
_MAX_DEPTH = 64
#: Characters of a row's JSON encoded (and hashed) at a time: a 50 MB row is not copied twice.
_HASH_SLICE = 1 << 20


class _Unstable(Exception):
    """A value with no rendering that is the same in every process."""


def _refuse(value: Any) -> Any:
    raise TypeError(type(value).__name__)


def _key(key: Any) -> str:
    """A mapping key as ``json.dumps`` writes it (``0`` -> ``"0"``), for keys of any type."""
    if isinstance(key, str):
        return key
    key = _canonical(key, _MAX_DEPTH - 1)
    return key if isinstance(key, str) else json.dumps(key, sort_keys=True, ensure_ascii=False)


def _canonical(value: Any, depth: int = 0) -> Any:
    """``value`` as plain JSON data that is the same for the same content in every process."""
    if value is None or isinstance(value, (str, bool, int, float)) and not isinstance(value, enum.Enum):
        return value
    if depth >= _MAX_DEPTH:
        raise _Unstable("it is nested too deeply (or holds itself)")
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            key = _key(k)
            if key in out:  # 0 and "0" in one row: keep both apart
                key = f"{key}#{type(k).__name__}"
            out[key] = _canonical(v, depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_canonical(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [_canonical(v, depth + 1) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
    if isinstance(value, (bytes, bytearray)):
        return "bytes:" + bytes(value).hex()
    if isinstance(value, enum.Enum):
        return _canonical(value.value, depth + 1)
    dump = getattr(value, "model_dump", None)  # pydantic models
    if callable(dump):
        return _canonical(dump(mode="json"), depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _canonical(dataclasses.asdict(value), depth + 1)
    if hasattr(value, "isoformat"):  # dates and times
        return value.isoformat()
    for method in ("item", "tolist"):  # numpy scalars and arrays
        convert = getattr(value, method, None)
        if callable(convert):
            try:
                return _canonical(convert(), depth + 1)
            except (TypeError, ValueError):
                pass
    text = repr(value)
    if _ADDRESS.search(text):
        raise _Unstable(f"it holds a {type(value).__name__} whose repr is its memory address")
    return f"{type(value).__qualname__}:{text}"


def row_hash(row: Mapping[str, Any]) -> Tuple[Optional[str], Optional[str]]:
    """``(hash, None)``, or ``(None, why)`` for a row with no stable rendering."""
    try:
        text = json.dumps(row, sort_keys=True, ensure_ascii=False, default=_refuse, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError, OverflowError):
        try:
            text = json.dumps(_canonical(row), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        except _Unstable as exc:
            return None, str(exc)
        except (TypeError, ValueError, RecursionError, OverflowError) as exc:
            return None, f"it cannot be rendered ({type(exc).__name__}: {exc})"
    h = hashlib.blake2b(digest_size=8)
    for i in range(0, len(text), _HASH_SLICE):  # the same bytes as one encode, without a second copy of a huge row
        h.update(text[i:i + _HASH_SLICE].encode("utf-8", "surrogatepass"))
    return h.hexdigest(), None


def row_digest(row: Mapping[str, Any]) -> Optional[str]:
    """The hash of :func:`row_hash`, ``None`` when the row has no stable rendering."""
    return row_hash(row)[0]
