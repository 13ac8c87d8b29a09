"""Run ADK eval sets the way ``adk eval`` does, on the shared run engine.

ADK runs the agent itself; we do not import agents. A case's actual invocations come
from a producer (:mod:`.producers`): recorded invocations (``actual=``), a per-turn
``target`` callable, or any ``producer=`` (the hook for a live agent runner).

A live ADK agent is a producer too
(:func:`agent_evaluators.adk.agent_runner.agent_producer`, behind ``agent-eval adk
AGENT_DIR EVALSET``); what a producer returns may carry ``simulator_records`` (a simulated
user's turns), which the row keeps as ``outputs.simulated_user``.

A run is one :func:`agent_evaluators.evaluate_async` call: a row per selected case
(every eval set of the run together), the producer as the target, and per criterion
a :class:`~.cases.CriterionCell`. The engine schedules rows, shares the judge budget
(``max_concurrency``) across every judge call of the run and captures failures; each
case's :class:`~agent_evaluators.adk.results.EvalCaseResult` is then rebuilt from its
row (:func:`~.cases.case_result_from_row`, ADK's verdict rules) and, with
``output_dir``, written as ADK's ``<app>_<eval_set_id>_<timestamp>.evalset_result.json``.
With ``run_dir`` the engine's own run folder is kept too (``rows.jsonl``, ``summary.json``):
every case row with the producer's outputs, the simulated user's turns included
(``outputs.simulated_user``), and every criterion's cell, for ``agent-eval report``.

Each case's agent run has a deadline (``timeout``, :data:`DEFAULT_CASE_TIMEOUT` seconds by
default; ``agent-eval adk --timeout``): a case whose producer has not returned by then (a tool
or model call that never returns, a simulated user that never stops) is cancelled and becomes
an error case (``FAILED``, with the reason in its ``errors``), and the run goes on.

``conversation_scenario`` cases have no expected invocations. With recorded or produced
invocations, the criteria that compare with expected invocations are ``NOT_EVALUATED``
(with the reason, as ADK) and the others (hallucinations_v1, safety_v1, the rubric
criteria) score the conversation; without any, the case is ``NOT_EVALUATED``.

As ADK does, every run of the agent (a producer marked ``runs_agent``, as
:func:`~agent_evaluators.adk.agent_runner.agent_producer` is; ``efficiency=True`` asks for them
on recorded invocations too) appends the four informational efficiency metrics
(``tool_call_count_v1``, ``inference_call_count_v1``, ``token_usage_v1``,
``invocation_duration_v1``, :mod:`agent_evaluators.adk.efficiency`) to each case's criteria: a value
per invocation and their average, status ``INFORMATIONAL`` (never a verdict), with the token and
duration breakdowns in the result file. A config naming one is a :class:`ConfigError`.

A producer's result may carry ``final_state`` (the agent's final session state; a live ADK run
records it): the row keeps it as ``outputs.final_session_state`` and ``final_state_match``
compares it with the case's ``final_session_state``.
"""

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..._util.validators import positive_int
from ...errors import ConfigError, InputError
from ...wording import Text, remember
from ..actual import ActualMap, load_actual_invocations
from ..convert import as_invocation, copy_rubrics
from ..efficiency import EFFICIENCY_METRICS
from ..eval_config import EvalConfig, find_config_for, load_eval_config, parse_eval_config
from ..loading import load_eval_set
from ..models import EvalCase, EvalSet, Invocation
from ..results import EvalCaseResult, EvalStatus, new_eval_set_result
from .cases import (
    CASE_COLUMN,
    FINAL_STATE_COLUMN,
    INVOCATIONS_COLUMN,
    SIMULATED_USER_COLUMN,
    CaseSlot,
    CriterionCell,
    case_result,
    case_result_from_row,
)
from .criteria import get_metric, judge_endpoint
from .custom import resolve_custom
from .producers import Producer, check_target, from_actual, from_target, has_actual, producing_for

logger = logging.getLogger(__name__)

#: seconds one case's agent run may take (every turn, the simulated user's included); ``None``: no limit
DEFAULT_CASE_TIMEOUT = 600.0

PathsLike = Union[str, Path, Sequence[Union[str, Path]]]
ConfigLike = Union[None, str, Path, EvalConfig, Mapping[str, Any]]

SCENARIO_NOTE = (
    "conversation_scenario case without recorded invocations: its conversation is driven by a simulated "
    "user, which a per-turn target cannot do; run the agent (agent-eval adk AGENT_DIR EVALSET, or "
    "producer=agent_producer(...)) or give the recorded conversation with --actual / actual=; not evaluated"
)


# ----------------------------------------------------------------------------- public API


def run_eval_sets(
    paths: PathsLike,
    *,
    config: ConfigLike = None,
    actual: Union[None, str, Path, ActualMap] = None,
    target: Optional[Callable[..., Any]] = None,
    output_dir: Union[None, str, Path] = None,
    model_config: Any = None,
    max_concurrency: int = 10,
    producer: Optional[Producer] = None,
    app_name: Optional[str] = None,
    num_runs: int = 1,
    run_dir: Union[None, str, Path] = None,
    timeout: Optional[float] = DEFAULT_CASE_TIMEOUT,
    efficiency: Optional[bool] = None,
) -> List[EvalCaseResult]:
    """Evaluate eval-set files; returns one :class:`EvalCaseResult` per case (and run), in file order.

    Args:
        paths: eval-set files (``.evalset.json`` / ``.test.json``, any ADK shape); a
            ``FILE:case1,case2`` suffix selects cases, as in ``adk eval``.
        config: a ``test_config.json`` path, a parsed :class:`EvalConfig` or dict; ``None``
            uses the ``test_config.json`` beside each eval-set file, else ADK's defaults.
        actual: recorded invocations (a file, see :func:`~agent_evaluators.adk.actual.load_actual_invocations`,
            or ``{eval_id: [...]}``).
        target: or a per-turn callable producing them (see :mod:`.producers`).
        output_dir: where to write one ``<app>_<eval_set_id>_<time>.evalset_result.json`` per eval set.
        model_config: the judge for judge metrics (``None``: from the environment).
        max_concurrency: judge calls in flight at once, across the whole run.
        producer: or ``async producer(case, config) -> invocations`` for every case (a live
            agent runner's hook, see :mod:`.producers`).
        app_name: the app name in result file names (default: the cases' ``session_input.app_name``,
            else the eval-set file's folder, which ADK names after the agent).
        num_runs: how many times each case runs (ADK's ``AgentEvaluator`` ``num_runs``): the producer
            is asked once per run, and each run gets its own result, runs of a case together.
        run_dir: also keep the engine's run folder here (``rows.jsonl``, ``summary.json``: the
            rows with the producer's outputs and the simulated user's turns; ``agent-eval report``
            renders it as HTML).
        timeout: seconds each case's producer (the agent run) may take; a case past it is an
            error case and the run goes on (``None``: no limit).
        efficiency: append ADK's informational efficiency metrics to every case (``None``: when
            the producer runs the agent, as ``agent_producer`` does).

    Raises:
        ConfigError / InputError: bad config, unreadable eval set, not exactly one of
            ``actual``, ``target`` and ``producer``. Metric failures never raise: they are recorded.
    """
    from ..._util.loop import run_sync

    return run_sync(
        arun_eval_sets(paths, config=config, actual=actual, target=target, output_dir=output_dir,
                       model_config=model_config, max_concurrency=max_concurrency, producer=producer,
                       app_name=app_name, num_runs=num_runs, run_dir=run_dir, timeout=timeout,
                       efficiency=efficiency)
    )


async def arun_eval_sets(
    paths: PathsLike,
    *,
    config: ConfigLike = None,
    actual: Union[None, str, Path, ActualMap] = None,
    target: Optional[Callable[..., Any]] = None,
    output_dir: Union[None, str, Path] = None,
    model_config: Any = None,
    max_concurrency: int = 10,
    producer: Optional[Producer] = None,
    app_name: Optional[str] = None,
    num_runs: int = 1,
    run_dir: Union[None, str, Path] = None,
    timeout: Optional[float] = DEFAULT_CASE_TIMEOUT,
    efficiency: Optional[bool] = None,
) -> List[EvalCaseResult]:
    """Async twin of :func:`run_eval_sets`."""
    plan = prepare_run(paths, config=config, actual=actual, target=target, model_config=model_config,
                       producer=producer, app_name=app_name, num_runs=num_runs, efficiency=efficiency)
    return await plan.run(output_dir=output_dir, model_config=model_config, max_concurrency=max_concurrency,
                          run_dir=run_dir, timeout=timeout)


# ----------------------------------------------------------------------------- planning


@dataclass
class EvalSetJob:
    """One eval-set file with its config, the cases selected to run and where their invocations come from."""

    path: str
    eval_set: EvalSet
    config: EvalConfig
    cases: List[EvalCase]
    producer: Producer
    app_name: str
    #: cases decided without running anything (a scenario case with no invocations to score)
    skipped: Dict[str, EvalCaseResult] = field(default_factory=dict)
    #: the criteria that are custom metrics (``custom_metrics``), with their functions
    custom: Dict[str, Any] = field(default_factory=dict)


@dataclass
class RunPlan:
    """Everything checked before any case runs: files, configs, metrics, the source of invocations."""

    jobs: List[EvalSetJob]
    num_runs: int = 1
    written: List[Path] = field(default_factory=list)
    #: eval ids of the cases cancelled at their deadline (a blocking tool may still hold a thread)
    timed_out: List[str] = field(default_factory=list)
    #: append ADK's efficiency metrics to every case (on by default for a live agent run)
    efficiency: bool = False

    async def run(self, *, output_dir: Union[None, str, Path], model_config: Any,
                  max_concurrency: int, run_dir: Union[None, str, Path] = None,
                  timeout: Optional[float] = DEFAULT_CASE_TIMEOUT, judge_mode: str = "direct") -> List[EvalCaseResult]:
        """Run every case on the shared engine, then rebuild ADK's results from the rows
        (``judge_mode``: the engine's, ``"batch"`` for the provider's Batch API)."""
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                    or timeout <= 0):
            raise ConfigError(f"timeout must be a positive number of seconds per case (or None), got {timeout!r}")
        slots: Dict[str, CaseSlot] = {}
        producers: Dict[str, Tuple[EvalSetJob, CaseSlot]] = {}
        runs = range(self.num_runs)
        for j, job in enumerate(self.jobs):
            for c, case in enumerate(job.cases):
                if case.eval_id in job.skipped:
                    continue
                for r in runs:
                    key = f"{j}:{c}:{r}"  # a row per case and run
                    slots[key] = CaseSlot(key, job.eval_set.eval_set_id, case, _criteria(job.config, self.efficiency),
                                          job.custom)
                    producers[key] = (job, slots[key])
        rows = await _run_rows(slots, producers, model_config, max_concurrency, run_dir, timeout, self.timed_out,
                               judge_mode)
        results: List[EvalCaseResult] = []
        for j, job in enumerate(self.jobs):
            case_results = []
            for c, case in enumerate(job.cases):
                for r in runs:
                    key = f"{j}:{c}:{r}"
                    if key in slots:  # each row dropped once read: rows and results are never both whole
                        case_results.append(case_result_from_row(slots[key], rows.pop(key), list(slots[key].criteria)))
                    else:
                        case_results.append(job.skipped[case.eval_id].model_copy(deep=True))
            results.extend(case_results)
            if output_dir is not None:
                path = new_eval_set_result(job.eval_set.eval_set_id, case_results, app_name=job.app_name).write(output_dir)
                self.written.append(path)
                logger.info("wrote %s", path)
        return results


async def _run_rows(
    slots: Mapping[str, CaseSlot], producers: Mapping[str, Tuple[EvalSetJob, CaseSlot]], model_config: Any,
    max_concurrency: int, run_dir: Union[None, str, Path] = None, timeout: Optional[float] = None,
    timed_out: Optional[List[str]] = None, judge_mode: str = "direct",
) -> "_RowsByCase":
    """One engine run: a row per case, the producer as target (under the per-case ``timeout``),
    a cell per criterion."""
    if not slots:
        return _RowsByCase([])
    from ... import evaluate_async

    async def produce(case: str) -> Dict[str, Any]:
        job, slot = producers[case]
        producing_for(slot.eval_set_id)  # this row's own context: the engine runs each target call in a task
        try:
            produced = await asyncio.wait_for(job.producer(slot.case, job.config), timeout)
        except asyncio.TimeoutError:
            if timed_out is not None:
                timed_out.append(slot.case.eval_id)
            raise _case_timeout(slot.case.eval_id, timeout) from None
        invocations = _checked(slot, produced)
        out: Dict[str, Any] = {INVOCATIONS_COLUMN: [inv.to_json_dict() for inv in invocations],
                               FINAL_STATE_COLUMN: getattr(produced, "final_state", None)}
        records = getattr(produced, "simulator_records", None)
        if records:  # a simulated conversation: keep the user's turns (text, stop, usage) in the row
            out[SIMULATED_USER_COLUMN] = list(records)
        return out

    produce.__qualname__ = produce.__name__ = "agent"  # how the engine names the target in its messages
    names = sorted({name for slot in slots.values() for name in slot.criteria})
    evaluators = {name: CriterionCell(name, slots, model_config) for name in names}
    mapping = {CASE_COLUMN: "${data." + CASE_COLUMN + "}", INVOCATIONS_COLUMN: "${target." + INVOCATIONS_COLUMN + "}",
               FINAL_STATE_COLUMN: "${target." + FINAL_STATE_COLUMN + "}"}
    # a cell only for the criteria of the case's own config: other eval sets may name others
    config = {name: {"column_mapping": mapping} for name in names}
    data = _case_rows(slots)
    result = await evaluate_async(
        data=data, evaluators=evaluators, evaluator_config=config, target=produce,
        max_concurrency=max_concurrency, show_progress=False, timeout=None, judge_mode=judge_mode,
        output_path=None if run_dir is None else str(run_dir),
    )
    return _RowsByCase(result["rows"])


def _case_timeout(eval_id: str, timeout: Optional[float]) -> TimeoutError:
    """A case past its deadline: a ``TimeoutError`` (what it is), whose ``text`` keeps the Python-only
    phrase apart, so ``agent-eval adk`` says just its ``--timeout``."""
    text = Text("eval case {eval_id!r} did not finish within its deadline of {timeout:g} s (a tool or model call that "
                "never returns, or a simulated user that never stops?); raise --timeout{in_python} if the agent needs "
                "longer", eval_id=eval_id, timeout=timeout,
                in_python=Text.keyed("timeout-in-python", " (timeout= in Python)"))
    error = TimeoutError(remember(text))
    error.text = text  # type: ignore[attr-defined]  # read by the engine's cell messages (wording.words_of)
    return error


def _criteria(config: EvalConfig, efficiency: bool) -> Dict[str, Any]:
    """The config's criteria, then (``efficiency``) ADK's efficiency metrics, which take no criterion."""
    criteria: Dict[str, Any] = dict(config.criteria)
    if efficiency:
        for name in EFFICIENCY_METRICS:
            criteria.setdefault(name, None)
    return criteria


class _RowsByCase:
    """The run's rows by case key, each read when its result is built: with a run folder the
    engine's rows stay on disk (read lazily from ``rows.jsonl``), so a 10,000-case run never
    holds every row and every result at once."""

    def __init__(self, rows: Sequence[Mapping[str, Any]]) -> None:
        self._rows = rows
        self._at = {str(row.get(f"inputs.{CASE_COLUMN}")): i for i, row in enumerate(rows)}

    def pop(self, key: str) -> Mapping[str, Any]:
        return self._rows[self._at.pop(key)]


def _case_rows(slots: Mapping[str, CaseSlot]) -> List[Dict[str, Any]]:
    """The run's data rows: the slot key the cells look the case up by, and what a reader knows the
    case by (its eval set and ``eval_id``, and the run number when a case runs more than once)."""
    runs = {key.rsplit(":", 1)[1] for key in slots}  # keys are "set:case:run"
    rows = []
    for key, slot in slots.items():
        row: Dict[str, Any] = {CASE_COLUMN: key, "eval_set_id": slot.eval_set_id, "eval_id": slot.case.eval_id}
        if len(runs) > 1:
            row["run"] = int(key.rsplit(":", 1)[1]) + 1
        rows.append(row)
    return rows


def _checked(slot: CaseSlot, produced: Sequence[Any]) -> List[Invocation]:
    """The producer's invocations as models, checked against the expected ones, rubrics copied."""
    case = slot.case
    invocations = [as_invocation(v, where=f"invocations of eval case {case.eval_id!r}[{i}]")
                   for i, v in enumerate(produced)]
    expected = slot.expected
    if expected is not None and len(invocations) != len(expected):
        raise InputError(
            f"eval case {case.eval_id!r} has {len(expected)} expected invocation(s) but {len(invocations)} actual"
        )
    copy_rubrics(case, expected, invocations)  # ADK's LocalEvalService, before any metric runs
    return invocations


def prepare_run(
    paths: PathsLike,
    *,
    config: ConfigLike = None,
    actual: Union[None, str, Path, ActualMap] = None,
    target: Optional[Callable[..., Any]] = None,
    model_config: Any = None,
    producer: Optional[Producer] = None,
    app_name: Optional[str] = None,
    num_runs: int = 1,
    efficiency: Optional[bool] = None,
) -> RunPlan:
    """Load and check everything up front, so that bad input fails before any judge call:
    files, configs, metric names, judge metrics being installed, a judge being configured."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    positive_int("num_runs", num_runs)
    if not paths:
        raise InputError("no eval-set file given", input_name="paths")
    given = [n for n, v in (("actual", actual), ("target", target), ("producer", producer)) if v is not None]
    if len(given) > 1:
        raise ConfigError(f"give one source of agent invocations, not {' and '.join(given)}")
    if not given:
        raise ConfigError(Text(
            "no agent invocations to evaluate: an eval set holds only the expected invocations. Name the agent folder "
            "first to run the agent (agent-eval adk AGENT_DIR EVALSET), or pass --actual FILE (an ADK "
            "*.evalset_result.json, or JSONL lines {lines}){from_python}",
            lines='{"eval_id": ..., "invocations": [...]}',
            from_python=Text.keyed("from-python-producer",
                                   " or, from Python, actual=, target= (a per-turn callable) or producer=")))
    if target is not None:
        check_target(target)
    if producer is not None and not callable(producer):
        raise ConfigError(f"producer must be an async callable (case, config) -> invocations, got {type(producer).__name__}")
    explicit = _as_config(config) if config is not None else None
    actual_map = load_actual_invocations(actual) if isinstance(actual, (str, Path)) else actual
    jobs = []
    for raw in paths:
        path, selected = split_case_selector(str(raw))
        cfg = explicit or _config_beside(path)
        custom = resolve_custom(cfg, path)  # a custom metric that cannot be imported fails the run here
        for name, crit in cfg.criteria.items():
            if name in custom:
                continue
            spec = get_metric(name)
            spec.evaluator_class()  # a judge metric that is not available yet fails the run here
            if spec.uses_judge:
                _check_judge(model_config, crit)
        eval_set = load_eval_set(path, criteria=cfg.criteria)
        cases = eval_set.eval_cases
        if selected:
            known = {c.eval_id for c in cases}
            missing = [s for s in selected if s not in known]
            if missing:
                raise InputError(f"{path}: no eval case with id {', '.join(map(repr, missing))}", input_name=path)
            cases = [c for c in cases if c.eval_id in selected]
        set_id = eval_set.eval_set_id
        if actual_map is not None:
            source = from_actual(actual_map, set_id)
        elif target is not None:
            source = from_target(target)
        else:
            assert producer is not None
            source = producer
        job = EvalSetJob(path, eval_set, cfg, cases, source, app_name or _app_name(path, cases), custom=custom)
        for case in cases:
            unscorable = case.conversation is None and (
                target is not None or (actual_map is not None and not has_actual(actual_map, set_id, case))
            )
            if unscorable:
                slot = CaseSlot("", set_id, case, dict(cfg.criteria))
                job.skipped[case.eval_id] = case_result(slot, EvalStatus.NOT_EVALUATED, [SCENARIO_NOTE])
        jobs.append(job)
    if efficiency is None:  # ADK appends them to every agent run: they measure the agent's own cost
        efficiency = bool(getattr(producer, "runs_agent", False))
    return RunPlan(jobs, num_runs, efficiency=efficiency)


def _check_judge(model_config: Any, crit: Any) -> None:
    """Resolve the judge config now (no request is sent), so a missing judge is a usage error
    rather than every case coming back NOT_EVALUATED."""
    from ...judge.endpoint import resolve_config

    resolve_config(judge_endpoint(model_config, crit))


def _app_name(path: str, cases: Sequence[EvalCase]) -> str:
    """ADK names results after the app (the agent's folder): the cases' ``session_input.app_name``
    when they give one, else the folder holding the eval-set file."""
    for case in cases:
        if case.session_input is not None and case.session_input.app_name:
            return case.session_input.app_name
    return Path(path).resolve().parent.name or "app"


def split_case_selector(spec: str) -> Tuple[str, List[str]]:
    """``"FILE:case1,case2"`` → ``(FILE, [case1, case2])``; a file name that exists as given wins,
    and a Windows drive prefix (``C:\\``) is not a selector (ADK's ``parse_and_get_evals_to_run``)."""
    if Path(spec).exists():
        return spec, []
    start = 3 if len(spec) >= 3 and spec[0].isalpha() and spec[1] == ":" and spec[2] in "\\/" else 0
    i = spec.find(":", start)
    if i == -1:
        return spec, []
    cases = [s.strip() for s in spec[i + 1:].split(":")[0].split(",") if s.strip()]
    return spec[:i], cases


def _as_config(config: ConfigLike) -> EvalConfig:
    if isinstance(config, EvalConfig):
        return config
    if isinstance(config, Mapping):
        return parse_eval_config(config, source="config")
    assert config is not None
    return load_eval_config(config)


def _config_beside(path: str) -> EvalConfig:
    found = find_config_for(path)
    return load_eval_config(found) if found is not None else load_eval_config(None)
