"""What a run was made of, so ``resume=True`` can refuse to mix results from different setups.

The fingerprint has one hash per part (data file, each evaluator's class + public
configuration + judge template, the column mapping, the target, ``num_runs``), so a
refusal can say exactly *what* changed. Secrets (API keys, tokens) never enter
``summary.json`` or the fingerprint: rotating a key does not invalidate a run.
"""

import dataclasses
import enum
import hashlib
import json
import math
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

from ..evaluators.base import score_scale
from ..wording import Option, Text
from .callables import Invoker
from .option_table import RUN_OPTIONS
from .settings_digest import SECRET_NAME, TRANSPORT_NAMES

_SECRET = SECRET_NAME
_MAX_DEPTH = 4


def _safe(value: Any, depth: int = 0) -> Any:
    """A JSON-safe, secret-free rendering of a configuration value."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, enum.Enum):
        return _safe(value.value, depth)
    if depth >= _MAX_DEPTH:
        return f"<{type(value).__name__}>"
    if isinstance(value, Mapping):
        return {
            str(k): ("***" if _SECRET.search(str(k)) and v is not None else _safe(v, depth + 1))
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if isinstance(value, (set, frozenset)):
            items = sorted(items, key=repr)
        return [_safe(v, depth + 1) for v in items[:100]]
    if callable(value):
        return f"<{getattr(value, '__qualname__', type(value).__qualname__)}>"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: ("***" if _SECRET.search(f.name) else _safe(getattr(value, f.name, None), depth + 1))
                for f in dataclasses.fields(value) if not f.name.startswith("_")}
    fields = getattr(type(value), "model_fields", None)  # pydantic models
    if isinstance(fields, dict):
        return {n: ("***" if _SECRET.search(n) else _safe(getattr(value, n, None), depth + 1)) for n in fields}
    return f"<{type(value).__qualname__}>"


def public_config(obj: Any) -> Dict[str, Any]:
    """An evaluator's public settings (threshold, options, judge model; never secrets)."""
    out: Dict[str, Any] = {}
    attrs = getattr(obj, "__dict__", None)
    if not isinstance(attrs, dict):
        return out
    for k, v in attrs.items():
        if k.startswith("_"):
            continue
        out[k] = "***" if _SECRET.search(k) and v is not None else _safe(v)
    for k, v in attrs.items():  # private flags (``_is_reasoning_model``): shown so a refusal can name them
        name = k.lstrip("_")
        if k.startswith("_") and name and name not in out and not _SECRET.search(name) and (
                v is None or isinstance(v, (bool, int, float, str))) and k not in ("_cache", "_prompty"):
            out[name] = _safe(v)
    model_config = attrs.get("_model_config")
    if isinstance(model_config, (Mapping, list)) and "model_config" not in out:  # a list: a judge panel, every judge
        out["model_config"] = _safe(model_config)
    for k in ("result_key",):
        v = getattr(obj, k, None)
        if isinstance(v, str) and k not in out:
            out[k] = v
    return out


def _template_hash(obj: Any) -> Optional[str]:
    """The hash of the judge template an evaluator renders, when it has one."""
    if not getattr(type(obj), "template_name", None) and getattr(obj, "_prompty", None) is None:
        return None
    try:
        prompty = getattr(obj, "prompty", None) or getattr(obj, "_prompty", None)
        h = getattr(prompty, "template_hash", None)
        return str(h) if h else None
    except Exception:  # a template that fails to load will fail the run with a clear error anyway
        return None


def describe_evaluator(alias: str, inv: Invoker) -> Dict[str, Any]:
    fn = inv.fn
    module = getattr(fn, "__module__", None) or type(fn).__module__
    desc: Dict[str, Any] = {
        "class": inv.class_name,
        "module": module,
        "kind": inv.foreign_kind,
        "mode": inv.mode,
        "config": public_config(fn),
    }
    if inv.result_key:
        desc["result_key"] = inv.result_key
    scale = score_scale(fn)
    if scale is not None:  # for reports' axes; derived from class and config, so not part of the fingerprint
        desc["scale"] = list(scale)
    th = _template_hash(fn)
    if th:
        desc["template_hash"] = th
    return desc


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()


def _without_transport(value: Any) -> Any:
    """``value`` (a readable config) without the :data:`~.settings.TRANSPORT_NAMES` keys, for hashing:
    ``summary.json`` shows them, the fingerprint ignores them."""
    if isinstance(value, Mapping):
        return {k: _without_transport(v) for k, v in value.items() if k not in TRANSPORT_NAMES}
    return value


def _hash(value: Any) -> str:
    return "sha256:" + hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:32]


def build_fingerprint(
    *,
    data_digest: Optional[str],
    evaluators: Mapping[str, Dict[str, Any]],
    mapping: Mapping[str, Any],
    target: Optional[str],
    options: Mapping[str, Any],
    settings: Optional[Mapping[str, str]] = None,
    target_settings: Optional[str] = None,
) -> Dict[str, Any]:
    """One hash per part. ``settings``: each evaluator's :func:`~.settings.settings_digest` (its full
    effective configuration, private and nested values and code included), part of its hash.
    Transport settings (judge timeout, attempts, concurrency) are in no part: see :mod:`.settings`.
    ``options``: the run options the table marks ``fingerprinted`` (``num_runs``), each a part."""
    settings = settings or {}
    return {
        "data": data_digest,
        "evaluators": {alias: _hash({**_without_transport(desc), "settings": settings.get(alias)})
                       for alias, desc in evaluators.items()},
        "target_settings": target_settings,
        "templates": {alias: desc.get("template_hash") for alias, desc in evaluators.items() if desc.get("template_hash")},
        "column_mapping": _hash(mapping),
        "target": target,
        **options,
    }


def fingerprint_changes(
    old: Mapping[str, Any], new: Mapping[str, Any], old_config: Mapping[str, Any], new_config: Mapping[str, Any]
) -> List[Union[str, Text]]:
    """Human-readable differences between two fingerprints (empty when they match); a change of a run option
    or of the column mapping names it by reference (the command line says ``--num-runs``, ``--map``)."""
    changes: List[Union[str, Text]] = []
    if old.get("data") != new.get("data"):
        if old.get("data") is None or new.get("data") is None:
            changes.append("the data can no longer be verified (one run read a file, the other an iterable)")
        else:
            changes.append("the data file's content changed")
    old_ev, new_ev = old.get("evaluators") or {}, new.get("evaluators") or {}
    for alias in sorted(set(old_ev) | set(new_ev)):
        if alias not in old_ev:
            changes.append(f"evaluator {alias!r} was added")
        elif alias not in new_ev:
            changes.append(f"evaluator {alias!r} was removed")
        elif old_ev[alias] != new_ev[alias]:
            before = (old_config.get("evaluators") or {}).get(alias, {})
            after = (new_config.get("evaluators") or {}).get(alias, {})
            diffs = _dict_diff(before, after)
            changes.append(f"evaluator {alias!r} changed" + (
                f" ({'; '.join(diffs)})" if diffs else
                " (in settings summary.json does not show: nested options, rubric texts, private settings, or the "
                "code: its methods and the helpers, closures and module values they read)"))
    if old.get("column_mapping") != new.get("column_mapping"):
        changes.append(Text.keyed("mapping-changed", "evaluator_config (column mapping) changed"))
    if old.get("target") != new.get("target"):
        changes.append(f"the target changed ({old.get('target')} -> {new.get('target')})")
    elif old.get("target_settings") != new.get("target_settings"):
        changes.append("the target's code or configuration changed")
    for o in RUN_OPTIONS:
        if o.fingerprinted and old.get(o.name, o.default) != new.get(o.name, o.default):
            changes.append(Text("{option} changed ({old} -> {new})", option=Option(o.name),
                                old=old.get(o.name, o.default), new=new.get(o.name, o.default)))
    return changes


def _dict_diff(a: Mapping[str, Any], b: Mapping[str, Any], prefix: str = "") -> List[str]:
    out = []
    for k in sorted(set(a) | set(b)):
        va, vb = a.get(k), b.get(k)
        if va == vb:
            continue
        if isinstance(va, Mapping) and isinstance(vb, Mapping):
            out.extend(_dict_diff(va, vb, f"{prefix}{k}."))
        else:
            out.append(f"{prefix}{k}: {va!r} -> {vb!r}")
    return out[:10]
