"""``evaluate_ray()``: the local engine's contract, on a Ray cluster.

The driver (this process) cuts the input into shards (:mod:`.shards`), keeps
``num_workers`` shard tasks running, appends each finished shard's rows to
``rows.jsonl`` and folds its metric totals into the run's. Workers run the local
engine's row code (:mod:`.worker`); every judge request anywhere in the cluster holds a
permit of one :class:`~.budget.JudgeBudget` actor, so ``max_concurrency`` is the
cluster's budget, not a per-worker one.

Same files and result as a local run: ``rows.jsonl`` (one record per row, global
``line_number``, completion order, latest record wins), ``summary.json`` (same config and
fingerprint, so a run can be resumed by either engine) and an :class:`EvaluationResult`
whose rows are read lazily from disk.

Faults: a shard whose worker dies is retried by Ray (``max_retries``); its rows reach
the driver only when the shard finishes, so each row is written once. If the driver
dies, ``rows.jsonl`` holds every finished shard and ``resume=True`` (with either engine)
evaluates only what is missing.
"""

import logging
import os
import time
from array import array
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from ..errors import ConfigError
from ..evaluate.aggregate import AliasStats
from ..evaluate.progress import Progress
from ..evaluate.readers import RowError, data_path, iter_input
from ..evaluate.result import EvaluationResult
from ..evaluate.runner import (
    MAX_ERRORS_KEPT,
    check_output_path,
    describe_run,
    finish_run,
    load_prior,
    prepare_run,
    reuse_record,
    summary_start,
    validate_first,
    work_for,
)
from ..evaluate.store import ROWS_FILE, SUMMARY_FILE, RowsView, RowWriter, read_record, write_json_atomic
from .budget import EXPIRE_S, JudgeBudget
from .shards import SKIP, Shard, chunks, jsonl_ranges
from .worker import RunSpec, ShardResult, run_shard

__all__ = ["evaluate_ray", "DEFAULT_SHARD_SIZE"]

logger = logging.getLogger("agent_evaluators.distributed")

DEFAULT_SHARD_SIZE = 1000


# ---------------------------------------------------------------------------- Ray session


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "engine='ray' needs Ray: pip install 'agent-evaluators[ray]' (or pip install ray)"
        ) from None
    return ray


def connect(address: Optional[str] = None) -> bool:
    """Make sure this process is connected to a Ray cluster; ``True`` if this call started it.

    Already connected (the user called ``ray.init``): use that. Else connect to
    ``address``, or start a local Ray with no dashboard. Usage statistics are off
    unless the user explicitly turned them on (``RAY_USAGE_STATS_ENABLED``).
    """
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray = _import_ray()
    if ray.is_initialized():
        return False
    if address is None:
        ray.init(include_dashboard=False, logging_level=logging.WARNING, log_to_driver=True)
    else:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=True)
    return True


_remote_cache: Dict[str, Any] = {}


def _remotes(ray: Any) -> Tuple[Any, Any]:
    if "task" not in _remote_cache:
        _remote_cache["task"] = ray.remote(run_shard)
        _remote_cache["budget"] = ray.remote(JudgeBudget)
    return _remote_cache["task"], _remote_cache["budget"]


def _single_node(ray: Any) -> bool:
    try:
        return sum(1 for n in ray.nodes() if n.get("Alive")) <= 1
    except Exception:
        return False


# ---------------------------------------------------------------------------- the run


def evaluate_ray(
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
    azure_ai_project: Any = None,
    ray_address: Optional[str] = None,
    num_workers: Optional[int] = None,
    shard_size: int = DEFAULT_SHARD_SIZE,
    num_cpus_per_worker: Optional[float] = None,
    data_on_workers: Optional[bool] = None,
    max_retries: int = 3,
    worker_expire_s: float = EXPIRE_S,
) -> EvaluationResult:
    """:func:`agent_evaluators.evaluate` on a Ray cluster (``evaluate(..., engine="ray")``).

    Arguments as :func:`~agent_evaluators.evaluate`, plus:

    Args:
        max_concurrency: judge requests in flight across the **whole cluster**.
        ray_address: cluster to connect to (``"auto"``, ``"ray://head:10001"``, ``"10.0.0.5:6379"``).
            ``None``: the cluster this process is already connected to, else a local Ray
            started for this run (no dashboard, usage stats off) and shut down after it.
        num_workers: shards evaluated at once (default: the cluster's CPU count).
        shard_size: rows per shard. Smaller: finer progress and less work lost to a
            crash; larger: less per-shard overhead.
        num_cpus_per_worker: Ray CPUs a shard task reserves (default: the cluster's
            CPUs / ``num_workers``, at most 1; fractional on small machines).
        data_on_workers: workers read their byte range of a JSONL ``data`` file themselves.
            Default: yes when the cluster is this one machine; on a multi-node cluster the
            driver streams rows to the object store instead, unless the file is on storage
            every node mounts at the same path (then pass ``True``).
        max_retries: times Ray re-runs a shard whose worker process died.
        worker_expire_s: a worker not heard from for this long (it polls every 0.1 s) is
            presumed dead and its judge permits return to the budget.
    """
    started = time.time()
    if isinstance(shard_size, bool) or not isinstance(shard_size, int) or shard_size < 1:
        raise ConfigError(f"shard_size must be a positive integer, got {shard_size!r}")
    if num_workers is not None and (isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 1):
        raise ConfigError(f"num_workers must be a positive integer, got {num_workers!r}")
    run, target_inv = prepare_run(
        evaluators=evaluators, evaluator_config=evaluator_config, target=target, max_concurrency=max_concurrency,
        num_runs=num_runs, timeout=timeout, azure_ai_project=azure_ai_project,
    )
    out_dir = check_output_path(output_path, resume, rerun_failed)
    dpath = data_path(data)
    if dpath is not None and not dpath.is_file():
        raise ConfigError(f"data file not found: {dpath}")
    config, fingerprint, versions = describe_run(
        run=run, data=data, evaluator_config=evaluator_config, max_concurrency=max_concurrency, num_runs=num_runs,
        timeout=timeout, evaluation_name=evaluation_name, tags=tags, thorough=output_path is not None,
    )

    ray = _import_ray()
    started_ray = connect(ray_address)
    try:
        cpus = float(ray.cluster_resources().get("CPU", 1.0))
        workers = num_workers or max(1, int(cpus))
        per_worker = num_cpus_per_worker if num_cpus_per_worker is not None else min(1.0, cpus / workers)
        per_worker = max(0.01, round(per_worker, 2))
        by_range = (
            dpath is not None
            and dpath.name.lower().endswith(".jsonl")
            and (data_on_workers if data_on_workers is not None else _single_node(ray))
        )
        engine_info = {
            "name": "ray",
            "ray_version": ray.__version__,
            "workers": workers,
            "num_cpus_per_worker": per_worker,
            "shard_size": shard_size,
            "input": "byte ranges read by workers" if by_range else "row chunks sent by the driver",
        }
        return _drive(
            ray=ray, run=run, data=data, dpath=dpath.resolve() if dpath is not None else None, by_range=by_range,
            out_dir=out_dir, resume=resume, rerun_failed=rerun_failed, force=force, config=config,
            fingerprint=fingerprint, versions=versions, started=started, workers=workers, per_worker=per_worker,
            shard_size=shard_size, max_retries=max_retries, show_progress=show_progress, engine_info=engine_info,
            worker_expire_s=worker_expire_s,
            fail_on_evaluator_errors=fail_on_evaluator_errors,
            spec=RunSpec(
                evaluators=dict(evaluators), evaluator_config=dict(evaluator_config) if evaluator_config else None,
                target=target, max_concurrency=max_concurrency, num_runs=num_runs, timeout=timeout,
            ),
        )
    finally:
        if started_ray:
            ray.shutdown()


def _drive(
    *,
    ray: Any,
    run: Any,
    data: Any,
    dpath: Optional[Path],
    by_range: bool,
    out_dir: Optional[Path],
    resume: bool,
    rerun_failed: bool,
    force: bool,
    config: Dict[str, Any],
    fingerprint: Dict[str, Any],
    versions: Dict[str, Any],
    started: float,
    workers: int,
    per_worker: float,
    shard_size: int,
    max_retries: int,
    show_progress: Optional[bool],
    engine_info: Dict[str, Any],
    fail_on_evaluator_errors: bool,
    spec: RunSpec,
    worker_expire_s: float,
) -> EvaluationResult:
    from .._loop import run_sync

    plans = run.plans
    prior_offsets: Dict[int, int] = {}
    prior_status: Dict[int, Dict[str, str]] = {}
    rows_path = summary_path = None
    if out_dir is not None:
        rows_path, summary_path = out_dir / ROWS_FILE, out_dir / SUMMARY_FILE
        prior_offsets, prior_status = load_prior(
            out_dir, resume=resume, rerun_failed=rerun_failed, force=force, config=config, fingerprint=fingerprint
        )
    summary_base = summary_start(started, config, versions, fingerprint)
    summary_base["engine"] = engine_info
    fresh = not prior_status and not (resume or rerun_failed)

    stats = {alias: AliasStats(inv.result_key, run.num_runs) for alias, inv in run.invokers.items()}
    errors: List[Dict[str, Any]] = []
    counts = {"skipped": 0, "reused": 0, "errors": 0, "shards": 0, "retried_pids": 0}
    offsets = array("q")
    mem_rows: List[Optional[Dict[str, Any]]] = []
    progress = Progress(show_progress, None)
    writer: Optional[RowWriter] = None
    prior_f = None
    if out_dir is not None:
        assert rows_path is not None and summary_path is not None
        write_json_atomic(summary_path, summary_base)
        writer = RowWriter(rows_path, append=resume or rerun_failed)
        if prior_offsets:
            prior_f = open(rows_path, "rb")

    def ensure(line: int) -> None:
        grow = line + 1 - (len(offsets) if writer is not None else len(mem_rows))
        if grow > 0:
            if writer is not None:
                offsets.extend(array("q", [-1]) * grow)
            else:
                mem_rows.extend([None] * grow)

    validated = [False]

    def plan_line(line: int, item: Any, work: Dict[int, Any]) -> bool:
        """Decide what happens to ``line``; reused / skipped lines are handled here. True: a worker runs it."""
        ensure(line)
        todo = plans if fresh else work_for(line, plans, prior_status, resume=resume, rerun_failed=rerun_failed)
        if todo is None:
            counts["skipped"] += 1
            work[line] = SKIP
            return False
        if not todo:
            assert prior_f is not None
            reuse_record(run, stats, read_record(prior_f, prior_offsets[line]))
            offsets[line] = prior_offsets[line]
            counts["reused"] += 1
            progress.update(1, 0)
            work[line] = SKIP
            return False
        prior = read_record(prior_f, prior_offsets[line]) if prior_f is not None and line in prior_offsets else None
        tout = None
        if not validated[0] and item is not None and not isinstance(item, RowError):
            validated[0] = True
            tout = run_sync(validate_first(run, line, item, prior, todo))
        if prior is not None or tout is not None or todo is not plans:
            work[line] = ([p.alias for p in todo], prior, tout)
        return True

    def shard_stream() -> Iterator[Shard]:
        if by_range:
            assert dpath is not None
            first_rows = iter_input(dpath)  # only read up to the first row to evaluate, for validation
            for index, (start, end, ffl, first, n) in enumerate(jsonl_ranges(dpath, shard_size)):
                shard = Shard(index=index, first_line=first, count=n, path=str(dpath), start=start, end=end,
                              first_file_line=ffl)
                needed = 0
                for line in range(first, first + n):
                    item = next(first_rows, None) if not validated[0] else None
                    needed += plan_line(line, item, shard.work)
                if needed:
                    yield shard
        else:
            line = 0
            for index, rows in enumerate(chunks(iter_input(data), shard_size)):
                shard = Shard(index=index, first_line=line, count=len(rows))
                needed = 0
                for item in rows:
                    needed += plan_line(line, item, shard.work)
                    line += 1
                if needed:
                    shard.rows = rows
                    yield shard

    def take(result: ShardResult) -> None:
        counts["shards"] += 1
        n_err = result.error_count
        counts["errors"] += n_err
        for alias, part in result.stats.items():
            stats[alias].merge(part)
        room = MAX_ERRORS_KEPT - len(errors)
        if room > 0:
            errors.extend(result.errors[:room])
        if writer is not None:
            pos = writer.write_encoded(result.blob)
            for line, length in zip(result.lines, result.lengths):
                ensure(line)
                offsets[line] = pos
                pos += length
        else:
            assert result.records is not None
            for line, record in zip(result.lines, result.records):
                ensure(line)
                mem_rows[line] = record
        progress.update(len(result.lines), n_err)

    task_fn, budget_cls = _remotes(ray)
    budget = budget_cls.options(num_cpus=0, max_concurrency=1000).remote(spec.max_concurrency, expire_s=worker_expire_s)
    spec_box = [ray.put(spec)]
    task = task_fn.options(num_cpus=per_worker, max_retries=max_retries)
    in_flight: Dict[Any, Shard] = {}
    pids: set = set()
    budget_stats: Dict[str, Any] = {}
    try:
        def wait_one() -> None:
            done, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in done:
                in_flight.pop(ref)
                result = ray.get(ref)
                pids.add(result.pid)
                take(result)

        for shard in shard_stream():
            while len(in_flight) >= workers:
                wait_one()
            in_flight[task.remote(spec_box, budget, shard, writer is not None)] = shard
        while in_flight:
            wait_one()
        budget_stats = ray.get(budget.stats.remote())
    except BaseException:
        for ref in in_flight:
            try:
                ray.cancel(ref, force=True)
            except Exception:
                pass
        raise
    finally:
        progress.close()
        if writer is not None:
            writer.close()
        if prior_f is not None:
            prior_f.close()
        try:
            ray.kill(budget)
        except Exception:
            pass

    engine_info.update({"shards": counts["shards"], "worker_processes": len(pids), "budget": budget_stats})
    rows: Sequence[Dict[str, Any]]
    if writer is not None:
        assert rows_path is not None
        rows = RowsView(rows_path, array("q", (o for o in offsets if o >= 0)))
    else:
        rows = [r for r in mem_rows if r is not None]
    return finish_run(
        run=run, stats=stats, rows=rows, summary_base=summary_base, summary_path=summary_path, out_dir=out_dir,
        started=started, reused=counts["reused"], skipped=counts["skipped"], error_count=counts["errors"],
        errors=errors, fail_on_evaluator_errors=fail_on_evaluator_errors, extra={"engine": engine_info},
    )
