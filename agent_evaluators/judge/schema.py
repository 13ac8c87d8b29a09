"""Strict JSON schemas for structured output, built once per pydantic model.

OpenAI / Azure ``json_schema`` mode with ``strict: true`` needs every object to list
all its properties as required and forbid additional ones, and rejects several
validation keywords on older API versions. We send the *shape* only; the full
pydantic model (ranges, lengths, patterns) still validates the reply locally.
"""

import copy
import functools
import json
import re
from typing import Any, Dict, Optional, Tuple

# Validation keywords some strict-mode endpoints reject; pydantic enforces them locally.
_DROP_KEYS = frozenset({
    "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems",
    "minProperties", "maxProperties", "examples", "discriminator",
})


# What a server that enforces the whole schema while decoding (llama.cpp) may keep: the
# bounds that make a small model's verdict valid (a score in range, lists of the right size).
_ENFORCED_LOCALLY = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
                               "maxLength", "minItems", "maxItems"})


def _strictify(node: Any, defs: Dict[str, Any], drop: frozenset = _DROP_KEYS) -> Any:
    if isinstance(node, list):
        return [_strictify(n, defs, drop) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node and len(node) > 1:
        # strict mode forbids siblings next to $ref: inline the target (one level)
        ref = node["$ref"]
        name = ref.rsplit("/", 1)[-1]
        merged = dict(defs.get(name, {}))
        merged.update({k: v for k, v in node.items() if k != "$ref"})
        node = merged
    out: Dict[str, Any] = {}
    for key, value in node.items():
        if key in drop:
            continue
        if key in ("properties", "$defs", "definitions"):
            out[key] = {k: _strictify(v, defs, drop) for k, v in value.items()}
        else:
            out[key] = _strictify(value, defs, drop)
    if out.get("type") == "object" or "properties" in out:
        props = out.get("properties") or {}
        out["properties"] = props
        out["required"] = list(props)
        out["additionalProperties"] = False
    return out


@functools.lru_cache(maxsize=256)
def strict_schema(model: Any) -> Dict[str, Any]:
    """The strict-mode JSON schema of a pydantic model (cached per model class)."""
    raw = model.model_json_schema()
    defs = raw.get("$defs", {})
    return _strictify(copy.deepcopy(raw), defs)


#: id -> (a response_format dict built here, its JSON): those dicts are shared and never mutated,
#: so the request encoder (:mod:`.body`) reuses their text. The dict is held, so its id stays its own.
_FORMAT_JSON: Dict[int, Tuple[Dict[str, Any], str]] = {}


_FORMAT_JSON_MAX = 1024  # verdict models made per evaluator (users' templates) must not grow it forever


def _shared(rf: Dict[str, Any]) -> Dict[str, Any]:
    if len(_FORMAT_JSON) >= _FORMAT_JSON_MAX:
        _FORMAT_JSON.clear()  # the dicts stay valid; their requests are then encoded in full
    _FORMAT_JSON[id(rf)] = (rf, json.dumps(rf, ensure_ascii=False))
    return rf


def format_json(value: Any) -> Optional[str]:
    """The JSON text of a ``response_format`` returned by :func:`response_format_for`, else ``None``."""
    entry = _FORMAT_JSON.get(id(value))
    return entry[1] if entry is not None and entry[0] is value else None


@functools.lru_cache(maxsize=256)
def _json_schema_format(model: Any) -> Dict[str, Any]:
    name = re.sub(r"[^a-zA-Z0-9_-]", "_", getattr(model, "__name__", "verdict"))[:64] or "verdict"
    return _shared({"type": "json_schema", "json_schema": {"name": name, "schema": strict_schema(model), "strict": True}})


_JSON_OBJECT = _shared({"type": "json_object"})


def _limit(node: Any, max_text_length: Optional[int], max_items: Optional[int]) -> Any:
    if isinstance(node, list):
        return [_limit(n, max_text_length, max_items) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _limit(v, max_text_length, max_items) for k, v in node.items()}
    if max_text_length and out.get("type") == "string" and not ({"enum", "const", "pattern"} & set(out)):
        out["maxLength"] = min(out.get("maxLength", max_text_length), max_text_length)
    if max_items and out.get("type") == "array":
        out["maxItems"] = min(out.get("maxItems", max_items), max_items)
    return out


@functools.lru_cache(maxsize=256)
def _limited_format(model: Any, max_text_length: Optional[int], max_items: Optional[int]) -> Dict[str, Any]:
    raw = model.model_json_schema()
    schema = _strictify(copy.deepcopy(raw), raw.get("$defs", {}), _DROP_KEYS - _ENFORCED_LOCALLY)
    rf = copy.deepcopy(_json_schema_format(model))
    rf["json_schema"]["schema"] = _limit(schema, max_text_length, max_items)
    return _shared(rf)


def response_format_for(model: Any, mode: str, limits: Optional[Tuple[Optional[int], Optional[int]]] = None) -> Any:
    """The ``response_format`` request value for ``mode`` (``None`` for plain text).

    ``limits`` = ``(max_text_length, max_items)``: in ``json_schema`` mode, keep the
    model's own numeric and length bounds (a score's range) and bound every free-text
    string (``maxLength``) and every array (``maxItems``). Only for servers that enforce
    them while decoding (llama.cpp, Ollama, vLLM): a small model decoding greedily
    otherwise writes out-of-range scores, or fills a ``reason`` or a list until
    ``max_tokens`` runs out. OpenAI's strict mode rejects these keywords, so cloud
    configs never set them.

    The returned dicts are shared; callers must not mutate them.
    """
    if mode == "json_schema":
        if limits and any(limits):
            return _limited_format(model, *limits)
        return _json_schema_format(model)
    if mode == "json_object":
        return _JSON_OBJECT
    return None
