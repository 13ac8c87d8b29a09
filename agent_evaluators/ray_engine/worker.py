"""What a Ray worker does with one shard: the local engine's row machinery on its rows.

Every row goes through the same :class:`~agent_evaluators.runner.row_evaluator.RowEvaluator` and
:class:`~agent_evaluators.runner.window.RowWindow` as in a local run (column mapping,
target, cells, error cells, ``num_runs``, timeouts), on the package's background event
loop, with the cluster-wide judge budget installed as the run's limiter, the run's
``prices`` as the local engine installs them, and, in a run with ``max_judge_calls`` /
``max_cost``, a view of the cluster's one set of caps (:class:`~.caps.ClusterCaps`). Results come
back to the driver as one :class:`ShardResult`: the rows already encoded as
``rows.jsonl`` lines plus the shard's :class:`~agent_evaluators.runner.tally.RowTally`,
so the driver only appends bytes and adds a few numbers per shard.

The :class:`~agent_evaluators.runner.options.RowSpec` (evaluators, mapping, target) is
shipped once per run (one object in Ray's object store) and prepared once per worker
process; later shards on the same process reuse it, and with it the judge client's
connection pool.
"""

import os
import time
from array import array
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ..run_context import scoped
from ..runner.mapping import ArgPlan
from ..runner.options import RowSpec
from ..runner.readers import RowError
from ..runner.row_evaluator import Cells, Record, RowEvaluator
from ..runner.safe_record import encode_row
from ..runner.tally import RowTally
from ..runner.window import RowWindow
from .cluster_caps import ClusterCaps
from .permit_actor import ClusterLimiter
from .shards import SKIP, Shard, shard_rows


@dataclass
class ShardResult:
    """One finished shard: its rows (encoded, or as records for a run without a folder) and its tally."""

    index: int
    tally: RowTally
    lines: "array[int]" = field(default_factory=lambda: array("q"))
    lengths: "array[int]" = field(default_factory=lambda: array("q"))
    blob: bytes = b""
    records: Optional[List[Record]] = None
    pid: int = 0
    seconds: float = 0.0
    limiter: Dict[str, int] = field(default_factory=dict)


_prepared: Dict[str, RowEvaluator] = {}  # per worker process: spec object id -> prepared rows


def _rows_for(spec_box: List[Any]) -> RowEvaluator:
    import ray

    key = spec_box[0].hex()
    rows = _prepared.get(key)
    if rows is None:
        spec: RowSpec = ray.get(spec_box[0])
        rows = RowEvaluator.prepare(spec)
        _prepared.clear()  # one run at a time per process is the common case; do not keep old ones alive
        _prepared[key] = rows
    return rows


def run_shard(spec_box: List[Any], budget: Any, shard: Shard, to_disk: bool, capped: bool = False) -> ShardResult:
    """The Ray task body (the engine wraps it with ``ray.remote``); ``capped``: the run has judge caps,
    kept by the ``budget`` actor."""
    from .._util.gc_pause import relaxed_gc
    from .._util.loop import run_sync

    with relaxed_gc():
        return run_sync(_run_shard(_rows_for(spec_box), budget, shard, to_disk, capped))


async def _run_shard(rows: RowEvaluator, budget: Any, shard: Shard, to_disk: bool, capped: bool) -> ShardResult:
    t0 = time.perf_counter()
    rows.hash_rows = to_disk
    out = ShardResult(index=shard.index, pid=os.getpid(),
                      tally=RowTally({a: inv.result_key for a, inv in rows.invokers.items()}, rows.num_runs))
    parts: List[bytes] = []
    if not to_disk:
        out.records = []
    by_alias = {p.alias: p for p in rows.plans}

    def emit(line: int, record: Record, cells: Cells) -> None:
        out.lines.append(line)
        if to_disk:
            data, record, cells = encode_row(rows, line, record, cells)
            parts.append(data)
            out.lengths.append(len(data))
        else:
            assert out.records is not None
            out.records.append(record)
        out.tally.add(line, cells, row_error="row_error" in record)

    limiter = await ClusterLimiter(budget).start()
    caps = rows.budget = ClusterCaps(budget, lambda: limiter.id) if capped else None
    window = RowWindow(rows, rows.spec.max_concurrency, emit)
    try:
        with scoped(limiter=limiter, prices=dict(rows.spec.prices or {}), budget=caps,  # the shard's run context
                    secrets=rows.secrets, prompt_budget=rows.spec.prompt_budget,
                    terminal_tools=rows.spec.terminal_tools):
            for line, item in shard_rows(shard):
                await window.breathe()
                work: Any = shard.work.get(line)
                if work == SKIP:
                    continue
                if isinstance(item, RowError):
                    emit(line, *rows.error_row(line, item))
                    continue
                todo, prior, tout = (rows.plans, None, None) if work is None else _unpack(work, by_alias)
                await window.submit(line, item, todo, prior, tout)
            await window.finish()
    except BaseException:
        await window.cancel()
        raise
    finally:
        try:
            if caps is not None:
                await caps.flush()  # the driver's record of the caps counts this shard's calls
        finally:
            await limiter.close()
    out.blob = b"".join(parts)
    out.seconds = time.perf_counter() - t0
    out.limiter = {"leased": limiter.leased, "local_handoffs": limiter.local_handoffs}
    return out


def _unpack(work: Tuple[List[str], Any, Any], by_alias: Dict[str, ArgPlan]) -> Tuple[List[ArgPlan], Any, Any]:
    aliases, prior, tout = work
    return [by_alias[a] for a in aliases], prior, tout
