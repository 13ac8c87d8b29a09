"""The full effective configuration of an evaluator (or target), for the resume fingerprint.

``summary.json``'s readable ``config`` shows public settings only, with placeholders for
objects; a fingerprint made from that missed real changes (rubric texts, ``args_match``,
``AnswerSimilarityOptions``, ``is_reasoning_model``, a function's code) and ``resume=True``
reused results made with another setup. :func:`settings_digest` hashes everything that
decides a result instead: attribute values of every depth, private ones too, dataclasses,
pydantic models, enums, containers, and a callable's qualified name plus the hash of its
bytecode and constants, its defaults and closure values.

Code written by the user (not the standard library, installed packages or this package,
whose version ``summary.json`` records) is followed further: a class evaluator's methods
(``__call__`` and every other one, down its user-written bases) and, for each user
function, the module globals it reads: constants by value, helper functions and classes
by their code, the same way. Editing a helper or a module constant therefore changes the
fingerprint, while the same code loaded in a new process gives the same one (nothing
hashed depends on memory addresses or the hash seed).

Transport settings never enter it either (:data:`TRANSPORT_NAMES`: judge timeouts, HTTP
attempts, concurrency): they decide how a judge is reached, not what a score means, so
a resumed run (``resume``, or re-running the failed cells) with ``--judge-max-attempts 8`` after a flaky first run is
the same run.

Secrets never enter it: a value under a secret-looking name (api key, token, password,
credential, headers) is replaced by a marker before hashing, and clients, credentials,
caches, locks and other live objects are skipped by name or type, so rotating a key or
reconnecting does not invalidate a run.
"""

import dataclasses
import enum
import functools
import hashlib
import json
import math
import re
import sys
import types
from pathlib import Path
from typing import Any, Dict, Optional, Set

#: names whose values are secrets (never rendered, never hashed)
SECRET_NAME = re.compile(
    r"(api[_-]?key|subscription[_-]?key|secret|password|passwd|credential|(^|[_-])token$|token[_-]?provider|"
    r"authorization|cookie|headers?$|auth$)",
    re.I,
)
#: settings that cannot change what a score means (how long to wait, how often to retry, how many at once)
TRANSPORT_NAMES = frozenset({"timeout", "max_attempts", "max_retries", "max_concurrency"})
#: attributes that hold live machinery or lazily-made caches, not configuration
_SKIP_NAMES = {"_prompty", "_cache", "cache", "_client", "_clients", "client", "_lock", "_loop", "_executor",
               "_session", "_sync_executor", "_judge", "_limiter"}
_LIVE_TYPE = re.compile(r"(Client|Credential|Session|Lock|Loop|Executor|Thread|Connection|Pool|Logger)$")
_MAX_DEPTH = 12
_MAX_ITEMS = 10_000


def _code_digest(code: types.CodeType, seen: Set[int]) -> str:
    h = hashlib.sha256(code.co_code)
    h.update(repr(code.co_names).encode())
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            h.update(_code_digest(const, seen).encode())
        else:
            h.update(json.dumps(settings_value(const, 0, seen), sort_keys=True, default=str).encode())
    return h.hexdigest()[:24]


def _callable(value: Any, depth: int, seen: Set[int]) -> Dict[str, Any]:
    if all(hasattr(value, a) for a in ("func", "args", "keywords")):  # functools.partial
        return {"partial": settings_value(value.func, depth + 1, seen), "args": settings_value(list(value.args), depth + 1, seen),
                "keywords": settings_value(dict(value.keywords), depth + 1, seen)}
    fn = getattr(value, "__func__", value)  # bound methods: the function
    out: Dict[str, Any] = {"callable": f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', type(fn).__qualname__)}"}
    code = getattr(fn, "__code__", None)
    if isinstance(code, types.CodeType):
        out.update(_function(fn, code, depth, seen))
        owner = getattr(value, "__self__", None)  # a bound method: its object's settings decide too
        if owner is not None and not isinstance(owner, types.ModuleType):
            out["self"] = settings_value(owner, depth + 1, seen)
            if _is_user_code(type(owner)):  # the other methods it may call on ``self``
                out["class_code"] = _class_code(type(owner), depth + 1, seen)
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        out["state"] = _attributes(value, depth, seen)  # a callable object (an evaluator)
        if _is_user_code(type(value)):
            out["class_code"] = _class_code(type(value), depth, seen)
    return out


def _function(fn: Any, code: types.CodeType, depth: int, seen: Set[int]) -> Dict[str, Any]:
    """A function's code, defaults and closure values; for user code also the module globals it
    reads (constants, and the helpers it calls, followed the same way)."""
    out: Dict[str, Any] = {"code": _code_digest(code, seen)}
    defaults = getattr(fn, "__defaults__", None)
    if defaults:
        out["defaults"] = settings_value(list(defaults), depth + 1, seen)
    kwdefaults = getattr(fn, "__kwdefaults__", None)
    if kwdefaults:
        out["kwdefaults"] = settings_value(dict(kwdefaults), depth + 1, seen)
    closure = getattr(fn, "__closure__", None)
    if closure:
        out["closure"] = [settings_value(_cell(c), depth + 1, seen) for c in closure]
    fn_globals = getattr(fn, "__globals__", None)
    if isinstance(fn_globals, dict) and _is_user_code(fn):
        refs = {}
        for name in sorted(_global_names(code)):
            if name in fn_globals and not name.startswith("__"):
                ref = fn_globals[name]
                if isinstance(ref, types.ModuleType) or name in _SKIP_NAMES or _LIVE_TYPE.search(type(ref).__name__):
                    continue
                if isinstance(ref, type):
                    refs[name] = _class_code(ref, depth + 1, seen) if _is_user_code(ref) else settings_value(ref)
                else:
                    refs[name] = settings_value(ref, depth + 1, seen)
        if refs:
            out["globals"] = refs
    return out


def _cell(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # a closure variable not assigned yet
        return "<empty cell>"


def _global_names(code: types.CodeType) -> Set[str]:
    """Every name a code object (and the functions nested in it) may read from its module."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def _class_code(cls: type, depth: int, seen: Set[int]) -> Any:
    """The methods and class attributes of ``cls`` and of its bases written in user code: a class
    evaluator's ``__call__`` body or a helper method that changed makes another fingerprint."""
    if depth >= _MAX_DEPTH or id(cls) in seen:
        return f"class {cls.__module__}.{cls.__qualname__}"
    seen.add(id(cls))
    try:
        out: Dict[str, Any] = {}
        for klass in cls.__mro__:
            if not _is_user_code(klass):
                continue
            members: Dict[str, Any] = {}
            for name, member in vars(klass).items():
                if name in _CLASS_NOISE:
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                elif isinstance(member, property):
                    member = [member.fget, member.fset]
                members[name] = settings_value(member, depth + 1, seen)
            out[f"{klass.__module__}.{klass.__qualname__}"] = members
        return out
    finally:
        seen.discard(id(cls))


#: class attributes that are Python's bookkeeping, not code or settings (``__slotnames__`` is cached on
#: the class by the first pickle of an instance: a Ray run pickles it, a fresh resume has not yet)
_CLASS_NOISE = frozenset({"__dict__", "__weakref__", "__module__", "__qualname__", "__doc__", "__slots__",
                          "__annotations__", "__orig_bases__", "__parameters__", "__abstractmethods__", "_abc_impl",
                          "__static_attributes__", "__firstlineno__", "__slotnames__"})


@functools.lru_cache(maxsize=1024)
def _is_user_module(module: Optional[str]) -> bool:
    """Code whose changes a fingerprint must see: the user's own modules, not the standard
    library, installed packages or this package (whose version is recorded in summary.json)."""
    if not module or module == "__main__":
        return True
    top = module.partition(".")[0]
    if top in ("agent_evaluators", "builtins") or top in sys.stdlib_module_names:
        return False
    path = str(getattr(sys.modules.get(module), "__file__", None) or "")
    return "site-packages" not in path and "dist-packages" not in path


def _is_user_code(obj: Any) -> bool:
    return _is_user_module(getattr(obj, "__module__", None))


def _attributes(obj: Any, depth: int, seen: Set[int]) -> Dict[str, Any]:
    out: Dict[str, Any] = {"type": f"{type(obj).__module__}.{type(obj).__qualname__}"}
    for name, v in vars(obj).items():
        if name in _SKIP_NAMES or name.lstrip("_") in TRANSPORT_NAMES or _LIVE_TYPE.search(type(v).__name__):
            continue
        out[name] = "<secret>" if SECRET_NAME.search(name) and v is not None else settings_value(v, depth + 1, seen)
    return out


class _Walk(set):
    """The ids on the current path (a cycle is cut there), plus every object already rendered in this
    walk (``firsts``: id -> (the object, its index)). An object met again (one eval-set job that every
    case refers to, one options object shared by many evaluators) is written as ``{"same_as": index}``
    instead of in full, so a walk costs time and memory in the objects it meets, not in the paths to
    them (every ADK case slot rendering the whole job made a 1,000-case run's fingerprint 17 GB).
    The objects are kept so that their ids cannot be reused by later temporaries. Tuples and frozensets
    are left out (value-like, and shared singletons such as ``()``), and so is everything inside a set,
    whose iteration order may change with the hash seed: the indexes stay the same in every process."""

    __slots__ = ("firsts",)

    def __init__(self) -> None:
        super().__init__()
        self.firsts: Dict[int, Any] = {}


def settings_value(value: Any, depth: int = 0, seen: Optional[Set[int]] = None) -> Any:
    """A JSON-safe, secret-free rendering of ``value`` with everything that decides a result."""
    seen = _Walk() if seen is None else seen
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and not isinstance(value, enum.Enum):
        # hex(), not str(): a huge int has no decimal form past 4,300 digits
        return value if value.bit_length() < 64 else "int:" + hashlib.sha256(hex(value).encode()).hexdigest()[:24]
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    if isinstance(value, (bytes, bytearray)):
        return "bytes:" + hashlib.sha256(value).hexdigest()[:24]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, type):
        return f"class {value.__module__}.{value.__qualname__}"
    if depth >= _MAX_DEPTH or id(value) in seen:
        return f"<{type(value).__qualname__}>"
    if _LIVE_TYPE.search(type(value).__name__):
        return f"<{type(value).__qualname__}>"
    firsts = getattr(seen, "firsts", None)
    if firsts is not None and not isinstance(value, (tuple, frozenset)):
        first = firsts.get(id(value))
        if first is not None:
            return {"same_as": first[1]}
        firsts[id(value)] = (value, len(firsts))
    seen.add(id(value))
    try:
        if isinstance(value, dict) or (hasattr(value, "items") and hasattr(value, "keys")):
            return {str(k): ("<secret>" if SECRET_NAME.search(str(k)) and v is not None else settings_value(v, depth + 1, seen))
                    for k, v in list(value.items())[:_MAX_ITEMS] if k not in TRANSPORT_NAMES}
        if isinstance(value, (list, tuple)):
            return [settings_value(v, depth + 1, seen) for v in value[:_MAX_ITEMS]]
        if isinstance(value, (set, frozenset)):
            inside = set(seen)  # the path only: nothing inside a set is numbered (see _Walk)
            return sorted((settings_value(v, depth + 1, inside) for v in value), key=repr)
        if isinstance(value, re.Pattern):
            return {"pattern": value.pattern, "flags": value.flags}
        if dataclasses.is_dataclass(value):
            out: Dict[str, Any] = {"type": type(value).__qualname__}
            for f in dataclasses.fields(value):
                if f.name in TRANSPORT_NAMES:
                    continue
                v = getattr(value, f.name, None)
                out[f.name] = "<secret>" if SECRET_NAME.search(f.name) and v is not None else settings_value(v, depth + 1, seen)
            return out
        fields = getattr(type(value), "model_fields", None)  # pydantic models
        if isinstance(fields, dict):
            out = {"type": type(value).__qualname__}
            for name in fields:
                if name in TRANSPORT_NAMES:
                    continue
                v = getattr(value, name, None)
                out[name] = "<secret>" if SECRET_NAME.search(name) and v is not None else settings_value(v, depth + 1, seen)
            return out
        if callable(value):
            return _callable(value, depth, seen)
        if hasattr(value, "__dict__"):
            return _attributes(value, depth, seen)
        slots = getattr(type(value), "__slots__", None)
        if slots:
            names = [slots] if isinstance(slots, str) else list(slots)
            return {"type": type(value).__qualname__,
                    **{n: settings_value(getattr(value, n, None), depth + 1, seen) for n in names
                       if not SECRET_NAME.search(n)}}
        return f"<{type(value).__qualname__}>"
    finally:
        seen.discard(id(value))


def settings_digest(value: Any) -> str:
    """The hash of :func:`settings_value` (what ``summary.json``'s fingerprint stores)."""
    try:
        rendered = settings_value(value)
    except (RecursionError, ValueError, TypeError):  # an exotic object: fall back to its type
        rendered = f"<{type(value).__qualname__}>"
    text = json.dumps(rendered, sort_keys=True, default=str, ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()[:32]
