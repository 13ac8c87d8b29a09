"""A dry run's estimate (``summary.json``'s ``estimate``) and its comparison with a real run's usage.

``{"total": {...}, "<alias>": {...}}``, each with ``judge_calls`` (requests the run would send),
``prompt_tokens``, ``completion_tokens`` and ``cost_usd`` (``None`` when the model's price is
unknown, never 0); an alias's entry also names its ``model`` and ``token_method`` (how its
tokens were counted, :mod:`agent_evaluators.judge.token_count`), and one that could not be
estimated has ``None`` counts and a ``note`` saying why. Judge requests a ``target`` makes itself
(a simulated user's turns, a red-team scan's attacker turns and generated objectives) are the entry
``"(target)"``.
"""

from pathlib import Path
from typing import Any, Dict, Mapping, Optional

from ..judge.token_count import counter_for
from .store import SUMMARY_FILE, read_json

#: where a dry run's estimate goes when the folder already holds a run's rows
ESTIMATE_FILE = "estimate.json"
ESTIMATE_KEYS = ("judge_calls", "prompt_tokens", "completion_tokens", "cost_usd")


def _entry(usage: Optional[Mapping[str, Any]], methods: Mapping[str, str]) -> Dict[str, Any]:
    """One alias's estimate from the usage its dry cells recorded (``attempts`` = requests sent)."""
    if not usage:
        return {"judge_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
    models = [m for m in str(usage.get("model") or "").split(",") if m]
    return {
        "judge_calls": int(usage.get("attempts") or 0),
        "prompt_tokens": usage.get("prompt_tokens"),
        "completion_tokens": usage.get("completion_tokens"),
        "cost_usd": None if usage.get("cost_usd") is None else round(usage["cost_usd"], 10),
        "model": ",".join(models) or None,
        "token_method": "; ".join(sorted({methods.get(m) or counter_for(m).method for m in models})) or None,
    }


def _total(entries: Mapping[str, Mapping[str, Any]]) -> Dict[str, Any]:
    """The run's total: counts summed; unknown (``None``) when any estimated alias's is."""
    total: Dict[str, Any] = {k: 0 for k in ESTIMATE_KEYS}
    total["cost_usd"] = 0.0
    for entry in entries.values():
        if entry.get("note"):
            continue
        for k in ESTIMATE_KEYS:
            total[k] = None if total[k] is None or entry.get(k) is None else total[k] + entry[k]
    if total["cost_usd"] is not None:
        total["cost_usd"] = round(total["cost_usd"], 12)
    methods = sorted({e["token_method"] for e in entries.values() if e.get("token_method")})
    total["token_method"] = "; ".join(methods) or None
    return total


#: the entry of the judge requests no evaluator made: the target's own (a simulated user, an attacker model)
TARGET_ENTRY = "(target)"
#: what that entry counts, in words (a run may have either kind of target)
TARGET_ABOUT = ("judge requests the target step makes itself, not an evaluator: a simulated user's turns (up to its "
                "turn limit), a red-team scan's attacker turns and generated objectives")


def _target_entry(entries: Mapping[str, Mapping[str, Any]], sent: Mapping[str, Any],
                  methods: Mapping[str, str]) -> Optional[Dict[str, Any]]:
    """What was sent (``sent``: every request's usage summed) beyond what the evaluators recorded."""
    counted = _total(entries)
    calls = sent["judge_calls"] - (counted["judge_calls"] or 0)
    if calls <= 0:
        return None
    out: Dict[str, Any] = {"judge_calls": calls}
    for k in ("prompt_tokens", "completion_tokens", "cost_usd"):
        out[k] = None if sent[k] is None or counted[k] is None else sent[k] - counted[k]
    if out["cost_usd"] is not None:
        out["cost_usd"] = round(out["cost_usd"], 10)
    out["token_method"] = "; ".join(sorted(set(methods.values()))) or None
    out["about"] = TARGET_ABOUT
    return out


def build_estimate(usage: Mapping[str, Optional[Mapping[str, Any]]], skipped: Mapping[str, str],
                   methods: Mapping[str, str], sent: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """``{"total": {...}, "<alias>": {...}}``: see the module docstring. ``sent``: every request's usage
    summed, when requests other than the evaluators' were made (a target's own judge: ``"(target)"``)."""
    entries: Dict[str, Dict[str, Any]] = {alias: _entry(u, methods) for alias, u in usage.items()}
    target = _target_entry(entries, sent, methods) if sent is not None else None
    if target is not None:
        entries[TARGET_ENTRY] = target
    for alias, why in skipped.items():
        entries[alias] = {**{k: None for k in ESTIMATE_KEYS}, "note": why}
    return {"total": _total(entries), **entries}


def earlier_estimate(out: Optional[Path]) -> Optional[Dict[str, Any]]:
    """The dry-run estimate kept in run folder ``out`` (``estimate.json``, else ``summary.json``'s), if any."""
    if out is None:
        return None
    for name in (ESTIMATE_FILE, SUMMARY_FILE):
        try:
            found = read_json(out / name) if (out / name).is_file() else None
        except ValueError:  # a damaged file holds no estimate (the run's own checks name it)
            found = None
        if isinstance(found, dict) and isinstance(found.get("estimate"), dict):
            return dict(found["estimate"])
    return None


def _ratio(actual: Optional[float], estimated: Optional[float]) -> Optional[float]:
    if actual is None or estimated is None or estimated == 0:
        return None
    return round(actual / estimated, 4)


def compare_estimate(estimate: Mapping[str, Any], usage: Mapping[str, Optional[Mapping[str, Any]]]) -> Dict[str, Any]:
    """Per alias estimated in ``estimate`` and run now: judge calls (requests sent, retries included)
    and tokens, estimated and actual, with the ratio actual / estimated."""
    out: Dict[str, Any] = {}
    for alias, est in estimate.items():
        if alias == "total" or alias not in usage or not isinstance(est, Mapping) or est.get("note"):
            continue
        used = usage.get(alias) or {}
        if not used and not est.get("judge_calls"):
            continue  # no judge on either side: nothing to compare
        actual = {"judge_calls": int(used.get("attempts") or 0), "prompt_tokens": used.get("prompt_tokens"),
                  "completion_tokens": used.get("completion_tokens")} if used else {
            "judge_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
        out[alias] = {k: {"estimated": est.get(k), "actual": actual[k], "ratio": _ratio(actual[k], est.get(k))}
                      for k in ("judge_calls", "prompt_tokens", "completion_tokens")}
    return out
