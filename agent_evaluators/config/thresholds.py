"""Run-level thresholds (``trajectory.pass_rate >= 0.9``): parsing, and the check that each names a
metric its evaluator produces, made before the run rather than after every judge call is paid for.

Read by the run config (``thresholds:``), ``agent-eval run -t`` and :mod:`agent_evaluators.pytest_plugin.assertions`.
"""

import operator
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

from ..errors import ConfigError

_OPS: Dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
}
_THRESHOLD_RE = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*(>=|<=|==|>|<)\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*$")


@dataclass(frozen=True)
class Threshold:
    """A run-level check such as ``trajectory.pass_rate >= 0.9``."""

    metric: str
    op: str
    value: float

    @property
    def alias(self) -> str:
        return self.metric.split(".", 1)[0]

    def check(self, actual: Optional[float]) -> bool:
        return actual is not None and _OPS[self.op](actual, self.value)

    def __str__(self) -> str:
        return f"{self.metric} {self.op} {self.value:g}"


def parse_threshold(text: Any, value: Any = None) -> Threshold:
    """``"alias.metric >= 0.9"``, or ``("alias.metric", 0.9)`` meaning ``>=``."""
    if value is not None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"threshold {text!r}: the value must be a number, got {value!r}")
        metric, op, number = str(text).strip(), ">=", float(value)
    else:
        m = _THRESHOLD_RE.match(str(text))
        if m is None:
            raise ConfigError(
                f"threshold {text!r} is not understood; write '<alias>.<metric> <op> <number>' with op one of "
                f"{', '.join(_OPS)}, e.g. 'trajectory.pass_rate >= 0.9'"
            )
        metric, op, number = m.group(1), m.group(2), float(m.group(3))
    if "." not in metric:
        raise ConfigError(
            f"threshold {text!r}: name the metric as <alias>.<metric>, e.g. '{metric}.pass_rate' "
            f"or '{metric}.<result key>'"
        )
    return Threshold(metric, op, number)


def closest_hint(word: str, choices: Sequence[str]) -> str:
    """``; did you mean 'x'?`` for the closest of ``choices``, or ``""``."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def check_threshold_metrics(thresholds: Sequence[Threshold],
                            result_keys: Mapping[str, Union[None, str, Sequence[str]]],
                            azure_compat: bool = False) -> None:
    """A threshold naming a metric its evaluator never produces is a :class:`ConfigError` now, before the
    run, rather than a failed check after it (when every judge call has been paid for).

    ``result_keys``: alias -> result key (or a composite's keys: its own and its members'), for the
    aliases whose metrics are known in advance (the package's evaluators); other aliases (plain
    functions, foreign classes) are not checked.
    """
    from ..adk.efficiency.metrics import EFFICIENCY_METRICS, reject_threshold
    from ..azure.meaning import metric_names as azure_metric_names
    from ..runner.aggregate import COUNT_METRICS, known_metric  # the runner imports run configs

    for t in thresholds:
        key = result_keys.get(t.alias)
        name = t.metric.split(".", 1)[1]
        if isinstance(key, str) and key in EFFICIENCY_METRICS:  # informational, as in ADK: never a gate
            reject_threshold(key, t, where=f"threshold '{t}'")
        if not key or known_metric(name, key):
            continue
        keys = (key,) if isinstance(key, str) else tuple(key)
        azure_names = [n for k in keys for n in azure_metric_names(k)] if azure_compat else []
        if name in azure_names:
            continue
        valid = [f"{t.alias}.{m}" for m in (*keys, *COUNT_METRICS, *azure_names)]
        raise ConfigError(
            f"threshold '{t}': evaluator {t.alias!r} produces no metric {name!r}{closest_hint(t.metric, valid)} "
            f"(its metrics: {', '.join(valid)})"
        )


#: metrics every alias has whose values are shares, whatever the evaluator's own scale
_SHARES = ("pass_rate", "binary_aggregate", "corrected_pass_rate")


def _range_of(name: str, key: str, scale: Tuple[float, float]) -> Optional[Tuple[float, float]]:
    """The values ``<alias>.<name>`` can take, for an evaluator with result key ``key`` on ``scale``."""
    if name in _SHARES or name == f"{key}_passed" or name.startswith(("pass_rate_run", "pass_at", "pass_hat")):
        return (0.0, 1.0)
    if name in (key, f"{key}_score", f"gpt_{key}"):
        return scale
    return None  # counts, spreads: no fixed range


def _vacuous(t: Threshold, low: float, high: float) -> Optional[str]:
    """``"every"`` / ``"no"``: which values on ``[low, high]`` pass ``t``, when that is all or none of them."""
    op, v = t.op, t.value
    every = {">=": v <= low, ">": v < low, "<=": v >= high, "<": v > high, "==": low == high == v}[op]
    none = {">=": v > high, ">": v >= high, "<=": v < low, "<": v <= low, "==": not low <= v <= high}[op]
    return "every" if every else "no" if none else None


def check_threshold_scales(thresholds: Sequence[Threshold],
                           scales: Mapping[str, Tuple[str, Tuple[float, float], bool]]) -> None:
    """A threshold that every value on its metric's scale passes, or that none can pass, checks nothing:
    a :class:`ConfigError` naming the scale, before the run. The usual cause is a threshold written for
    another meaning of the metric (``tool_call_accuracy >= 0.7`` on our 0-1 scale is always met on
    azure-ai-evaluation 1.18's 1-5 scale, which ``azure_compat`` uses); a share (``pass_rate``) means
    the same on every scale.

    ``scales``: alias -> (result key, its score scale, whether higher is better), for the aliases whose
    scale is declared (:func:`agent_evaluators.evaluators.base.score_scale`)."""
    for t in thresholds:
        if t.alias not in scales:
            continue
        key, scale, higher_is_better = scales[t.alias]
        name = t.metric.split(".", 1)[1]
        span = _range_of(name, key, scale)
        which = _vacuous(t, *span) if span is not None else None
        if span is None or which is None:
            continue
        direction = "higher is better" if higher_is_better else "lower is better"
        what = "a share from 0 to 1" if span == (0.0, 1.0) and span != scale else \
            f"scored from {span[0]:g} to {span[1]:g} ({direction})"
        outcome = "every value passes it, so it checks nothing" if which == "every" else "no value can pass it"
        raise ConfigError(
            f"threshold '{t}': {t.metric} is {what}: {outcome}; write it on that scale, or use "
            f"{t.alias}.pass_rate (the share of rows that pass the evaluator's own threshold, the same on every "
            "scale)")
