"""Token usage and latency of judge calls, as reported in ``<key>_usage``.

A usage record is a plain dict (it goes straight into result rows and JSON):

``prompt_tokens``, ``completion_tokens``, ``reasoning_tokens``, ``cached_tokens``,
``judge_calls``, ``attempts`` (HTTP requests, retries and the repair request included;
0 for a cache hit), ``model``, ``response_format`` (``json_schema`` / ``json_object`` /
``text``), ``latency_s``, ``template_hash``, ``cost_usd`` (USD at the price in :mod:`.prices`; ``None``
when the model's price or a token count is unknown).

A count the server did not report is ``None``, never 0: summing a known and an
unknown count stays unknown. A count it reported that is not a non-negative integer (``-5000``,
``"12"``, ``null`` inside a present object is simply unknown) is not trusted: the exchange is counted
from the request itself (its prompt and the reply text, with the model's tokenizer where installed,
else characters / 4) and priced from that, and the record says so in ``usage_problem``.
"""

import time
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from typing import Any, Dict, Iterable, List, Optional

from .prices import Price, priced
from .token_count import counter_for, prompt_tokens

COUNT_KEYS = ("prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_tokens", "judge_calls", "attempts")
LABEL_KEYS = ("model", "response_format", "template_hash")


#: the record's note when a reported count could not be trusted (present only then)
PROBLEM_KEY = "usage_problem"


def valid_count(value: Any) -> Optional[int]:
    """A reported token count as a non-negative integer (``12.0`` is 12); ``None`` for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


def _detail(usage: Mapping[str, Any], field: str, key: str) -> Any:
    details = usage.get(field)
    return details.get(key) if isinstance(details, Mapping) else None


def _reply_text(completion: Mapping[str, Any]) -> str:
    choices = completion.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], Mapping) else {}
    message = choice.get("message") if isinstance(choice.get("message"), Mapping) else {}
    text = message.get("content") if isinstance(message, Mapping) else None
    return text if isinstance(text, str) else ""


class UsageTally:
    """Attempts and token counts accumulated over every HTTP exchange of one verdict."""

    __slots__ = ("attempts", "calls", "prompt", "completion", "reasoning", "cached", "model", "problems")

    def __init__(self) -> None:
        self.attempts = 0
        self.calls = 0
        self.prompt: Optional[int] = 0
        self.completion: Optional[int] = 0
        self.reasoning: Optional[int] = 0
        self.cached: Optional[int] = 0
        self.model: Optional[str] = None
        self.problems: List[str] = []

    @staticmethod
    def _add(total: Optional[int], value: Optional[int]) -> Optional[int]:
        if total is None or value is None:
            return None
        return total + value

    def add(self, completion: Dict[str, Any], messages: Optional[List[Dict[str, Any]]] = None,
            model: Optional[str] = None) -> None:
        """Count one chat-completion reply (the JSON body as a dict) to ``messages``.

        No usage reported: the counts are unknown. Usage reported with a count that is not a
        non-negative integer: this exchange is counted from ``messages`` and the reply text instead."""
        self.calls += 1
        name = completion.get("model")
        self.model = name if isinstance(name, str) and name else self.model
        usage = completion.get("usage")
        if type(usage) is dict and "completion_tokens_details" not in usage and "prompt_tokens_details" not in usage:
            prompt, done = usage.get("prompt_tokens"), usage.get("completion_tokens")
            if type(prompt) is int and type(done) is int and prompt >= 0 and done >= 0:  # the usual reply, at once
                self.prompt = None if self.prompt is None else self.prompt + prompt
                self.completion = None if self.completion is None else self.completion + done
                self.reasoning = self.cached = None  # not reported: unknown, as below
                return
        if usage is None:
            self.prompt = self.completion = self.reasoning = self.cached = None
            return
        reported = {"prompt_tokens": usage.get("prompt_tokens"), "completion_tokens": usage.get("completion_tokens"),
                    "reasoning_tokens": _detail(usage, "completion_tokens_details", "reasoning_tokens"),
                    "cached_tokens": _detail(usage, "prompt_tokens_details", "cached_tokens"),
                    } if isinstance(usage, Mapping) else {}
        bad = {k: v for k, v in reported.items() if v is not None and valid_count(v) is None}
        if not isinstance(usage, Mapping) or "prompt_tokens" in bad or "completion_tokens" in bad:
            counter = counter_for(model or self.model)
            shown = ", ".join(f"{k}={v!r}" for k, v in bad.items()) if bad else f"usage={usage!r}"
            self.problems.append(f"the judge reported {shown[:200]}, not non-negative integers; this call is counted "
                                 f"and priced from the request itself ({counter.method})")
            self.prompt = self._add(self.prompt, prompt_tokens(messages or [], counter))
            self.completion = self._add(self.completion, counter(_reply_text(completion)))
            self.reasoning = self._add(self.reasoning, 0)
            self.cached = self._add(self.cached, 0)
            return
        if bad:
            self.problems.append(f"the judge reported {', '.join(f'{k}={v!r}' for k, v in bad.items())[:200]}, "
                                 "not non-negative integers; left unknown")
        self.prompt = self._add(self.prompt, valid_count(reported["prompt_tokens"]))
        self.completion = self._add(self.completion, valid_count(reported["completion_tokens"]))
        self.reasoning = self._add(self.reasoning, valid_count(reported["reasoning_tokens"]))
        self.cached = self._add(self.cached, valid_count(reported["cached_tokens"]))

    def usage(self, *, model: str, mode: str, started: float, template_hash: Optional[str],
              price: Optional[Price]) -> Dict[str, Any]:
        called = self.calls > 0
        record = priced({  # the keys and order of empty_usage(), written out: this runs once per judge call
            "prompt_tokens": self.prompt if called else None,
            "completion_tokens": self.completion if called else None,
            "reasoning_tokens": self.reasoning if called else None,
            "cached_tokens": self.cached if called else None,
            "judge_calls": 1,
            "attempts": self.attempts,
            "model": self.model or model,
            "response_format": mode,
            "template_hash": template_hash,
            "latency_s": round(time.perf_counter() - started, 6),
        }, price, model)
        if self.problems:
            record[PROBLEM_KEY] = "; ".join(self.problems)
        return record


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
