"""Which way is better for a run metric, so a compare view colours a change by meaning, not by sign.

A fall in ``error_count`` is good news and a fall in ``pass_rate`` is bad news; colouring deltas
green when positive gets one of them wrong. Metric names are the ones ``summary.json`` holds
(``<alias>.<key>``, see :mod:`agent_evaluators.runner.aggregate`):

* lower is better: error and not-applicable counts (a rise means fewer cells were scored), the
  spread between runs (``*_std``), and cost: latency, tokens, judge calls, attempts, duration;
* neutral: how many cells were scored (``<alias>.n``) and any other count: more rows is no verdict;
* lower is better also: the score of a metric the registry marks ``lower_is_better`` (the harm
  severities and safety findings: ``<alias>.violence``, or 1.18's ``<alias>.violence_score``), but
  not its pass rate, and 1.18's defect rates (``<alias>.violence_defect_rate``);
* higher is better: everything else, i.e. scores and pass rates.
"""

from typing import Optional

HIGHER = "higher"
LOWER = "lower"

_LOWER_SUFFIXES = ("error_count", "not_applicable_count", "_std")
_COST_WORDS = ("latency", "tokens", "judge_calls", "attempts", "duration")


def _lower_is_better(key: str) -> bool:
    """Whether the registry marks the metric of result key ``key`` lower-is-better (an installed plugin's
    package is imported only when the key is its name)."""
    from .. import registry

    return registry.lower_is_better(key) or (key.endswith("_score") and registry.lower_is_better(key[:-6]))


def metric_direction(name: str) -> Optional[str]:
    """``"higher"`` or ``"lower"`` (which way is better) for a metric name, ``None`` when neither is."""
    key = name.rsplit(".", 1)[-1]
    if key.endswith("_defect_rate") or _lower_is_better(key):
        return LOWER
    if key.endswith(_LOWER_SUFFIXES) or any(word in key for word in _COST_WORDS):
        return LOWER
    if key == "n" or key.endswith("_count"):
        return None
    return HIGHER


def change_class(name: str, delta: Optional[float]) -> str:
    """``"better"``, ``"worse"`` or ``"neutral"`` for a change of ``delta`` in metric ``name``."""
    direction = metric_direction(name)
    if not delta or direction is None or delta != delta:  # no change, a neutral metric, or NaN
        return "neutral"
    return "better" if (delta > 0) == (direction == HIGHER) else "worse"
