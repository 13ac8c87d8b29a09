"""``evaluate()`` and ``evaluate_async()``: the public entry points of a batch run.

Their keyword signatures are azure-ai-evaluation's (a fixed call shape) plus our own
options, written out for users and IDEs and kept equal to :mod:`.option_table` by a test;
each passes its arguments once into :class:`~.options.RunOptions`, which checks them, and
hands that to an engine: :func:`~.local.run_local` or, with ``engine="ray"``, :func:`~.distributed.run_ray`.
"""

import asyncio
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Union

from .._loop import run_sync
from ..errors import ConfigError
from ..export import publish
from .azure_output import split_output_path, write_azure_json
from .ledger import EvaluatorErrors, RunInterrupted
from .local import RunWatch, run_local
from .options import RayOptions, RunOptions
from .result import EvaluationResult

__all__ = ["evaluate", "evaluate_async"]

#: how long Ctrl-C waits for the cancelled run to save its finished rows
_UNWIND_S = 30.0


async def evaluate_async(
    *,
    data: Any,
    evaluators: Mapping[str, Callable[..., Any]],
    evaluator_config: Optional[Mapping[str, Any]] = None,
    target: Optional[Callable[..., Any]] = None,
    output_path: Optional[Union[str, Path]] = None,
    fail_on_evaluator_errors: bool = False,
    max_concurrency: int = 10,
    resume: bool = False,
    rerun_failed: bool = False,
    force: bool = False,
    num_runs: int = 1,
    show_progress: Optional[bool] = None,
    timeout: Optional[float] = 300.0,
    evaluation_name: Optional[str] = None,
    tags: Optional[Mapping[str, str]] = None,
    max_rows: Optional[int] = None,
    min_agreement: Optional[float] = None,
    prices: Optional[Mapping[str, Any]] = None,
    azure_compat: bool = False,
    otel: bool = False,
    mlflow: bool = False,
    azure_ai_project: Any = None,
) -> EvaluationResult:
    """Run ``evaluators`` over every row of ``data`` on the running event loop; see :func:`evaluate`."""
    output_path, azure_file = split_output_path(output_path)  # "results.json": azure's file + our folder
    options = RunOptions.from_arguments(locals())
    try:
        result = await run_local(options)
    except EvaluatorErrors as exc:  # the saved results still go out before the error is raised
        await asyncio.get_running_loop().run_in_executor(None, publish, exc.result, options.values)
        raise
    await asyncio.get_running_loop().run_in_executor(None, publish, result, options.values)
    if azure_file is not None:
        write_azure_json(azure_file, result)
    return result


def evaluate(
    *,
    data: Any,
    evaluators: Mapping[str, Callable[..., Any]],
    evaluator_config: Optional[Mapping[str, Any]] = None,
    target: Optional[Callable[..., Any]] = None,
    output_path: Optional[Union[str, Path]] = None,
    fail_on_evaluator_errors: bool = False,
    max_concurrency: int = 10,
    resume: bool = False,
    rerun_failed: bool = False,
    force: bool = False,
    num_runs: int = 1,
    show_progress: Optional[bool] = None,
    timeout: Optional[float] = 300.0,
    evaluation_name: Optional[str] = None,
    tags: Optional[Mapping[str, str]] = None,
    max_rows: Optional[int] = None,
    min_agreement: Optional[float] = None,
    prices: Optional[Mapping[str, Any]] = None,
    azure_compat: bool = False,
    otel: bool = False, mlflow: bool = False,
    azure_ai_project: Any = None,
    engine: str = "local",
    ray_address: Optional[str] = None,
    num_workers: Optional[int] = None,
) -> EvaluationResult:
    """Run evaluators over a dataset; the same arguments as azure-ai-evaluation's ``evaluate()``
    plus ``max_concurrency``, ``resume``, ``rerun_failed``, ``force``, ``num_runs``,
    ``show_progress``, ``timeout`` and the engine choice.

    Works in a plain script and inside a running event loop (notebooks, FastAPI): the run
    goes to the package's background event loop, where the judge client pool lives.
    In async code prefer ``await evaluate_async(...)``.

    Args:
        data: JSONL / CSV / JSON / ADK ``.evalset.json`` / ``.test.json`` path, an open
            JSONL file, a DataFrame, or any iterable of row dicts. Read lazily.
        evaluators: ``{alias: evaluator}``; any callable (ours, azure-ai-evaluation's,
            sync or async functions returning a dict or a scalar).
        evaluator_config: ``{alias | "default": {"column_mapping": {input: "${data.path}" | "${target.path}"}}}``.
        target: optional callable(**row) -> dict, run once per row before the evaluators.
        output_path: folder for ``rows.jsonl`` (streamed) and ``summary.json``; a path ending in
            ``.json`` (azure-ai-evaluation's style) also gets azure's result file
            ``{"rows", "metrics", "studio_url"}``, with the folder at the same path minus ``.json``.
        fail_on_evaluator_errors: raise :class:`EvaluatorErrors` (after saving) if any cell failed.
        max_concurrency: judge HTTP requests in flight, shared by every evaluator.
        resume: continue the run in ``output_path``: only missing or failed cells run.
        rerun_failed: re-run only the failed cells of the run in ``output_path``.
        force: resume even though the data or evaluator configuration changed.
        num_runs: evaluate every cell this many times; the cell holds the mean.
        show_progress: progress on stderr. ``None`` (default): a redrawn line on a terminal,
            elsewhere (CI logs) the same text as a plain line every 10 s and at the end;
            ``True``: the redrawn line anyway; ``False``: none.
        timeout: seconds per evaluator / target call (async and blocking ones; an inline
            sync function cannot be interrupted). ``None``: no limit.
        evaluation_name, tags: recorded in ``summary.json``'s ``config``.
        azure_compat: add azure-ai-evaluation 1.18's metric names and values to ``metrics`` (and
            ``summary.json``): ``<alias>.binary_aggregate``, ``<alias>.<key>_passed`` and 1.18's means
            (see :mod:`.azure_metrics`); ``agent-eval run --azure-compat`` also resolves registry
            names to :mod:`agent_evaluators.azure`'s classes.
        azure_ai_project: accepted so azure-ai-evaluation code runs unchanged; nothing is
            uploaded (a warning says so once per call) and ``studio_url`` stays ``None``.
        max_rows: evaluate only the first ``max_rows`` rows (a resume with more goes on where it stopped).
        min_agreement: judge panels' alpha below which ``summary.json`` marks one ``inconclusive``.
        prices: ``{model: {"input", "output", "cached_input"} USD per 1M tokens}`` (see :mod:`..judge.prices`).
        otel, mlflow: send the results out once saved (:mod:`agent_evaluators.export`: OTLP events, an MLflow run).
        engine: ``"local"`` (one process, one event loop) or ``"ray"``: the same run split
            into shards on a Ray cluster (``pip install agent-evaluators[ray]``; see
            :func:`agent_evaluators.runner.distributed.evaluate_ray` for more options), with
            ``max_concurrency`` as one budget across the whole cluster.
        ray_address: ``engine="ray"`` only: the cluster (``None``: a connected one, else a local Ray).
        num_workers: ``engine="ray"`` only: shards evaluated at once (default: the cluster's CPUs).
    """
    output_path, azure_file = split_output_path(output_path)  # "results.json": azure's file + our folder
    options = RunOptions.from_arguments(locals())
    result = _run_engine(options, engine, RayOptions(ray_address=ray_address, num_workers=num_workers))
    if azure_file is not None:
        write_azure_json(azure_file, result)
    return result


def _run_engine(options: RunOptions, engine: str, ray_options: RayOptions) -> EvaluationResult:
    """Run ``options`` on the chosen engine, then send the results out (``otel``, ``mlflow``); with
    ``fail_on_evaluator_errors`` the saved results are sent before the error is raised."""
    if engine == "local" and (ray_options.ray_address is not None or ray_options.num_workers is not None):
        raise ConfigError("ray_address / num_workers apply to engine='ray' only")
    try:
        result = _run_on(options, engine, ray_options)
    except EvaluatorErrors as exc:
        publish(exc.result, options.values)
        raise
    publish(result, options.values)
    return result


def _run_on(options: RunOptions, engine: str, ray_options: RayOptions) -> EvaluationResult:
    """Run ``options`` on the chosen engine; Ctrl-C becomes :class:`RunInterrupted` once the
    cancelled local run has saved what it finished."""
    if engine == "ray":
        from .distributed import run_ray  # lazy: Ray is an optional extra

        return run_ray(options, ray_options)
    watch = RunWatch()
    try:
        return run_sync(
            run_local(options, watch),
            nested_hint="evaluate() was called from inside the evaluators' event loop; use `await evaluate_async(...)`",
        )
    except KeyboardInterrupt as exc:
        # run_sync cancelled the run; once it has unwound, the ledger has saved what was done
        interruption = None if isinstance(exc, RunInterrupted) else watch.interruption(_UNWIND_S)
        if interruption is not None:
            raise interruption from None
        raise
