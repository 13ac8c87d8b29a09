"""Strict JSON schemas for structured output, built once per pydantic model.

OpenAI / Azure ``json_schema`` mode with ``strict: true`` needs every object to list
all its properties as required and forbid additional ones, and rejects several
validation keywords on older API versions. We send the *shape* only; the full
pydantic model (ranges, lengths, patterns) still validates the reply locally.
"""

import copy
import functools
import re
from typing import Any, Dict, Type

__all__ = ["response_format_for", "strict_schema"]

# Validation keywords some strict-mode endpoints reject; pydantic enforces them locally.
_DROP_KEYS = frozenset({
    "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems",
    "minProperties", "maxProperties", "examples", "discriminator",
})


def _strictify(node: Any, defs: Dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_strictify(n, defs) for n in node]
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
        if key in _DROP_KEYS:
            continue
        if key in ("properties", "$defs", "definitions"):
            out[key] = {k: _strictify(v, defs) for k, v in value.items()}
        else:
            out[key] = _strictify(value, defs)
    if out.get("type") == "object" or "properties" in out:
        props = out.get("properties") or {}
        out["properties"] = props
        out["required"] = list(props)
        out["additionalProperties"] = False
    return out


@functools.lru_cache(maxsize=256)
def strict_schema(model: Type[Any]) -> Dict[str, Any]:
    """The strict-mode JSON schema of a pydantic model (cached per model class)."""
    raw = model.model_json_schema()
    defs = raw.get("$defs", {})
    return _strictify(copy.deepcopy(raw), defs)


@functools.lru_cache(maxsize=256)
def _json_schema_format(model: Type[Any]) -> Dict[str, Any]:
    name = re.sub(r"[^a-zA-Z0-9_-]", "_", getattr(model, "__name__", "verdict"))[:64] or "verdict"
    return {"type": "json_schema", "json_schema": {"name": name, "schema": strict_schema(model), "strict": True}}


_JSON_OBJECT = {"type": "json_object"}


def response_format_for(model: Type[Any], mode: str) -> Any:
    """The ``response_format`` request value for ``mode`` (``None`` for plain text).

    The returned dicts are shared; callers must not mutate them.
    """
    if mode == "json_schema":
        return _json_schema_format(model)
    if mode == "json_object":
        return _JSON_OBJECT
    return None
