"""The Ray engine's driver: the local engine's contract, on a Ray cluster.

The driver (this process) cuts the input into shards (:mod:`.shards`), keeps
``num_workers`` shard tasks running, and hands each finished shard's rows to the same
:class:`~agent_evaluators.runner.ledger.RunLedger` a local run uses (which appends them
to ``rows.jsonl`` and folds the shard's tally into the run's). Workers run the local
engine's row code (:mod:`.worker`); every judge request anywhere in the cluster holds a
permit of one :class:`~.budget.JudgeBudget` actor, so ``max_concurrency`` is the
cluster's budget, not a per-worker one. The same actor keeps a run's ``max_judge_calls`` /
``max_cost`` for the whole cluster (:mod:`.caps`); the driver gives it the folder's earlier
spending (a resume) and copies its accounts back after every shard, so ``summary.json``'s
``"budget"``, the ``stopped`` status and the ``not_run`` cells are the local engine's.

Same files and result as a local run: ``rows.jsonl`` (one record per row, global
``line_number``, completion order, latest record wins), ``summary.json`` (same config and
fingerprint, so a run can be resumed by either engine) and an ``EvaluationResult``
whose rows are read lazily from disk.

Faults: a shard whose worker dies is retried by Ray (``max_retries``); its rows reach
the driver only when the shard finishes, so each row is written once. If the driver
dies, ``rows.jsonl`` holds every finished shard and ``resume=True`` (with either engine)
evaluates only what is missing.
"""

import contextlib
import logging
import os
from pathlib import Path
from typing import Any, Awaitable, Dict, Iterator, Optional, Set, Tuple, TypeVar

from .._util.install_hint import install_hint
from .._util.loop import run_sync
from ..errors import ConfigError
from ..judge.caps import BudgetBook
from ..run_context import scoped
from ..runner.describe import describe_run
from ..runner.judge_caps import run_budget
from ..runner.ledger import RunLedger
from ..runner.options import RayOptions, RunOptions
from ..runner.readers import RowError, data_path, iter_input
from ..runner.result import EvaluationResult
from ..runner.row_evaluator import RowEvaluator
from ..runner.row_source import RowSource
from ..wording import Option, Text
from .cluster_caps import DRIVER, ClusterCaps
from .permit_actor import JudgeBudget
from .shards import SKIP, Shard, auto_shard_size, estimate_rows, jsonl_ranges
from .worker import ShardResult, run_shard

logger = logging.getLogger("agent_evaluators.ray_engine")

T = TypeVar("T")


# ---------------------------------------------------------------------------- Ray session


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ConfigError(Text(
            "{engine} needs Ray: {hint} (or pip install ray); importing it failed: {exc}",
            engine=Option("engine", "ray"), hint=install_hint("ray"), exc=exc)) from None
    return ray


def connect(address: Optional[str] = None) -> bool:
    """Make sure this process is connected to a Ray cluster; ``True`` if this call started it.

    Already connected (the user called ``ray.init``): use that. Else connect to
    ``address``, or start a local Ray with no dashboard, listening on 127.0.0.1 only. Usage statistics are off
    unless the user explicitly turned them on (``RAY_USAGE_STATS_ENABLED``).
    """
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray = _import_ray()
    if ray.is_initialized():
        return False
    if address is None:
        # a Ray started just for this run serves this machine only: keep it on the loopback interface
        with _without_token_auth_notice():
            ray.init(include_dashboard=False, logging_level=logging.WARNING, log_to_driver=True,
                     _node_ip_address="127.0.0.1")
    else:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=True)
    return True


#: the Ray logger that announces, at WARNING, that a new local cluster uses token authentication
_TOKEN_NOTICE_LOGGER = "ray._private.authentication.authentication_token_setup"


@contextlib.contextmanager
def _without_token_auth_notice() -> Iterator[None]:
    """Leave out Ray's "Token authentication is enabled for this Ray cluster" warning while a run
    starts its own local Ray: that Ray is the run's private, loopback-only helper, stopped when
    the run ends, so the line only leaked into every ``--engine ray`` run's output. Ray's default
    (a token) is kept; every other Ray message still shows."""
    log = logging.getLogger(_TOKEN_NOTICE_LOGGER)

    def keep(record: logging.LogRecord) -> bool:
        return "Token authentication is enabled" not in record.getMessage()

    log.addFilter(keep)
    try:
        yield
    finally:
        log.removeFilter(keep)


_remote_cache: Dict[str, Any] = {}


def _remotes(ray: Any) -> Tuple[Any, Any]:
    if "task" not in _remote_cache:
        _remote_cache["task"] = ray.remote(run_shard)
        _remote_cache["budget"] = ray.remote(JudgeBudget)
    return _remote_cache["task"], _remote_cache["budget"]


def _row_estimate(source: RowSource, dpath: Optional[Path]) -> Optional[int]:
    """How many rows the run reads, when that is cheap to know (for the automatic shard size)."""
    if dpath is not None:
        return source.cut(estimate_rows(dpath)) if dpath.name.lower().endswith(".jsonl") else None
    return source.known_total()


def _single_node(ray: Any) -> bool:
    try:
        return sum(1 for n in ray.nodes() if n.get("Alive")) <= 1
    except Exception:
        return False


# ---------------------------------------------------------------------------- the run


def run_ray(options: RunOptions, ray_options: RayOptions) -> EvaluationResult:
    """Evaluate ``options`` on a Ray cluster (see :func:`~agent_evaluators.ray_engine.evaluate_ray`)."""
    rows = RowEvaluator.prepare(options.rows)
    capped = run_budget(options, rows)  # before the ledger: a refused cap leaves the folder as it was
    dpath = data_path(options.data)
    if dpath is not None and not dpath.is_file() and not dpath.is_dir():  # a folder: trace files
        raise ConfigError(f"data file not found: {dpath}")
    description = describe_run(options, rows)
    ray = _import_ray()
    started_ray = connect(ray_options.ray_address)
    try:
        cpus = float(ray.cluster_resources().get("CPU", 1.0))
        workers = ray_options.num_workers or max(1, int(cpus))
        per_worker = ray_options.num_cpus_per_worker
        per_worker = max(0.01, round(per_worker if per_worker is not None else min(1.0, cpus / workers), 2))
        on_workers = ray_options.data_on_workers
        by_range = (dpath is not None and dpath.name.lower().endswith(".jsonl") and not options.row_source().traces
                    and (on_workers if on_workers is not None else _single_node(ray)))
        shard_size = ray_options.shard_size or auto_shard_size(_row_estimate(options.row_source(), dpath), workers)
        engine: Dict[str, Any] = {
            "name": "ray", "ray_version": ray.__version__, "workers": workers, "num_cpus_per_worker": per_worker,
            "shard_size": shard_size,
            "input": "byte ranges read by workers" if by_range else "row chunks sent by the driver",
        }
        ledger = RunLedger(options, rows, description, engine=engine)
        if capped is not None:  # the book travels to the actor: the rule without the local lock
            ledger.adopt_budget(BudgetBook(capped.max_judge_calls, capped.max_cost))
        try:
            with ledger:
                planner = ShardPlanner(options, rows, ledger, dpath.resolve() if by_range and dpath else None,
                                       shard_size)
                stats = _run_shards(ray, options, ray_options, ledger, planner, workers, per_worker)
        except KeyboardInterrupt:
            if ledger.interruption is not None:
                raise ledger.interruption from None  # what was done is saved; summary says "interrupted"
            raise
        engine.update(stats)
        return ledger.finish(extra={"engine": engine})
    finally:
        if started_ray:
            ray.shutdown()


def _run_shards(ray: Any, options: RunOptions, ray_options: RayOptions, ledger: RunLedger, planner: "ShardPlanner",
                workers: int, per_worker: float) -> Dict[str, Any]:
    """Keep ``workers`` shard tasks in flight until every shard is done; returns engine statistics."""
    task_fn, budget_cls = _remotes(ray)
    budget = budget_cls.options(num_cpus=0, max_concurrency=1000).remote(
        options.settings.max_concurrency, expire_s=ray_options.worker_expire_s, caps=ledger.budget)
    capped = ledger.budget is not None
    if capped:  # a target the driver runs on the first row (to check the mappings) asks the same caps
        planner.caps = ClusterCaps(budget, lambda: DRIVER)
    spec_box = [ray.put(options.rows)]
    task = task_fn.options(num_cpus=per_worker, max_retries=ray_options.max_retries)
    in_flight: Dict[Any, Shard] = {}
    pids: Set[int] = set()
    shards = 0

    def wait_one() -> None:
        nonlocal shards
        done, _ = ray.wait(list(in_flight), num_returns=1)
        for ref in done:
            in_flight.pop(ref)
            result: ShardResult = ray.get(ref)
            pids.add(result.pid)
            shards += 1
            ledger.add_batch(result.lines, result.tally, blob=result.blob, lengths=result.lengths,
                             records=result.records)
            if capped:
                _copy_caps(ray, budget, ledger, planner)

    try:
        for shard in planner.shards():
            while len(in_flight) >= workers:
                wait_one()
            in_flight[task.remote(spec_box, budget, shard, ledger.encodes_rows, capped)] = shard
        while in_flight:
            wait_one()
        if capped:
            _copy_caps(ray, budget, ledger, planner, end=True)
        budget_stats = ray.get(budget.stats.remote())
    except BaseException:
        for ref in in_flight:
            try:
                ray.cancel(ref, force=True)
            except Exception:
                pass
        raise
    finally:
        try:
            ray.kill(budget)
        except Exception:
            pass
    return {"shards": shards, "worker_processes": len(pids), "budget": budget_stats}


def _copy_caps(ray: Any, budget: Any, ledger: RunLedger, planner: "ShardPlanner", end: bool = False) -> None:
    """The cluster's caps accounts, as they are now, become the ledger's (``summary.json``'s ``"budget"``).
    ``end``: every shard is done, so a call still open was a dead worker's (:meth:`.budget.JudgeBudget.end_calls`)."""
    if planner.caps is not None:
        planner.caps.flush_sync()
    if end:
        ray.get(budget.end_calls.remote())
    ledger.budget = ray.get(budget.caps_book.remote())


class ShardPlanner:
    """Cuts the input into shards and decides, line by line, what the workers still have to do.

    Lines an earlier run finished are reused (or skipped) right here through the ledger;
    a shard goes to a worker only if some line of it needs work. The first line to
    evaluate is checked against the column mappings here, before any shard is sent.
    """

    def __init__(self, options: RunOptions, rows: RowEvaluator, ledger: RunLedger, jsonl_path: Optional[Path],
                 shard_size: int) -> None:
        self.options = options
        self.rows = rows
        self.ledger = ledger
        self.jsonl_path = jsonl_path
        self.shard_size = shard_size
        self.source = options.row_source()
        self.validated = False
        #: the run's caps, when it has any: a target run here asks them too
        self.caps: Optional[ClusterCaps] = None

    def _plan_line(self, line: int, item: Any, shard: Shard) -> bool:
        """Decide what happens to ``line``; reused / skipped lines are handled here. True: a worker runs it."""
        ledger = self.ledger
        todo = ledger.work_for(line, item)
        if todo is None:
            ledger.skip(line)
            shard.work[line] = SKIP
            return False
        if not todo:
            ledger.reuse(line)
            shard.work[line] = SKIP
            return False
        prior = ledger.prior(line)
        tout = None
        if not self.validated and item is not None and not isinstance(item, RowError):
            self.validated = True
            tout = run_sync(_under(self.caps, self.rows.validate_first(line, item, prior, todo)))
        if prior is not None or tout is not None or todo is not self.rows.plans:
            shard.work[line] = ([p.alias for p in todo], prior, tout)
        return True

    def shards(self) -> Iterator[Shard]:
        return self._by_range() if self.jsonl_path is not None else self._by_chunk()

    def _by_range(self) -> Iterator[Shard]:
        """Workers read their own byte range of the JSONL file; the driver reads only up to the first row."""
        path = self.jsonl_path
        assert path is not None
        first_rows = iter_input(path)
        for index, (start, end, ffl, first, n) in enumerate(jsonl_ranges(path, self.shard_size, self.source.limit)):
            shard = Shard(index=index, first_line=first, count=n, path=str(path), start=start, end=end,
                          first_file_line=ffl)
            needed = 0
            for line in range(first, first + n):
                item = next(first_rows, None) if not self.validated else None
                needed += self._plan_line(line, item, shard)
            if needed:
                yield shard

    def _by_chunk(self) -> Iterator[Shard]:
        """The driver reads the rows and sends each shard's rows with it."""
        for index, (first, rows) in enumerate(self.source.chunks(self.shard_size)):
            shard = Shard(index=index, first_line=first, count=len(rows))
            needed = 0
            for line, item in enumerate(rows, first):
                needed += self._plan_line(line, item, shard)
            if needed:
                shard.rows = rows
                yield shard


async def _under(caps: Optional[ClusterCaps], work: Awaitable[T]) -> T:
    """``work`` with the run's caps installed (on the background loop, where it runs)."""
    with scoped(budget=caps):
        return await work
