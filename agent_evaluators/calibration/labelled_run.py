"""Run one judge-backed evaluator with a user's judge over a labelled set and score the agreement.

The judge's verdict on a case is the evaluator's ``<key>_result``: ``pass`` reads as
"good", ``fail`` as "bad". A case the judge could not score (a ``JudgeError``, or a
``not_applicable`` result) is *not* guessed: it is listed under ``errors`` /
``not_applicable`` and left out of accuracy and κ; ``coverage`` says how many were scored.
"""

import asyncio
import contextlib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union

from .._util.concurrency import new_limiter
from .._util.loop import run_sync
from ..errors import AgentEvalError, ConfigError
from ..judge.batch_collect import batch_collector, routed
from ..judge.batch_journal import BatchJournal
from ..run_context import Fields, scoped
from ..runner.option_table import checked
from .catalog import CalibrationCase, JudgeMetric, find_metric, metric_for, parse_cases
from .kappa import accuracy, cohen_kappa, confusion_matrix, kappa_band


@dataclass
class CaseResult:
    """The judge's outcome on one case: ``predicted`` is ``good``/``bad``, or ``None`` when
    ``status`` is ``error`` or ``not_applicable`` (then ``message`` says why)."""

    id: str
    label: str
    predicted: Optional[str]
    status: str  # "scored" | "error" | "not_applicable"
    score: Optional[float] = None
    message: Optional[str] = None
    response_format: Optional[str] = None

    @property
    def correct(self) -> Optional[bool]:
        return None if self.predicted is None else self.predicted == self.label


@dataclass
class CalibrationReport:
    """Agreement of one evaluator + judge model with the labelled set.

    ``accuracy`` and ``kappa`` are over the scored cases only (``None`` when nothing
    was scored, or κ is undefined); ``confusion[label][prediction]``; ``coverage`` =
    scored / total cases; ``response_formats`` counts the structured-output mode the
    judge client used per call (json_schema / json_object / text).
    """

    evaluator: str
    model: Optional[str]
    total: int
    scored: int
    accuracy: Optional[float]
    kappa: Optional[float]
    confusion: Dict[str, Dict[str, int]]
    cases: List[CaseResult] = field(default_factory=list)
    response_formats: Dict[str, int] = field(default_factory=dict)
    elapsed_s: float = 0.0

    @property
    def coverage(self) -> float:
        return self.scored / self.total if self.total else 0.0

    @property
    def errors(self) -> List[CaseResult]:
        return [c for c in self.cases if c.status == "error"]

    @property
    def not_applicable(self) -> List[CaseResult]:
        return [c for c in self.cases if c.status == "not_applicable"]

    @property
    def kappa_band(self) -> str:
        return kappa_band(self.kappa)

    def to_dict(self) -> Dict[str, Any]:
        return {
            "evaluator": self.evaluator,
            "model": self.model,
            "total": self.total,
            "scored": self.scored,
            "coverage": self.coverage,
            "accuracy": self.accuracy,
            "kappa": self.kappa,
            "kappa_band": self.kappa_band,
            "confusion": self.confusion,
            "response_formats": self.response_formats,
            "elapsed_s": round(self.elapsed_s, 3),
            "errors": [{"id": c.id, "message": c.message} for c in self.errors],
            "not_applicable": [{"id": c.id, "message": c.message} for c in self.not_applicable],
            "cases": [c.__dict__ for c in self.cases],
        }

    def summary(self) -> str:
        """A few lines for people: the numbers, what κ means, and what failed."""
        def pct(x: Optional[float]) -> str:
            return "n/a" if x is None else f"{100 * x:.1f}%"

        c = self.confusion
        lines = [
            f"{self.evaluator} (judge {self.model or '?'}): {self.scored}/{self.total} cases scored",
            f"  accuracy {pct(self.accuracy)}, Cohen's kappa "
            f"{'n/a' if self.kappa is None else f'{self.kappa:.3f}'} ({self.kappa_band})",
            f"  confusion (label -> judged): good->good {c['good']['good']}, good->bad {c['good']['bad']}, "
            f"bad->good {c['bad']['good']}, bad->bad {c['bad']['bad']}",
        ]
        if self.errors:
            first = self.errors[0]
            lines.append(f"  {len(self.errors)} judge error(s), e.g. {first.id}: {(first.message or '')[:200]}")
        if self.not_applicable:
            lines.append(f"  {len(self.not_applicable)} case(s) not applicable")
        return "\n".join(lines)


def _resolve(evaluator: Any, model_config: Any, quick: bool) -> "tuple[Any, Optional[JudgeMetric]]":
    if isinstance(evaluator, (str, JudgeMetric)):
        metric = find_metric(evaluator) if isinstance(evaluator, str) else evaluator
        return metric.build(model_config, quick=quick), metric
    if not getattr(evaluator, "uses_judge", False) or not hasattr(evaluator, "acall"):
        raise ConfigError(f"calibrate() needs a judge-backed evaluator or its name, got {type(evaluator).__name__}")
    return evaluator, metric_for(evaluator)


def _case_list(cases: Any, metric: Optional[JudgeMetric], evaluator: Any) -> List[CalibrationCase]:
    if cases is None:
        if metric is None:
            raise ConfigError(f"no labelled set ships for {type(evaluator).__name__}; pass cases=[...]")
        return metric.cases()
    if isinstance(cases, str):
        from pathlib import Path

        path = Path(cases)
        if not path.is_file():
            raise ConfigError(f"calibration cases {cases!r}: no such file; give a JSONL file of "
                              "{'id', 'label': 'good' | 'bad', 'inputs': {...}} lines")
        return parse_cases(path.read_text(encoding="utf-8"), source=str(path))
    out = []
    for c in cases:
        if isinstance(c, CalibrationCase):
            out.append(c)
        elif isinstance(c, dict) and c.get("label") in ("good", "bad") and isinstance(c.get("inputs"), dict):
            out.append(CalibrationCase(str(c.get("id", len(out))), c["label"], c["inputs"], c.get("why", "")))
        else:
            raise ConfigError(f"cases[{len(out)}] must be {{'id', 'label': 'good' | 'bad', 'inputs': {{...}}}}")
    if not out:
        raise ConfigError("cases is empty")
    return out


async def _judge_case(evaluator: Any, case: CalibrationCase) -> CaseResult:
    key = evaluator.result_key
    try:
        out = await evaluator.acall(**case.inputs)
    except AgentEvalError as exc:
        usage = getattr(exc, "usage", None) or {}
        return CaseResult(case.id, case.label, None, "error", message=f"{type(exc).__name__}: {exc}",
                          response_format=usage.get("response_format"))
    usage = out.get(f"{key}_usage") or {}
    result = out.get(f"{key}_result")
    if result not in ("pass", "fail"):
        return CaseResult(case.id, case.label, None, "not_applicable", message=str(out.get(f"{key}_reason")),
                          response_format=usage.get("response_format"))
    return CaseResult(case.id, case.label, "good" if result == "pass" else "bad", "scored", score=out.get(key),
                      response_format=usage.get("response_format"))


async def calibrate_async(
    evaluator: Union[str, Any],
    model_config: Any = None,
    *,
    cases: Optional[Union[str, Sequence[Any]]] = None,
    max_concurrency: int = 4,
    quick: bool = False,
    judge_mode: str = "direct",
) -> CalibrationReport:
    """Async form of :func:`calibrate`."""
    checked("max_concurrency", max_concurrency)  # the run option's own check: one message wherever it is set
    ev, metric = _resolve(evaluator, model_config, quick)
    items = _case_list(cases, metric, ev)
    # a bad judge configuration is the caller's problem, not 24 case errors: fail fast
    model = ev._client().model
    started = time.perf_counter()
    batch = checked("judge_mode", judge_mode) == "batch"
    async with contextlib.AsyncExitStack() as stack:
        fields: Fields = {"limiter": new_limiter(max_concurrency)}
        if batch:  # every case in one round: one batch (a memory-only record: a calibration is not resumed)
            fields = routed(await stack.enter_async_context(
                batch_collector(BatchJournal(None, keep=False), max_concurrency=max_concurrency)))
        stack.enter_context(scoped(**fields))  # the calibration's run context
        # the judge budget caps HTTP requests; this caps cases in flight (memory, fairness)
        gate = asyncio.Semaphore(len(items) if batch else max_concurrency)

        async def one(case: CalibrationCase) -> CaseResult:
            async with gate:
                return await _judge_case(ev, case)

        results = list(await asyncio.gather(*(one(c) for c in items)))
    scored = [r for r in results if r.status == "scored"]
    matrix = confusion_matrix([r.label for r in scored], [r.predicted for r in scored])  # type: ignore[misc]
    formats = Counter(f for r in results for f in (r.response_format or "").split(",") if f)
    return CalibrationReport(
        evaluator=metric.name if metric is not None else ev.result_key,
        model=model,
        total=len(results),
        scored=len(scored),
        accuracy=accuracy(matrix),
        kappa=cohen_kappa(matrix),
        confusion=matrix,
        cases=results,
        response_formats=dict(formats),
        elapsed_s=time.perf_counter() - started,
    )


def calibrate(
    evaluator: Union[str, Any],
    model_config: Any = None,
    *,
    cases: Optional[Union[str, Sequence[Any]]] = None,
    max_concurrency: int = 4,
    quick: bool = False,
    judge_mode: str = "direct",
) -> CalibrationReport:
    """Measure how well a judge model agrees with the labelled set of one evaluator.

    Args:
        evaluator: an evaluator name (result key such as ``"task_adherence"``, or class
            name), a catalog :class:`JudgeMetric` (``find_metric(name, azure_compat=True)``:
            the azure layer's meaning), or a judge-backed evaluator instance (used as configured).
        model_config: the judge to test (any model config the evaluators accept);
            used only when ``evaluator`` is a name.
        cases: a JSONL path or a list of ``{"id", "label": "good"|"bad", "inputs"}``
            (default: the set shipped for the evaluator).
        max_concurrency: judge requests in flight.
        quick: one judge sample per case for evaluators that vote over several.
        judge_mode: ``"batch"``: every case's judge requests in one batch of the provider's Batch API.

    Returns a :class:`CalibrationReport`. Judge errors do not raise: they are
    counted in the report (``errors``), and left out of accuracy and κ.
    """
    return run_sync(calibrate_async(evaluator, model_config, cases=cases, max_concurrency=max_concurrency,
                                    quick=quick, judge_mode=judge_mode))
