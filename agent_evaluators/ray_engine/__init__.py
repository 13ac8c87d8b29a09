"""The Ray engine: ``evaluate(..., engine="ray")`` or :func:`evaluate_ray` for every option.

Needs the optional extra: ``pip install 'agent-evaluators[ray]'``. Ray itself is only
imported when a run starts, so importing this package is cheap and works without Ray.

* :mod:`.driver`: the driver (shards, the run ledger, resume);
* :mod:`.worker`: what a worker does with a shard (the local engine's row code);
* :mod:`.budget`: one judge budget across the cluster, with shared 429 back-off;
* :mod:`.shards`: reading the input in shards.
"""

from typing import Any, Optional

from ..runner.options import DEFAULT_SHARD_SIZE, DEFAULT_WORKER_EXPIRE_S, RayOptions, RunOptions
from ..runner.publishing import run_and_publish
from ..runner.result import EvaluationResult
from .driver import connect, run_ray
from .permit_actor import ClusterLimiter, JudgeBudget

__all__ = ["evaluate_ray", "run_ray", "connect", "JudgeBudget", "ClusterLimiter", "DEFAULT_SHARD_SIZE"]


def evaluate_ray(
    *,
    ray_address: Optional[str] = None,
    num_workers: Optional[int] = None,
    shard_size: Optional[int] = None,
    num_cpus_per_worker: Optional[float] = None,
    data_on_workers: Optional[bool] = None,
    max_retries: int = 3,
    worker_expire_s: float = DEFAULT_WORKER_EXPIRE_S,
    **run_arguments: Any,
) -> EvaluationResult:
    """:func:`agent_evaluators.evaluate` on a Ray cluster, with every Ray option.

    ``run_arguments`` are :func:`~agent_evaluators.evaluate`'s own keywords (``data``,
    ``evaluators``, ``output_path``, ``max_concurrency`` ...); an unknown one raises
    ``ConfigError`` naming it and listing the run options. ``max_concurrency`` is the judge budget of the **whole cluster**.

    Args:
        ray_address: cluster to connect to (``"auto"``, ``"ray://head:10001"``, ``"10.0.0.5:6379"``).
            ``None``: the cluster this process is already connected to, else a local Ray
            started for this run (no dashboard, usage stats off) and shut down after it.
        num_workers: shards evaluated at once (default: the cluster's CPU count).
        shard_size: rows per shard. Default: about four shards per worker (so no worker idles
            while the last shards run), between 20 and 1,000 rows. Smaller: finer progress and
            less work lost to a crash; larger: less per-shard overhead.
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
    ray_options = RayOptions(
        ray_address=ray_address, num_workers=num_workers, shard_size=shard_size,
        num_cpus_per_worker=num_cpus_per_worker, data_on_workers=data_on_workers, max_retries=max_retries,
        worker_expire_s=worker_expire_s,
    )
    options = RunOptions.from_keywords(**run_arguments)
    return run_and_publish(options, lambda: run_ray(options, ray_options))
