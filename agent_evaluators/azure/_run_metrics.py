"""azure-ai-evaluation 1.18's run metrics, computed from its rows without pandas.

1.18's rules (``_evaluate/_evaluate.py``: ``_aggregate_metrics`` and its helpers), per alias:

* ``<alias>.<key>``: the mean of every numeric or boolean output column (a boolean column
  averages, so ``<key>_passed`` is the pass rate); missing values are skipped. Columns
  ending ``_threshold`` or ``_result``, token-count columns of 1.18's known metrics, label
  columns of its label metrics and text/dict/list columns are left out;
* ``<alias>.binary_aggregate``: the share of *all* rows whose ``*_result`` is ``"pass"``
  (an errored row counts as not passed), rounded to 2 decimals; with several ``_result``
  columns the last one wins, as in 1.18;
* content-safety ``<metric>_score`` columns also give ``<alias>.<metric>_defect_rate``
  (share of scores >= 4), label metrics ``<alias>.<metric>_defect_rate`` (mean of the label)
  and their details one rate per key, ``groundedness_pro_label`` gives
  ``<alias>.groundedness_pro_passing_rate``; all rounded to 2 decimals;
* an evaluator's ``__aggregate__(outputs)`` result, when it returns a dict, is merged in.

One deliberate difference: 1.18 drops a boolean column from the metrics as soon as one
row lacks it (pandas turns a bool column with a gap into ``object``), so ``<key>_passed``
vanishes after one failed or not-applicable row. We average the rows that have it, the
way numeric columns are averaged.
"""

import logging
import math
from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ._rows import AzureTable

logger = logging.getLogger(__name__)

BINARY_AGGREGATE = "binary_aggregate"

#: 1.18's ``EvaluationMetrics`` and ``_InternalEvaluationMetrics`` names: their token columns are not averaged
_KNOWN_METRICS = (
    "groundedness", "relevance", "coherence", "fluency", "similarity", "f1_score", "retrieval_score",
    "hate_fairness", "hate_unfairness", "violence", "self_harm", "sexual", "protected_material", "artwork",
    "fictional_characters", "logos_and_brands", "xpia", "code_vulnerability", "ungrounded_attributes",
    "sensitive_data_leakage", "task_adherence", "prohibited_actions", "eci",
)
_TOKEN_SUFFIXES = tuple(f"{m}_{t}" for m in _KNOWN_METRICS for t in ("prompt_tokens", "completion_tokens",
                                                                       "total_tokens"))
#: content-safety scores with a defect rate (score >= 4 is a defect)
_SAFETY_SCORES = ("sexual", "self_harm", "hate_unfairness", "violence")
_SAFETY_DEFECT_AT = 4
#: label metrics whose ``_label`` column becomes a defect rate
_LABEL_METRICS = ("protected_material", "fictional_characters", "artwork", "logos_and_brands", "eci", "xpia",
                  "code_vulnerability", "ungrounded_attributes")
_RENAMED = {"groundedness_pro_label": "groundedness_pro_passing_rate"}


def metric_names(result_key: str) -> Tuple[str, ...]:
    """The metric names 1.18's rows add for an evaluator with ``result_key`` (``azure_compat`` runs)."""
    return (BINARY_AGGREGATE, f"{result_key}_passed", f"{result_key}_score", f"gpt_{result_key}")


def _number(value: Any) -> float:
    """``pandas.to_numeric(errors="coerce")`` for one value: numbers and numeric text, else NaN."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return math.nan
    return math.nan


def _nan_mean(values: Sequence[float]) -> Optional[float]:
    kept = [v for v in values if not math.isnan(v)]
    return math.fsum(kept) / len(kept) if kept else None


def _rate(values: Sequence[Any], transform: Callable[[float], float] = lambda x: x) -> Optional[float]:
    mean = _nan_mean([transform(x) if not math.isnan(x) else x for x in map(_number, values)])
    return None if mean is None else round(mean, 2)


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _column_mean(values: Sequence[Any]) -> Optional[float]:
    """The mean pandas' ``DataFrame.mean(numeric_only=True)`` gives a column (see the module docstring
    for the one difference): numbers (gaps skipped) or booleans; anything else has none."""
    present = [v for v in values if not _is_missing(v)]
    if not present:
        return None
    if all(isinstance(v, bool) for v in present):
        return sum(present) / len(present)
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return math.fsum(present) / len(present)
    return None


def _binary(table: AzureTable, alias: str) -> Optional[float]:
    """Share of all rows whose ``*_result`` says ``pass`` (the last such column of the alias wins)."""
    share: Optional[float] = None
    total = len(table.rows)
    for key in table.columns[alias]:
        if not key.endswith("_result"):
            continue
        values = table.column(alias, key)
        if any(isinstance(v, (list, dict)) for v in values):
            continue  # 1.18 skips a column it cannot count (per-turn lists)
        passed = sum(1 for v in values if v == "pass")
        share = round(passed / total, 2) if total else 0.0
    return share


def _defect_rates(table: AzureTable, alias: str) -> Dict[str, Any]:
    """Safety defect rates, label defect rates, renamed rates; and the columns they take out of the means."""
    out: Dict[str, Any] = {}
    details_key: Optional[str] = None
    for key in table.columns[alias]:
        metric = key.split(".")[0]
        values = table.column(alias, key)
        if metric.endswith("_score") and metric.replace("_score", "") in _SAFETY_SCORES:
            rate = _rate(values, lambda x: 1.0 if x >= _SAFETY_DEFECT_AT else 0.0)
            if rate is not None:
                out[f"{alias}.{key}".replace("_score", "_defect_rate")] = rate
        elif metric in _RENAMED:
            rate = _rate(values)
            if rate is not None:
                out[f"{alias}.{_RENAMED[metric]}"] = rate
        elif metric.endswith("_label") and metric.replace("_label", "").lower() in _LABEL_METRICS:
            rate = _rate(values)
            if rate is not None:
                out[f"{alias}.{key}".replace("_label", "_defect_rate")] = rate
        if metric.endswith("_details") and metric.replace("_details", "").lower() in _LABEL_METRICS:
            details_key = key
    if details_key is not None:
        per_key: Dict[str, List[Any]] = {}
        for cell in table.column(alias, details_key):
            if isinstance(cell, Mapping):
                for k, v in cell.items():
                    per_key.setdefault(k, []).append(v)
        for k, vals in per_key.items():
            rate = _rate(vals)
            if rate is not None:
                out[f"{alias}.{details_key}.{k}_defect_rate"] = rate
    return out


def _excluded(key: str) -> bool:
    """Columns 1.18 never averages: per-row metadata, token counts of its metrics, rates computed apart."""
    metric = key.split(".")[0]
    return (key.endswith(("_threshold", "_result")) or key.endswith(_TOKEN_SUFFIXES) or metric in _RENAMED
            or (metric.endswith("_label") and metric.replace("_label", "").lower() in _LABEL_METRICS))


def _aggregate_hook(evaluator: Any, table: AzureTable, alias: str) -> Dict[str, Any]:
    """An evaluator's own ``__aggregate__`` over its outputs (1.18 passes the bare values of a
    scalar evaluator, else each row's outputs as a dict that also reads as attributes)."""
    hook = getattr(evaluator, "__aggregate__", None)
    if not callable(hook):
        return {}
    columns = table.columns[alias]
    if columns == ["output"]:
        outputs: List[Any] = table.column(alias, "output")
    else:
        outputs = [_AttrDict({c: (cell or {}).get(c) for c in columns}) for cell in table.cells[alias]]
    try:
        result = hook(outputs)
    except Exception as exc:  # 1.18 logs it and goes on without them
        logger.warning("evaluator %r: __aggregate__ failed (%s); its metrics are left out", alias, exc)
        return {}
    return {f"{alias}.{k}": v for k, v in result.items()} if isinstance(result, Mapping) else {}


class _AttrDict(Dict[str, Any]):
    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def azure_metrics(table: AzureTable, evaluators: Mapping[str, Any]) -> Dict[str, Any]:
    """1.18's ``metrics`` dict for the rows of ``table`` (see the module docstring)."""
    means: Dict[str, Any] = {}
    rates: Dict[str, Any] = {}
    binary: Dict[str, Any] = {}
    hooks: Dict[str, Any] = {}
    for alias in table.aliases:
        rates.update(_defect_rates(table, alias))
        for key in table.columns[alias]:
            if _excluded(key):
                continue
            mean = _column_mean(table.column(alias, key))
            if mean is not None and not math.isnan(mean):
                means[f"{alias}.{key}"] = mean
        share = _binary(table, alias)
        if share is not None:
            binary[f"{alias}.{BINARY_AGGREGATE}"] = share
        hooks.update(_aggregate_hook(evaluators.get(alias), table, alias))
    return {**means, **rates, **binary, **hooks}


def azure_run_metrics(records: Iterable[Mapping[str, Any]], evaluators: Mapping[str, Any]) -> Dict[str, Any]:
    """1.18's metrics of a finished run of ours (``evaluate(azure_compat=True)``), from its records.

    1.18's rules read whole columns, so the rows are held in memory once, as 1.18 holds them."""
    return azure_metrics(AzureTable.from_records(records, list(evaluators)), evaluators)
