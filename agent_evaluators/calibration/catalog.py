"""The judge-backed evaluators as the calibration kit sees them: how to build each, its score
range, its labelled set.

Nothing is listed here: every entry of :mod:`agent_evaluators.registry` with a
``calibration`` set becomes a :class:`JudgeMetric` (a test checks that every judge
evaluator has one). Evaluators that need configuration get the fixed options of
their set (rubric evaluators get the rubrics their labelled set was written for).
"""

import importlib
import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

from .. import registry
from ..errors import ConfigError


@dataclass(frozen=True)
class CalibrationCase:
    """One labelled example: ``label`` is ``"good"`` (should pass) or ``"bad"`` (should fail)."""

    id: str
    label: str
    inputs: Dict[str, Any]
    why: str = ""


@dataclass(frozen=True)
class JudgeMetric:
    """One judge-backed evaluator as the calibration kit and the e2e test use it.

    ``name``: the evaluator's result key (also the labelled set's file name);
    ``target``: ``"module:Class"``; ``kwargs``: constructor arguments besides
    ``model_config``; ``quick_kwargs``: overrides for a quick run (one sample
    instead of five); ``score_range``: the scores a valid verdict can produce;
    ``cli_name``: the registry name, the one ``agent-eval run --evaluator`` takes, so
    what calibrate prints can be pasted into a run (``name`` is a result key such as
    ``hallucinations_v1`` that ``run`` does not know).
    """

    name: str
    target: str
    score_range: Tuple[float, float]
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    quick_kwargs: Mapping[str, Any] = field(default_factory=dict)
    cli_name: str = ""

    @property
    def evaluator_class(self) -> type:
        module, _, name = self.target.partition(":")
        cls: type = getattr(importlib.import_module(module), name)
        return cls

    def build(self, model_config: Any = None, *, quick: bool = False, **overrides: Any) -> Any:
        """The evaluator, configured for its labelled set; ``quick`` makes one judge request per case."""
        kwargs: Dict[str, Any] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.kwargs.items()}
        if quick:
            kwargs.update(self.quick_kwargs)
        kwargs.update(overrides)
        return self.evaluator_class(model_config=model_config, **kwargs)

    def in_range(self, score: Any) -> bool:
        low, high = self.score_range
        return isinstance(score, (int, float)) and not isinstance(score, bool) and low <= score <= high

    def cases(self) -> List[CalibrationCase]:
        """The labelled set: the metric's data file (its ``calibration_file``, or the shipped
        ``data/<name>.jsonl``), else the cases its ``calibration_cases`` declaration makes.
        Neither is a :class:`ConfigError` saying what to add."""
        from .build import declared_cases, file_for, missing_set_message

        cls = self.evaluator_class
        path = file_for(cls, self.name)
        if path is not None:
            if not path.is_file():
                raise ConfigError(f"{cls.__name__}.calibration_file: {path} does not exist; "
                                  "write the labelled cases there, or fix the path (relative to the class's module)")
            return parse_cases(path.read_text(encoding="utf-8"), source=path.name)
        if getattr(cls, "calibration_cases", None) is None:
            raise ConfigError(missing_set_message(cls))
        return [CalibrationCase(c["id"], c["label"], c["inputs"], c["why"]) for c in declared_cases(cls)]


def parse_cases(text: str, *, source: str) -> List[CalibrationCase]:
    """Read a labelled set (JSONL: ``{"id", "label": "good"|"bad", "inputs": {...}, "why"}`` per line)."""
    cases: List[CalibrationCase] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as e:
            raise ConfigError(f"{source} line {n}: not valid JSON ({e.msg})") from None
        if not isinstance(raw, dict) or raw.get("label") not in ("good", "bad") or not isinstance(raw.get("inputs"), dict):
            raise ConfigError(f"{source} line {n}: expected {{'id', 'label': 'good' | 'bad', 'inputs': {{...}}}}")
        cases.append(CalibrationCase(str(raw.get("id") or f"line{n}"), raw["label"], raw["inputs"], raw.get("why", "")))
    if not cases:
        raise ConfigError(f"{source} holds no cases")
    return cases


def _metric(entry: registry.EvaluatorEntry) -> JudgeMetric:
    cal = entry.calibration
    assert cal is not None
    return JudgeMetric(cal.stem, entry.target, cal.score_range, cal.options, cal.quick_options, cli_name=entry.name)


#: read from the registry: an evaluator with a ``calibration`` set there is calibrated here
_METRICS: Tuple[JudgeMetric, ...] = tuple(_metric(e) for e in registry.ENTRIES if e.calibration is not None)


def judge_metrics(azure_compat: bool = False) -> List[JudgeMetric]:
    """Every judge-backed evaluator, in a stable order (then those of installed plugins);
    ``azure_compat``: the judge metrics of :mod:`agent_evaluators.azure` instead, as an
    ``azure_compat`` run means the registry names (:func:`agent_evaluators.registry.compat_entries`)."""
    if azure_compat:
        return [_metric(_azure_meaning(e)) for e in registry.compat_entries() if e.judge and e.calibration is not None]
    listed = {m.target for m in _METRICS}
    return list(_METRICS) + [_metric(e) for e in registry.plugin_entries() if e.calibration and e.target not in listed]


def _azure_meaning(entry: registry.EvaluatorEntry) -> registry.EvaluatorEntry:
    """What calibrating ``entry`` (an :func:`~agent_evaluators.registry.compat_entry`) measures: the
    1.18 class where it asks the judge another question (a labelled set of its own: TaskAdherence
    0/1, ToolCallAccuracy 1-5); else our class of the same name, which renders the same template
    on the same scale, so the judge's agreement is the same, and whose pass/fail is read the one
    way (a 1.18 safety row has a severity label or ``<k>_label`` instead)."""
    own = registry.get(entry.name)
    return own if entry.calibration is own.calibration else entry


def calibrated_names() -> List[str]:
    """The registry names (as ``agent-eval list`` shows them) of the evaluators with a labelled set."""
    return [e.name for e in registry.calibrated_entries()]


def find_metric(name: str, azure_compat: bool = False) -> JudgeMetric:
    """Look an evaluator up by any name the registry knows (``hallucinations``, ``intent``,
    ``hallucinations_v1``), its result key or its class name (``IntentResolutionEvaluator``);
    ``azure_compat``: the class that name means in an ``azure_compat`` run."""
    entry = registry.find(name) or registry.by_class_name(str(name).strip())
    if entry is None:
        wanted = registry.normalize(name)
        entry = next((e for e in registry.calibrated_entries()
                      if wanted in (registry.normalize(e.result_key), registry.normalize(e.class_name),
                                    registry.normalize(e.class_name).removesuffix("evaluator"))), None)
    if azure_compat and entry is not None:
        entry = _azure_meaning(registry.compat_entry(entry.name))
        return _metric(entry) if entry.calibration is not None else _unknown(name)
    metric = next((m for m in judge_metrics() if entry is not None and m.target == entry.target), None)
    return metric if metric is not None else _unknown(name)


def _unknown(name: str) -> JudgeMetric:
    known = registry.find(name)
    if known is not None and not known.judge:  # a real evaluator, but no judge to calibrate
        raise ConfigError(f"{name!r} ({known.name}) asks no judge, so there is nothing to calibrate; calibrate one of: "
                          f"{', '.join(calibrated_names())}")
    near = registry.closest(name, calibrated_names())
    hint = f"; did you mean {near!r}?" if near else ""
    raise ConfigError(f"unknown judge-backed evaluator {name!r}{hint} Choose one of: {', '.join(calibrated_names())} "
                      "(names as `agent-eval list` shows them)")


def metric_for(evaluator: Any) -> Optional[JudgeMetric]:
    """The catalog entry of an evaluator instance (by result key, else by class), or ``None``."""
    metrics = judge_metrics()
    for m in metrics:
        if getattr(evaluator, "result_key", None) == m.name:
            return m
    for m in metrics:
        if type(evaluator).__name__ == m.target.rpartition(":")[2]:
            return m
    return None
