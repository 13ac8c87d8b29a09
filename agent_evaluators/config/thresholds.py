"""Run-level thresholds (``trajectory.pass_rate >= 0.9``): parsing, and the check that each names a
metric its evaluator produces, made before the run rather than after every judge call is paid for.

Read by the run config (``thresholds:``), ``agent-eval run -t`` and :mod:`agent_evaluators.pytest_plugin.assertions`.
"""

import operator
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Union

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
