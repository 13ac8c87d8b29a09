"""``evaluate()`` and ``evaluate_async()``: the public entry points of a batch run.

Their keyword signatures are azure-ai-evaluation's (a fixed call shape) plus our own
options, written out for users and IDEs and kept equal to :mod:`.option_table` by a test;
each passes its run options by name into a :class:`~.run_settings.RunSettings`, which checks them,
builds the :class:`~.options.RunOptions` of the run from it, and hands that to an engine:
:func:`~.engine.run_local` or, with ``engine="ray"``, the Ray wing's (:data:`agent_evaluators.plugins.ENGINES`).
"""

from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

from .. import plugins
from .._util.loop import run_sync
from ..conversation.transcript import DEFAULT_MAX_PROMPT_TOKENS
from .dry_run import run_dry
from .engine import RunWatch, run_local
from .ledger import RunInterrupted
from .option_table import options_docstring
from .options import RayOptions, RunOptions
from .publishing import run_and_publish, run_and_publish_async
from .result import EvaluationResult
from .result_file import ResultFile, split_output_path
from .run_settings import RunSettings

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
    certification: Optional[Union[str, Path]] = None,
    require_certified: bool = False,
    prices: Optional[Mapping[str, Any]] = None,
    dry_run: bool = False,
    max_cost: Optional[float] = None,
    max_judge_calls: Optional[int] = None,
    max_prompt_tokens: int = DEFAULT_MAX_PROMPT_TOKENS,
    terminal_tools: Optional[Sequence[str]] = None,
    azure_compat: bool = False,
    data_format: str = "auto",
    judge_mode: str = "direct",
    batch_poll_s: float = 30.0,
    batch_max_requests: int = 50_000,
    batch_max_bytes: int = 200_000_000,
    batch_timeout_s: float = 86_400.0,
    otel: bool = False,
    mlflow: bool = False,
    azure_ai_project: Any = None,
) -> EvaluationResult:
    """Run ``evaluators`` over every row of ``data`` on the running event loop; see :func:`evaluate`."""
    options, result_file = _prepare(locals())  # first: locals() is exactly the arguments
    result = await run_and_publish_async(options, lambda: run_dry(options) if options.settings.dry_run else run_local(options))
    if result_file is not None:
        result_file.write(result)
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
    certification: Optional[Union[str, Path]] = None,
    require_certified: bool = False,
    prices: Optional[Mapping[str, Any]] = None,
    dry_run: bool = False,
    max_cost: Optional[float] = None,
    max_judge_calls: Optional[int] = None,
    max_prompt_tokens: int = DEFAULT_MAX_PROMPT_TOKENS,
    terminal_tools: Optional[Sequence[str]] = None,
    azure_compat: bool = False,
    data_format: str = "auto",
    judge_mode: str = "direct",
    batch_poll_s: float = 30.0,
    batch_max_requests: int = 50_000,
    batch_max_bytes: int = 200_000_000,
    batch_timeout_s: float = 86_400.0,
    otel: bool = False,
    mlflow: bool = False,
    azure_ai_project: Any = None,
    engine: str = "local",
    ray_address: Optional[str] = None,
    num_workers: Optional[int] = None,
) -> EvaluationResult:
    """Run evaluators over a dataset; the same arguments as azure-ai-evaluation's ``evaluate()`` plus
    the run options of :mod:`.option_table` (below) and the engine choice.

    Works in a plain script and inside a running event loop (notebooks, FastAPI): the run
    goes to the package's background event loop, where the judge client pool lives.
    In async code prefer ``await evaluate_async(...)``.

    Args:
        data: JSONL / CSV / JSON / ADK ``.evalset.json`` / ``.test.json`` path, OpenTelemetry traces (OTLP/JSON
            file or folder), an open JSONL file, a DataFrame, or row dicts. Read lazily. ``evaluators``:
            ``{alias: evaluator}``; any callable (ours, azure-ai-evaluation's, sync or async; a dict or a scalar).
        evaluator_config: ``{alias | "default": {"column_mapping": {input: "${data.path}" | "${target.path}"}}}``.
        target: optional callable(**row) -> dict, run once per row before the evaluators.
        output_path: folder for ``rows.jsonl`` (streamed) and ``summary.json``; a path ending in
            ``.json`` (azure-ai-evaluation's style) also gets azure's result file
            ``{"rows", "metrics", "studio_url"}``, with the folder at the same path minus ``.json``.
        fail_on_evaluator_errors: raise :class:`EvaluatorErrors` (after saving) if any cell failed.
        azure_ai_project: accepted so azure code runs unchanged; nothing is uploaded (a warning says so).
    """
    options, result_file = _prepare(locals())  # first: locals() is exactly the arguments
    result = run_and_publish(options, lambda: _run_on(options, RayOptions(ray_address=ray_address, num_workers=num_workers)))
    if result_file is not None:
        result_file.write(result)
    return result


#: ``evaluate()``'s arguments that are not run settings: what to run, over what, and where results go
_NOT_SETTINGS = frozenset({"data", "evaluators", "evaluator_config", "azure_ai_project", "output_path"})


def _prepare(arguments: Mapping[str, Any]) -> Tuple[RunOptions, Optional[ResultFile]]:
    """The run's options from the arguments ``evaluate()`` or ``evaluate_async()`` was called with (its
    ``locals()`` on entry): every one of them but :data:`_NOT_SETTINGS` is a run setting, passed by name,
    so the two entry points cannot drift apart. With an ``output_path`` ending in ``.json``, also the
    azure-shaped result file to write once the run is done (:func:`~.result_file.split_output_path`)."""
    folder, result_file = split_output_path(arguments["output_path"])  # "results.json": that file + our folder
    settings = RunSettings(output_path=folder, **{k: v for k, v in arguments.items() if k not in _NOT_SETTINGS})
    options = RunOptions.build(data=arguments["data"], evaluators=arguments["evaluators"],
                               evaluator_config=arguments["evaluator_config"],
                               azure_ai_project=arguments["azure_ai_project"], settings=settings)
    return options, result_file


def _run_on(options: RunOptions, ray_options: RayOptions) -> EvaluationResult:
    """Run ``options`` on the engine its settings name; Ctrl-C becomes :class:`RunInterrupted` once the
    cancelled local run has saved what it finished. (``run_and_publish`` around it sends the results out:
    ``otel``, ``mlflow``; with ``fail_on_evaluator_errors`` the saved results go before the error is raised.)"""
    engine = options.settings.engine
    if options.settings.dry_run:
        return run_sync(run_dry(options), nested_hint="evaluate() was called from inside the evaluators' event loop; "
                        "use `await evaluate_async(...)`")
    if engine in plugins.ENGINES:  # another engine's wing (Ray: an optional extra), imported now
        run_elsewhere: Callable[[RunOptions, RayOptions], EvaluationResult] = plugins.load(plugins.ENGINES[engine])
        return run_elsewhere(options, ray_options)
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


evaluate.__doc__ = (evaluate.__doc__ or "") + options_docstring()
