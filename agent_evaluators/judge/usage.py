"""Token usage and latency of judge calls, as reported in ``<key>_usage``.

A usage record is a plain dict (it goes straight into result rows and JSON):

``prompt_tokens``, ``completion_tokens``, ``reasoning_tokens``, ``cached_tokens``,
``judge_calls``, ``attempts`` (HTTP requests, retries and the repair request included;
0 for a cache hit), ``model``, ``response_format`` (``json_schema`` / ``json_object`` /
``text``), ``latency_s``, ``template_hash``, ``cost_usd`` (USD at the price in :mod:`.prices`; ``None``
when the model's price or a token count is unknown).

A count the server did not report is ``None``, never 0: summing a known and an
unknown count stays unknown.
"""

from typing import Any, Dict, Iterable, Optional

COUNT_KEYS = ("prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_tokens", "judge_calls", "attempts")
LABEL_KEYS = ("model", "response_format", "template_hash")


def empty_usage() -> Dict[str, Any]:
    return {k: None for k in COUNT_KEYS + LABEL_KEYS + ("latency_s", "cost_usd")}


def _add(a: Optional[float], b: Optional[float]) -> Optional[float]:
    if a is None or b is None:
        return None
    return a + b


def merge_usage(usages: Iterable[Optional[Dict[str, Any]]]) -> Optional[Dict[str, Any]]:
    """Sum counts and latency over several records; labels kept when they agree."""
    present = [u for u in usages if u]
    if not present:
        return None
    out: Dict[str, Any] = dict(present[0])
    for u in present[1:]:
        for k in COUNT_KEYS + ("latency_s", "cost_usd"):
            out[k] = _add(out.get(k), u.get(k))
        for k in LABEL_KEYS:
            labels = {v for r in (out, u) for v in str(r.get(k) or "").split(",") if v}
            out[k] = ",".join(sorted(labels)) or None
    if out.get("latency_s") is not None:
        out["latency_s"] = round(out["latency_s"], 6)
    if out.get("cost_usd") is not None:
        out["cost_usd"] = round(out["cost_usd"], 12)
    return out
