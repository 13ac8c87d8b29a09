"""Build a reply object that conforms to the JSON schema a judge request asked for.

The benchmark server and test responders need a valid verdict for any evaluator's
schema without knowing the evaluator: integer/number fields named like a score get
the requested score (clamped into the schema's range; from a 0/1 score enum, the value
nearest it), strings get a short reason, other enums their first value, arrays their
minimum length, except an array of objects
keyed by a field the prompt itself lists (``"call_index": 0``, ``"rubric_id": "r1"``):
that gets one item per value listed, so per-item verdicts cover every item asked about.

Replies that must be derived from the prompt's content, not only its schema, are built from
the ``<tag>...</tag>`` blocks the templates put the data in: a list of ``sentences`` (the
hallucination segmenter) is the sentences of the text asked about, and the answer-similarity
analysis splits both answers into units and matches equal ones. So every shipped evaluator
gets a usable verdict from the bundled fake judge (``agent-eval calibrate`` against it
scores every case).
"""

import json
import re
from typing import Any, Dict, List, Optional

from .requests import ChatRequest

DEFAULT_SCORE = 4
REASON = "synthetic verdict from the local judge server"


def _resolve(node: Dict[str, Any], root: Dict[str, Any]) -> Dict[str, Any]:
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return node
    target: Any = root
    for part in ref[2:].split("/"):
        target = target.get(part, {}) if isinstance(target, dict) else {}
    merged = dict(target) if isinstance(target, dict) else {}
    merged.update({k: v for k, v in node.items() if k != "$ref"})
    return merged


def _number(node: Dict[str, Any], name: str, score: float, integer: bool) -> Any:
    lo = node.get("minimum", node.get("exclusiveMinimum"))
    hi = node.get("maximum", node.get("exclusiveMaximum"))
    value: float = score if "score" in name.lower() or name == "" else (lo if lo is not None else 1)
    if lo is not None:
        value = max(value, lo)
    if hi is not None:
        value = min(value, hi)
    return int(value) if integer else float(value)


_JSON_PAIR = re.compile(r'"(\w+)": ("(?:[^"\\]|\\.)*"|-?\d+)')


_LABEL = re.compile(r"^([\w.\-]+): ", re.MULTILINE)


def _listed_values(text: str) -> Dict[str, List[Any]]:
    """Distinct values per key of every ``"key": scalar`` pair in the prompt, in order of appearance;
    and the labels of a ``<things>`` block written one item a line as ``label: text`` (the rubrics'
    ``r1: ...``), listed as the ``thing_id`` values (numbers, as the ``index`` values too: the
    sentences' ``0: ...``)."""
    seen: Dict[str, List[Any]] = {}
    for key, raw in _JSON_PAIR.findall(text):
        value = json.loads(raw)
        values = seen.setdefault(key, [])
        if value not in values:
            values.append(value)
    for tag, body in _blocks(text).items():
        labels = _LABEL.findall(body)
        if tag.endswith("s") and labels and len(labels) == len(body.strip().splitlines()):
            seen.setdefault(tag[:-1] + "_id", labels)
            if all(label.isdigit() for label in labels):
                seen.setdefault("index", [int(label) for label in labels])
    return seen


_BLOCK = re.compile(r"<([a-z_]+)>\n(.*?)\n</\1>", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def _blocks(text: str) -> Dict[str, str]:
    """The ``<tag>\\n...\\n</tag>`` blocks of the prompt (where the templates put the data)."""
    return {tag: body.strip() for tag, body in _BLOCK.findall(text)}


def _units(text: str) -> List[str]:
    """The sentences of ``text`` (split after ``.``/``!``/``?`` and at line breaks), as written."""
    try:  # a JSON string (rendered messages / quoted text): its text
        decoded = json.loads(text)
        text = decoded if isinstance(decoded, str) else text
    except ValueError:
        pass
    return [u.strip() for u in _SENTENCE_END.split(text) if u.strip()]


#: string lists filled with the sentences of a block: property name -> the block it splits
_UNIT_SOURCES = {"sentences": "agent_text", "output_units": "agent_answer", "ground_truth_units": "expected_answer"}


def _data_text(req: ChatRequest) -> str:
    """The non-system messages: where templates put the data (system prompts hold format examples)."""
    return "\n".join(str(m.get("content") or "") for m in req.messages if m.get("role") != "system")


def synthesize(schema: Dict[str, Any], *, score: float = DEFAULT_SCORE, root: Optional[Dict[str, Any]] = None,
               name: str = "", depth: int = 0, listed: Optional[Dict[str, List[Any]]] = None,
               blocks: Optional[Dict[str, str]] = None) -> Any:
    """A value valid for ``schema`` (a JSON-schema dict); see the module docstring for the rules."""
    root = schema if root is None else root
    listed = listed or {}
    blocks = blocks or {}
    node = _resolve(schema, root)
    if depth > 12:
        return None
    if "const" in node:
        return node["const"]
    if isinstance(node.get("enum"), list) and node["enum"]:
        if score in node["enum"]:
            return score
        numbers = [v for v in node["enum"] if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if numbers and ("score" in name.lower() or name == ""):  # a 0/1 score: the value nearest the one asked for
            return min(numbers, key=lambda v: abs(v - score))
        return node["enum"][0]
    for key in ("anyOf", "oneOf"):
        options = node.get(key)
        if isinstance(options, list) and options:
            non_null = [o for o in options if isinstance(o, dict) and o.get("type") != "null"]
            return synthesize((non_null or options)[0], score=score, root=root, name=name, depth=depth + 1,
                              listed=listed, blocks=blocks)
    typ = node.get("type")
    if isinstance(typ, list):
        non_null_types = [t for t in typ if t != "null"]
        typ = non_null_types[0] if non_null_types else "null"
    if typ == "object" or (typ is None and "properties" in node):
        props = node.get("properties") or {}
        return {k: synthesize(v, score=score, root=root, name=k, depth=depth + 1, listed=listed, blocks=blocks)
                for k, v in props.items()}
    if typ == "array":
        items = _resolve(node.get("items") or {}, root)
        source = _UNIT_SOURCES.get(name)
        if items.get("type") == "string" and source and (source in blocks or len(blocks) == 1):
            return _units(blocks.get(source) or next(iter(blocks.values())))
        keys = [k for k in (items.get("properties") or {})
                if k in listed and (k.endswith("_index") or k.endswith("_id") or k == "index")]
        if keys:
            out = []
            for value in listed[keys[0]]:
                item = synthesize(items, score=score, root=root, name=name, depth=depth + 1, listed=listed,
                                  blocks=blocks)
                item[keys[0]] = value
                out.append(item)
            return out
        count = int(node.get("minItems") or 0)
        return [synthesize(items, score=score, root=root, name=name, depth=depth + 1, listed=listed, blocks=blocks)
                for _ in range(count)]
    if typ == "integer":
        return _number(node, name, score, integer=True)
    if typ == "number":
        return _number(node, name, score, integer=False)
    if typ == "boolean":
        return True
    if typ == "string":
        text = REASON if "reason" in name.lower() or "explanation" in name.lower() else f"synthetic {name or 'text'}"
        min_len = int(node.get("minLength") or 0)
        return text.ljust(min_len, ".")
    if typ == "null":
        return None
    return None


def schema_reply(req: ChatRequest, **overrides: Any) -> Dict[str, Any]:
    """A verdict object for ``req``: schema-conforming when it asked for a ``json_schema``,
    else ``{"score": N, "reason": ...}``.

    ``score=`` sets every score-like number (clamped into the schema's range, so the
    reply stays valid); other ``overrides`` replace top-level fields as given. For an
    out-of-range score on purpose, use ``{**schema_reply(req), "score": 9}``.
    """
    if not overrides and _schema_name(req) == "SimulatedUserTurn":
        return simulated_user_reply(req)
    if set(overrides) <= {"score"} and _schema_name(req) == "SimilarityVerdict":  # no score field to set
        return similarity_reply(req)
    score = overrides.get("score", DEFAULT_SCORE)
    schema = req.json_schema
    if schema is None:
        out: Dict[str, Any] = {"score": score, "reason": REASON}
    else:
        data = _data_text(req)
        value = synthesize(schema, score=score, listed=_listed_values(data), blocks=_blocks(data))
        out = value if isinstance(value, dict) else {"value": value}
    for key, value in overrides.items():
        if key == "score" and schema is not None:
            continue  # already applied, clamped, by synthesize()
        out[key] = value
    return out


# ---------------------------------------------------------------------------- answer similarity
def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def similarity_reply(req: ChatRequest) -> Dict[str, Any]:
    """The answer-similarity analysis (``prompty/answer_similarity.prompty``) of a literal judge:
    both answers split into sentences; a ground-truth sentence the answer repeats (same words)
    is an exact match, one it shares most words with is partial, anything else is missing."""
    blocks = _blocks(_data_text(req))
    out_units = _units(blocks.get("agent_answer", ""))
    gt_units = _units(blocks.get("expected_answer", "")) or ["(empty)"]
    matches, used = [], set()
    for g, gt in enumerate(gt_units):
        words = set(_norm(gt).split())
        best, overlap = None, 0.0
        for o, unit in enumerate(out_units):
            if o in used:
                continue
            share = len(words & set(_norm(unit).split())) / max(len(words), 1)
            if share > overlap:
                best, overlap = o, share
        kind = "exact" if best is not None and _norm(out_units[best]) == _norm(gt) else (
            "partial" if best is not None and overlap >= 0.5 else "missing")
        if kind == "missing":
            best = None
        else:
            used.add(best)
        matches.append({"ground_truth_unit": g, "output_unit": best, "match_type": kind,
                        "explanation": f"synthetic: {kind} (word overlap {overlap:.2f})"})
    extra = [o for o in range(len(out_units)) if o not in used]
    return {"output_units": out_units, "ground_truth_units": gt_units, "matches": matches,
            "extra_in_output": extra, "contradictions": []}


# ---------------------------------------------------------------------------- the user simulator
SIMULATED_TURNS = 2  # user turns the fake simulator writes before it stops (the starting prompt is not one)
_STOP = re.compile(r'set "message" to exactly (\S+) and nothing else')


def _schema_name(req: ChatRequest) -> Optional[str]:
    rf = req.response_format or {}
    js = rf.get("json_schema") if isinstance(rf, dict) else None
    return js.get("name") if isinstance(js, dict) else None


def simulated_user_reply(req: ChatRequest) -> Dict[str, Any]:
    """A reply to the user simulator (``prompty/user_simulator.prompty``): a plausible user turn
    naming how many agent replies it has seen, then, once the history holds more than
    :data:`SIMULATED_TURNS` agent replies, the stop signal the prompt asks for. So a simulated
    conversation against the fake judge ends on the stop signal, not on the turn limit."""
    agent_turns = _data_text(req).count('"speaker": "agent", "text"')
    if agent_turns > SIMULATED_TURNS:
        found = _STOP.search(req.system_text)
        return {"message": found.group(1) if found else "</finished>"}
    return {"message": f"synthetic user turn after {agent_turns} agent replies"}
