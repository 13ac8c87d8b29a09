"""Checks on evaluation results for tests and scripts: ``assert_passes``, ``eval_cases`` and their rows.

Imports pytest only inside the functions that report to pytest (``check()``, ``eval_cases``),
so ``assert_passes`` works in a plain script installed without the dev extras. The pytest
plugin (:mod:`agent_evaluators.pytest_plugin`) re-exports everything here; see its docstring
for usage and for what happens when no judge is configured.
"""


import os
import re
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ..wording import PYTHON, Words, recall

#: set by ``--agent-eval-strict``; read by every check
STRICT_ENV = "AGENT_EVAL_STRICT"

EVAL_FILE_SUFFIXES = (".eval.yaml", ".eval.yml", ".eval.json")


def strict_judge(env: Optional[Mapping[str, str]] = None) -> bool:
    """Whether a judge-backed check that could not run fails (CI, ``AGENT_EVAL_STRICT=1``) instead of skipping."""
    env = os.environ if env is None else env
    explicit = env.get(STRICT_ENV)
    if explicit is not None and explicit.strip():
        return explicit.strip().lower() not in ("0", "false", "no", "off")
    ci = env.get("CI", "").strip().lower()
    return bool(ci) and ci not in ("0", "false", "no", "off")


_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]+")


def _safe_id(text: str) -> str:
    """A node-id part a shell and ``pytest NODEID`` accept as typed (no spaces, ``::``, brackets)."""
    return _ID_UNSAFE.sub("_", text).strip("_")


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
    name is unknown. A check over a judge panel that ``evaluate(min_agreement=...)`` marked
    inconclusive fails too, saying so: an unreliable pass is not a pass; so does one over a judge people's
    labels did not certify in a run with ``require_certified``.
    """
    from ..config.run_config import parse_threshold

    metrics = _metrics_of(result)
    if isinstance(thresholds, str):
        checks = [parse_threshold(thresholds)]
    elif isinstance(thresholds, Mapping):
        checks = [parse_threshold(k, v) for k, v in thresholds.items()]
    else:
        checks = [parse_threshold(t) for t in thresholds]
    from ..runner.panel_votes import low_agreement

    summary = getattr(result, "summary", None)
    agreement = (summary.get("agreement") if isinstance(summary, Mapping) else None) or {}
    config = (summary.get("config") if isinstance(summary, Mapping) else None) or {}
    certification = (summary.get("certification") if isinstance(summary, Mapping) else None) or {}
    problems = []
    for t in checks:
        uncertified = _uncertified(t, certification) if config.get("require_certified") else ""
        value = metrics.get(t.metric)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            known = sorted(k for k in metrics if k.startswith(t.alias + ".")) or sorted(metrics)
            problems.append(f"  {t}: no such metric (available: {', '.join(known)})")
        elif not t.check(value):
            problems.append(f"  {t}: actual {value:.4g}")
        elif not t.metric.endswith(".error_count") and low_agreement(t.alias, agreement):
            problems.append(f"  {t}: INCONCLUSIVE (actual {value:.4g}), {low_agreement(t.alias, agreement)}")
        elif uncertified and not t.metric.endswith("_count"):
            problems.append(f"  {t}: INCONCLUSIVE (actual {value:.4g}), {uncertified}")
    if problems:
        errors = {k: v for k, v in metrics.items() if k.endswith(".error_count") and v}
        tail = f"\n  (error cells: {', '.join(f'{k}={v}' for k, v in errors.items())})" if errors else ""
        raise AssertionError(f"{len(problems)} of {len(checks)} threshold(s) not met:\n" + "\n".join(problems) + tail)


def _uncertified(t: Any, certification: Mapping[str, Any]) -> str:
    from ..calibration import uncertified_note

    return uncertified_note(certification.get(t.alias))


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
        from ..config.run_config import RunConfig, load_config

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
        #: the lines to evaluate when a test selection asked for some rows only (``None``: every row)
        self._lines: Optional[List[int]] = None
        self._labels: Optional[List[Tuple[int, str]]] = None
        self.skipped: Dict[str, str] = {}
        self.result_keys: Dict[str, Optional[str]] = {}

    @property
    def data(self) -> Any:
        return str(self.config.data) if self.config is not None else self._data

    @property
    def words(self) -> Words:
        """How this run's messages name what was set: a run config's keys when it came from one
        (``max_rows:``, ``force: true``), else Python's keywords."""
        from ..config.yaml_vocabulary import RUN_CONFIG

        return RUN_CONFIG if self.config is not None else PYTHON

    def row_labels(self) -> List[Tuple[int, str]]:
        """(line number, label) per row, read without evaluating anything (once: collection and selection ask)."""
        if self._labels is None:
            self._labels = self._read_labels()
        return list(self._labels)

    def _read_labels(self) -> List[Tuple[int, str]]:
        from ..runner.readers import RowError
        from ..runner.row_source import RowSource

        out = []
        for line, row in RowSource.of_options(self.data, self.run_options()):
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

    def select(self, lines: Iterable[int]) -> None:
        """Evaluate only these lines (the rows a pytest selection kept): one selected row is one row judged."""
        self._lines = sorted(set(lines))

    def row(self, line: int) -> Dict[str, Any]:
        """The finished record of input line ``line``."""
        rows = self.result().rows
        if self._lines is None:
            return dict(rows[line])
        return dict(rows[self._lines.index(line)])

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

    def run_options(self) -> Dict[str, Any]:
        """The ``evaluate()`` keywords of this run: the config file's run options over the
        ``max_concurrency`` given here. Its ``output_path`` is left out: the tests keep results in memory."""
        from_file = self.config.run_options if self.config is not None else {}
        return {"max_concurrency": self._max_concurrency,
                **{k: v for k, v in from_file.items() if k != "output_path"}}

    def _run(self) -> Any:
        from ..config.run_call import evaluate_with
        from ..config.run_config import build_evaluators

        evaluator_config: Optional[Mapping[str, Any]]
        if self.config is not None:
            evaluators, self.skipped, _ = build_evaluators(self.config)
            evaluator_config = self.config.evaluator_config() or None
            for spec in self.config.evaluators:
                self.result_keys[spec.alias] = getattr(evaluators.get(spec.alias) or spec.cls, "result_key", None)
        else:
            evaluators, evaluator_config = self._evaluators, self._evaluator_config
            for alias, ev in evaluators.items():
                self.result_keys[alias] = getattr(ev, "result_key", None)
        return evaluate_with(self._selected_data(), evaluators, evaluator_config, self.run_options())

    def _selected_data(self) -> Any:
        """The data to evaluate: the whole input, or the selected lines as rows (they keep their own
        line numbers in :meth:`row`; an unreadable selected line falls back to the whole input, where it
        is reported as it always is)."""
        if self._lines is None:
            return self.data
        from ..runner.readers import RowError
        from ..runner.row_source import RowSource

        wanted = set(self._lines)
        rows = [row for line, row in RowSource.of_options(self.data, self.run_options()) if line in wanted]
        if any(isinstance(row, RowError) for row in rows) or len(rows) != len(wanted):
            self._lines = None
            return self.data
        return rows

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
        label = _safe_id(self.label)
        return f"row{self.line}" + (f"-{label}" if label else "")

    def row(self) -> Dict[str, Any]:
        return self.run.row(self.line)

    def problems(self) -> List[str]:
        from ..report.load import cell_status

        row = self.row()
        out = []
        for alias, key in self.run.result_keys.items():
            if alias in self.run.skipped:
                continue
            prefix = f"outputs.{alias}."
            status = cell_status(row, alias)
            if status == "error":
                msg = row.get(f"{prefix}{key}_error") or row.get(f"{prefix}error") or row.get("row_error")
                out.append(f"  {alias}: ERROR {self.run.words.render(recall(str(msg)))}")
            elif status == "fail":
                score, threshold = row.get(f"{prefix}{key}"), row.get(f"{prefix}{key}_threshold")
                reason = " ".join(str(row.get(f"{prefix}{key}_reason") or "").split())
                out.append(f"  {alias}: {key} = {_fmt(score)} below threshold {_fmt(threshold)}\n"
                           f"      reason: {reason}")
        return out

    def check(self) -> None:
        """Fail with one line per failing or erroring evaluator (score, threshold, reason); when the
        rest passed but judge-backed evaluators could not run, skip saying so (fail under CI / strict)."""
        import pytest

        problems = self.problems()
        where = f"row {self.line}{f' ({self.label})' if self.label else ''} of {self.run.data}"
        if problems:
            pytest.fail(f"{where}:\n" + "\n".join(problems), pytrace=False)
        if self.run.skipped:
            judge_not_run(self.run, where)

    def __repr__(self) -> str:
        return f"EvalRowCase({self.id})"


#: how to give the judge to a run pytest starts: pytest takes no agent-eval flags, so the environment or the file
PYTEST_JUDGE_HOWTO = (
    "set OPENAI_API_KEY and AGENT_EVAL_JUDGE_MODEL in the environment pytest runs in (OPENAI_BASE_URL too for a "
    "local OpenAI-compatible server; or AZURE_OPENAI_ENDPOINT + AZURE_OPENAI_API_KEY + AZURE_OPENAI_DEPLOYMENT), "
    "or give the run config a judge: section (model, base_url, api_key_env)"
)


def judge_not_run(run: EvalRun, what: str) -> None:
    """Skip (or, under CI / strict, fail) a check whose judge-backed evaluators did not run."""
    import pytest

    message = (f"{what}: judge-backed evaluator(s) {', '.join(run.skipped)} not run: no judge configured; "
               f"to run them, {PYTEST_JUDGE_HOWTO}")
    if strict_judge():
        pytest.fail(message + f" (failing because CI or {STRICT_ENV} is set; {STRICT_ENV}=0 to skip instead)",
                    pytrace=False)
    pytest.skip(message)


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
    import pytest

    run = EvalRun(config, data=data, evaluators=evaluators, evaluator_config=evaluator_config,
                  max_concurrency=max_concurrency)
    return [pytest.param(case, id=case.id) for case in (EvalRowCase(run, line, label) for line, label in run.row_labels())]


