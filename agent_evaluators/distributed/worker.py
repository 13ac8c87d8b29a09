"""What a Ray worker does with one shard: the local engine's row machinery on its rows.

Every row goes through the same :class:`agent_evaluators.evaluate.runner._Run` as in a
local run (column mapping, target, cells, error cells, ``num_runs``, timeouts), on the
package's background event loop, with the cluster-wide judge budget installed as the
run's limiter. Results come back to the driver as one :class:`ShardResult`: the rows
already encoded as ``rows.jsonl`` lines plus the shard's metric totals, so the driver
only appends bytes and adds a few numbers per shard.

The evaluators are shipped once per run (one object in Ray's object store) and
deserialized once per worker process; later shards on the same process reuse them,
and with them the judge client's connection pool.
"""

import logging
import os
import time
from array import array
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .._concurrency import use_judge_limiter
from ..evaluate.aggregate import AliasStats
from ..evaluate.readers import RowError
from ..evaluate.runner import MAX_ERRORS_KEPT, RowWindow, _Run, prepare_run
from ..evaluate.store import encode_record
from .budget import ClusterLimiter
from .shards import SKIP, Shard, shard_rows

__all__ = ["RunSpec", "ShardResult", "run_shard"]

logger = logging.getLogger("agent_evaluators.distributed")


@dataclass
class RunSpec:
    """Everything a worker needs to evaluate rows; put in the object store once per run."""

    evaluators: Dict[str, Any]
    evaluator_config: Optional[Dict[str, Any]]
    target: Any
    max_concurrency: int
    num_runs: int
    timeout: Optional[float]


@dataclass
class ShardResult:
    index: int
    lines: "array[int]" = field(default_factory=lambda: array("q"))
    lengths: "array[int]" = field(default_factory=lambda: array("q"))
    blob: bytes = b""
    records: Optional[List[Dict[str, Any]]] = None
    stats: Dict[str, AliasStats] = field(default_factory=dict)
    errors: List[Dict[str, Any]] = field(default_factory=list)
    error_count: int = 0
    pid: int = 0
    seconds: float = 0.0
    limiter: Dict[str, int] = field(default_factory=dict)


_runs: Dict[str, _Run] = {}  # per worker process: run spec object id -> prepared run


def _prepared(spec_box: List[Any]) -> _Run:
    import ray

    key = spec_box[0].hex()
    run = _runs.get(key)
    if run is None:
        spec: RunSpec = ray.get(spec_box[0])
        run, _ = prepare_run(
            evaluators=spec.evaluators, evaluator_config=spec.evaluator_config, target=spec.target,
            max_concurrency=spec.max_concurrency, num_runs=spec.num_runs, timeout=spec.timeout,
        )
        run.max_concurrency = spec.max_concurrency  # type: ignore[attr-defined]
        _runs.clear()  # one run at a time per process is the common case; do not keep old ones alive
        _runs[key] = run
    return run


def run_shard(spec_box: List[Any], budget: Any, shard: Shard, to_disk: bool) -> ShardResult:
    """The Ray task body (the engine wraps it with ``ray.remote``)."""
    from .._loop import run_sync

    run = _prepared(spec_box)
    return run_sync(_run_shard(run, budget, shard, to_disk))


async def _run_shard(run: _Run, budget: Any, shard: Shard, to_disk: bool) -> ShardResult:
    t0 = time.perf_counter()
    out = ShardResult(index=shard.index, pid=os.getpid())
    out.stats = {alias: AliasStats(inv.result_key, run.num_runs) for alias, inv in run.invokers.items()}
    parts: List[bytes] = []
    if not to_disk:
        out.records = []
    by_alias = {p.alias: p for p in run.plans}

    def emit(line: int, record: Dict[str, Any], cells: Dict[str, Any]) -> None:
        out.lines.append(line)
        if to_disk:
            data = encode_record(record)
            parts.append(data)
            out.lengths.append(len(data))
        else:
            assert out.records is not None
            out.records.append(record)
        for alias, cell in cells.items():
            out.stats[alias].add(cell.out, cell.ok)
            if not cell.ok:
                out.error_count += 1
                if len(out.errors) < MAX_ERRORS_KEPT:
                    out.errors.append({"line_number": line, "alias": alias, "message": cell.message})

    limiter = await ClusterLimiter(budget).start()
    window = RowWindow(run, 2 * getattr(run, "max_concurrency", 10), emit)

    try:
        with use_judge_limiter(limiter):
            for line, item in shard_rows(shard):
                spec: Any = shard.work.get(line)
                if spec == SKIP:
                    continue
                if isinstance(item, RowError):
                    emit(line, *run.error_row(line, item))
                    continue
                todo, prior, tout = (run.plans, None, None) if spec is None else _unpack(spec, by_alias)
                await window.submit(line, item, todo, prior, tout)
            await window.finish()
    except BaseException:
        await window.cancel()
        raise
    finally:
        await limiter.close()
    out.blob = b"".join(parts)
    out.seconds = time.perf_counter() - t0
    out.limiter = {"leased": limiter.leased, "local_handoffs": limiter.local_handoffs}
    return out


def _unpack(spec: Tuple[List[str], Any, Any], by_alias: Dict[str, Any]) -> Tuple[List[Any], Any, Any]:
    aliases, prior, tout = spec
    return [by_alias[a] for a in aliases], prior, tout
