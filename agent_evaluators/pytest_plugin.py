"""pytest support: aggregate assertions, one test per evaluated row, and ``*.eval.yaml`` files as tests.

Assert aggregates of a run::

    from agent_evaluators.pytest_plugin import assert_passes

    result = evaluate(data="runs.jsonl", evaluators={...})
    assert_passes(result, {"intent.intent_resolution": 4.0, "trajectory.pass_rate": 1.0})   # ">=" each
    assert_passes(result, ["trajectory.tool_trajectory_avg_score >= 0.95", "intent.error_count == 0"])

One test case per row (the evaluation runs once, on first use)::

    from agent_evaluators.pytest_plugin import eval_cases

    @pytest.mark.parametrize("case", eval_cases("samples/eval.yaml"))
    def test_agent(case):
        case.check()          # fails with evaluator, score, threshold and reason per failing cell

    # or without a config file:
    eval_cases(data="runs.jsonl", evaluators={"trajectory": ToolTrajectoryEvaluator()},
               evaluator_config={"trajectory": {"column_mapping": {"ground_truth": "${data.expected}"}}})

As a plugin (registered through the ``pytest11`` entry point, or ``-p agent_evaluators.pytest_plugin``),
every run config named ``*.eval.yaml`` / ``*.eval.yml`` / ``*.eval.json`` inside the collected
paths becomes a test file: one test per row plus one for the run-level thresholds.
Judge-backed evaluators are skipped when no judge is configured (environment), as in ``agent-eval run``.
"""

from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import pytest

__all__ = ["assert_passes", "eval_cases", "EvalRowCase", "EvalRun"]

EVAL_FILE_SUFFIXES = (".eval.yaml", ".eval.yml", ".eval.json")


# ---------------------------------------------------------------------------- aggregates
def _metrics_of(result: Any) -> Mapping[str, Any]:
    metrics = getattr(result, "metrics", None)
    if metrics is None and isinstance(result, Mapping):
        metrics = result.get("metrics", result)
    if not isinstance(metrics, Mapping):
        raise TypeError(f"assert_passes needs an EvaluationResult or a metrics dict, got {type(result).__name__}")
    return metrics


def assert_passes(result: Any, thresholds: Union[Mapping[str, float], Sequence[str], str]) -> None:
    """Fail (``AssertionError``) unless every aggregate meets its threshold.

    ``thresholds``: ``{"alias.metric": minimum}`` (``>=``), or strings such as
    ``"alias.metric >= 0.9"`` / ``"alias.error_count == 0"``. The message lists every
    failed check with its actual value, and the metrics of that evaluator when a
    name is unknown.
    """
    from .run_config import parse_threshold

    metrics = _metrics_of(result)
    if isinstance(thresholds, str):
        checks = [parse_threshold(thresholds)]
    elif isinstance(thresholds, Mapping):
        checks = [parse_threshold(k, v) for k, v in thresholds.items()]
    else:
        checks = [parse_threshold(t) for t in thresholds]
    problems = []
    for t in checks:
        value = metrics.get(t.metric)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            known = sorted(k for k in metrics if k.startswith(t.alias + ".")) or sorted(metrics)
            problems.append(f"  {t}: no such metric (available: {', '.join(known)})")
        elif not t.check(value):
            problems.append(f"  {t}: actual {value:.4g}")
    if problems:
        errors = {k: v for k, v in metrics.items() if k.endswith(".error_count") and v}
        tail = f"\n  (error cells: {', '.join(f'{k}={v}' for k, v in errors.items())})" if errors else ""
        raise AssertionError(f"{len(problems)} of {len(checks)} threshold(s) not met:\n" + "\n".join(problems) + tail)


# ---------------------------------------------------------------------------- rows as test cases
class EvalRun:
    """One evaluation (a config file, or data + evaluators), run once and shared by its cases."""

    def __init__(
        self,
        config: Optional[Any] = None,
        *,
        data: Optional[Any] = None,
        evaluators: Optional[Mapping[str, Any]] = None,
        evaluator_config: Optional[Mapping[str, Any]] = None,
        max_concurrency: int = 10,
    ) -> None:
        from .run_config import RunConfig, load_config

        if config is None and (data is None or not evaluators):
            raise ValueError("eval_cases needs a config file, or data= and evaluators=")
        self.config: Optional[RunConfig] = load_config(config) if config is not None else None
        if self.config is not None:
            if data is not None:
                self.config.data = Path(data)
            self.config.check()
        self._data = data
        self._evaluators = dict(evaluators or {})
        self._evaluator_config = evaluator_config
        self._max_concurrency = max_concurrency
        self._result: Any = None
        self._failure: Optional[BaseException] = None
        self.skipped: Dict[str, str] = {}
        self.result_keys: Dict[str, Optional[str]] = {}

    @property
    def data(self) -> Any:
        return str(self.config.data) if self.config is not None else self._data

    def row_labels(self) -> List[Tuple[int, str]]:
        """(line number, label) per row, read without evaluating anything."""
        from .runner.readers import RowError, iter_input

        out = []
        for line, row in enumerate(iter_input(self.data)):
            label = ""
            if not isinstance(row, RowError):
                for col in ("id", "eval_id", "name"):
                    if isinstance(row.get(col), (str, int)) and str(row.get(col)):
                        label = str(row[col])
                        if col == "eval_id" and row.get("invocation_id"):
                            label += f"/{row['invocation_id']}"
                        break
            out.append((line, label))
        return out

    def result(self) -> Any:
        """The :class:`~agent_evaluators.runner.EvaluationResult` (evaluated on first call)."""
        if self._failure is not None:
            raise self._failure
        if self._result is None:
            try:
                self._result = self._run()
            except BaseException as exc:
                self._failure = exc
                raise
        return self._result

    def _run(self) -> Any:
        from .runner import evaluate
        from .run_config import build_evaluators

        evaluator_config: Optional[Mapping[str, Any]]
        if self.config is not None:
            evaluators, self.skipped, _ = build_evaluators(self.config)
            evaluator_config = self.config.evaluator_config() or None
            concurrency = self.config.concurrency or self._max_concurrency
            for spec in self.config.evaluators:
                self.result_keys[spec.alias] = getattr(evaluators.get(spec.alias) or spec.cls, "result_key", None)
        else:
            evaluators, evaluator_config, concurrency = self._evaluators, self._evaluator_config, self._max_concurrency
            for alias, ev in evaluators.items():
                self.result_keys[alias] = getattr(ev, "result_key", None)
        return evaluate(data=self.data, evaluators=evaluators, evaluator_config=evaluator_config,
                        max_concurrency=concurrency)

    def thresholds(self) -> List[Any]:
        return list(self.config.thresholds) if self.config is not None else []


class EvalRowCase:
    """One row of an :class:`EvalRun`; ``check()`` fails the test when any of its cells failed or errored."""

    def __init__(self, run: EvalRun, line: int, label: str) -> None:
        self.run = run
        self.line = line
        self.label = label

    @property
    def id(self) -> str:
        return f"row{self.line}" + (f"-{self.label}" if self.label else "")

    def row(self) -> Dict[str, Any]:
        return self.run.result().rows[self.line]

    def problems(self) -> List[str]:
        from .report.load import cell_status

        row = self.row()
        out = []
        for alias, key in self.run.result_keys.items():
            if alias in self.run.skipped:
                continue
            prefix = f"outputs.{alias}."
            status = cell_status(row, alias)
            if status == "error":
                msg = row.get(f"{prefix}{key}_error") or row.get(f"{prefix}error") or row.get("row_error")
                out.append(f"  {alias}: ERROR {msg}")
            elif status == "fail":
                score, threshold = row.get(f"{prefix}{key}"), row.get(f"{prefix}{key}_threshold")
                reason = " ".join(str(row.get(f"{prefix}{key}_reason") or "").split())
                out.append(f"  {alias}: {key} = {_fmt(score)} below threshold {_fmt(threshold)}\n"
                           f"      reason: {reason}")
        return out

    def check(self) -> None:
        """Fail with one line per failing or erroring evaluator (score, threshold, reason)."""
        problems = self.problems()
        if problems:
            pytest.fail(f"row {self.line}{f' ({self.label})' if self.label else ''} of {self.run.data}:\n"
                        + "\n".join(problems), pytrace=False)

    def __repr__(self) -> str:
        return f"EvalRowCase({self.id})"


def _fmt(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def eval_cases(
    config: Optional[Any] = None,
    *,
    data: Optional[Any] = None,
    evaluators: Optional[Mapping[str, Any]] = None,
    evaluator_config: Optional[Mapping[str, Any]] = None,
    max_concurrency: int = 10,
) -> List[Any]:
    """``pytest.param(EvalRowCase)`` per row, for ``@pytest.mark.parametrize``; ids name the row."""
    run = EvalRun(config, data=data, evaluators=evaluators, evaluator_config=evaluator_config,
                  max_concurrency=max_concurrency)
    return [pytest.param(case, id=case.id) for case in (EvalRowCase(run, line, label) for line, label in run.row_labels())]


# ---------------------------------------------------------------------------- the plugin
def pytest_collect_file(file_path: Path, parent: Any) -> Optional[Any]:
    if file_path.name.endswith(EVAL_FILE_SUFFIXES):
        return EvalFile.from_parent(parent, path=file_path)
    return None


class EvalFile(pytest.File):
    """A run config collected as tests: a test per row and one for the run thresholds."""

    def collect(self) -> Iterable[Any]:
        run = EvalRun(self.path)
        self.eval_run = run
        for line, label in run.row_labels():
            case = EvalRowCase(run, line, label)
            yield EvalRowItem.from_parent(self, name=case.id, case=case)
        if run.thresholds():
            yield EvalThresholdsItem.from_parent(self, name="thresholds", run=run)


class EvalRowItem(pytest.Item):
    def __init__(self, *, case: EvalRowCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        self.case.check()

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:  # str or pytest's TerminalRepr
        if isinstance(excinfo.value, pytest.fail.Exception):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> Tuple[Any, Optional[int], str]:
        return self.path, None, f"{self.path.name}::{self.name}"


class EvalThresholdsItem(pytest.Item):
    def __init__(self, *, run: EvalRun, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.run = run

    def runtest(self) -> None:
        metrics = self.run.result().metrics
        active = [t for t in self.run.thresholds() if t.alias not in self.run.skipped]
        if not active:
            pytest.skip("every run threshold belongs to an evaluator skipped for want of a judge")
        try:
            assert_passes(metrics, [str(t) for t in active])
        except AssertionError as exc:
            pytest.fail(str(exc), pytrace=False)

    def reportinfo(self) -> Tuple[Any, Optional[int], str]:
        return self.path, None, f"{self.path.name}::thresholds"
