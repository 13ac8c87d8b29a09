"""Run ``evaluate()`` on a Ray cluster: ``evaluate(..., engine="ray")`` or :func:`evaluate_ray`.

Needs the optional extra: ``pip install 'agent-evaluators[ray]'``. Ray itself is only
imported when a run starts, so importing this package is cheap and works without Ray.

* :mod:`.engine`: the driver (shards, ``rows.jsonl``, metrics, resume);
* :mod:`.worker`: what a worker does with a shard (the local engine's row code);
* :mod:`.budget`: one judge budget across the cluster, with shared 429 back-off;
* :mod:`.shards`: reading the input in shards.
"""

from .budget import ClusterLimiter, JudgeBudget
from .engine import DEFAULT_SHARD_SIZE, connect, evaluate_ray

__all__ = ["evaluate_ray", "connect", "JudgeBudget", "ClusterLimiter", "DEFAULT_SHARD_SIZE"]
